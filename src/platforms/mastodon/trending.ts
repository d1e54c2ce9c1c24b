import type { TrendsAction } from '../types.js';
import { ENDPOINTS, MAX_LIMIT, firstOf, getJson } from './api.js';
import { INSTANCE_PARAM, expectArray } from './common.js';
import { pickInstance } from './instance.js';
import { linksToTrends, statusesToTrends, tagsToTrends } from './parse.js';

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "the server's trending hashtags (#tag, hot_value = uses over the reported days) or links; an empty list is the server saying nothing trends",
  params: [
    { name: 'board', type: 'string', required: false, default: 'tags', enum: ['tags', 'links'], description: 'tags: trending hashtags; links: trending links (page title, its URL, uses over the reported days)' },
    INSTANCE_PARAM,
  ],
  async run(ctx, params) {
    const inst = pickInstance(ctx, params);
    if (params.board === 'links') {
      const { data } = await getJson(ctx, inst, ENDPOINTS.trendLinks, { limit: MAX_LIMIT.trendLinks }, 'trending links');
      return linksToTrends(expectArray(data, 'trending links'));
    }
    const tags = async (path: string) => {
      const { data } = await getJson(ctx, inst, path, { limit: MAX_LIMIT.trendTags }, 'trending tags');
      return tagsToTrends(expectArray(data, 'trending tags'));
    };
    return firstOf([
      () => tags(ENDPOINTS.trendTags),
      () => tags(ENDPOINTS.trendTagsLegacy),
      async () => {
        const { data } = await getJson(ctx, inst, ENDPOINTS.trendStatuses, { limit: MAX_LIMIT.trendTags }, 'trending posts');
        const trends = statusesToTrends(expectArray(data, 'trending posts'), inst.host);
        ctx.warn(`${inst.host} did not serve trending tags; these are its trending posts`);
        return trends;
      },
    ]);
  },
};
