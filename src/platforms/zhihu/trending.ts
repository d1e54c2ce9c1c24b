import { firstAnswering } from '../../crawl/fallback.js';
import { ParseError } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, TrendsAction } from '../types.js';
import { ENDPOINTS, isFallbackable, pageGet, plainGet } from './api.js';
import { initialData } from './html.js';
import { obj, wordTrends } from './parse.js';

/** recommend_query/v2: {recommend_queries: {queries: [{query_display, real_query}]}}; none listed is "ask the page". */
async function fromApi(ctx: CrawlContext): Promise<Trend[] | undefined> {
  const json = await plainGet(ctx, ENDPOINTS.hotWords, 'hot-search words');
  const trends = wordTrends(obj(json.recommend_queries)?.queries ?? obj(json.top_search)?.words);
  return trends.length ? trends : undefined;
}

/** The 知乎热搜 page: js-initialData initialState.topsearch.data [{queryDisplay, realQuery, queryDescription}]. */
async function fromPage(ctx: CrawlContext): Promise<Trend[]> {
  const html = await pageGet(ctx, ENDPOINTS.topSearchPage, 'hot-search page');
  const topsearch = obj(obj(initialData(html)?.initialState)?.topsearch);
  if (!topsearch) throw new ParseError('hot-search page: no js-initialData topsearch');
  return wordTrends(topsearch.data);
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "Zhihu's hot-search words (知乎热搜), ranked, each with its search link",
  run: (ctx) => firstAnswering<Trend[]>([() => fromApi(ctx), () => fromPage(ctx)], isFallbackable),
};
