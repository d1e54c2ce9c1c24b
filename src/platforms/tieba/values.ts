/** Small readers for tieba's loosely typed values (numbers as strings, "1.2万", ids as numbers). */
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const objs = (v: unknown): Json[] => (Array.isArray(v) ? v : []).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v.trim() : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** A decimal id; a JSON number past 2^53 lost digits and is no id. */
export function idOf(...vs: unknown[]): string | undefined {
  for (const v of vs) {
    const s = str(v);
    if (s && /^\d{1,20}$/.test(s) && !/^0+$/.test(s)) return s;
  }
  return undefined;
}

/** A count as tieba writes it: 123, "123", "1,234", "1.2万", "3亿"; undefined when it is none. */
export function count(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(万|w|亿)?\s*$/i.exec(v.replace(/,/g, ''));
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] === '亿' ? 1e8 : m[2] ? 1e4 : 1);
  return Number.isFinite(n) ? Math.round(n) : undefined;
}

/** An http(s) URL (protocol-relative and http upgraded to https: tieba's CDNs serve both). */
export function httpsUrl(v: unknown): string | undefined {
  const s = typeof v === 'string' ? v.trim().replace(/&amp;/g, '&') : '';
  if (!s) return undefined;
  if (s.startsWith('//')) return `https:${s}`;
  if (/^http:\/\//i.test(s)) return `https://${s.slice(7)}`;
  return /^https:\/\//i.test(s) ? s : undefined;
}
