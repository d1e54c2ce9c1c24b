import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput } from '../../crawl/errors.js';
import { StaleOperation } from '../../crawl/ops.js';
import type { CrawlContext, Page } from '../types.js';
import { isFallbackable } from './api.js';
import { loggedIn, loginNeeded } from './outcomes.js';

/*
 * One listing, several equivalent routes (a current doc_id query, a REST call, a legacy query_hash feed),
 * each paging with cursors of its own making. The next cursor is "<route>:<native cursor>" so every later
 * page stays on the route that produced it; the first page tries the routes in order.
 */
export interface Route<T> {
  /** Short name, the cursor's prefix. */
  name: string;
  /** Only with a stored login (skipped without one). */
  login?: boolean;
  page(native?: string): Promise<Page<T>>;
}

/** A stale operation id is worth saying even when a later route answered. */
export async function noting<T>(ctx: CrawlContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof StaleOperation) ctx.warn(e.message);
    throw e;
  }
}

export async function pageVia<T>(ctx: CrawlContext, what: string, routes: ReadonlyArray<Route<T>>, cursor?: string): Promise<Page<T>> {
  const tag = (route: Route<T>, page: Page<T>): Page<T> => ({ ...page, next_cursor: page.next_cursor ? `${route.name}:${page.next_cursor}` : undefined });
  if (cursor !== undefined) {
    const at = cursor.indexOf(':');
    const route = at > 0 ? routes.find((r) => r.name === cursor.slice(0, at)) : undefined;
    if (!route || at === cursor.length - 1) throw new InvalidInput(`params.cursor: not a cursor of ${what}`);
    if (route.login && !loggedIn(ctx)) throw loginNeeded(ctx, `${what} (this cursor's pages)`);
    return tag(route, await route.page(cursor.slice(at + 1)));
  }
  const usable = routes.filter((r) => !r.login || loggedIn(ctx));
  if (!usable.length) throw loginNeeded(ctx, what);
  return firstAnswering(
    usable.map((r) => async () => tag(r, await noting(ctx, () => r.page()))),
    isFallbackable,
  );
}
