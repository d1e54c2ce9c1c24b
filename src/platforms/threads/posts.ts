import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { APP_PATHS, appGet, graphql, isFallbackable, noting } from './api.js';
import { profileFeedOf, type FeedPage } from './answers.js';
import { postToDraft, type ThreadsPost } from './parse.js';
import { resolveUser } from './resolve.js';
import { hasLogin } from './session.js';

const PER_PAGE = 20;
const APP_PER_PAGE = 15;

/** Every post of the rows once, in order; posts Threads marks unavailable are left out. */
export function draftsOf(rows: ThreadsPost[][]): ItemDraft[] {
  const seen = new Set<string>();
  const out: ItemDraft[] = [];
  for (const row of rows) {
    for (const p of row) {
      if (p.unavailable || seen.has(p.pk)) continue;
      seen.add(p.pk);
      out.push(postToDraft(p));
    }
  }
  return out;
}

function feed(json: Record<string, unknown>, what: string): FeedPage {
  const page = profileFeedOf(json);
  if (!page) throw new ParseError(`${what}: the answer holds no threads list`);
  return page;
}

/*
 * A profile's threads: the 2026 web tab query (Relay `after` paging), the 2023 one (first page only),
 * and with a login the app's text_feed/<pk>/profile/ (max_id paging). Cursors are "w:<end_cursor>" or
 * "a:<max_id>": each only means something to the route that made it.
 */
async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const m = cursor === undefined ? undefined : /^([wa]):(.+)$/s.exec(cursor);
  if (cursor !== undefined && !m) throw new InvalidInput('params.cursor: not a threads posts cursor');
  const pk = await resolveUser(ctx, params.query);
  const what = `threads of ${pk}`;
  const web = async (after?: string): Promise<Page<ItemDraft>> => {
    const json = await graphql(ctx, 'BarcelonaProfileThreadsTabRefetchableDirectQuery', { after: after ?? null, allow_page_info_for_lox_user: true, before: null, first: PER_PAGE, last: null, userID: pk }, what);
    const page = feed(json, what);
    return { items: draftsOf(page.rows), next_cursor: page.next ? `w:${page.next}` : undefined };
  };
  const legacy = async (): Promise<Page<ItemDraft>> => {
    const json = await graphql(ctx, 'BarcelonaProfileThreadsTabQuery', { userID: pk }, what, { remint: false });
    return { items: draftsOf(feed(json, what).rows) };
  };
  const app = async (maxId?: string): Promise<Page<ItemDraft>> => {
    const json = await appGet(ctx, APP_PATHS.profileFeed(pk), { count: APP_PER_PAGE, max_id: maxId }, what);
    const page = feed(json, what);
    return { items: draftsOf(page.rows), next_cursor: page.next ? `a:${page.next}` : undefined };
  };
  if (m) return m[1] === 'w' ? web(m[2]) : app(m[2]);
  return firstAnswering([noting(ctx, () => web()), noting(ctx, legacy), ...(hasLogin(ctx) ? [() => app()] : [])], isFallbackable);
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A threads user's posts, newest first (anonymous; max_items walks the account)",
  params: [{ name: 'query', type: 'string', required: true, description: '@handle, a threads.com/@handle link, or the numeric user id' }],
  walk: true,
  timeOrdered: true,
  page: postsPage,
};
