import { ParseError } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, Params, TrendsAction } from '../types.js';
import { NSID, firstAnswer, publicGet } from './api.js';
import { trendingTopics } from './parse.js';

/** The most topics getTrendingTopics hands out per call. */
const MAX_TOPICS = 25;
/** getTrends' maximum per call. */
const MAX_TRENDS = 25;

/** getTrends, the app's newer trending list, when getTrendingTopics cannot be had non-terminally. */
async function runTrending(ctx: CrawlContext, _params: Params): Promise<Trend[]> {
  return firstAnswer([
    async () => {
      const body = await publicGet(ctx, NSID.getTrendingTopics, { limit: MAX_TOPICS });
      if (!Array.isArray(body.topics)) throw new ParseError('getTrendingTopics: the answer has no topics array');
      return trendingTopics(body);
    },
    async () => {
      const body = await publicGet(ctx, NSID.getTrends, { limit: MAX_TRENDS });
      if (!Array.isArray(body.trends)) throw new ParseError('getTrends: the answer has no trends array');
      return trendingTopics(body);
    },
  ]);
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "Bluesky's trending topics, in the AppView's order (hot_value only where getTrends reports a postCount)",
  run: runTrending,
};
