/**
 * Turns a stored login's cookies into one Cookie header value. Accepts a Cookie header string
 * ("a=1; b=2", optionally prefixed "Cookie:"), a Netscape cookies.txt, or a JSON array of
 * {name, value} (browser exports).
 */
export function parseCookies(input: unknown): string {
  if (Array.isArray(input)) return fromPairs(input);
  if (typeof input !== 'string') throw new Error('cookies: expected a Cookie header string, a cookies.txt, or a JSON array of {name, value}');
  const text = input.trim();
  if (!text) throw new Error('cookies: empty');
  if (text.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error('cookies: looks like JSON but does not parse');
    }
    if (!Array.isArray(parsed)) throw new Error('cookies: expected a JSON array');
    return fromPairs(parsed);
  }
  const lines = text.split(/\r?\n/);
  if (lines.some((l) => l.split('\t').length >= 7)) return fromNetscape(lines);
  const header = text.replace(/^cookie:\s*/i, '');
  const pairs = header
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const eq = p.indexOf('=');
      if (eq <= 0) throw new Error(`cookies: "${p.slice(0, 40)}" is not name=value`);
      return [p.slice(0, eq).trim(), p.slice(eq + 1).trim()] as [string, string];
    });
  return join(pairs);
}

function fromPairs(list: unknown[]): string {
  const pairs = list.map((c, i) => {
    const o = c as { name?: unknown; value?: unknown };
    if (!o || typeof o.name !== 'string' || typeof o.value !== 'string') throw new Error(`cookies[${i}]: expected {name, value}`);
    return [o.name, o.value] as [string, string];
  });
  return join(pairs);
}

function fromNetscape(lines: string[]): string {
  const pairs: Array<[string, string]> = [];
  for (const raw of lines) {
    const line = raw.startsWith('#HttpOnly_') ? raw.slice('#HttpOnly_'.length) : raw;
    if (!line.trim() || line.startsWith('#')) continue;
    const f = line.split('\t');
    if (f.length < 7) continue;
    pairs.push([f[5], f[6]]);
  }
  return join(pairs);
}

function join(pairs: Array<[string, string]>): string {
  if (!pairs.length) throw new Error('cookies: no name=value pairs found');
  for (const [n, v] of pairs) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(n)) throw new Error(`cookies: invalid cookie name "${n.slice(0, 40)}"`);
    if (/[\r\n;]/.test(v)) throw new Error(`cookies: the value of ${n} has a forbidden character`);
  }
  return pairs.map(([n, v]) => `${n}=${v}`).join('; ');
}

/** Cookie names only, for listings (values are secrets). */
export function cookieNames(header: string | null): string[] {
  return header ? header.split(';').map((p) => p.split('=')[0].trim()).filter(Boolean) : [];
}
