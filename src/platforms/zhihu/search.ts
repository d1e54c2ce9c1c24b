import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { apiGet, ENDPOINTS, isFallbackable, plainGet, type Json } from './api.js';
import { APP_HEADERS } from './app.js';
import { obj, searchDrafts, str } from './parse.js';

const PER_PAGE = 20;

export const SEARCH_TYPES = ['general', 'people'] as const;
/** Web search filters (MediaCrawler zhihu/field.py). */
export const SORTS: Record<string, string> = { relevance: '', upvoted: 'upvoted_count', newest: 'created_time' };
export const PERIODS: Record<string, string> = { any: '', day: 'a_day', week: 'a_week', month: 'a_month', three_months: 'three_months', half_year: 'half_a_year', year: 'a_year' };
export const VERTICALS: Record<string, string> = { any: '', answer: 'answer', article: 'article', zvideo: 'zvideo' };

function pick(table: Record<string, string>, value: unknown, name: string, fallback: string): string {
  const key = value === undefined ? fallback : value;
  if (typeof key !== 'string' || !Object.hasOwn(table, key)) throw new InvalidInput(`params.${name}: one of ${Object.keys(table).join(', ')}`);
  return table[key]!;
}

interface Cursor {
  offset: number;
  hash?: string;
}

/** "<offset>" or "<offset>:<search_hash_id>": later pages name the first answer's search_hash_id. */
function readCursor(cursor: string | undefined): Cursor {
  if (cursor === undefined) return { offset: 0 };
  const m = /^(\d{1,5})(?::([\w-]{1,64}))?$/.exec(cursor);
  if (!m) throw new InvalidInput('params.cursor: not a zhihu search cursor');
  return { offset: Number(m[1]), hash: m[2] };
}

function nextCursor(json: Json, from: Cursor, got: number): string | undefined {
  const paging = obj(json.paging);
  if (!paging || paging.is_end === true || got === 0) return undefined;
  let offset = from.offset + got;
  let hash = from.hash ?? str(obj(json.search_action_info)?.search_hash_id);
  const next = str(paging.next);
  if (next) {
    try {
      const u = new URL(next);
      const o = Number(u.searchParams.get('offset'));
      if (Number.isSafeInteger(o) && o > from.offset) offset = o;
      hash = u.searchParams.get('search_hash_id') ?? hash;
    } catch {
      // A relative or broken next URL: the counted offset stands.
    }
  }
  return hash && /^[\w-]{1,64}$/.test(hash) ? `${offset}:${hash}` : String(offset);
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const q = (params.query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: the words to search zhihu for are required');
  const at = readCursor(cursor);
  const t = (params.type as string | undefined) ?? 'general';
  if (!(SEARCH_TYPES as readonly string[]).includes(t)) throw new InvalidInput(`params.type: one of ${SEARCH_TYPES.join(', ')}`);
  const sort = pick(SORTS, params.sort, 'sort', 'relevance');
  const period = pick(PERIODS, params.published, 'published', 'any');
  const vertical = pick(VERTICALS, params.kind, 'kind', 'any');
  const filtered = !!(sort || period || vertical);
  const hash: Array<[string, string]> = at.hash ? [['search_hash_id', at.hash]] : [];
  const what = `search "${q}"`;
  const json = await firstAnswering<Json>(
    [
      // The web's search_v3 (signed), as the search page asks it (MediaCrawler zhihu/client.py).
      async () =>
        (await apiGet(ctx, {
          endpoint: 'search',
          url: ENDPOINTS.search,
          what,
          referer: `https://www.zhihu.com/search?type=content&q=${encodeURIComponent(q)}`,
          params: [
            ['gk_version', 'gz-gaokao'],
            ['t', t],
            ['q', q],
            ['correction', 1],
            ['offset', at.offset],
            ['limit', PER_PAGE],
            ['filter_fields', ''],
            ['lc_idx', at.offset],
            ['show_all_topics', 0],
            ['search_source', filtered ? 'Filter' : 'Normal'],
            ['time_interval', period],
            ['sort', sort],
            ['vertical', vertical],
            ...hash,
          ],
        }))!,
      // The app's search_v3 on api.zhihu.com: the same answer, unsigned, with the app's headers; filters are web-only.
      async () => {
        if (filtered) return undefined;
        const u = new URL(ENDPOINTS.searchApp);
        for (const [k, v] of [['advert_count', '0'], ['correction', '1'], ['include', 'data[*].highlight,object,type'], ['limit', String(PER_PAGE)], ['offset', String(at.offset)], ['q', q], ...hash, ['search_source', 'Normal'], ['show_all_topics', '0'], ['t', t]]) u.searchParams.append(k!, v!);
        return plainGet(ctx, u.toString(), `${what} (app)`, APP_HEADERS);
      },
    ],
    isFallbackable,
  );
  const items = searchDrafts(json);
  const got = Array.isArray(json.data) ? json.data.length : 0;
  return { items, next_cursor: nextCursor(json, at, got) };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Zhihu search: answers, articles, questions and videos for the words (type people: the members found)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'the words to search for' },
    { name: 'type', type: 'string', required: false, enum: [...SEARCH_TYPES], default: 'general', description: 'general (content) or people (members, as items pointing at their profiles)' },
    { name: 'kind', type: 'string', required: false, enum: Object.keys(VERTICALS), default: 'any', description: 'only this content kind: answer, article, zvideo' },
    { name: 'sort', type: 'string', required: false, enum: Object.keys(SORTS), default: 'relevance', description: 'relevance, upvoted (most upvoted) or newest' },
    { name: 'published', type: 'string', required: false, enum: Object.keys(PERIODS), default: 'any', description: 'only content published within: day, week, month, three_months, half_year, year' },
  ],
  page: searchPage,
};
