import { ParseError } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, Params, TrendsAction } from '../types.js';
import { NSID, publicGet } from './api.js';
import { trendingTopics } from './parse.js';

/** The most topics getTrendingTopics hands out per call. */
const MAX_TOPICS = 25;

async function runTrending(ctx: CrawlContext, _params: Params): Promise<Trend[]> {
  const body = await publicGet(ctx, NSID.getTrendingTopics, { limit: MAX_TOPICS });
  if (!Array.isArray(body.topics)) throw new ParseError('getTrendingTopics: the answer has no topics array');
  return trendingTopics(body);
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "Bluesky's trending topics, in the AppView's order (no heat values are published)",
  run: runTrending,
};
