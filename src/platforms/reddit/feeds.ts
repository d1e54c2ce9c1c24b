import { InvalidInput } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { type Variant, read } from './api.js';
import { listingOf, postsOf } from './parse.js';
import { parseCreatorRef, parseSubreddit } from './refs.js';

/**
 * Reddit's maximum page. The page size never follows params.limit: the runner resumes a page part-way by
 * skipping what it already handed out, which only works when the same cursor yields the same page.
 */
const PAGE = 100;

/** Listing cursors are the fullname of the last post of the previous page. */
function after(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  if (!/^t3_[a-z0-9]{1,13}$/i.test(cursor)) throw new InvalidInput('params.cursor: not a reddit listing cursor');
  return cursor;
}

async function listingPage(ctx: CrawlContext, what: string, variants: Variant[], query: Record<string, string | number | undefined>): Promise<Page<ItemDraft>> {
  const body = await read(ctx, { what, variants, query: { ...query, limit: PAGE, raw_json: 1 } });
  const listing = listingOf(body, what);
  // An empty Listing is reddit's honest "nothing here"; its after is null then anyway.
  const items = postsOf(listing);
  return { items, next_cursor: listing.children.length ? listing.after : undefined };
}

export const SEARCH_SORTS = ['relevance', 'hot', 'top', 'new', 'comments'];
export const SEARCH_TIMES = ['all', 'year', 'month', 'week', 'day', 'hour'];

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const q = (params.query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a search keyword is required');
  const sub = typeof params.subreddit === 'string' && params.subreddit.trim() ? parseSubreddit(params.subreddit) : undefined;
  const query = { q, sort: (params.sort as string | undefined) ?? 'relevance', t: (params.time as string | undefined) ?? 'all', after: after(cursor) };
  if (sub) return listingPage(ctx, `search "${q}" in r/${sub}`, [{ path: `/r/${sub}/search`, query: { restrict_sr: 'true' } }], query);
  // /r/all/search is what reddit's own clients and the recordings use; /search is the same index.
  return listingPage(ctx, `search "${q}"`, [{ path: '/r/all/search' }, { path: '/search' }], query);
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const ref = parseCreatorRef(params.query);
  if (ref.kind === 'me') throw new InvalidInput('params.query: name the account (u/<name>) or community (r/<name>) whose posts to list');
  if (ref.kind === 'user') {
    return listingPage(ctx, `u/${ref.name} submissions`, [{ path: `/user/${encodeURIComponent(ref.name)}/submitted` }], { sort: 'new', after: after(cursor) });
  }
  return listingPage(ctx, `r/${ref.name} new posts`, [{ path: `/r/${encodeURIComponent(ref.name)}/new` }], { after: after(cursor) });
}

/** Feeds offered as categories: reddit's two aggregate feeds, then a few large communities. */
export const HOT_CATEGORIES: Category[] = [
  { id: 'popular', name: 'r/popular · what is popular across reddit', actions: ['hot'] },
  { id: 'all', name: 'r/all · every community', actions: ['hot'] },
  { id: 'news', name: 'r/news', actions: ['hot'] },
  { id: 'worldnews', name: 'r/worldnews', actions: ['hot'] },
  { id: 'pics', name: 'r/pics', actions: ['hot'] },
  { id: 'videos', name: 'r/videos', actions: ['hot'] },
  { id: 'gaming', name: 'r/gaming', actions: ['hot'] },
  { id: 'technology', name: 'r/technology', actions: ['hot'] },
  { id: 'askreddit', name: 'r/AskReddit', actions: ['hot'] },
];

async function hotPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const named = [params.subreddit, params.category].find((v): v is string => typeof v === 'string' && v.trim() !== '');
  const sub = named ? parseSubreddit(named, named === params.subreddit ? 'subreddit' : 'category') : 'popular';
  return listingPage(ctx, `r/${sub} hot`, [{ path: `/r/${encodeURIComponent(sub)}/hot` }], { after: after(cursor) });
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Search reddit posts by keyword, site-wide or within one subreddit',
  params: [
    { name: 'query', type: 'string', required: true, description: 'search words (reddit search syntax: title:, author:, subreddit:, self:, …)' },
    { name: 'subreddit', type: 'string', required: false, description: 'search only this community (name or r/name); site-wide when absent' },
    { name: 'sort', type: 'string', required: false, default: 'relevance', enum: SEARCH_SORTS, description: 'result order' },
    { name: 'time', type: 'string', required: false, default: 'all', enum: SEARCH_TIMES, description: 'time window (for relevance, top and comments orders)' },
  ],
  page: searchPage,
};

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A reddit user's submissions or a subreddit's new posts, newest first",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'u/<name>, /user/<name>, a profile URL or a bare username for a user; r/<name> or a subreddit URL for a community',
    },
  ],
  page: postsPage,
};

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "A subreddit's hot listing: r/popular, r/all, a listed community, or any other subreddit",
  categories: true,
  params: [
    {
      // Every subreddit is a feed tab on reddit: the listed categories are suggestions, not the only values.
      name: 'category',
      type: 'string',
      required: false,
      default: 'popular',
      description: `feed: ${HOT_CATEGORIES.map((c) => c.id).join(', ')} (GET /v1/categories?source=reddit), or any other subreddit name`,
    },
    { name: 'subreddit', type: 'string', required: false, description: 'any community (name or r/name); overrides category' },
  ],
  page: hotPage,
};
