import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { appGet, ENDPOINTS, isFallbackable, readWebJson, shareGet, webGet, type Json } from './api.js';
import { awemeToDraft, obj, objs, str, wordDrafts } from './parse.js';
import { resolveSecUid, userUrl } from './refs.js';

const PER_PAGE = 20;
const POSTS_PER_PAGE = 18;

export const SORTS = { general: 0, likes: 1, newest: 2 } as const;
export const PUBLISHED = { any: 0, day: 1, week: 7, half_year: 180 } as const;

const drafts = (list: unknown): ItemDraft[] => objs(list).map(awemeToDraft).filter((d): d is ItemDraft => !!d);
const more = (v: unknown): boolean => v === true || v === 1 || v === '1';

function enumParam<T extends Record<string, number>>(table: T, value: unknown, name: string, fallback: keyof T): number {
  if (value === undefined) return table[fallback]!;
  if (typeof value !== 'string' || !Object.hasOwn(table, value)) throw new InvalidInput(`params.${name}: one of ${Object.keys(table).join(', ')}`);
  return table[value]!;
}

/*
 * General search answers mixed cards: data[] entries of type 1 carry aweme_info; related-word cards
 * (type 6), user and mix cards carry none and are skipped. The next page needs the offset and the
 * search_id (extra.logid) of the first answer, so the native cursor is "<offset>:<search_id>".
 */
async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const keyword = (params.query ?? '').trim();
  if (!keyword) throw new InvalidInput('params.query: the words to search douyin for are required');
  const m = cursor === undefined ? undefined : /^(\d{1,6}):([\w-]{0,80})$/.exec(cursor);
  if (cursor !== undefined && !m) throw new InvalidInput('params.cursor: not a douyin search cursor');
  const json = await webGet(ctx, {
    endpoint: 'search',
    url: ENDPOINTS.search,
    what: `search "${keyword}"`,
    referer: `https://www.douyin.com/search/${encodeURIComponent(keyword)}`,
    params: {
      search_channel: 'aweme_general',
      keyword,
      offset: m ? m[1] : 0,
      count: PER_PAGE,
      sort_type: enumParam(SORTS, params.sort, 'sort', 'general'),
      publish_time: enumParam(PUBLISHED, params.published, 'published', 'any'),
      search_id: m ? m[2] : '',
      list_type: 'multi',
    },
  });
  const items: ItemDraft[] = [];
  for (const card of objs(json.data)) {
    const d = awemeToDraft(card.aweme_info);
    if (d) items.push(d);
    // Mix cards hold several posts.
    for (const sub of objs(obj(card.aweme_mix_info)?.mix_items)) {
      const s = awemeToDraft(sub);
      if (s) items.push(s);
    }
  }
  // Search by the item API answers aweme_list instead of data[].
  items.push(...drafts(json.aweme_list));
  const logid = str(obj(json.extra)?.logid) ?? str(obj(json.log_pb)?.impr_id) ?? (m ? m[2] : '');
  const next = Number(json.cursor);
  return { items, next_cursor: more(json.has_more) && Number.isSafeInteger(next) && next > 0 ? `${next}:${logid}` : undefined };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Douyin general search: videos and image posts for the words, with their streams',
  params: [
    { name: 'query', type: 'string', required: true, description: 'the words to search for' },
    { name: 'sort', type: 'string', required: false, enum: Object.keys(SORTS), default: 'general', description: 'general (relevance), likes (most liked) or newest' },
    { name: 'published', type: 'string', required: false, enum: Object.keys(PUBLISHED), default: 'any', description: 'only posts published within: any, day, week, half_year' },
  ],
  page: searchPage,
};

/*
 * A user's posts: the web list (signed, max_cursor = the create time in ms of the last post) and, when
 * the web refuses, the share site's older unsigned list of the same shape (iesdouyin web/api/v2; douyin
 * retired it, so a live crawl rarely gets an answer there, but held-over deployments and recordings do).
 */
async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  if (cursor !== undefined && !/^\d{1,16}$/.test(cursor)) throw new InvalidInput('params.cursor: not a douyin posts cursor (max_cursor)');
  const secUid = await resolveSecUid(ctx, params.query);
  const maxCursor = cursor ?? '0';
  const json = await firstAnswering<Json>(
    [
      () =>
        webGet(ctx, {
          endpoint: 'posts',
          url: ENDPOINTS.posts,
          what: `posts of ${secUid}`,
          referer: userUrl(secUid),
          params: { sec_user_id: secUid, max_cursor: maxCursor, locate_query: 'false', show_live_replay_strategy: 1, need_time_list: 1, time_list_query: 0, whale_cut_token: '', cut_version: 1, count: POSTS_PER_PAGE, publish_video_strategy_type: 2 },
        }),
      async () => {
        const what = `posts of ${secUid} (share API)`;
        return readWebJson(await shareGet(ctx, `${ENDPOINTS.sharePostsLegacy}?${new URLSearchParams({ sec_uid: secUid, count: '21', max_cursor: maxCursor, aid: '1128' }).toString()}`, what), what);
      },
    ],
    isFallbackable,
  );
  const items = drafts(json.aweme_list);
  const next = str(json.max_cursor);
  return { items, next_cursor: more(json.has_more) && items.length && next && next !== maxCursor && next !== '0' ? next : undefined };
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A douyin user's posts, newest first (pinned ones lead the first page)",
  walk: true,
  timeOrdered: true,
  params: [{ name: 'query', type: 'string', required: true, description: 'sec_uid (MS4wLjABAAAA…), www.douyin.com/user/<sec_uid> link or v.douyin.com share link' }],
  page: postsPage,
};

/** The web's recommended feed (tab/feed); refresh_index pages it. */
async function recommendedPage(ctx: CrawlContext, _params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  if (cursor !== undefined && !/^\d{1,4}$/.test(cursor)) throw new InvalidInput('params.cursor: not a douyin feed cursor');
  const index = Number(cursor ?? 1);
  const json = await webGet(ctx, {
    endpoint: 'recommended',
    url: ENDPOINTS.feed,
    what: 'recommended feed',
    params: { count: 10, video_type_select: 1, refresh_index: index, pull_type: index === 1 ? 0 : 2, tag_id: '', share_aweme_id: '', live_insert_type: '', globalwid: '', aweme_pc_rec_raw_data: '{}' },
  });
  const items = drafts(json.aweme_list);
  return { items, next_cursor: more(json.has_more) && items.length ? String(index + 1) : undefined };
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: "Douyin's recommended feed for this account (a guest's without a stored login)",
  page: recommendedPage,
};

export const HOT_CATEGORIES: Category[] = [
  { id: 'realtime', name: '热榜: the videos behind the hot-search words', actions: ['hot'] },
  { id: 'rising', name: '实时上升: the rising words’ videos', actions: ['hot'] },
];

/** The hot-search board: the web's (word_list + trending_list), else the app's anonymous one. */
export async function hotBoard(ctx: CrawlContext): Promise<Json> {
  return firstAnswering<Json>(
    [
      async () => obj((await webGet(ctx, { endpoint: 'hot', url: ENDPOINTS.hotWeb, what: 'hot search board', params: { detail_list: 1, source: 6, board_type: 0, board_sub_type: '' } })).data) ?? {},
      async () => obj((await appGet(ctx, ENDPOINTS.hotApp, {}, 'hot search board (app)')).data) ?? {},
    ],
    isFallbackable,
  );
}

async function hotPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const category = params.category ?? 'realtime';
  if (!HOT_CATEGORIES.some((c) => c.id === category)) throw new InvalidInput(`params.category: one of ${HOT_CATEGORIES.map((c) => c.id).join(', ')}`);
  const board = await hotBoard(ctx);
  const list = category === 'rising' ? board.trending_list : board.word_list;
  if (category === 'rising' && !Array.isArray(list)) ctx.warn('this hot-search answer carries no rising list (trending_list)');
  return { items: wordDrafts(list) };
}

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "Douyin's hot board as posts: the video each hot-search word leads to (title = the word), by category",
  categories: true,
  page: hotPage,
};
