import { createHash } from 'node:crypto';

/*
 * Tieba's request signature (cn-platforms.md §7; AIOT src/aiotieba/helper/crypto/sign.py, MC
 * media_platform/tieba/client.py `_sign_pc_params`): the (key, value) pairs sorted by key (then value),
 * written `key=value` with nothing between them, the client's salt appended, MD5 of the UTF-8 bytes in
 * lower-case hex. The salts are published, so there is nothing a page could compute that we cannot.
 */
export const SALTS = {
  /** The Android/iOS client's salt ("tiebaclient!!!"); the published test vector uses it. */
  app: 'tiebaclient!!!',
  /** The PC web client's salt (subapp_type=pc, _client_type=20). */
  pc: '36770b1f34c9bbf2e7d1a99d2b82fa9e',
} as const;

export type Pair = readonly [string, string | number];

/** Code-point order, as Python's sorted() on str compares (keys are ASCII in practice). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function computeSign(pairs: readonly Pair[], salt: string): string {
  const sorted = [...pairs].map(([k, v]) => [k, String(v)] as const).sort((x, y) => compare(x[0], y[0]) || compare(x[1], y[1]));
  const md5 = createHash('md5');
  for (const [k, v] of sorted) md5.update(`${k}=${v}`, 'utf8');
  md5.update(salt, 'utf8');
  return md5.digest('hex');
}

/** The pairs with their `sign` appended: the exact list that is then encoded once and sent. */
export function withSign(pairs: readonly Pair[], salt: string): Array<[string, string]> {
  const out = pairs.map(([k, v]) => [k, String(v)] as [string, string]);
  out.push(['sign', computeSign(pairs, salt)]);
  return out;
}

/** application/x-www-form-urlencoded in the pairs' own order (a query string or a POST body). */
export function encodePairs(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}
