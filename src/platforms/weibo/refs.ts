import { InvalidInput } from '../../crawl/errors.js';

/*
 * Weibo names a post two ways: the numeric mid and the short "bid" (mblogid) used in weibo.com URLs.
 * The bid is the mid cut into groups of 7 decimal digits from the right, each group written in
 * base62 (alphabet 0-9a-zA-Z) and padded to 4 characters except the leftmost one.
 */
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

function toBase62(n: number): string {
  if (n === 0) return '0';
  let out = '';
  while (n > 0) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function fromBase62(s: string): number {
  let n = 0;
  for (const ch of s) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new InvalidInput(`"${s}" is not a weibo bid (base62 expected)`);
    n = n * 62 + v;
  }
  return n;
}

export function midToBid(mid: string): string {
  if (!/^\d+$/.test(mid)) throw new InvalidInput(`"${mid}" is not a weibo mid (digits expected)`);
  const digits = mid.replace(/^0+(?=\d)/, '');
  let out = '';
  for (let end = digits.length; end > 0; end -= 7) {
    const start = Math.max(0, end - 7);
    const group = toBase62(Number(digits.slice(start, end)));
    out = (start > 0 ? group.padStart(4, '0') : group) + out;
  }
  return out;
}

export function bidToMid(bid: string): string {
  if (!/^[0-9a-zA-Z]+$/.test(bid)) throw new InvalidInput(`"${bid}" is not a weibo bid (base62 expected)`);
  let out = '';
  for (let end = bid.length; end > 0; end -= 4) {
    const start = Math.max(0, end - 4);
    const value = fromBase62(bid.slice(start, end));
    // A 4-character group can encode up to 62^4-1, more than 7 digits hold: such a bid is not a real one.
    if (value >= 10_000_000) throw new InvalidInput(`"${bid}" is not a weibo bid (group out of range)`);
    const group = String(value);
    out = (start > 0 ? group.padStart(7, '0') : group) + out;
  }
  return out.replace(/^0+(?=\d)/, '');
}

export const isMid = (s: string): boolean => /^\d{12,20}$/.test(s);
export const isBid = (s: string): boolean => /^[0-9a-zA-Z]{6,12}$/.test(s) && /[a-zA-Z]/.test(s);

export interface PostRef {
  /** The id exactly as the caller gave it (mid or bid): weibo accepts both, and replay keys on it. */
  id: string;
  mid: string;
  bid: string;
}

const WEIBO_HOSTS = /^(?:www\.|m\.)?weibo\.(?:com|cn)$/i;

function asUrl(input: string): URL | undefined {
  const s = input.trim();
  if (!/^(?:https?:\/\/)?(?:www\.|m\.)?weibo\.(?:com|cn)\//i.test(s)) return undefined;
  try {
    return new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    return undefined;
  }
}

function postFromId(id: string, original: string): PostRef {
  if (isMid(id)) return { id, mid: id, bid: midToBid(id) };
  if (isBid(id)) return { id, mid: bidToMid(id), bid: id };
  throw new InvalidInput(`"${original}" does not name a weibo post (expected a mid, a bid or a post URL)`);
}

/**
 * Post reference: a mid (4645748019299849), a bid (Kjc77D1jz), or a URL:
 * m.weibo.cn/detail/<mid>, m.weibo.cn/status/<mid|bid>, m.weibo.cn/<uid>/<mid|bid>,
 * weibo.com/<uid>/<bid|mid>, weibo.com/detail/<mid>, weibo.com/status/<id>.
 */
export function parsePostRef(input: string | undefined): PostRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a weibo post reference (mid, bid or URL) is required');
  const url = asUrl(raw);
  if (!url) return postFromId(raw, raw);
  if (!WEIBO_HOSTS.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a weibo URL`);
  const parts = url.pathname.split('/').filter(Boolean);
  const [a, b] = parts;
  if ((a === 'detail' || a === 'status') && b) return postFromId(b, raw);
  if (a && /^\d+$/.test(a) && b) return postFromId(b, raw);
  const mblogid = url.searchParams.get('mblogid') ?? url.searchParams.get('id');
  if (mblogid) return postFromId(mblogid, raw);
  throw new InvalidInput(`"${raw}" is not a weibo post URL (expected /detail/<mid>, /status/<id> or /<uid>/<bid>)`);
}

export type CreatorRef = { uid: string } | { name: string };

/**
 * Creator reference: a uid, a profile URL (weibo.com/u/<uid>, weibo.com/<uid>, m.weibo.cn/u/<uid>,
 * m.weibo.cn/profile/<uid>, weibo.com/n/<name>, m.weibo.cn/n/<name>), or a screen name (with or
 * without a leading @).
 */
export function parseCreatorRef(input: string | undefined): CreatorRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a weibo creator reference (uid, profile URL or @screen_name) is required');
  const url = asUrl(raw);
  if (url) {
    const parts = url.pathname.split('/').filter(Boolean).map((p) => safeDecode(p));
    const [a, b] = parts;
    if ((a === 'u' || a === 'profile') && b && /^\d+$/.test(b)) return { uid: b };
    if (a === 'n' && b) return { name: b };
    if (a && /^\d+$/.test(a)) return { uid: a };
    const uid = url.searchParams.get('uid');
    if (uid && /^\d+$/.test(uid)) return { uid };
    // weibo.com/<personal domain> is only resolvable through weibo.com itself, which sits behind the visitor wall.
    throw new InvalidInput(`"${raw}" is not a weibo profile URL this service can resolve; pass the numeric uid, weibo.com/u/<uid> or @screen_name`);
  }
  if (/^\d{1,12}$/.test(raw)) return { uid: raw };
  const name = raw.replace(/^@/, '').trim();
  if (!name || /[\s/?#]/.test(name)) throw new InvalidInput(`"${raw}" is not a weibo uid, profile URL or screen name`);
  return { name };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const profileUrl = (uid: string): string => `https://weibo.com/u/${uid}`;

/** Canonical post URL: the weibo.com form when the author is known, else the mobile detail page. */
export function postUrl(mid: string, uid?: string, bid?: string): string {
  if (uid && /^\d+$/.test(uid)) {
    try {
      return `https://weibo.com/${uid}/${bid ?? midToBid(mid)}`;
    } catch {
      /* fall through to the mobile form */
    }
  }
  return `https://m.weibo.cn/detail/${mid}`;
}
