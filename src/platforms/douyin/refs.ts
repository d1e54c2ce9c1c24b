import { InvalidInput } from '../../crawl/errors.js';
import { followHops } from '../../crawl/redirects.js';
import type { CrawlContext } from '../types.js';
import { checkHttp, SHORT_LINK_HOSTS, WWW } from './api.js';

/*
 * Reference forms (cn-platforms.md §1): a post is its 19-digit aweme_id, a www.douyin.com/video|note/<id>
 * page, any douyin page with ?modal_id=<id>, an iesdouyin share page, or a v.douyin.com short link; a user
 * is a sec_uid (MS4wLjABAAAA…), a /user/<sec_uid> page, an iesdouyin share/user page, or a short link.
 */
export type PostRef = { id: string } | { short: string };
export type UserRef = { secUid: string } | { short: string };

const AWEME_ID = /^\d{15,20}$/;
/** sec_uid: base64url of a fixed protobuf-ish prefix (MS4wLjABAAAA) and the account key. */
const SEC_UID = /^MS4wLjABAAAA[A-Za-z0-9_-]{20,}$/;
const DOUYIN_HOST = /^(?:[a-z0-9-]+\.)*(?:douyin\.com|iesdouyin\.com)$/i;

export const isAwemeId = (s: string): boolean => AWEME_ID.test(s);
export const isSecUid = (s: string): boolean => SEC_UID.test(s);

export const videoUrl = (id: string): string => `${WWW}/video/${id}`;
export const noteUrl = (id: string): string => `${WWW}/note/${id}`;
export const userUrl = (secUid: string): string => `${WWW}/user/${secUid}`;

function asUrl(input: string): URL | undefined {
  // Share texts carry the link inside prose ("7.43 复制打开抖音… https://v.douyin.com/iRNBho6u/ …").
  const found = /https?:\/\/[^\s"'<>，。]+/i.exec(input)?.[0] ?? (/^(?:[a-z0-9-]+\.)*(?:douyin\.com|iesdouyin\.com)(?:[/?#]|$)/i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

const isShort = (url: URL): boolean => SHORT_LINK_HOSTS.includes(url.hostname.toLowerCase());

/** An aweme id in a douyin URL: /video/<id>, /note/<id>, /share/video|note/<id>, ?modal_id=, ?aweme_id=, ?vid=. */
export function postIdFromUrl(url: URL): string | undefined {
  if (!DOUYIN_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  for (let i = 0; i < parts.length - 1; i++) {
    if ((parts[i] === 'video' || parts[i] === 'note' || parts[i] === 'slides') && isAwemeId(parts[i + 1]!)) return parts[i + 1];
  }
  for (const k of ['modal_id', 'aweme_id', 'vid', 'item_id']) {
    const v = url.searchParams.get(k);
    if (v && isAwemeId(v)) return v;
  }
  return undefined;
}

/** A sec_uid in a douyin URL: /user/<sec_uid>, /share/user/<sec_uid>, ?sec_uid=. */
export function secUidFromUrl(url: URL): string | undefined {
  if (!DOUYIN_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  const i = parts.indexOf('user');
  if (i >= 0 && parts[i + 1] && isSecUid(parts[i + 1]!)) return parts[i + 1];
  const q = url.searchParams.get('sec_uid') ?? url.searchParams.get('sec_user_id');
  return q && isSecUid(q) ? q : undefined;
}

export function parsePostRef(query: string | undefined): PostRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a douyin post (aweme id, www.douyin.com/video/<id> link or v.douyin.com share link) is required');
  if (isAwemeId(q)) return { id: q };
  const url = asUrl(q);
  if (url && isShort(url)) return { short: `https://${url.hostname.toLowerCase()}${url.pathname}` };
  const id = url ? postIdFromUrl(url) : undefined;
  if (id) return { id };
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a douyin post reference (an aweme id of 15-20 digits, a douyin.com/video/<id> or /note/<id> link, a ?modal_id= link, or a v.douyin.com share link)`);
}

export function parseUserRef(query: string | undefined): UserRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a douyin user (sec_uid MS4wLjABAAAA…, www.douyin.com/user/<sec_uid> link or v.douyin.com share link) is required');
  if (isSecUid(q)) return { secUid: q };
  const url = asUrl(q);
  if (url && isShort(url)) return { short: `https://${url.hostname.toLowerCase()}${url.pathname}` };
  const sec = url ? secUidFromUrl(url) : undefined;
  if (sec) return { secUid: sec };
  if (/^\d+$/.test(q)) throw new InvalidInput(`params.query: "${q}" looks like a numeric douyin uid or short id; the web API takes the sec_uid (MS4wLjABAAAA…) from the user's page URL www.douyin.com/user/<sec_uid>`);
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a douyin user reference (a sec_uid MS4wLjABAAAA…, a douyin.com/user/<sec_uid> link, or a v.douyin.com share link)`);
}

/** A v.douyin.com link → the URL it redirects to; only the redirect is asked for, never the target page. */
export async function followShortLink(ctx: CrawlContext, short: string): Promise<URL> {
  const what = `share link ${short}`;
  const href = await followHops(ctx, short, {
    what,
    memoKey: `douyin:short:${short}`,
    onSite: (u) => DOUYIN_HOST.test(u.hostname),
    done: (u) => (isShort(u) ? undefined : u.toString()),
    check: (res) => checkHttp(res, what),
  });
  return new URL(href);
}

export async function resolvePostId(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parsePostRef(query);
  if ('id' in ref) return ref.id;
  const target = await followShortLink(ctx, ref.short);
  const id = postIdFromUrl(target);
  if (!id) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a douyin post`);
  return id;
}

export async function resolveSecUid(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parseUserRef(query);
  if ('secUid' in ref) return ref.secUid;
  const target = await followShortLink(ctx, ref.short);
  const sec = secUidFromUrl(target);
  if (!sec) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a douyin user page`);
  return sec;
}
