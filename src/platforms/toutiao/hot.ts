import { CrawlError, InvalidInput, ParseError } from '../../crawl/errors.js';
import { firstAnswering } from '../../crawl/fallback.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params, TrendsAction } from '../types.js';
import { ENDPOINTS, fetchChecked, isFallbackable, readJson } from './api.js';
import { obj } from './json.js';
import { appBoard, boardDraft, boardTrend, webBoard, type BoardEntry } from './parse.js';

/*
 * toutiao's hot board (头条热榜), read unsigned from the web board, then from the app's board when the web
 * one fails or is empty. An entry is a topic cluster (its page is www.toutiao.com/trending/<id>/), so `hot`
 * returns topics as text items linked to those pages, and `trending` returns the same entries as words.
 */
export const BOARDS = ['web', 'app'] as const;
type Board = (typeof BOARDS)[number];

function boardList(raw: unknown, what: string): void {
  const body = obj(raw);
  if (!body || !Array.isArray(body.data)) throw new ParseError(`${what}: the answer carries no data[]`);
  if (body.message !== undefined && body.message !== 'success') throw new ParseError(`${what}: message "${String(body.message)}"`);
}

const READERS: Record<Board, (ctx: CrawlContext) => Promise<BoardEntry[]>> = {
  web: async (ctx) => {
    const what = 'web hot board';
    const raw = readJson(await fetchChecked(ctx, { what, url: `${ENDPOINTS.hotWeb}?origin=toutiao_pc` }), what);
    boardList(raw, what);
    return webBoard(raw);
  },
  app: async (ctx) => {
    const what = 'app hot board';
    const raw = readJson(await fetchChecked(ctx, { what, url: `${ENDPOINTS.hotApp}?category=hotboard_online&count=50`, referer: null }), what);
    boardList(raw, what);
    return appBoard(raw);
  },
};

async function readBoard(ctx: CrawlContext, params: Params): Promise<BoardEntry[]> {
  const board = params.board as Board | undefined;
  if (board !== undefined) {
    if (!(BOARDS as readonly string[]).includes(board)) throw new InvalidInput(`params.board: one of ${BOARDS.join(', ')}`);
    return READERS[board](ctx);
  }
  let webFailure: string | undefined;
  const entries = await firstAnswering<BoardEntry[]>(
    BOARDS.map((b) => async () => {
      try {
        const got = await READERS[b](ctx);
        if (!got.length && b === 'web') webFailure = 'it listed no entries';
        return got.length ? got : undefined;
      } catch (e) {
        if (b === 'web' && e instanceof CrawlError) webFailure = `${e.code}: ${e.message}`;
        throw e;
      }
    }),
    isFallbackable,
  );
  if (entries?.length && webFailure) ctx.warn(`served by the app hot board (no heat values): the web board failed (${webFailure})`);
  return entries ?? [];
}

const BOARD_PARAM = {
  name: 'board',
  type: 'string' as const,
  required: false,
  enum: [...BOARDS],
  description: 'web: www.toutiao.com hot board; app: the news app hot board. Absent: web, then app when web fails or is empty',
};

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "toutiao's hot board (头条热榜): each entry is a topic, returned as a text item linked to its topic page",
  params: [BOARD_PARAM],
  async page(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
    return { items: (await readBoard(ctx, params)).map(boardDraft) };
  },
};

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "toutiao's hot board (头条热榜) as ranked words with heat values",
  params: [BOARD_PARAM],
  run: async (ctx, params) => (await readBoard(ctx, params)).map(boardTrend),
};
