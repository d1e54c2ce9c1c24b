import type { Trend } from '../../domain/results.js';
import type { CrawlContext, TrendsAction } from '../types.js';
import { ENDPOINTS, tiebaJson } from './api.js';
import { topicTrends } from './parse-json.js';

async function runTrending(ctx: CrawlContext): Promise<Trend[]> {
  return topicTrends(await tiebaJson(ctx, ENDPOINTS.hotTopics, 'hot topics'));
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "Tieba's hot-topic words (热议榜), ranked, with their discussion counts",
  run: runTrending,
};
