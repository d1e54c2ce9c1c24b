import { InvalidInput, isReplayMiss } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, Params, TrendsAction } from '../types.js';
import { ENDPOINTS, getJson, isFallbackable } from './api.js';
import { appTrends, hotwordTrends, squareTrends } from './parse.js';

/*
 * Three lists carry bilibili's hot searches: the web search square ("bilibili热搜"), the app's trending
 * ranking and the older s.search hotword list. They are tried in that order; an empty or unreadable
 * board passes on to the next one, so an empty result means every board said so.
 */
export const BOARDS = ['web', 'app', 'hotword'] as const;
type Board = (typeof BOARDS)[number];

const BOARD_SIZE = 50;

const READERS: Record<Board, (ctx: CrawlContext) => Promise<Trend[]>> = {
  web: async (ctx) => squareTrends((await getJson(ctx, ENDPOINTS.searchSquare, { what: 'search square', query: { limit: BOARD_SIZE } })).data),
  app: async (ctx) => appTrends((await getJson(ctx, ENDPOINTS.appTrending, { what: 'app trending ranking', query: { limit: BOARD_SIZE } })).data),
  hotword: async (ctx) => hotwordTrends((await getJson(ctx, ENDPOINTS.hotword, { what: 'hotword' })).raw),
};

async function runTrending(ctx: CrawlContext, params: Params): Promise<Trend[]> {
  const board = params.board as Board | undefined;
  if (board !== undefined) {
    if (!(BOARDS as readonly string[]).includes(board)) throw new InvalidInput(`params.board: one of ${BOARDS.join(', ')}`);
    return READERS[board](ctx);
  }
  let firstMiss: unknown;
  let failure: unknown;
  let answered = false;
  for (const b of BOARDS) {
    try {
      const trends = await READERS[b](ctx);
      if (trends.length) return trends;
      answered = true;
    } catch (e) {
      if (!isFallbackable(e)) throw e;
      if (isReplayMiss(e)) firstMiss ??= e;
      failure = e;
    }
  }
  if (answered) return [];
  throw isReplayMiss(failure) && firstMiss ? firstMiss : failure;
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "bilibili's hot searches (热搜), ranked",
  params: [
    {
      name: 'board',
      type: 'string',
      required: false,
      enum: [...BOARDS],
      description: 'web: the web search square; app: the app trending ranking; hotword: the older web hot-word list. Absent: the first board that answers',
    },
  ],
  run: runTrending,
};
