import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { explainMissing, getPage, hasLogin, loginNeeded, morePath, ROUTES, type FbPage } from './api.js';
import { nextTimelineHref } from './markup.js';
import { timelineDrafts } from './parse.js';
import { parsePageRef, type PageRef } from './refs.js';

/** Paths a timeline's "see more" href may take: a page's, a profile's, a group's, a search's. */
const TIMELINE_MORE = /^\/(?:page_content_list_view\/more\/|profile\/timeline\/stream\/?|groups\/[^/]+\/?)$/;
const SEARCH_MORE = /^\/search\//;
/** A page's timeline container (present with or without posts on it). */
const PAGE_TIMELINE = 'id="pages_msite_body_contents"';
/** Facebook's own no-results wording on a search page. */
const NO_RESULTS = /We couldn[’']t find anything for|We didn[’']t find any results|No results found/i;

/** The start_cursor in a page's "see more" href says whether another page exists. */
export function hasNextPage(href: string): boolean {
  try {
    const start = new URL(href, ROUTES.more('/')).searchParams.get('start_cursor');
    if (!start) return true;
    return (JSON.parse(start) as { has_next_page?: unknown }).has_next_page !== false;
  } catch {
    return true;
  }
}

function pageItems(page: FbPage): { items: ItemDraft[]; next?: string } {
  const scripts = page.async?.script ?? '';
  const items = timelineDrafts(page.html, scripts);
  const href = nextTimelineHref(page.async ? `${scripts}\n${page.html}` : page.html);
  return { items, next: href && hasNextPage(href) ? href : undefined };
}

const describe = (ref: PageRef): string => (ref.kind === 'page' ? `page ${ref.page}` : ref.kind === 'profile' ? `profile ${ref.id}` : `group ${ref.group}`);

/*
 * A page's posts (m.facebook.com/<page>/posts/, then page_content_list_view/more/?page_id=…&start_cursor=…
 * async pages); profiles and groups by their m. timelines, which facebook shows to logged-in viewers.
 * The native cursor is the "see more" href itself.
 */
async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const ref = parsePageRef(params.query);
  const what = `facebook posts of ${describe(ref)}`;
  const url = cursor !== undefined ? ROUTES.more(morePath(cursor, TIMELINE_MORE, 'posts')) : ROUTES.timeline(ref);
  const page = await getPage(ctx, url, what);
  const { items, next } = pageItems(page);
  if (!items.length && cursor === undefined) {
    // A page's timeline with no story on it is an honest empty; anything else is a wall or a layout we cannot read.
    if (ref.kind === 'page' && page.html.includes(PAGE_TIMELINE) && !next) return { items: [] };
    explainMissing(ctx, page, what, 'no posts on the page');
  }
  return { items, next_cursor: next && next !== cursor ? next : undefined };
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A public facebook page's posts, newest first (anonymous); a personal profile's or group's timeline needs a login profile and answers session_expired naming it",
  walk: true,
  timeOrdered: true,
  params: [{ name: 'query', type: 'string', required: true, description: 'page handle (Nintendo), numeric page id, facebook.com/<page> link, /profile.php?id=, /people/<name>/<id> or /groups/<group>' }],
  page: postsPage,
};

/** Post search (m.facebook.com/search/posts/?q=): facebook answers it to logged-in viewers only. */
async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const words = (params.query ?? '').trim();
  if (!words) throw new InvalidInput('params.query: the words to search facebook posts for are required');
  const what = `facebook search "${words}"`;
  // Never a guess at what an anonymous search would show: facebook asks for a login.
  if (!hasLogin(ctx)) throw loginNeeded(ctx, what);
  const url = cursor !== undefined ? ROUTES.more(morePath(cursor, SEARCH_MORE, 'search')) : ROUTES.search(words);
  const page = await getPage(ctx, url, what);
  const { items, next } = pageItems(page);
  if (!items.length && cursor === undefined) {
    if (NO_RESULTS.test(page.html)) return { items: [] };
    explainMissing(ctx, page, what, 'no posts on the results page');
  }
  const nextSearch = next && SEARCH_MORE.test(new URL(next, ROUTES.more('/')).pathname) ? next : undefined;
  return { items, next_cursor: nextSearch && nextSearch !== cursor ? nextSearch : undefined };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Facebook post search: needs a login profile (c_user, xs); without one it answers session_expired naming the profile to add',
  params: [{ name: 'query', type: 'string', required: true, description: 'the words to search posts for' }],
  page: searchPage,
};
