import { InvalidInput, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, fetchChecked, HTML_ACCEPT } from './api.js';
import { SEARCH_TABS, searchCards, searchCardToDraft, type SearchTab } from './parse.js';
import { encodeQuery } from './signer.js';

/*
 * Keyword search from the result page so.toutiao.com/search?keyword=&pd=<tab>&dvpf=pc&source=input&page_num=
 * (unsigned; search index 71297596170, 41607675475, 66250831631 for the pagination form source=pagination
 * &action_type=pagination). Results are the page's JSON cards; only cards naming a toutiao post count.
 * The page sometimes answers without any card (71297596170 measured ~5–12 %): that is reported as an
 * upstream error to retry, never as "no results". Paging is known to repeat the first page at times
 * (71249200963), so the cursor remembers the previous page's first result and paging stops on a repeat.
 */

const MAX_PAGE = 9;
const TAB_NAMES = Object.keys(SEARCH_TABS) as SearchTab[];

function parseCursor(cursor: string | undefined): { page: number; prevFirst?: string } {
  if (cursor === undefined) return { page: 0 };
  const m = /^([1-9])(?:\.(\d{15,20}))?$/.exec(cursor);
  if (!m) throw new InvalidInput('params.cursor: not a toutiao search cursor');
  return { page: Number(m[1]), prevFirst: m[2] };
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const keyword = (params.query ?? '').trim();
  if (!keyword) throw new InvalidInput('params.query: a search keyword is required');
  const tab = (params.tab as SearchTab | undefined) ?? 'synthesis';
  if (!TAB_NAMES.includes(tab)) throw new InvalidInput(`params.tab: one of ${TAB_NAMES.join(', ')}`);
  const { page, prevFirst } = parseCursor(cursor);
  const pairs: Array<[string, string]> = [
    ['keyword', keyword],
    ['pd', tab],
    ['dvpf', 'pc'],
    ['source', page ? 'pagination' : 'input'],
    ['page_num', String(page)],
  ];
  if (page) pairs.push(['action_type', 'pagination']);
  const what = `search "${keyword}" page ${page + 1}`;
  const res = await fetchChecked(ctx, { what, url: `${ENDPOINTS.search}?${encodeQuery(pairs)}`, accept: HTML_ACCEPT, referer: 'https://so.toutiao.com/', guest: true });
  const cards = searchCards(res.text());
  if (!cards.length) {
    if (page) return { items: [] };
    throw new UpstreamError(`${what}: the result page carried no result cards (toutiao does this now and then; retry)`);
  }
  const items = cards.map((c) => searchCardToDraft(c, tab)).filter((d): d is ItemDraft => !!d);
  const first = items[0]?.native_id;
  if (prevFirst && first === prevFirst) {
    ctx.warn(`toutiao answered page ${page + 1} of "${keyword}" with the previous page again; paging stopped`);
    return { items };
  }
  return { items, next_cursor: items.length && first && page < MAX_PAGE ? `${page + 1}.${first}` : undefined };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Search toutiao posts by keyword (so.toutiao.com result page; about 10 per page)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'search keyword' },
    {
      name: 'tab',
      type: 'string',
      required: false,
      enum: TAB_NAMES,
      default: 'synthesis',
      description: 'synthesis: all results (综合); information: articles (资讯); weitoutiao: micro-posts (微头条); video: videos',
    },
  ],
  page: searchPage,
};
