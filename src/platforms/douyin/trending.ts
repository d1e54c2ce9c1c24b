import { InvalidInput } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, Params, TrendsAction } from '../types.js';
import { appGet, ENDPOINTS, MUSIC_CHART_ID } from './api.js';
import { hotBoard } from './feeds.js';
import { brandTrends, liveTrends, musicTrends, obj, objs, starTrends, str, wordTrends } from './parse.js';

/*
 * The boards: the hot-search words (web, else the app's), the rising words, and the app's anonymous
 * boards (stars, brands by category, the music chart, live rooms). The brand board's categories come from
 * its own category list; brand_category picks one (default: the first listed).
 */
export const BOARDS = ['realtime', 'rising', 'star', 'brand', 'music', 'live'] as const;
type Board = (typeof BOARDS)[number];

async function brand(ctx: CrawlContext, category: unknown): Promise<Trend[]> {
  let id = category === undefined ? undefined : String(category);
  if (id !== undefined && !/^\d{1,6}$/.test(id)) throw new InvalidInput('params.brand_category: a numeric brand board category id');
  const cats = objs((await appGet(ctx, ENDPOINTS.brandCategories, {}, 'brand board categories')).category_list)
    .map((c) => ({ id: str(c.id), name: str(c.name) }))
    .filter((c): c is { id: string; name: string | undefined } => !!c.id && /^\d{1,6}$/.test(c.id));
  if (id === undefined) id = cats[0]?.id;
  const known = cats.map((c) => (c.name ? `${c.id} (${c.name})` : c.id));
  if (!id || (cats.length && !cats.some((c) => c.id === id))) {
    throw new InvalidInput(`params.brand_category: one of ${known.join(', ') || 'the ids douyin lists (it listed none)'}`);
  }
  return brandTrends((await appGet(ctx, ENDPOINTS.brandBoard, { category_id: id }, `brand board ${id}`)).brand_list);
}

const READERS: Record<Board, (ctx: CrawlContext, params: Params) => Promise<Trend[]>> = {
  realtime: async (ctx) => wordTrends((await hotBoard(ctx)).word_list),
  rising: async (ctx) => wordTrends((await hotBoard(ctx)).trending_list),
  star: async (ctx) => starTrends((await appGet(ctx, ENDPOINTS.starBoard, {}, 'star board')).user_list),
  brand: (ctx, params) => brand(ctx, params.brand_category),
  music: async (ctx) => musicTrends((await appGet(ctx, ENDPOINTS.musicChart, { chart_id: MUSIC_CHART_ID, count: '100' }, 'music chart')).music_list),
  live: async (ctx) => liveTrends(obj((await appGet(ctx, ENDPOINTS.liveBoard, {}, 'live board')).data)?.ranks),
};

async function runTrending(ctx: CrawlContext, params: Params): Promise<Trend[]> {
  const board = (params.board ?? 'realtime') as Board;
  if (!(BOARDS as readonly string[]).includes(board)) throw new InvalidInput(`params.board: one of ${BOARDS.join(', ')}`);
  return READERS[board](ctx, params);
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "Douyin's boards, ranked: hot-search words (default), rising words, stars, brands, the music chart, live rooms",
  params: [
    { name: 'board', type: 'string', required: false, enum: [...BOARDS], default: 'realtime', description: 'realtime (热榜 words), rising (实时上升), star, brand, music (热歌榜), live' },
    { name: 'brand_category', type: 'integer', required: false, description: 'brand board only: a category id from the board (1 汽车, 2 手机, 3 美妆, …); default the first listed' },
  ],
  run: runTrending,
};
