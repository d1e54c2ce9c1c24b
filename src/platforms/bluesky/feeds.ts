import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { NSID, PUBLIC_APPVIEW, isFallbackable, publicGet, xrpc } from './api.js';
import { authedXrpc, credentialsOf } from './auth.js';
import { withActor } from './identity.js';
import { arr, feedToDrafts, nextCursor, postsToDrafts } from './parse.js';
import { parseCreatorRef } from './refs.js';

/** Feed endpoints take 1..100 per page; a walk asks for the most, a one-page read for what it shows. */
export function pageSize(params: Params): number {
  if (params.max_items !== undefined) return 100;
  const limit = typeof params.limit === 'number' ? params.limit : 30;
  return Math.min(100, Math.max(1, Math.trunc(limit)));
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const actor = parseCreatorRef(params.query);
  const limit = pageSize(params);
  const body = await withActor(ctx, actor, (a) => publicGet(ctx, NSID.getAuthorFeed, { actor: a, limit, cursor }));
  if (!Array.isArray(body.feed)) throw new ParseError('getAuthorFeed: the answer has no feed array');
  return { items: feedToDrafts(body.feed, true), next_cursor: nextCursor(body, body.feed) };
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A Bluesky account's posts and replies, newest first (its reposts of others are left out)",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the account: handle (@mkbhd.com), DID (did:plc:…) or profile URL (https://bsky.app/profile/<handle>)',
    },
  ],
  page: postsPage,
};

/*
 * searchPosts is login-only: with the profile's app password it is asked on the PDS with the session token.
 * Without one the public AppView is asked, which has refused anonymous search since 2025-01 (403, mapped
 * to session_expired in api.ts); its first page is asked without a cursor (anonymous paging has always been
 * refused).
 */
async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const q = (params.query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a search text is required');
  const query = { q, limit: pageSize(params), sort: params.sort as string | undefined, cursor };
  let body: Record<string, unknown>;
  if (credentialsOf(ctx)) {
    try {
      body = (await authedXrpc(ctx, () => ({ nsid: NSID.searchPosts, query }), { what: 'search (app.bsky.feed.searchPosts)', renew: true })).body;
    } catch (e) {
      // The login route is down or unanswered (an outage, no recorded session): the public AppView may still
      // answer; if it refuses, its own outcome (session_expired) is the answer. A refused login stays refused.
      if (!isFallbackable(e)) throw e;
      ctx.warn(`search: the logged-in route failed (${(e as Error).message}); asked the public AppView without a login`);
      body = await xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.searchPosts, query: { ...query, cursor: undefined } });
    }
  } else {
    body = await xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.searchPosts, query });
  }
  if (!Array.isArray(body.posts)) throw new ParseError('searchPosts: the answer has no posts array');
  return { items: postsToDrafts(body.posts), next_cursor: nextCursor(body, body.posts) };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Full-text post search (needs a bluesky profile with identifier + app_password: Bluesky refuses anonymous search)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'search text; Bluesky operators such as from:handle, #tag, lang:en work' },
    { name: 'sort', type: 'string', required: false, enum: ['latest', 'top'], description: 'latest (newest first) or top (Bluesky ranking); Bluesky default when absent' },
  ],
  page: searchPage,
};

interface FeedTab extends Category {
  uri: string;
}

/** Feed generators anyone can read without a login. */
export const FEEDS: FeedTab[] = [
  { id: 'discover', name: 'Discover (Bluesky)', actions: ['recommended'], uri: 'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.generator/whats-hot' },
  { id: 'hot-classic', name: "What's Hot Classic (Bluesky)", actions: ['recommended'], uri: 'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.generator/hot-classic' },
  { id: 'news', name: 'News (verified news accounts)', actions: ['recommended'], uri: 'at://did:plc:kkf4naxqmweop7dv4l2iqqf5/app.bsky.feed.generator/verified-news' },
  { id: 'science', name: 'Science', actions: ['recommended'], uri: 'at://did:plc:jfhpnnst6flqway4eaeqzj2a/app.bsky.feed.generator/for-science' },
];

export const CATEGORIES: Category[] = FEEDS.map(({ id, name, actions }) => ({ id, name, actions }));

async function recommendedPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const id = params.category ?? FEEDS[0].id;
  const tab = FEEDS.find((f) => f.id === id);
  if (!tab) throw new InvalidInput(`params.category: bluesky has no feed "${id}" (use ${FEEDS.map((f) => f.id).join(', ')})`);
  const body = await publicGet(ctx, NSID.getFeed, { feed: tab.uri, limit: pageSize(params), cursor });
  if (!Array.isArray(body.feed)) throw new ParseError('getFeed: the answer has no feed array');
  return { items: feedToDrafts(body.feed), next_cursor: nextCursor(body, arr(body.feed)) };
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: "Bluesky's public feed generators (Discover, What's Hot Classic, News, Science) as categories",
  categories: true,
  page: recommendedPage,
};
