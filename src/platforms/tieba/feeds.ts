import { InvalidInput, NotFound, ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, FORUM_GONE, loginFirst, pcCall, query, tiebaGet, tiebaJson } from './api.js';
import { parseForumPage, parseSearchPage } from './parse-html.js';
import { parsePcSearch, topicDrafts, userThreads } from './parse-json.js';
import { forumUrl, parseForumRef, parseUserRef, userFromUrl } from './refs.js';
import { userName } from './users.js';

/** Search order: tieba's sm / st values (MC media_platform/tieba/field.py SearchSortType). */
export const SORTS = { newest: 1, oldest: 0, relevance: 2 } as const;
const HTML_PER_PAGE = 10;
const PC_PER_PAGE = 20;
/** "抱歉，没有找到与“…”相关的结果": the search page's honest no-result answer. */
const NO_RESULTS = /没有找到与|没有找到相关|抱歉，没有找到/;

function pageNumber(cursor: string | undefined, first: number, name: string): number {
  if (cursor === undefined) return first;
  if (!/^\d{1,6}$/.test(cursor)) throw new InvalidInput(`params.cursor: not a tieba ${name} cursor`);
  return Number(cursor);
}

/*
 * Search: the PC site's own JSON (multsearch, signed) when the profile is logged in, else and as its
 * fallback the search page /f/search/res (HTML, often GBK), 10 hits a page by pn. A page that is neither a
 * result list nor tieba's "no results" wording is reported as a changed page, never as an empty answer.
 */
async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const word = (params.query ?? '').trim();
  if (!word) throw new InvalidInput('params.query: the words to search tieba for are required');
  const sort = params.sort === undefined ? SORTS.newest : SORTS[params.sort as keyof typeof SORTS];
  if (sort === undefined) throw new InvalidInput(`params.sort: one of ${Object.keys(SORTS).join(', ')}`);
  const pn = pageNumber(cursor, 1, 'search');
  const what = `search "${word}"`;
  const pc = async (): Promise<Page<ItemDraft>> => {
    const json = await pcCall(ctx, {
      endpoint: 'search',
      url: ENDPOINTS.pcSearch,
      method: 'GET',
      what: `${what} (PC API)`,
      params: [['rn', PC_PER_PAGE], ['st', sort], ['word', word], ['needbrand', 1], ['sug_type', 2], ['pn', pn], ['come_from', 'search']],
    });
    const r = parsePcSearch(json);
    return { items: r.drafts, next_cursor: r.drafts.length && r.hasMore !== false ? String(pn + 1) : undefined };
  };
  const html = async (): Promise<Page<ItemDraft>> => {
    const url = `${ENDPOINTS.search}?${query([['ie', 'utf-8'], ['isnew', 1], ['qw', word], ['rn', HTML_PER_PAGE], ['pn', pn], ['sm', sort], ['only_thread', params.threads_only ? 1 : 0]])}`;
    const { text } = await tiebaGet(ctx, url, what);
    const r = parseSearchPage(text);
    if (!r.drafts.length && !NO_RESULTS.test(text)) throw new ParseError(`${what}: the page is neither a result list nor tieba's "no results"; tieba may have changed its search page`);
    return { items: r.drafts, next_cursor: r.hasNext ? String(pn + 1) : undefined };
  };
  return loginFirst(ctx, what, pc, html);
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Tieba post search: the threads whose posts match the words, with forum, author and time',
  params: [
    { name: 'query', type: 'string', required: true, description: 'the words to search for' },
    { name: 'sort', type: 'string', required: false, enum: Object.keys(SORTS), default: 'newest', description: 'newest (default), oldest or relevance' },
    { name: 'threads_only', type: 'boolean', required: false, default: false, description: 'match opening posts only (only_thread=1), not replies' },
  ],
  page: searchPage,
};

/*
 * posts: a forum's threads by default (query = its name or a /f?kw= link; 50 a page, pn = 0, 50, 100…), or
 * a user's threads with of=user (query = a user name, a portrait or a /home/main link; a user link or a
 * portrait needs no of=). The user's list is /home/get/getthread, addressed by user name; a portrait is
 * first turned into the name by /home/get/panel.
 */
export const POSTS_OF = ['forum', 'user'] as const;

function isUserRef(q: string): boolean {
  if (/^tb\.\d+\./.test(q)) return true;
  try {
    const url = new URL(/^https?:\/\//i.test(q) ? q : `https://${q}`);
    return !!userFromUrl(url);
  } catch {
    return false;
  }
}

async function forumPage(ctx: CrawlContext, query_: string | undefined, cursor?: string): Promise<Page<ItemDraft>> {
  const name = parseForumRef(query_);
  const pn = pageNumber(cursor, 0, 'forum');
  const what = `forum "${name}"`;
  const { res, text } = await tiebaGet(ctx, `${ENDPOINTS.forum}?${query([['kw', name], ['ie', 'utf-8'], ['pn', pn]])}`, what, forumUrl(name));
  const landed = new URL(res.url).pathname;
  if (landed !== '/f' && landed !== '/f/') throw new NotFound(`${what}: tieba has no such forum (it sent the request on to ${landed})`);
  const page = parseForumPage(text);
  if (!page.drafts.length) {
    if (FORUM_GONE.test(text)) throw new NotFound(`${what}: tieba says the forum does not exist or is closed`);
    if (!page.forumId && !page.hasList) throw new ParseError(`${what}: the page carries neither forum data nor a thread list; tieba may have changed the page`);
  }
  return { items: page.drafts, next_cursor: page.drafts.length && page.nextPn && Number(page.nextPn) > pn ? page.nextPn : undefined };
}

async function userPostsPage(ctx: CrawlContext, query_: string | undefined, cursor?: string): Promise<Page<ItemDraft>> {
  const ref = parseUserRef(query_);
  const pn = pageNumber(cursor, 1, 'user posts');
  const user = 'portrait' in ref ? { portrait: ref.portrait, handle: await userName(ctx, ref.portrait) } : { handle: ref.name };
  const json = await tiebaJson(ctx, `${ENDPOINTS.userThreads}?${query([['un', user.handle], ['pn', pn], ['ie', 'utf-8']])}`, `threads of ${user.handle}`);
  const r = userThreads(json, user);
  return { items: r.drafts, next_cursor: r.hasMore && r.drafts.length ? String(pn + 1) : undefined };
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const of = (params.of as string | undefined) ?? (isUserRef((params.query ?? '').trim()) ? 'user' : 'forum');
  if (!(POSTS_OF as readonly string[]).includes(of)) throw new InvalidInput(`params.of: one of ${POSTS_OF.join(', ')}`);
  return of === 'user' ? userPostsPage(ctx, params.query, cursor) : forumPage(ctx, params.query, cursor);
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A tieba forum's threads (newest activity first), or a user's threads with of=user",
  walk: true,
  params: [
    { name: 'query', type: 'string', required: true, description: 'forum name or tieba.baidu.com/f?kw= link; with of=user (or a user link / portrait): a user name, portrait tb.1.… or /home/main link' },
    { name: 'of', type: 'string', required: false, enum: [...POSTS_OF], description: 'forum (default for a name) or user' },
  ],
  page: postsPage,
};

async function hotPage(ctx: CrawlContext): Promise<Page<ItemDraft>> {
  return { items: topicDrafts(await tiebaJson(ctx, ENDPOINTS.hotTopics, 'hot topics')) };
}

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "Tieba's hot-topic board (热议榜) as items: topic name, summary, picture, discussion count",
  page: hotPage,
};
