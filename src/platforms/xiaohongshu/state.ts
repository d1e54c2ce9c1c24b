/*
 * The web pages (note, profile, explore) carry their server state as `window.__INITIAL_STATE__={…}` in a
 * script: a JavaScript object literal, JSON except that missing values are written as the bare word
 * `undefined`. It is read here without evaluating anything: the object's extent is found by scanning
 * (strings skipped), bare `undefined` outside strings becomes null, and JSON.parse does the rest.
 */

export type Json = Record<string, unknown>;

const MARKER = 'window.__INITIAL_STATE__';

/** The text of the object literal after the marker, or undefined when the page has none or it never closes. */
export function stateLiteral(html: string): string | undefined {
  const at = html.indexOf(MARKER);
  if (at < 0) return undefined;
  const start = html.indexOf('{', at + MARKER.length);
  if (start < 0 || !/^\s*=\s*$/.test(html.slice(at + MARKER.length, start))) return undefined;
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < html.length; i++) {
    const ch = html[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return html.slice(start, i + 1);
    }
  }
  return undefined;
}

const BARE_WORDS: Record<string, string> = { undefined: 'null', NaN: 'null', Infinity: 'null' };

/** The literal as JSON: bare undefined/NaN/Infinity outside strings become null; strings are left alone. */
export function literalToJson(literal: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < literal.length; i++) {
    const ch = literal[i]!;
    if (quote) {
      out += ch;
      if (ch === '\\' && i + 1 < literal.length) out += literal[++i];
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"') {
      quote = ch;
      out += ch;
      continue;
    }
    if (/[A-Za-z_$]/.test(ch)) {
      let j = i;
      while (j < literal.length && /[\w$]/.test(literal[j]!)) j++;
      const word = literal.slice(i, j);
      out += BARE_WORDS[word] ?? word;
      i = j - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

/** camelCase keys → snake_case, so the page state reads like the API's answers. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) out[k.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase()] = snakeKeys(v);
  return out;
}

/** The page's state with snake_case keys, or undefined when there is none or it does not parse. */
export function initialState(html: string): Json | undefined {
  const literal = stateLiteral(html);
  if (!literal) return undefined;
  try {
    const parsed = JSON.parse(literalToJson(literal)) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (snakeKeys(parsed) as Json) : undefined;
  } catch {
    return undefined;
  }
}
