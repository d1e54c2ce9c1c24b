import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { chinaTime } from './html.js';
import { avatarUrl, cleanPortrait, threadUrl, userUrlById } from './refs.js';
import { count, httpsUrl, idOf, obj, objs, str, type Json } from './values.js';

/*
 * Tieba's JSON answers. The PC API shapes (page_pc, multsearch, homeSidebarRight) follow MC's extractor and
 * its tests (media_platform/tieba/help.py, tests/test_tieba_extractor.py @ f328ee3); the content fragments
 * follow the client protocol's (AIOT src/aiotieba/api/_classdef/contents.py): type 0 text, 1 link, 2 emoticon
 * (c = its name), 3 image (origin_src / big_cdn_src / cdn_src, bsize "w,h"), 4 @mention, 9 phone number,
 * 18 #topic#. /home/get/panel follows AIOT get_uinfo_panel; /home/get/getthread follows MC's older client
 * (thread_list[].thread_id, title, media[].big_pic); the hot board follows imsyy/DailyHotApi.
 */

type Media = NonNullable<ItemDraft['media']>;

export interface Fragments {
  text: string;
  images: Media;
}

export function fragments(content: unknown): Fragments {
  if (typeof content === 'string') return { text: content.trim(), images: [] };
  let text = '';
  const images: Media = [];
  for (const part of objs(content)) {
    const type = Number(part.type ?? 0);
    if (type === 3) {
      const url = httpsUrl(part.origin_src) ?? httpsUrl(part.big_cdn_src) ?? httpsUrl(part.cdn_src) ?? httpsUrl(part.src);
      const [w, h] = String(part.bsize ?? '').split(',').map(Number);
      if (url && !images.some((m) => m.url === url)) images.push({ kind: 'image', url, ...(w! > 0 && h! > 0 ? { w, h } : {}) });
    } else if (type === 2) {
      const name = str(part.c);
      if (name) text += `[${name}]`;
    } else {
      text += typeof part.text === 'string' ? part.text : '';
    }
  }
  return { text: text.replace(/\r\n?/g, '\n').trim(), images };
}

const typeOf = (media: Media): ItemDraft['type'] => (media.some((m) => m.kind === 'video') ? 'video' : media.length ? 'image' : 'text');

/** unix seconds from a number, a numeric string, or a China-time date string. */
export function when(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{9,11}$/.test(v.trim()) ? Number(v) : undefined;
  if (n !== undefined) return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  return typeof v === 'string' ? chinaTime(v) : undefined;
}

interface User {
  portrait?: string;
  handle?: string;
  name?: string;
}

function userOf(u: Json | undefined): User {
  if (!u) return {};
  const portraitRaw = str(u.portrait);
  // Search cards may carry the avatar URL (…/portrait/item/tb.1.…) where the others carry the portrait.
  const portrait = cleanPortrait(portraitRaw) ?? cleanPortrait(/\/item\/([^/?#]+)/.exec(portraitRaw ?? '')?.[1]);
  return { portrait, handle: str(u.name) ?? str(u.user_name), name: str(u.show_nickname) ?? str(u.name_show) ?? str(u.name) ?? str(u.user_name) };
}

// ---------------------------------------------------------------------------------------------
// /c/f/pb/page_pc

export interface PcThread {
  draft?: ItemDraft;
  comments: Comment[];
  total?: number;
  totalPages?: number;
  forumId?: string;
}

export function parsePcThread(json: Json, tid: string): PcThread {
  const thread = obj(json.thread) ?? {};
  const first = obj(json.first_floor);
  const page = obj(json.page) ?? {};
  const users = new Map<string, Json>();
  for (const u of objs(json.user_list)) {
    const id = idOf(u.id);
    if (id) users.set(id, u);
  }
  const author = (id: unknown): User => userOf(users.get(idOf(id) ?? '') ?? obj(obj(json.thread)?.author));
  const total = count(thread.reply_num);
  let draft: ItemDraft | undefined;
  if (first || str(thread.title)) {
    const f = fragments(first?.content);
    const a = author(first?.author_id);
    draft = {
      native_id: tid,
      type: typeOf(f.images),
      title: str(thread.title),
      text: f.text || undefined,
      author: a.name,
      author_id: a.portrait,
      author_handle: a.handle,
      url: threadUrl(tid),
      thumb: f.images[0]?.url,
      media: f.images,
      ts: when(first?.time) ?? when(thread.create_time),
      stats: total === undefined ? {} : { comments: total },
    };
  }
  const firstId = idOf(first?.id);
  const comments: Comment[] = [];
  for (const p of objs(json.post_list)) {
    const pid = idOf(p.id);
    if (!pid || pid === firstId || Number(p.floor) === 1 || comments.some((c) => c.cid === pid)) continue;
    const f = fragments(p.content);
    const a = author(p.author_id);
    comments.push({
      cid: pid,
      text: f.text || (f.images.length ? '[图片]' : ''),
      likes: count(obj(p.agree)?.agree_num) ?? 0,
      reply_total: count(p.sub_post_number) ?? 0,
      user_id: a.portrait ?? '',
      handle: a.handle ?? '',
      user_name: a.name ?? '',
      created_at: when(p.time) ?? 0,
      source: 'tieba',
      url: `${threadUrl(tid)}?pid=${pid}#${pid}`,
    });
  }
  return { draft, comments, total, totalPages: count(page.total_page), forumId: idOf(obj(json.forum)?.id) };
}

// ---------------------------------------------------------------------------------------------
// /mo/q/search/multsearch

export function parsePcSearch(json: Json): { drafts: ItemDraft[]; hasMore?: boolean } {
  const data = obj(json.data) ?? {};
  const drafts: ItemDraft[] = [];
  for (const card of objs(data.card_list)) {
    if (card.cardInfo !== 'thread' && card.cardStyle !== 'thread') continue;
    const item = obj(card.data) ?? {};
    const tid = idOf(item.tid, item.thread_id);
    if (!tid || drafts.some((d) => d.native_id === tid)) continue;
    const u = userOf(obj(item.user));
    const media: Media = objs(item.media)
      .map((m) => httpsUrl(m.big_pic) ?? httpsUrl(m.origin_pic) ?? httpsUrl(m.small_pic))
      .filter((u): u is string => !!u)
      .map((url) => ({ kind: 'image' as const, url }));
    const replies = count(item.post_num);
    drafts.push({
      native_id: tid,
      type: typeOf(media),
      title: str(item.title),
      text: typeof item.content === 'string' ? item.content.trim() || undefined : fragments(item.content).text || undefined,
      author: u.name,
      author_id: u.portrait,
      author_handle: u.handle,
      url: threadUrl(tid),
      thumb: media[0]?.url,
      media,
      ts: when(item.time) ?? when(item.create_time),
      stats: replies === undefined ? {} : { comments: replies },
    });
  }
  const more = data.has_more ?? json.has_more;
  return { drafts, hasMore: more === undefined ? undefined : more === true || Number(more) === 1 };
}

// ---------------------------------------------------------------------------------------------
// Users: /home/get/panel (anonymous) and /c/u/pc/homeSidebarRight (PC, logged in)

export function panelAuthor(json: Json): Author | undefined {
  const d = obj(json.data);
  const portrait = cleanPortrait(str(d?.portrait));
  if (!d || !portrait) return undefined;
  return compactAuthor({
    id: portrait,
    source: 'tieba',
    handle: str(d.name),
    name: str(d.show_nickname) ?? str(d.name_show) ?? str(d.name),
    avatar: avatarUrl(portrait),
    url: userUrlById(portrait),
    followers: count(d.followed_count),
    posts: count(d.post_num),
  });
}

export function sidebarAuthor(json: Json): Author | undefined {
  const u = obj(obj(json.data)?.user);
  const portrait = cleanPortrait(str(u?.portrait));
  if (!u || !portrait) return undefined;
  return compactAuthor({
    id: portrait,
    source: 'tieba',
    handle: str(u.name),
    name: str(u.name_show) ?? str(u.show_nickname) ?? str(u.name),
    bio: str(u.intro),
    avatar: avatarUrl(portrait),
    url: userUrlById(portrait),
    followers: count(u.fans_num),
    following: count(u.concern_num),
    posts: count(u.post_num) ?? count(u.thread_num),
  });
}

function compactAuthor(a: Author): Author {
  for (const k of Object.keys(a) as (keyof Author)[]) if (a[k] === undefined) delete a[k];
  return a;
}

/** The user name /home/get/panel answers for a portrait (getthread is addressed by name). */
export const panelName = (json: Json): string | undefined => str(obj(json.data)?.name);

// ---------------------------------------------------------------------------------------------
// /home/get/getthread

export function userThreads(json: Json, user: User): { drafts: ItemDraft[]; hasMore: boolean } {
  const data = obj(json.data) ?? {};
  const drafts: ItemDraft[] = [];
  for (const t of objs(data.thread_list)) {
    const tid = idOf(t.thread_id, t.tid);
    if (!tid || drafts.some((d) => d.native_id === tid)) continue;
    const media: Media = objs(t.media)
      .map((m) => httpsUrl(m.big_pic) ?? httpsUrl(m.water_pic) ?? httpsUrl(m.small_pic))
      .filter((u): u is string => !!u)
      .map((url) => ({ kind: 'image' as const, url }));
    const replies = count(t.reply_num);
    const text = typeof t.content === 'string' ? t.content.trim() : typeof t.abstract === 'string' ? t.abstract.trim() : '';
    drafts.push({
      native_id: tid,
      type: typeOf(media),
      title: str(t.title),
      text: text || undefined,
      author: str(t.user_nickname) ?? user.name ?? user.handle,
      author_id: user.portrait,
      author_handle: str(t.user_name) ?? user.handle,
      url: threadUrl(tid),
      thumb: media[0]?.url,
      media,
      ts: when(t.create_time),
      stats: replies === undefined ? {} : { comments: replies },
    });
  }
  return { drafts, hasMore: data.has_more === true || Number(data.has_more) === 1 };
}

// ---------------------------------------------------------------------------------------------
// Hot topics: data.bang_topic.topic_list

const topicList = (json: Json): Json[] => objs(obj(obj(json.data)?.bang_topic)?.topic_list);

export function topicDrafts(json: Json): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const t of topicList(json)) {
    const id = idOf(t.topic_id);
    const name = str(t.topic_name);
    if (!id || !name || out.some((d) => d.native_id === `topic-${id}`)) continue;
    const pic = httpsUrl(t.topic_pic);
    const discuss = count(t.discuss_num);
    out.push({
      native_id: `topic-${id}`,
      type: pic ? 'image' : 'text',
      title: name,
      text: str(t.topic_desc) ?? str(t.abstract),
      url: httpsUrl(t.topic_url),
      thumb: pic,
      media: pic ? [{ kind: 'image', url: pic }] : [],
      ts: when(t.create_time),
      stats: discuss === undefined ? {} : { comments: discuss },
    });
  }
  return out;
}

export function topicTrends(json: Json): Trend[] {
  return topicList(json)
    .filter((t) => str(t.topic_name))
    .map((t, i) => {
      const hot = count(t.discuss_num);
      const url = httpsUrl(t.topic_url);
      return { word: str(t.topic_name)!, source: 'tieba', rank: i + 1, ...(hot !== undefined ? { hot_value: hot } : {}), ...(url ? { url } : {}) };
    });
}
