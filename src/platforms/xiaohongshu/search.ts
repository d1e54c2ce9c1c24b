import { randomInt } from 'node:crypto';
import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { api, ENDPOINTS } from './api.js';
import { more, noteDraft, objs, userDraft } from './parse.js';
import { rememberToken } from './refs.js';

const PER_PAGE = 20;
const USERS_PER_PAGE = 15;

export const SORTS = {
  general: 'general',
  newest: 'time_descending',
  likes: 'popularity_descending',
  comments: 'comment_descending',
  saves: 'collect_descending',
} as const;
export const NOTE_TYPES = { any: 0, video: 1, image: 2 } as const;
export const SEARCH_TYPES = ['notes', 'users'] as const;

/** The web's search_id: base36 of (ms << 64) + a random 31-bit number (Spider_XHS xhs_util.generate_search_id). */
export function searchId(nowMs = Date.now(), random = randomInt(1, 0x7ffffffe)): string {
  return ((BigInt(nowMs) << 64n) + BigInt(random)).toString(36);
}


/*
 * Pages are numbered and share the first page's search_id, so the native cursor is "<page>:<search_id>".
 * Users come from the user search (search_user_request), a separate endpoint of the same page.
 */
async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const keyword = (params.query ?? '').trim();
  if (!keyword) throw new InvalidInput('params.query: the words to search xiaohongshu for are required');
  const m = cursor === undefined ? undefined : /^(\d{1,3}):([0-9a-z]{1,40})$/.exec(cursor);
  if (cursor !== undefined && !m) throw new InvalidInput('params.cursor: not a xiaohongshu search cursor');
  const page = m ? Number(m[1]) : 1;
  const sid = m ? m[2]! : searchId();
  const type = (params.type as string | undefined) ?? 'notes';
  const next = (hasMore: unknown, got: number): string | undefined => (more(hasMore) && got > 0 ? `${page + 1}:${sid}` : undefined);

  if (type === 'users') {
    const data = await api(ctx, {
      endpoint: 'search_users',
      path: ENDPOINTS.searchUsers,
      what: `user search "${keyword}"`,
      body: { search_user_request: { keyword, search_id: sid, page, page_size: USERS_PER_PAGE, biz_type: 'web_search_user', request_id: `${randomInt(1, 0x7ffffffe)}-${Date.now()}` } },
    });
    const items = objs(data.users).map(userDraft).filter((d): d is ItemDraft => !!d);
    return { items, next_cursor: next(data.has_more, items.length) };
  }

  const sort = (params.sort as keyof typeof SORTS | undefined) ?? 'general';
  const noteType = (params.note_type as keyof typeof NOTE_TYPES | undefined) ?? 'any';
  const data = await api(ctx, {
    endpoint: 'search',
    path: ENDPOINTS.searchNotes,
    what: `search "${keyword}"`,
    body: { keyword, page, page_size: PER_PAGE, search_id: sid, sort: SORTS[sort], note_type: NOTE_TYPES[noteType] },
  });
  const items: ItemDraft[] = [];
  for (const raw of objs(data.items)) {
    const got = noteDraft(raw, 'pc_search');
    if (!got) continue;
    rememberToken(ctx, got.draft.native_id, got.token);
    items.push(got.draft);
  }
  return { items, next_cursor: next(data.has_more, items.length) };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Xiaohongshu search: notes (image and video) for the words, each url carrying its xsec_token; or users with type=users (needs a stored login)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'the words to search for' },
    { name: 'type', type: 'string', required: false, enum: [...SEARCH_TYPES], default: 'notes', description: 'notes, or users (user cards as text items: title the name, author_handle the 小红书号, url the profile)' },
    { name: 'sort', type: 'string', required: false, enum: Object.keys(SORTS), default: 'general', description: 'notes: general, newest, likes, comments or saves' },
    { name: 'note_type', type: 'string', required: false, enum: Object.keys(NOTE_TYPES), default: 'any', description: 'notes: any, video or image' },
  ],
  page: searchPage,
};
