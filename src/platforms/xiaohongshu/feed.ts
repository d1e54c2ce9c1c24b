import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput, SessionExpired } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { api, ENDPOINTS, isFallbackable, pageState, WWW } from './api.js';
import { hasLogin } from './guest.js';
import { noteDraft, obj, objs, str } from './parse.js';
import { rememberToken } from './refs.js';

/** The explore page's channels (channel_id), as the web client offers them. */
export const FEED_CATEGORIES: Category[] = [
  { id: 'homefeed_recommend', name: '推荐 (recommended)', actions: ['recommended'] },
  { id: 'homefeed.fashion_v3', name: '穿搭 (fashion)', actions: ['recommended'] },
  { id: 'homefeed.food_v3', name: '美食 (food)', actions: ['recommended'] },
  { id: 'homefeed.cosmetics_v3', name: '彩妆 (cosmetics)', actions: ['recommended'] },
  { id: 'homefeed.movie_and_tv_v3', name: '影视 (movies and TV)', actions: ['recommended'] },
  { id: 'homefeed.career_v3', name: '职场 (career)', actions: ['recommended'] },
  { id: 'homefeed.love_v3', name: '情感 (relationships)', actions: ['recommended'] },
  { id: 'homefeed.household_product_v3', name: '家居 (home)', actions: ['recommended'] },
  { id: 'homefeed.gaming_v3', name: '游戏 (gaming)', actions: ['recommended'] },
  { id: 'homefeed.travel_v3', name: '旅行 (travel)', actions: ['recommended'] },
  { id: 'homefeed.fitness_v3', name: '健身 (fitness)', actions: ['recommended'] },
];

const PER_PAGE = 20;

function draftsOf(ctx: CrawlContext, list: unknown): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const raw of objs(list)) {
    const got = noteDraft(raw, 'pc_feed');
    if (!got) continue;
    rememberToken(ctx, got.draft.native_id, got.token);
    out.push(got.draft);
  }
  return out;
}

/*
 * homefeed (login) pages by cursor_score and the running note_index; the feed has no end, so an empty
 * page ends it. The native cursor is "<cursor_score>|<note_index>".
 */
async function fromApi(ctx: CrawlContext, category: string, cursor: string | undefined): Promise<Page<ItemDraft>> {
  const m = cursor === undefined ? undefined : /^([\w.+-]{0,40})\|(\d{1,6})$/.exec(cursor);
  if (cursor !== undefined && !m) throw new InvalidInput('params.cursor: not a xiaohongshu feed cursor');
  const index = m ? Number(m[2]) : 0;
  try {
    const data = await api(ctx, {
      endpoint: 'recommended',
      path: ENDPOINTS.homefeed,
      what: `recommended feed ${category}`,
      body: {
        cursor_score: m ? m[1] : '',
        num: PER_PAGE,
        refresh_type: m ? 3 : 1,
        note_index: index,
        unread_begin_note_id: '',
        unread_end_note_id: '',
        unread_note_count: 0,
        category,
        search_key: '',
        need_num: 10,
        image_formats: ['jpg', 'webp', 'avif'],
        need_filter_image: false,
      },
    });
    const items = draftsOf(ctx, data.items);
    const score = str(data.cursor_score);
    return { items, next_cursor: items.length && score ? `${score}|${index + items.length}` : undefined };
  } catch (e) {
    if (e instanceof SessionExpired && !cursor) ctx.warn(`${e.message}; the explore page's first page was read instead`);
    throw e;
  }
}

/** The explore page (no login): window.__INITIAL_STATE__.feed.feeds, the channel's first page. */
async function fromPage(ctx: CrawlContext, category: string): Promise<Page<ItemDraft>> {
  const state = await pageState(ctx, `${WWW}/explore?channel_id=${encodeURIComponent(category)}`, `explore page ${category}`, true);
  return { items: draftsOf(ctx, obj(state.feed)?.feeds) };
}

async function recommendedPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const category = params.category ?? FEED_CATEGORIES[0]!.id;
  if (!FEED_CATEGORIES.some((c) => c.id === category)) throw new InvalidInput(`params.category: one of ${FEED_CATEGORIES.map((c) => c.id).join(', ')}`);
  if (cursor !== undefined) return fromApi(ctx, category, cursor);
  return firstAnswering([...(hasLogin(ctx) ? [() => fromApi(ctx, category, undefined)] : []), () => fromPage(ctx, category)], isFallbackable);
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: "Xiaohongshu's explore feed by channel (category), each url carrying its xsec_token (without a login: the explore page's first page)",
  categories: true,
  page: recommendedPage,
};
