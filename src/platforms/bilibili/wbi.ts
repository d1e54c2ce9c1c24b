import { createHash } from 'node:crypto';

/*
 * WBI signature, the published algorithm: the mixin key is the concatenated img_key + sub_key
 * (file names of data.wbi_img.img_url / sub_url from /x/web-interface/nav) permuted through a fixed
 * 64-entry table and cut to 32 characters; the signed string is the params plus wts, sorted by key,
 * values stripped of !'()*, each pair encodeURIComponent-ed and joined with &; w_rid = md5(string + mixin key).
 */
const MIXIN_TABLE = [
  46, 47, 18, 2, 53, 8, 23, 32, 15, 50, 10, 31, 58, 3, 45, 35, 27, 43, 5, 49, 33, 9, 42, 19, 29, 28, 14, 39, 12, 38, 41, 13, 37, 48, 7, 16,
  24, 55, 40, 61, 26, 17, 0, 1, 60, 51, 30, 4, 22, 25, 54, 21, 56, 59, 6, 63, 57, 62, 11, 36, 20, 34, 44, 52,
];

export interface WbiKeys {
  img: string;
  sub: string;
}

export type SignableParams = Record<string, string | number | boolean | undefined | null>;

export function mixinKey(keys: WbiKeys): string {
  const raw = keys.img + keys.sub;
  return MIXIN_TABLE.map((i) => raw[i] ?? '').join('').slice(0, 32);
}

const FILTERED = /[!'()*]/g;

/** The param pairs in the order they are signed and sent: sorted by key, undefined dropped, values filtered. */
function sortedPairs(params: SignableParams): Array<[string, string]> {
  return Object.entries(params)
    .filter((e): e is [string, string | number | boolean] => e[1] !== undefined && e[1] !== null)
    .map(([k, v]) => [k, String(v).replace(FILTERED, '')] as [string, string])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export const encodePairs = (pairs: Array<[string, string]>): string =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/** The signed query string (params + wts + w_rid), ready to append after "?". */
export function signQuery(params: SignableParams, keys: WbiKeys, wts: number): string {
  const pairs = sortedPairs({ ...params, wts });
  const query = encodePairs(pairs);
  const wRid = createHash('md5').update(query + mixinKey(keys)).digest('hex');
  return `${query}&w_rid=${wRid}`;
}

/** img_url/sub_url → their file names without extension (the keys). */
export function keysFromWbiImg(wbiImg: unknown): WbiKeys | undefined {
  if (!wbiImg || typeof wbiImg !== 'object') return undefined;
  const o = wbiImg as Record<string, unknown>;
  const name = (u: unknown): string | undefined => {
    if (typeof u !== 'string') return undefined;
    const m = /\/([0-9a-zA-Z]+)\.[a-z]+(?:\?.*)?$/.exec(u);
    return m?.[1];
  };
  const img = name(o.img_url);
  const sub = name(o.sub_url);
  return img && sub ? { img, sub } : undefined;
}
