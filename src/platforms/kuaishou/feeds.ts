import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, firstOf, type Json } from './api.js';
import { graphql } from './graphql.js';
import { canSignInPage, requireInPageSigning, signedRest } from './hxfalcon.js';
import { appFeeds, str, webFeeds } from './parse.js';
import { profileUrl, searchUrl } from './refs.js';
import { resolveUser } from './resolve.js';
import { miniSession, requireMiniSession, wxRecommend, wxSearchFeed } from './wxmini.js';

const END = 'no_more';
/** A pcursor that names a following page. */
const more = (pcursor: string | undefined, got: number): pcursor is string => !!pcursor && pcursor !== END && got > 0;

// ---------------------------------------------------------------------------------------------
// search: web GraphQL visionSearchPhoto; the signed REST search (in-page signer); the mini-program
// search when the profile carries its session. A later page stays on the route of the first:
// cursor "<route>:<pcursor>|<search session>", route g (GraphQL), r (signed REST), w (mini-program).

const SEARCH_CURSOR = /^([grw]):([^|]*)\|([^|]*)$/;
const SEARCH_SIGNED = 'search_feed';

type Route = 'g' | 'r' | 'w';

async function searchRoute(ctx: CrawlContext, route: Route, keyword: string, pcursor: string, session: string): Promise<Page<ItemDraft>> {
  const referer = searchUrl(keyword);
  const what = `video search "${keyword}"`;
  if (route === 'g') {
    const op = await graphql(ctx, 'visionSearchPhoto', { keyword, pcursor, page: 'search', searchSessionId: session }, { what, referer });
    return searchPage('g', webFeeds(op.feeds), op.pcursor, op.searchSessionId ?? session);
  }
  if (route === 'r') {
    const body = await signedRest(ctx, SEARCH_SIGNED, new URL(ENDPOINTS.searchFeed).pathname, { keyword, pcursor, page: 'search', searchSessionId: session }, { what, referer });
    return searchPage('r', webFeeds(body.feeds), body.pcursor, body.searchSessionId ?? session);
  }
  const body = await wxSearchFeed(ctx, requireMiniSession(ctx, 'the mini-program search'), keyword, pcursor, session);
  return searchPage('w', appFeeds(body.feeds), body.pcursor, body.ussid ?? session);
}

function searchPage(route: Route, items: ItemDraft[], pcursor: unknown, session: unknown): Page<ItemDraft> {
  const p = str(pcursor);
  return { items, next_cursor: more(p, items.length) ? `${route}:${p}|${str(session) ?? ''}` : undefined };
}

async function runSearch(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const keyword = (params.query ?? '').trim();
  if (!keyword) throw new InvalidInput('params.query: a search keyword is required');
  if (cursor !== undefined) {
    const c = SEARCH_CURSOR.exec(cursor);
    if (!c) throw new InvalidInput('params.cursor: not a kuaishou search cursor');
    if (c[1] === 'r') requireInPageSigning(ctx, SEARCH_SIGNED);
    return searchRoute(ctx, c[1] as Route, keyword, c[2], c[3]);
  }
  const routes: Array<() => Promise<Page<ItemDraft>>> = [() => searchRoute(ctx, 'g', keyword, '', '')];
  if (canSignInPage(ctx, SEARCH_SIGNED)) routes.push(() => searchRoute(ctx, 'r', keyword, '', ''));
  if (miniSession(ctx)) routes.push(() => searchRoute(ctx, 'w', keyword, '', ''));
  return firstOf(routes);
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary:
    'Search kuaishou videos by keyword (web GraphQL; then the __NS_hxfalcon-signed REST search through the in-page signer, then the WeChat mini-program search when the profile carries its session)',
  params: [{ name: 'query', type: 'string', required: true, description: 'search keyword' }],
  page: runSearch,
};

// ---------------------------------------------------------------------------------------------
// posts: GraphQL visionProfilePhotoList (its pcursor, a ms timestamp like "1.648548115016E12", is the
// cursor as is), then the signed REST /rest/v/profile/feed (cursor "r:<pcursor>").

const POSTS_SIGNED = 'profile_feed';

async function graphqlPosts(ctx: CrawlContext, userId: string, pcursor: string): Promise<Page<ItemDraft>> {
  const op = await graphql(ctx, 'visionProfilePhotoList', { userId, pcursor, page: 'profile' }, { what: `videos of ${userId}`, referer: profileUrl(userId) });
  const items = webFeeds(op.feeds);
  const next = str(op.pcursor);
  return { items, next_cursor: more(next, items.length) ? next : undefined };
}

async function signedPosts(ctx: CrawlContext, userId: string, pcursor: string): Promise<Page<ItemDraft>> {
  const body = await signedRest(ctx, POSTS_SIGNED, new URL(ENDPOINTS.profileFeed).pathname, { user_id: userId, pcursor, page: 'profile' }, { what: `videos of ${userId}`, referer: profileUrl(userId) });
  const items = webFeeds(body.feeds);
  const next = str(body.pcursor);
  return { items, next_cursor: more(next, items.length) ? `r:${next}` : undefined };
}

async function runPosts(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const userId = await resolveUser(ctx, params.query);
  if (cursor !== undefined && !/^[\w.+-]{1,64}$|^r:[\w.+-]{1,64}$/.test(cursor)) throw new InvalidInput('params.cursor: not a kuaishou posts cursor');
  if (cursor?.startsWith('r:')) {
    requireInPageSigning(ctx, POSTS_SIGNED);
    return signedPosts(ctx, userId, cursor.slice(2));
  }
  const pcursor = cursor ?? '';
  const routes: Array<() => Promise<Page<ItemDraft>>> = [() => graphqlPosts(ctx, userId, pcursor)];
  if (canSignInPage(ctx, POSTS_SIGNED)) routes.push(() => signedPosts(ctx, userId, pcursor));
  return firstOf(routes);
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A kuaishou creator's videos, newest first (web GraphQL; the __NS_hxfalcon-signed REST list through the in-page signer when GraphQL refuses)",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: eid (3x…), numeric user id, www.kuaishou.com/profile/<eid>, a share link to a profile, or @kwaiId (needs a mini-program session)',
    },
  ],
  page: runPosts,
};

// ---------------------------------------------------------------------------------------------
// recommended: the mini-program's recommend feed. It has no cursor: each call is a fresh batch, named by
// its llsid; the cursor keeps the batch count and the last llsid, and a repeated llsid ends the walk.

const RECOMMEND_MAX_BATCHES = 5;
const RECOMMEND_CURSOR = /^(\d{1,2}):([\w-]{0,64})$/;

async function runRecommended(ctx: CrawlContext, _params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const session = requireMiniSession(ctx, 'kuaishou recommended');
  const c = cursor === undefined ? undefined : RECOMMEND_CURSOR.exec(cursor);
  if (cursor !== undefined && !c) throw new InvalidInput('params.cursor: not a kuaishou recommended cursor');
  const batch = c ? Number(c[1]) : 1;
  const body: Json = await wxRecommend(ctx, session);
  const llsid = str(body.llsid) ?? '';
  if (c && llsid && llsid === c[2]) return { items: [] };
  const items = appFeeds(body.feeds);
  return { items, next_cursor: items.length && batch < RECOMMEND_MAX_BATCHES ? `${batch + 1}:${llsid}` : undefined };
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: "The WeChat mini-program's recommend feed (needs a profile carrying a mini-program session: credentials.wxmini_cookie)",
  page: runRecommended,
};

