import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { DM_PARAMS, ENDPOINTS, firstOf, getJson, isFallbackable } from './api.js';
import { archiveToDraft, dynamicToDraft, obj, objs, rcmdToDraft, searchVideoToDraft, str, uploadToDraft } from './parse.js';
import { resolveMid } from './resolve.js';

const drafts = (list: unknown, toDraft: (raw: unknown) => ItemDraft | undefined): ItemDraft[] =>
  objs(list)
    .map(toDraft)
    .filter((d): d is ItemDraft => !!d);

function pageNumber(cursor: string | undefined, what: string): number {
  if (cursor === undefined) return 1;
  if (!/^[1-9]\d{0,4}$/.test(cursor)) throw new InvalidInput(`params.cursor: not a bilibili ${what} cursor`);
  return Number(cursor);
}

// ---------------------------------------------------------------------------------------------
// search

export const SEARCH_ORDERS = ['totalrank', 'click', 'pubdate', 'dm', 'stow'] as const;

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const keyword = (params.query ?? '').trim();
  if (!keyword) throw new InvalidInput('params.query: a search keyword is required');
  const order = (params.order as string | undefined) ?? 'totalrank';
  const page = pageNumber(cursor, 'search');
  const what = 'video search';
  const referer = `https://search.bilibili.com/all?keyword=${encodeURIComponent(keyword)}`;
  // The search page's own request: 42 per page, no duration or date filter.
  const typed = { search_type: 'video', keyword, order, page, page_size: 42, duration: 0, pubtime_begin_s: 0, pubtime_end_s: 0 };
  // The "all" search answers every result kind grouped; its video group is the same list, 20 per page.
  const all = { keyword, page };
  return firstOf([
    async () => typedPage((await getJson(ctx, ENDPOINTS.search, { what, query: typed, sign: true, referer })).data, page),
    // The unsigned path is the older route to the same list.
    async () => typedPage((await getJson(ctx, ENDPOINTS.searchType, { what, query: typed, referer })).data, page),
    ...(order === 'totalrank'
      ? [
          async () => allPage((await getJson(ctx, ENDPOINTS.searchAllWbi, { what, query: all, sign: true, referer })).data, page),
          async () => allPage((await getJson(ctx, ENDPOINTS.searchAll, { what, query: all, referer })).data, page),
        ]
      : []),
  ]);
}

function typedPage(data: Record<string, unknown>, page: number): Page<ItemDraft> {
  if (!Array.isArray(data.result)) {
    if (Number(data.numResults ?? 0) === 0) return { items: [] };
    throw new ParseError('video search: data.result is missing');
  }
  const items = drafts(data.result, searchVideoToDraft);
  const pages = Number(data.numPages);
  return { items, next_cursor: data.result.length && Number.isFinite(pages) && page < pages ? String(page + 1) : undefined };
}

/** search/all/v2: data.result[] groups {result_type, data[]}; the video group's page count is in pageinfo.video. */
function allPage(data: Record<string, unknown>, page: number): Page<ItemDraft> {
  if (!Array.isArray(data.result)) {
    if (Number(data.numResults ?? 0) === 0) return { items: [] };
    throw new ParseError('video search (all): data.result is missing');
  }
  const group = objs(data.result).find((g) => g.result_type === 'video');
  const list = Array.isArray(group?.data) ? group.data : [];
  const items = drafts(list, searchVideoToDraft);
  const info = obj(obj(data.pageinfo)?.video);
  const pages = Number(info?.pages ?? data.numPages);
  return { items, next_cursor: list.length && Number.isFinite(pages) && page < pages ? String(page + 1) : undefined };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Search bilibili videos by keyword (web video search, WBI-signed; 42 per page)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'search keyword' },
    {
      name: 'order',
      type: 'string',
      required: false,
      enum: [...SEARCH_ORDERS],
      description: 'totalrank (relevance, default), click (views), pubdate (newest), dm (danmaku), stow (favourites)',
    },
  ],
  page: searchPage,
};

// ---------------------------------------------------------------------------------------------
// posts: a creator's uploads (space arc search), or the creator's dynamics feed.

export const POSTS_TABS = ['videos', 'dynamics'] as const;
const UPLOADS_PER_PAGE = 30;
const DYNAMICS_CURSOR = /^d:(\d*)$/;

async function uploadsPage(ctx: CrawlContext, mid: string, pn: number): Promise<Page<ItemDraft>> {
  const referer = `https://space.bilibili.com/${mid}/video`;
  const what = `uploads of ${mid}`;
  const { data } = await firstOf([
    // What the space page sends today (WBI + fingerprint params); the unsigned path is the older route.
    () =>
      getJson(ctx, ENDPOINTS.arcSearchWbi, {
        what,
        sign: true,
        referer,
        query: { mid, ps: UPLOADS_PER_PAGE, tid: 0, pn, keyword: '', order: 'pubdate', platform: 'web', web_location: 1550101, order_avoided: true, ...DM_PARAMS },
      }),
    () => getJson(ctx, ENDPOINTS.arcSearch, { what, referer, query: { mid, ps: UPLOADS_PER_PAGE, pn } }),
  ]);
  const list = obj(data.list);
  if (!list) throw new ParseError(`${what}: data.list is missing`);
  const items = drafts(list.vlist, uploadToDraft);
  const page = obj(data.page) ?? {};
  const num = Number(page.pn ?? pn);
  const size = Number(page.ps);
  const count = Number(page.count);
  const more = items.length > 0 && Number.isFinite(size) && size > 0 && Number.isFinite(count) && num * size < count;
  return { items, next_cursor: more ? String(num + 1) : undefined };
}

async function dynamicsPage(ctx: CrawlContext, mid: string, offset: string): Promise<Page<ItemDraft>> {
  const { data } = await getJson(ctx, ENDPOINTS.dynamicsSpace, {
    what: `dynamics of ${mid}`,
    sign: true,
    referer: `https://space.bilibili.com/${mid}/dynamic`,
    // offset is sent empty on the first page, exactly as the space page does.
    query: { offset, host_mid: mid, timezone_offset: -480, platform: 'web', features: 'itemOpusStyle', web_location: '333.1387', ...DM_PARAMS },
  });
  const items = drafts(data.items, dynamicToDraft);
  const next = str(data.offset);
  return { items, next_cursor: data.has_more === true && next && next !== offset ? `d:${next}` : undefined };
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const tab = params.tab as (typeof POSTS_TABS)[number] | undefined;
  if (tab !== undefined && !(POSTS_TABS as readonly string[]).includes(tab)) throw new InvalidInput(`params.tab: one of ${POSTS_TABS.join(', ')}`);
  const mid = await resolveMid(ctx, params.query);
  // A bare long number is the feed's own offset (as recorded in its URL); uploads pages never get that far.
  const offset = cursor === undefined ? undefined : (DYNAMICS_CURSOR.exec(cursor)?.[1] ?? (/^\d{6,}$/.test(cursor) ? cursor : undefined));
  if (offset !== undefined) {
    if (tab === 'videos') throw new InvalidInput('params.cursor: a dynamics cursor cannot page the videos tab');
    return dynamicsPage(ctx, mid, offset);
  }
  if (tab === 'dynamics') {
    if (cursor !== undefined) throw new InvalidInput('params.cursor: not a bilibili dynamics cursor');
    return dynamicsPage(ctx, mid, '');
  }
  const pn = pageNumber(cursor, 'uploads');
  if (tab === 'videos' || cursor !== undefined) return uploadsPage(ctx, mid, pn);
  // No tab named: the uploads list, and the dynamics feed (every post type) when that list cannot be read.
  try {
    return await uploadsPage(ctx, mid, pn);
  } catch (e) {
    if (!isFallbackable(e)) throw e;
    try {
      const page = await dynamicsPage(ctx, mid, '');
      ctx.warn(`the uploads list of ${mid} could not be read (${(e as Error).message}); these are the creator's dynamics (all post types) instead`);
      return page;
    } catch (e2) {
      if (isFallbackable(e2)) throw e;
      throw e2;
    }
  }
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A bilibili creator's uploads, newest first (or the creator's dynamics feed with tab=dynamics)",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: mid, UID:<mid>, space URL (space.bilibili.com/<mid>), b23.tv short link to a space, or @name (exact)',
    },
    {
      name: 'tab',
      type: 'string',
      required: false,
      enum: [...POSTS_TABS],
      description:
        'videos: the uploads list (space arc search); dynamics: the dynamics feed (images, text, reposts, videos). Absent: videos, falling back to dynamics when the uploads list cannot be read',
    },
  ],
  page: postsPage,
};

// ---------------------------------------------------------------------------------------------
// hot: the popular feed, or ranking/v2 by partition.

/** ranking/v2 partitions (rid = the partition's tid; 0 is the whole site). */
const RANKING_PARTITIONS: ReadonlyArray<[id: string, rid: number, name: string]> = [
  ['all', 0, '全站'],
  ['douga', 1, '动画'],
  ['music', 3, '音乐'],
  ['dance', 129, '舞蹈'],
  ['game', 4, '游戏'],
  ['knowledge', 36, '知识'],
  ['tech', 188, '科技'],
  ['sports', 234, '运动'],
  ['car', 223, '汽车'],
  ['life', 160, '生活'],
  ['food', 211, '美食'],
  ['animal', 217, '动物圈'],
  ['kichiku', 119, '鬼畜'],
  ['fashion', 155, '时尚'],
  ['ent', 5, '娱乐'],
  ['cinephile', 181, '影视'],
];

export const RANKING_RID: ReadonlyMap<string, number> = new Map(RANKING_PARTITIONS.map(([id, rid]) => [id, rid]));

export const HOT_CATEGORIES: Category[] = [
  { id: 'popular', name: '综合热门 · popular now', actions: ['hot'] },
  ...RANKING_PARTITIONS.map(([id, rid, name]) => ({ id, name: `排行榜 ${name} · ranking${rid ? ` (rid ${rid})` : ', whole site'}`, actions: ['hot' as const] })),
];

const POPULAR_PER_PAGE = 20;

async function hotPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const category = params.category ?? 'popular';
  if (category === 'popular') {
    const pn = pageNumber(cursor, 'popular');
    const { data } = await getJson(ctx, ENDPOINTS.popular, { what: 'popular', sign: true, query: { ps: POPULAR_PER_PAGE, pn } });
    const items = drafts(data.list, archiveToDraft);
    return { items, next_cursor: items.length && data.no_more === false ? String(pn + 1) : undefined };
  }
  const rid = RANKING_RID.get(category);
  if (rid === undefined) throw new InvalidInput(`params.category: bilibili has no hot category "${category}"`);
  if (cursor !== undefined) throw new InvalidInput('params.cursor: the ranking is a single page');
  // rid is today's name of the partition param; tid is the older one, still what some clients send.
  const { data } = await getJson(ctx, ENDPOINTS.ranking, { what: `ranking ${category}`, sign: true, query: { rid, type: 'all', tid: rid } });
  return { items: drafts(data.list, archiveToDraft) };
}

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: 'bilibili hot videos: the popular feed, or the top-100 ranking of the whole site or of one partition',
  categories: true,
  page: hotPage,
};

// ---------------------------------------------------------------------------------------------
// recommended: the home page feed.

/** The feed never ends; this many refreshes is far more than one task needs. */
const RCMD_MAX_PAGES = 20;

async function recommendedPage(ctx: CrawlContext, _params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const n = pageNumber(cursor, 'recommended');
  const what = 'home feed';
  const feed = {
    web_location: 1430650,
    y_num: 4,
    fresh_type: 4,
    feed_version: 'V8',
    fresh_idx_1h: n,
    fetch_row: 3 * n + 1,
    fresh_idx: n,
    brush: n,
    homepage_ver: 1,
    ps: 12,
    last_y_num: 5,
  };
  const { data, raw: envelope } = await firstOf([
    () => getJson(ctx, ENDPOINTS.rcmd, { what, sign: true, query: feed }),
    // The same feed unsigned, then the older home feed: the same item list under data.item.
    () => getJson(ctx, ENDPOINTS.rcmdUnsigned, { what, query: feed }),
    () => getJson(ctx, ENDPOINTS.rcmdLegacy, { what, query: { fresh_type: 3, version: 1, ps: 10, fresh_idx: n, fresh_idx_1h: n } }),
  ]);
  // Old answers may carry the list as data itself.
  const raw = objs(Array.isArray(envelope.data) ? envelope.data : data.item);
  const items = drafts(raw, rcmdToDraft);
  return { items, next_cursor: raw.length && n < RCMD_MAX_PAGES ? String(n + 1) : undefined };
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: 'The bilibili home page recommendation feed (personalised when the profile is logged in)',
  page: recommendedPage,
};
