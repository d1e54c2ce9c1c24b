import type { CrawlContext } from '../types.js';
import { ENDPOINTS, apiHeaders, asGuest, checkGraphql, checkStatus, readJson, type Json } from './api.js';
import { QUERIES, RESULT_FIELD, type Operation } from './queries.js';

/**
 * One unsigned GraphQL call to www.kuaishou.com/graphql: the operation's result object, its `result`
 * and any top-level `errors` mapped to outcomes (api.ts).
 */
export async function graphql(ctx: CrawlContext, operation: Operation, variables: Json, o: { what: string; referer: string }): Promise<Json> {
  const body = JSON.stringify({ operationName: operation, variables, query: QUERIES[operation] });
  return asGuest(ctx, async (cookie) => {
    const headers = apiHeaders(o.referer);
    if (cookie) headers.Cookie = cookie;
    const res = await ctx.http.request({ method: 'POST', url: ENDPOINTS.graphql, headers, body });
    checkStatus(res, o.what);
    return checkGraphql(readJson(res, o.what), RESULT_FIELD[operation], o.what);
  });
}
