import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, webApi } from './api.js';
import { secUidOf, webCreator } from './creator.js';
import { generalResultsOf, itemsOf, obj, str, userCardsOf, type Json } from './parse.js';
import { WEB, profileUrl } from './refs.js';

const more = (v: unknown): boolean => v === true || v === 1 || v === '1';

// ---------------------------------------------------------------------------------------------
// search

export const SEARCH_TYPES = ['general', 'video', 'user'] as const;
type SearchType = (typeof SEARCH_TYPES)[number];

/** Native search cursor: TikTok's next offset, then "~" and the search id that keeps later pages consistent. */
const SEARCH_CURSOR = /^(\d{1,9})(?:~([\w-]{1,80}))?$/;

function searchId(body: Json): string | undefined {
  const id = str(body.rid) ?? str(obj(body.log_pb)?.impr_id) ?? str(obj(body.extra)?.logid);
  return id && /^[\w-]{1,80}$/.test(id) ? id : undefined;
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const keyword = (params.query ?? '').trim();
  if (!keyword) throw new InvalidInput('params.query: a search keyword is required');
  const type = (params.type as SearchType | undefined) ?? 'general';
  if (!(SEARCH_TYPES as readonly string[]).includes(type)) throw new InvalidInput(`params.type: one of ${SEARCH_TYPES.join(', ')}`);
  const c = cursor === undefined ? undefined : SEARCH_CURSOR.exec(cursor);
  if (cursor !== undefined && !c) throw new InvalidInput('params.cursor: not a TikTok search cursor');
  const offset = c?.[1] ?? '0';
  const sid = c?.[2];
  // The general search pages by offset; the typed ones by cursor (TikTok-Api search.py).
  const own: Array<[string, string]> = [
    ['keyword', keyword],
    [type === 'general' ? 'offset' : 'cursor', offset],
    ...(sid ? ([['search_id', sid]] as Array<[string, string]>) : []),
  ];
  const path = type === 'general' ? ENDPOINTS.searchGeneral : type === 'video' ? ENDPOINTS.searchItem : ENDPOINTS.searchUser;
  const body = await webApi(ctx, {
    endpoint: 'search',
    path,
    params: own,
    referer: `${WEB}/search${type === 'general' ? '' : type === 'video' ? '/video' : '/user'}?q=${encodeURIComponent(keyword)}`,
    fromPage: 'search',
    what: `${type} search "${keyword}"`,
  });
  const items = type === 'general' ? generalResultsOf(body) : type === 'video' ? itemsOf(body) : userCardsOf(body.user_list);
  const next = str(body.cursor);
  const nextSid = searchId(body) ?? sid;
  const hasNext = more(body.has_more) && items.length > 0 && next !== undefined && /^\d{1,9}$/.test(next) && Number(next) > Number(offset);
  return { items, next_cursor: hasNext ? `${next}${nextSid ? `~${nextSid}` : ''}` : undefined };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Search TikTok: general (posts and user cards, as the Top tab), video (posts only) or user (profiles, as text cards)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'search keyword' },
    {
      name: 'type',
      type: 'string',
      required: false,
      default: 'general',
      enum: [...SEARCH_TYPES],
      description: 'general: the Top tab (posts, plus user cards as text items); video: posts only; user: profiles, as text items pointing at each profile',
    },
  ],
  page: searchPage,
};

// ---------------------------------------------------------------------------------------------
// posts: a creator's posts, newest first.

const POSTS_PER_PAGE = '30';
const POSTS_CURSOR = /^\d{1,20}$/;

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  if (cursor !== undefined && !POSTS_CURSOR.test(cursor)) throw new InvalidInput('params.cursor: not a TikTok posts cursor');
  const ref = await webCreator(ctx, params.query);
  const { secUid, handle } = await secUidOf(ctx, ref);
  const current = cursor ?? '0';
  const body = await webApi(ctx, {
    endpoint: 'posts',
    path: ENDPOINTS.postList,
    params: [
      ['secUid', secUid],
      ['count', POSTS_PER_PAGE],
      ['cursor', current],
    ],
    referer: profileUrl(handle ?? secUid),
    fromPage: 'user',
    what: `posts of @${handle ?? secUid}`,
  });
  const items = itemsOf(body);
  const next = str(body.cursor);
  return { items, next_cursor: more(body.hasMore) && items.length > 0 && next && POSTS_CURSOR.test(next) && next !== current ? next : undefined };
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A TikTok creator's posts (videos and photo carousels), newest first",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: @handle, profile URL (www.tiktok.com/@<handle>), secUid (MS4wLjABAAAA…) or a share link to a profile or post',
    },
  ],
  page: postsPage,
};

// ---------------------------------------------------------------------------------------------
// recommended: the For You feed (/api/recommend/item_list/, TikTok-Api trending.py).

/** The feed never ends and takes no cursor; this many refreshes is far more than one task needs. */
const FEED_MAX_PAGES = 10;

async function recommendedPage(ctx: CrawlContext, _params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  if (cursor !== undefined && !/^[1-9]\d{0,2}$/.test(cursor)) throw new InvalidInput('params.cursor: not a TikTok feed cursor');
  const n = cursor === undefined ? 1 : Number(cursor);
  const body = await webApi(ctx, {
    endpoint: 'recommended',
    path: ENDPOINTS.recommend,
    params: [['count', '30']],
    referer: `${WEB}/foryou`,
    fromPage: 'fyp',
    what: 'For You feed',
  });
  const items = itemsOf(body);
  const ended = body.hasMore === false || body.hasMore === 0;
  return { items, next_cursor: items.length && !ended && n < FEED_MAX_PAGES ? String(n + 1) : undefined };
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: "TikTok's For You feed (personalised when the profile is logged in)",
  page: recommendedPage,
};
