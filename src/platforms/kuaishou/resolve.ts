import { InvalidInput, NotFound, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { checkStatus, pageHeaders } from './api.js';
import { creatorFromUrl, parseCreatorRef, parsePostRef, photoFromUrl } from './refs.js';
import { wxUsers } from './parse.js';
import { miniSession, wxSearchUser, type MiniSession } from './wxmini.js';

const MAX_HOPS = 4;
const DAY_MS = 24 * 3600_000;
const KUAISHOU_TARGET = /(?:^|\.)(?:kuaishou\.(?:com|cn)|chenzhongtech\.com)$/i;

/**
 * A share link → the page URL it redirects to. Only the redirect hops are requested (no redirect is
 * followed by the client), the target page itself is never fetched.
 */
export async function followShareLink(ctx: CrawlContext, short: string): Promise<URL> {
  const key = `kuaishou:short:${short}`;
  const known = ctx.memo.get<string>(key);
  if (known) return new URL(known);
  let url = new URL(short);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const res = await ctx.http.request({ url: url.toString(), headers: pageHeaders(), followRedirects: false });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      if (!KUAISHOU_TARGET.test(next.hostname)) throw new UpstreamError(`${short} redirects off kuaishou (${next.host})`);
      // Share links may pass through another short hop; a captcha or login redirect is mapped by checkStatus.
      if (photoFromUrl(next) || creatorFromUrl(next)) {
        ctx.memo.set(key, next.toString(), DAY_MS);
        return next;
      }
      checkStatus({ ...res, url: next.toString() }, `share link ${short}`);
      url = next;
      continue;
    }
    if (res.status === 404) throw new NotFound(`${short}: the share link does not exist`);
    checkStatus(res, `share link ${short}`);
    throw new UpstreamError(`${short}: expected a redirect, got HTTP ${res.status}`);
  }
  throw new UpstreamError(`${short}: too many redirects`);
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
