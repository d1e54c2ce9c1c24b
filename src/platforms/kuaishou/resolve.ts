import { InvalidInput } from '../../crawl/errors.js';
import { followHops } from '../../crawl/redirects.js';
import type { CrawlContext } from '../types.js';
import { checkStatus, pageHeaders } from './api.js';
import { creatorFromUrl, parseCreatorRef, parsePostRef, photoFromUrl } from './refs.js';
import { wxUsers } from './parse.js';
import { miniSession, wxSearchUser, type MiniSession } from './wxmini.js';

const DAY_MS = 24 * 3600_000;
const KUAISHOU_TARGET = /(?:^|\.)(?:kuaishou\.(?:com|cn)|chenzhongtech\.com)$/i;

/** A share link → the page URL it redirects to; only the redirect hops are requested, never the target page. */
export async function followShareLink(ctx: CrawlContext, short: string): Promise<URL> {
  const what = `share link ${short}`;
  const href = await followHops(ctx, short, {
    what,
    memoKey: `kuaishou:short:${short}`,
    headers: pageHeaders,
    onSite: (u) => KUAISHOU_TARGET.test(u.hostname),
    done: (u) => (photoFromUrl(u) || creatorFromUrl(u) ? u.toString() : undefined),
    // Share links may pass through another short hop; a captcha or login redirect is mapped by checkStatus.
    check: (res, next) => checkStatus(next ? { ...res, url: next.toString() } : res, what),
  });
  return new URL(href);
}

/** Any post reference → the web photo id (share links followed). */
export async function resolvePhoto(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parsePostRef(query);
  if ('photoId' in ref) return ref.photoId;
  const target = await followShareLink(ctx, ref.short);
  const id = photoFromUrl(target);
  if (!id) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a kuaishou video`);
  return id;
}

/** Any creator reference → eid or numeric user id (share links followed, @names looked up). */
export async function resolveUser(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parseCreatorRef(query);
  if ('userId' in ref) return ref.userId;
  if ('short' in ref) {
    const target = await followShareLink(ctx, ref.short);
    const id = creatorFromUrl(target);
    if (!id) throw new InvalidInput(`${ref.short} leads to ${target.toString()}, which is not a kuaishou profile`);
    return id;
  }
  const session = miniSession(ctx);
  if (!session) {
    throw new InvalidInput(`@${ref.name}: looking a kuaishou user up by name needs a profile with a mini-program session (credentials.wxmini_cookie); pass the eid or www.kuaishou.com/profile/<eid> instead`);
  }
  const key = `kuaishou:user-of:${ref.name.toLowerCase()}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const id = await lookupName(ctx, session, ref.name);
  ctx.memo.set(key, id, DAY_MS);
  return id;
}

/** The user search is fuzzy: only an exact kwaiId or name match is taken, a similar one would crawl someone else. */
async function lookupName(ctx: CrawlContext, session: MiniSession, name: string): Promise<string> {
  const users = wxUsers(await wxSearchUser(ctx, session, name));
  const wanted = name.toLowerCase();
  const hit = users.find((u) => u.kwaiId?.toLowerCase() === wanted) ?? users.find((u) => u.name?.toLowerCase() === wanted);
  if (hit) return hit.userId;
  throw new InvalidInput(`no kuaishou user has the kwaiId or name "${name}" exactly (the user search found ${users.length} similar one(s)); pass the eid or profile URL`);
}
