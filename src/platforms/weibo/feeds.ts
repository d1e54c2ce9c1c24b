import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { CONTAINERS, ENDPOINTS, firstRecorded, getJson, withFallback } from './api.js';
import { resolveUid } from './creator.js';
import { cardsToMblogs, decodePcPage, mblogToDraft, obj, str } from './parse.js';
import { pcTimelinePage } from './pc.js';

const drafts = (cards: unknown): ItemDraft[] =>
  cardsToMblogs(cards)
    .map(mblogToDraft)
    .filter((d): d is ItemDraft => !!d);

/** A positive integer-ish cursor value, or undefined when weibo signals the end (absent, 0, empty). */
function nextOf(v: unknown): string | undefined {
  const s = str(v);
  return s && /^\d+$/.test(s) && !/^0+$/.test(s) ? s : undefined;
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const q = (params.query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a search keyword is required');
  if (cursor !== undefined && !/^\d+$/.test(cursor)) throw new InvalidInput('params.cursor: not a weibo search cursor');
  const referer = `https://m.weibo.cn/search?containerid=${encodeURIComponent(CONTAINERS.search(q))}`;
  const env = await firstRecorded(
    [CONTAINERS.search(q), ...CONTAINERS.searchAliases(q)].map(
      (containerid) => () => getJson(ctx, ENDPOINTS.getIndex, { containerid, page_type: 'searchall', page: cursor }, 'search', referer),
    ),
  );
  if (env.kind === 'empty') return { items: [] };
  const items = drafts(env.data.cards);
  // cardlistInfo.page is the next page number; null on the last page.
  const next = items.length ? nextOf(obj(env.data.cardlistInfo)?.page) : undefined;
  return { items, next_cursor: next !== cursor ? next : undefined };
}

/** Older timeline containers page by number (cardlistInfo.page names the next one); such cursors read "page:<n>". */
const PAGE_CURSOR = /^page:(\d+)$/;

async function mobileTimelinePage(ctx: CrawlContext, uid: string, cursor?: string): Promise<Page<ItemDraft>> {
  const pageNo = PAGE_CURSOR.exec(cursor ?? '')?.[1];
  const paging = pageNo !== undefined ? { page: pageNo } : { since_id: cursor };
  // Only the timeline container is sent: a type/value pair would make this look like the profile request.
  const env = await getJson(ctx, ENDPOINTS.getIndex, { containerid: CONTAINERS.timeline(uid), ...paging }, 'timeline', `https://m.weibo.cn/u/${uid}`);
  if (env.kind === 'empty') return { items: [] };
  if (!Array.isArray(env.data.cards)) throw new ParseError('timeline: data.cards is missing');
  // Pinned (isTop) statuses lead every page and may be old; they stay, and the runner drops repeats.
  const items = drafts(env.data.cards);
  if (!items.length) return { items };
  const info = obj(env.data.cardlistInfo);
  const sinceId = nextOf(info?.since_id);
  if (sinceId) return { items, next_cursor: sinceId };
  // No since_id: a page number, when weibo names one past the page just read.
  const nextPage = nextOf(info?.page);
  const current = pageNo !== undefined ? Number(pageNo) : 1;
  return { items, next_cursor: nextPage && Number(nextPage) > current ? `page:${nextPage}` : undefined };
}

/*
 * The first page comes from m.weibo.cn, or from weibo.com's mymblog when m.weibo.cn fails non-terminally.
 * Later pages stay on the route that handed out the cursor: a since_id means nothing to mymblog, which
 * pages by number ("pc:<page>").
 */
async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const uid = await resolveUid(ctx, params.query);
  const pcPage = decodePcPage(cursor);
  if (pcPage !== undefined) return pcTimelinePage(ctx, uid, pcPage);
  if (cursor !== undefined && !/^\d+$/.test(cursor) && !PAGE_CURSOR.test(cursor)) throw new InvalidInput('params.cursor: not a weibo timeline cursor');
  // A small bare number is a page number, never a since_id (those are status ids): the container's page, or
  // mymblog's page when m.weibo.cn fails non-terminally.
  if (cursor !== undefined && /^[1-9]\d{0,3}$/.test(cursor)) {
    const n = Number(cursor);
    return withFallback(
      () => mobileTimelinePage(ctx, uid, `page:${n}`),
      () => pcTimelinePage(ctx, uid, n),
    );
  }
  if (cursor !== undefined) return mobileTimelinePage(ctx, uid, cursor);
  return withFallback(
    () => mobileTimelinePage(ctx, uid),
    () => pcTimelinePage(ctx, uid, 1),
  );
}

/** hot is posts; the hot-search words are trends (weibo.trending, board realtimehot or topicband). */
export const HOT_CATEGORIES: Category[] = [{ id: 'hotposts', name: '热门微博 · hot posts feed', actions: ['hot'] }];

async function hotPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const category = params.category ?? 'hotposts';
  if (category === 'realtimehot' || category === 'topicband') {
    throw new InvalidInput(`params.category: weibo's ${category} board lists search words, not posts: ask weibo.trending with board=${category}`);
  }
  if (category === 'hotposts') {
    if (cursor !== undefined && !/^\d+$/.test(cursor)) throw new InvalidInput('params.cursor: not a weibo hot-feed cursor');
    const env = await getJson(ctx, ENDPOINTS.getIndex, { containerid: CONTAINERS.hotPosts, openApp: 0, since_id: cursor }, 'hot posts feed');
    if (env.kind === 'empty') return { items: [] };
    const items = drafts(env.data.cards);
    const next = items.length ? nextOf(obj(env.data.cardlistInfo)?.since_id) : undefined;
    return { items, next_cursor: next !== cursor ? next : undefined };
  }
  throw new InvalidInput(`params.category: weibo has no hot category "${category}" (use ${HOT_CATEGORIES.map((c) => c.id).join(' or ')})`);
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Search weibo statuses by keyword (m.weibo.cn search, all results)',
  params: [{ name: 'query', type: 'string', required: true, description: 'search keyword' }],
  page: searchPage,
};

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A weibo creator's timeline, newest first (pinned posts lead the first page)",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'uid, profile URL (weibo.com/u/<uid>, m.weibo.cn/u/<uid>, m.weibo.cn/profile/<uid>, weibo.com/<uid>) or @screen_name',
    },
  ],
  page: postsPage,
};

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: 'Weibo hot lists: the realtime hot-search board (one text item per word, views = heat) or the hot posts feed',
  categories: true,
  page: hotPage,
};
