import { InvalidInput } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, Params, TrendsAction } from '../types.js';
import { CONTAINERS, ENDPOINTS, getHtml, getJson, realtimehotBoard, withFallback } from './api.js';
import { summaryRealtimehot, summaryTopicband } from './html.js';
import { hotBoardEntries, hotEntriesToTrends, topicContainerTrends } from './parse.js';
import { pcHotSearch, pcTopicBand } from './pc.js';

export const BOARDS = ['realtimehot', 'topicband'] as const;
type Board = (typeof BOARDS)[number];

/*
 * Each board is read from m.weibo.cn first (it answers anonymously). When that fails or comes back empty:
 * realtimehot goes to weibo.com's side/hotSearch (anonymous too), then to s.weibo.com's summary page;
 * topicband goes to s.weibo.com's summary page, then to weibo.com's topic_band. s.weibo.com has sat
 * behind the visitor wall since 2021-09 and weibo.com's topic_band sits behind it too, so without cookies
 * those routes end in session_expired rather than in a false "no trends".
 */

async function containerTrends(ctx: CrawlContext, board: Board): Promise<Trend[] | undefined> {
  if (board === 'realtimehot') {
    const env = await realtimehotBoard(ctx);
    const trends = env.kind === 'ok' ? hotEntriesToTrends(hotBoardEntries(env.data)) : [];
    return trends.length ? trends : undefined;
  }
  const env = await getJson(ctx, ENDPOINTS.getIndex, { containerid: CONTAINERS.hotTopics, luicode: '10000011', lfid: '231648_-_1' }, 'hot topic board');
  const trends = env.kind === 'ok' ? topicContainerTrends(env.data) : [];
  return trends.length ? trends : undefined;
}

async function summaryTrends(ctx: CrawlContext, board: Board): Promise<Trend[]> {
  const html = await getHtml(ctx, ENDPOINTS.topSummary, { cate: board }, 'https://s.weibo.com/');
  return board === 'realtimehot' ? summaryRealtimehot(html) : summaryTopicband(html);
}

const nonEmptyOrUndefined = (trends: Trend[]): Trend[] | undefined => (trends.length ? trends : undefined);

async function runTrending(ctx: CrawlContext, params: Params): Promise<Trend[]> {
  const board = (params.board as string | undefined) ?? 'realtimehot';
  if (!(BOARDS as readonly string[]).includes(board)) throw new InvalidInput(`params.board: one of ${BOARDS.join(', ')}`);
  if (board === 'realtimehot') {
    return withFallback(
      () => containerTrends(ctx, 'realtimehot'),
      async () => nonEmptyOrUndefined(hotEntriesToTrends(await pcHotSearch(ctx))),
      () => summaryTrends(ctx, 'realtimehot'),
    );
  }
  return withFallback(
    () => containerTrends(ctx, 'topicband'),
    async () => nonEmptyOrUndefined(await summaryTrends(ctx, 'topicband')),
    () => pcTopicBand(ctx),
  );
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: 'Weibo trending boards: the realtime hot-search ranking or the hot topic board, with heat values',
  params: [
    {
      name: 'board',
      type: 'string',
      required: false,
      default: 'realtimehot',
      enum: [...BOARDS],
      description: 'realtimehot: the hot-search ranking (heat); topicband: the hot topic board (reads)',
    },
  ],
  run: runTrending,
};
