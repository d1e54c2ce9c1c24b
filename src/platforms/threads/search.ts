import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { APP_PATHS, appGet, requireLogin } from './api.js';
import { searchRowsOf } from './answers.js';
import { objs, str, userCard } from './parse.js';
import { appConfig } from './ops.js';
import { draftsOf } from './posts.js';

const TYPES = ['posts', 'users'] as const;
const SORTS = ['top', 'recent'] as const;

/*
 * Search is behind the login on www.threads.com, so it goes through the app's private API with the
 * profile's login (FxEmbed providers/threads/search.ts, private-api.ts): posts from
 * fbsearch/text_app/serp/ (search_surface and `recent` must agree, or the other tab's ranking comes
 * back), accounts from users/search/ (one ranked page; Instagram's index, so accounts that never joined
 * Threads are left out). The posts cursor is "<page_num>:<rank_token>:<page_token>", all three of which
 * the next page must send back.
 */
async function postsSearch(ctx: CrawlContext, query: string, recent: boolean, cursor?: string): Promise<Page<ItemDraft>> {
  const m = cursor === undefined ? undefined : /^(\d{1,4}):([^:]*):(.+)$/s.exec(cursor);
  if (cursor !== undefined && !m) throw new InvalidInput('params.cursor: not a threads search cursor');
  const app = appConfig(ctx);
  const pageNum = m ? Number(m[1]) : 0;
  const json = await appGet(
    ctx,
    APP_PATHS.postSearch,
    {
      query,
      search_surface: recent ? app.search_surface_recent : app.search_surface_top,
      recent: recent ? '1' : '0',
      is_from_pull_to_refresh: '0',
      page_token: m?.[3],
      page_num: pageNum || undefined,
      rank_token: m?.[2] || undefined,
    },
    `search "${query}"`,
    { referer: `https://www.threads.com/search?q=${encodeURIComponent(query)}` },
  );
  const page = searchRowsOf(json);
  if (!page) throw new ParseError(`search "${query}": the answer holds no results list`);
  const rank = str(json.rank_token) ?? m?.[2] ?? '';
  return { items: draftsOf(page.rows), next_cursor: page.next ? `${pageNum + 1}:${rank.replace(/:/g, '')}:${page.next}` : undefined };
}

async function usersSearch(ctx: CrawlContext, query: string): Promise<Page<ItemDraft>> {
  const json = await appGet(ctx, APP_PATHS.userSearch, { q: query, search_surface: 'user_search_page' }, `user search "${query}"`, { acceptHint: 'user_list' });
  if (!Array.isArray(json.users)) throw new ParseError(`user search "${query}": the answer holds no users list`);
  return { items: objs(json.users).map(userCard).filter((d): d is ItemDraft => !!d) };
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const query = (params.query ?? '').trim();
  if (!query) throw new InvalidInput('params.query: the words to search threads for are required');
  const type = (params.type as (typeof TYPES)[number] | undefined) ?? 'posts';
  const sort = (params.sort as (typeof SORTS)[number] | undefined) ?? 'top';
  requireLogin(ctx, `threads search (${type})`);
  return type === 'users' ? usersSearch(ctx, query) : postsSearch(ctx, query, sort === 'recent', cursor);
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Threads search, posts or accounts (needs a login: Threads shows search only to logged-in accounts)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'the words (or name) to search for' },
    { name: 'type', type: 'string', required: false, default: 'posts', enum: [...TYPES], description: 'posts, or users (accounts, as text cards whose id is @handle)' },
    { name: 'sort', type: 'string', required: false, default: 'top', enum: [...SORTS], description: 'posts: top or recent (the two tabs of the search page)' },
  ],
  page: searchPage,
};
