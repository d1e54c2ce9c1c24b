import { InvalidInput, SessionExpired } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, plainGet, type Json } from './api.js';
import { APP_HEADERS } from './app.js';
import { hotDraft, objs } from './parse.js';

/*
 * The hot list's tabs as the API names them (/hot-lists/<tab>): the site-wide list and the domain lists
 * the hot page offers (tab names from a client that lists them, e.g. 全站 total, 科学 science, 时事 depth,
 * 国际 focus), and the video list (zvideo, fixtures/zhihu hot-lists-zvideo).
 */
export const HOT_CATEGORIES: Category[] = [
  { id: 'total', name: '全站: the site-wide hot list', actions: ['hot'] },
  { id: 'science', name: '科学: science', actions: ['hot'] },
  { id: 'digital', name: '数码: digital', actions: ['hot'] },
  { id: 'sport', name: '体育: sport', actions: ['hot'] },
  { id: 'fashion', name: '时尚: fashion', actions: ['hot'] },
  { id: 'film', name: '影视: film and TV', actions: ['hot'] },
  { id: 'school', name: '校园: campus', actions: ['hot'] },
  { id: 'car', name: '汽车: cars', actions: ['hot'] },
  { id: 'depth', name: '时事: current affairs', actions: ['hot'] },
  { id: 'focus', name: '国际: international', actions: ['hot'] },
  { id: 'zvideo', name: '视频: the hot video list', actions: ['hot'] },
];

const LIMIT = 50;

/**
 * Unsigned. A login's cookies go with it (HttpClient adds them); a guest that gets 401 (the list has wanted a
 * login on the web since 2025-05) asks again as the iOS app, which is still answered; a 401 there too
 * is session_expired: store a zhihu profile.
 */
async function hotList(ctx: CrawlContext, tab: string): Promise<Json> {
  const url = `${ENDPOINTS.hotList(tab)}?limit=${LIMIT}`;
  const what = `hot list ${tab}`;
  try {
    return await plainGet(ctx, url, what, { 'x-api-version': '3.0.76' });
  } catch (e) {
    if (ctx.session.cookies || !(e instanceof SessionExpired)) throw e;
    const json = await plainGet(ctx, url, `${what} (as the app)`, { ...APP_HEADERS, 'x-api-version': '3.0.76' });
    ctx.warn('zhihu wanted a login for the web hot list; it was read as the iOS app instead');
    return json;
  }
}

async function hotPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const tab = params.category ?? 'total';
  if (!HOT_CATEGORIES.some((c) => c.id === tab)) throw new InvalidInput(`params.category: one of ${HOT_CATEGORIES.map((c) => c.id).join(', ')}`);
  const json = await hotList(ctx, tab);
  return { items: objs(json.data).map(hotDraft).filter((d): d is ItemDraft => !!d) };
}

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "Zhihu's hot list (热榜) by tab: the questions (and videos) ranked, with their excerpt and cover",
  categories: true,
  page: hotPage,
};
