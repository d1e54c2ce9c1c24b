import { InvalidInput } from '../../crawl/errors.js';

/*
 * Reference forms (global-platforms.md §3, FxEmbed providers/threads/shortcode.ts): a post is its code
 * (CuXRXDdNOtH), its numeric id (the pk, what the GraphQL's postID takes), a media id "<pk>_<author pk>",
 * or a permalink threads.com|threads.net/@user/post/<code> (also /t/<code>); a user is @handle, a bare
 * handle, a numeric user id (pk) or threads.com|threads.net/@handle. The code is the pk written in base 64
 * with Instagram's alphabet, so both directions are pure arithmetic.
 */

export const SITE = 'https://www.threads.com';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const MAX_PK = (1n << 64n) - 1n;

/** Codes of 64-bit ids are at most 11 characters. */
const CODE = /^[A-Za-z0-9_-]{1,11}$/;
const PK = /^\d{1,20}$/;
const MEDIA_ID = /^(\d{1,20})_(\d{1,20})$/;
/** Instagram usernames: letters, digits, periods and underscores, at most 30. */
const HANDLE = /^[A-Za-z0-9._]{1,30}$/;
const THREADS_HOST = /^(?:www\.)?threads\.(?:com|net)$/i;

export const isPk = (s: string): boolean => PK.test(s) && BigInt(s) > 0n && BigInt(s) <= MAX_PK;

export function codeToPk(code: string): string {
  if (!CODE.test(code)) throw new InvalidInput(`"${code}" is not a threads post code (letters, digits, - and _, at most 11)`);
  let n = 0n;
  for (const ch of code) n = n * 64n + BigInt(ALPHABET.indexOf(ch));
  if (n === 0n || n > MAX_PK) throw new InvalidInput(`"${code}" is not a threads post code`);
  return n.toString();
}

export function pkToCode(pk: string | bigint): string {
  let n = typeof pk === 'bigint' ? pk : BigInt(pk);
  if (n <= 0n || n > MAX_PK) throw new InvalidInput(`${String(pk)} is not a threads post id`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 64n)] + out;
    n /= 64n;
  }
  return out;
}

export const postUrl = (handle: string | undefined, code: string): string => (handle ? `${SITE}/@${handle}/post/${code}` : `${SITE}/t/${code}`);
export const profileUrl = (handle: string): string => `${SITE}/@${handle}`;

function asUrl(input: string): URL | undefined {
  const found = /https?:\/\/[^\s"'<>]+/i.exec(input)?.[0] ?? (/^(?:www\.)?threads\.(?:com|net)\//i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

export interface PostRef {
  pk: string;
  code: string;
}

/** A post's code in a threads URL: /@user/post/<code>[/media], /t/<code>, /post/<code>. */
export function codeFromUrl(url: URL): string | undefined {
  if (!THREADS_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  for (let i = 0; i < parts.length - 1; i++) {
    if ((parts[i] === 'post' || parts[i] === 't') && CODE.test(parts[i + 1]!)) return parts[i + 1];
  }
  return undefined;
}

/** A handle in a threads profile URL: /@handle (a post URL names its author too). */
export function handleFromUrl(url: URL): string | undefined {
  if (!THREADS_HOST.test(url.hostname)) return undefined;
  const first = url.pathname.split('/').filter(Boolean)[0] ?? '';
  const m = /^@([A-Za-z0-9._]{1,30})$/.exec(decodeURIComponent(first));
  return m?.[1];
}

export function parsePostRef(query: string | undefined): PostRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a threads post (a threads.com/@user/post/<code> link, the code, or its numeric id) is required');
  const media = MEDIA_ID.exec(q);
  if (media && isPk(media[1]!)) return { pk: media[1]!, code: pkToCode(media[1]!) };
  if (isPk(q)) return { pk: q, code: pkToCode(q) };
  const url = asUrl(q);
  if (url) {
    const code = codeFromUrl(url);
    if (code) return { pk: codeToPk(code), code };
  } else if (CODE.test(q) && /[A-Za-z_-]/.test(q)) {
    return { pk: codeToPk(q), code: q };
  }
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a threads post reference (a threads.com or threads.net /@user/post/<code> or /t/<code> link, a post code such as CuXRXDdNOtH, or a numeric post id)`);
}

export type UserRef = { pk: string; handle?: undefined } | { handle: string; pk?: undefined };

export function parseUserRef(query: string | undefined): UserRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a threads user (@handle, a threads.com/@handle link or a numeric user id) is required');
  if (isPk(q)) return { pk: q };
  const url = asUrl(q);
  if (url) {
    const handle = handleFromUrl(url);
    if (handle) return { handle: handle.toLowerCase() };
  } else {
    const bare = q.startsWith('@') ? q.slice(1) : q;
    if (HANDLE.test(bare)) return { handle: bare.toLowerCase() };
  }
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a threads user reference (@handle, a threads.com or threads.net /@handle link, or a numeric user id)`);
}
