/*
 * Toutiao answers carry 19-digit ids (group_id, item_id, cluster ids, comment ids) as bare JSON numbers,
 * which JSON.parse rounds (6917172096716099083 → 6917172096716099000). This parser keeps every integer
 * too large for a double as its exact digit string.
 */

export type Json = Record<string, unknown>;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** JSON.parse, except that integers beyond Number.MAX_SAFE_INTEGER come back as strings of their digits. */
export function parseJson(text: string): unknown {
  let out = '';
  let copied = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      continue;
    }
    if (!isDigit(c) && c !== 45) continue;
    // One whole number token: sign, integer part, fraction, exponent.
    const start = i;
    let j = c === 45 ? i + 1 : i;
    while (j < text.length && isDigit(text.charCodeAt(j))) j++;
    let integer = true;
    if (text[j] === '.') {
      integer = false;
      j++;
      while (j < text.length && isDigit(text.charCodeAt(j))) j++;
    }
    if (text[j] === 'e' || text[j] === 'E') {
      integer = false;
      j++;
      if (text[j] === '+' || text[j] === '-') j++;
      while (j < text.length && isDigit(text.charCodeAt(j))) j++;
    }
    const token = text.slice(start, j);
    if (integer && /^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token))) {
      out += `${text.slice(copied, start)}"${token}"`;
      copied = j;
    }
    i = j - 1;
  }
  return JSON.parse(copied ? out + text.slice(copied) : text);
}

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const objs = (v: unknown): Json[] => arr(v).map(obj).filter((o): o is Json => !!o);

/** A non-empty trimmed string, or undefined. */
export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() || undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** An id-like value (digits kept exact by parseJson, or a safe number) as a digit string. */
export function idStr(v: unknown): string | undefined {
  if (typeof v === 'string' && /^\d{1,25}$/.test(v.trim())) return v.trim();
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return String(v);
  return undefined;
}

/** A finite non-negative count from a number or a numeric string ("12", "1.2万", "3亿"); undefined otherwise. */
export function count(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(万|w|W|亿)?\s*$/.exec(v.replace(/,/g, ''));
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] === '亿' ? 1e8 : m[2] ? 1e4 : 1);
  return Number.isFinite(n) ? Math.round(n) : undefined;
}

/** Unix seconds from seconds or milliseconds (numbers or digit strings); undefined when it is no time. */
export function unixSeconds(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d{9,13}$/.test(v.trim()) ? Number(v) : typeof v === 'number' ? v : NaN;
  if (!Number.isFinite(n) || n <= 0) return undefined;
  const s = n >= 1e12 ? Math.floor(n / 1000) : Math.floor(n);
  // 1973 … 2286: anything outside is no timestamp (garbage such as 1e300 included).
  return s > 1e8 && s < 1e10 ? s : undefined;
}
