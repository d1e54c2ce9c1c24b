import { InvalidInput } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, Params, TrendsAction } from '../types.js';
import { gql } from './api.js';
import { instructionsOf, obj, trendsOf } from './parse.js';

/*
 * The Explore tabs are GenericTimelineById timelines; their ids are base64 of "Timeline:" and a small
 * thrift struct naming the tab (twscrape api.py trends_raw). `explore` is ExplorePage's first timeline
 * (FxEmbed trends.ts). Login only.
 */
/** The timeline id of a tab by name: "Timeline:" then thrift binary {182: {1: name}}, base64 unpadded. */
export function timelineIdOf(tab: string): string {
  const name = Buffer.from(tab, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(name.length);
  return Buffer.concat([Buffer.from('Timeline:'), Buffer.from([0x0c, 0x00, 0xb6, 0x0b, 0x00, 0x01]), len, name, Buffer.from([0x00, 0x00])]).toString('base64').replace(/=+$/, '');
}

const TABS = ['trending', 'news', 'sports', 'entertainment'] as const;
export const BOARDS: Record<string, string> = Object.fromEntries(TABS.map((t) => [t, timelineIdOf(t)]));
const BOARD_NAMES = [...TABS, 'explore'];

async function runTrending(ctx: CrawlContext, params: Params): Promise<Trend[]> {
  const board = (params.board ?? 'trending') as string;
  if (!BOARD_NAMES.includes(board)) throw new InvalidInput(`params.board: one of ${BOARD_NAMES.join(', ')}`);
  const { body } =
    board === 'explore'
      ? await gql(ctx, { op: 'ExplorePage', route: 'login', what: 'the explore page', variables: {} })
      : await gql(ctx, { op: 'GenericTimelineById', route: 'login', what: `the ${board} tab`, variables: { timelineId: BOARDS[board], count: 20 } });
  return trendsOf(instructionsOf(obj(body.data)) ?? []);
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "X's Explore tabs as ranked trends with their post counts (needs a logged-in profile): trending (default), news, sports, entertainment, explore",
  params: [{ name: 'board', type: 'string', required: false, enum: BOARD_NAMES, default: 'trending', description: 'trending (For You trends), news, sports, entertainment, or explore (the Explore page itself)' }],
  run: runTrending,
};
