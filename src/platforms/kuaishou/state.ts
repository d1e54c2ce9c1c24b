/*
 * Kuaishou pages carry their data as a JS object literal assigned in a script:
 * `window.__APOLLO_STATE__={…};(function(){…}())` on www.kuaishou.com, `window.INIT_STATE = {…}` on
 * the chenzhongtech mobile pages. The literal is JSON except for the odd bare `undefined`; it is cut out
 * by a string-aware brace scan and parsed, never evaluated.
 */

export type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/** The object assigned to `window.<name>` in the page, or undefined when the page has none that parses. */
export function scriptState(html: string, name: string): Json | undefined {
  const marker = new RegExp(`window\\.${name.replace(/[$]/g, '\\$')}\\s*=\\s*`, 'g');
  for (let m = marker.exec(html); m; m = marker.exec(html)) {
    const start = m.index + m[0].length;
    if (html[start] !== '{') continue;
    const literal = objectLiteral(html, start);
    if (literal === undefined) continue;
    try {
      const parsed = obj(JSON.parse(literal));
      if (parsed) return parsed;
    } catch {
      /* not JSON after all: try the next assignment */
    }
  }
  return undefined;
}

/**
 * The balanced `{…}` starting at `start`, with bare `undefined` values outside strings written as null;
 * undefined when the braces never close.
 */
export function objectLiteral(text: string, start: number): string | undefined {
  const closers: string[] = [];
  let out = '';
  let from = start;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      // Skip the whole string, honouring escapes.
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (ch === '{') closers.push('}');
    else if (ch === '[') closers.push(']');
    else if (ch === '}' || ch === ']') {
      if (closers.pop() !== ch) return undefined;
      if (closers.length === 0) return out + text.slice(from, i + 1);
    } else if (ch === 'u' && text.startsWith('undefined', i) && !/[\w$]/.test(text[i - 1] ?? '') && !/[\w$]/.test(text[i + 9] ?? '')) {
      out += `${text.slice(from, i)}null`;
      i += 8;
      from = i + 1;
    }
  }
  return undefined;
}

/** Apollo's normalized cache: a reference ({type:'id', id}, {__ref}) to the object it names. */
export function deref(client: Json, v: unknown): Json | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const isRef = o.type === 'id' || 'generated' in o || 'typename' in o;
  const id = typeof o.__ref === 'string' ? o.__ref : isRef && typeof o.id === 'string' ? o.id : undefined;
  if (id === undefined) return o;
  return obj(client[id]);
}

/** Apollo wraps JSON scalars as {type:'json', json}; a JSON scalar may also arrive as a string. */
export function unwrapJson(v: unknown): unknown {
  const o = obj(v);
  if (o && o.type === 'json' && 'json' in o) return o.json;
  if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }
  return v;
}

/** The Apollo cache of a www.kuaishou.com page (its defaultClient). */
export function apolloClient(html: string): Json | undefined {
  const state = scriptState(html, '__APOLLO_STATE__');
  return state ? (obj(state.defaultClient) ?? undefined) : undefined;
}

/** Every root query entry whose key starts with `field(` (`$ROOT_QUERY.field(…)`, or inside ROOT_QUERY). */
export function rootQuery(client: Json, field: string): Json[] {
  const out: Json[] = [];
  const prefix = `$ROOT_QUERY.${field}(`;
  for (const [k, v] of Object.entries(client)) {
    const entry = obj(v);
    if (entry && (k.startsWith(prefix) || k === `$ROOT_QUERY.${field}`)) out.push(entry);
  }
  const root = obj(client.ROOT_QUERY);
  if (root) {
    for (const [k, v] of Object.entries(root)) {
      if (k === field || k.startsWith(`${field}(`)) {
        const entry = deref(client, v);
        if (entry) out.push(entry);
      }
    }
  }
  return out;
}
