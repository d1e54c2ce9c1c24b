import type { Stats } from '../../domain/item.js';
import type { Author, Comment } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { codeToPk, isPk, pkToCode, postUrl, profileUrl } from './refs.js';

/*
 * One post record serves every surface: the 2026 web GraphQL, the 2023 one and the app's private API all
 * answer the same `post` object (pk, code, user, caption, taken_at, like_count, text_post_app_info,
 * image_versions2, video_versions, carousel_media); only the envelopes differ (FxEmbed
 * providers/threads/private-processor.ts says the web's xdt_api__v1__text_feed__… fields proxy the app's
 * routes). Parsers never throw on a missing optional field.
 */

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const objs = (v: unknown): Json[] => (Array.isArray(v) ? v : []).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** A decimal id: strings as written; numbers only while JSON.parse kept them exact. */
export function idOf(...vs: unknown[]): string | undefined {
  for (const v of vs) {
    const s = str(v);
    if (s && isPk(s)) return s;
  }
  return undefined;
}

function count(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function dimension(v: unknown): number | undefined {
  const n = count(v);
  return n && n > 0 ? n : undefined;
}

const httpsUrl = (v: unknown): string | undefined => {
  const s = str(v)?.trim();
  return s && /^https?:\/\//i.test(s) ? s : undefined;
};

/** "17,882 replies" (the 2023 web's reply button): the exact count; rounded forms ("1.2K") are not. */
function countFromCta(v: unknown): number | undefined {
  const m = /^([\d,]+)\s+repl/i.exec(str(v) ?? '');
  return m ? count(m[1]!.replace(/,/g, '')) : undefined;
}

export interface ThreadsUser {
  id?: string;
  handle?: string;
  name?: string;
  avatar?: string;
  verified?: boolean;
}

export function userOf(raw: unknown): ThreadsUser | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const out: ThreadsUser = {
    id: idOf(u.pk_id, u.pk, u.id),
    handle: str(u.username),
    name: str(u.full_name),
    avatar: httpsUrl(u.profile_pic_url),
    verified: typeof u.is_verified === 'boolean' ? u.is_verified : undefined,
  };
  return out.id || out.handle ? out : undefined;
}

type MediaEntry = NonNullable<ItemDraft['media']>[number];

/** The largest rendition of an image_versions2 (the list is not always largest-first). */
function bestImage(versions: unknown): { url: string; w?: number; h?: number } | undefined {
  let best: { url: string; w?: number; h?: number; area: number } | undefined;
  for (const c of objs(obj(versions)?.candidates)) {
    const url = httpsUrl(c.url);
    if (!url) continue;
    const w = dimension(c.width);
    const h = dimension(c.height);
    const area = (w ?? 0) * (h ?? 0);
    if (!best || area > best.area) best = { url, w, h, area };
  }
  return best && { url: best.url, w: best.w, h: best.h };
}

function bestVideo(versions: unknown): { url: string; w?: number; h?: number } | undefined {
  let best: { url: string; w?: number; h?: number; area: number } | undefined;
  for (const v of objs(versions)) {
    const url = httpsUrl(v.url);
    if (!url) continue;
    const w = dimension(v.width);
    const h = dimension(v.height);
    const area = (w ?? 0) * (h ?? 0);
    if (!best || area > best.area) best = { url, w, h, area };
  }
  return best && { url: best.url, w: best.w, h: best.h };
}

function duration(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** One slide or a single-media post: its video (with the cover as thumb) or its image. */
function mediaOf(m: Json): { media?: MediaEntry; thumb?: string } {
  const cover = bestImage(m.image_versions2);
  const video = bestVideo(m.video_versions) ?? (httpsUrl(m.video_url) ? { url: httpsUrl(m.video_url)! } : undefined);
  const w = dimension(m.original_width);
  const h = dimension(m.original_height);
  if (video) {
    return {
      media: { kind: 'video', url: video.url, w: video.w ?? w, h: video.h ?? h, duration_s: duration(m.video_duration) },
      thumb: cover?.url,
    };
  }
  if (cover) return { media: { kind: 'image', url: cover.url, w: cover.w ?? w, h: cover.h ?? h }, thumb: cover.url };
  return {};
}

/** The words of a post: the caption, else the text fragments the 2026 web sends. */
function textOf(post: Json): string | undefined {
  const caption = str(obj(post.caption)?.text);
  if (caption) return caption;
  const fragments = objs(obj(obj(post.text_post_app_info)?.text_fragments)?.fragments);
  const joined = fragments.map((f) => (typeof f.plaintext === 'string' ? f.plaintext : '')).join('');
  return joined.trim() ? joined : undefined;
}

export interface ThreadsPost {
  pk: string;
  code: string;
  user?: ThreadsUser;
  text?: string;
  ts?: number;
  likes?: number;
  replies?: number;
  reposts?: number;
  media: MediaEntry[];
  thumb?: string;
  unavailable: boolean;
  /** The post record itself (a repost's shared post): download reads every rendition from it. */
  raw: Json;
}

/** A repost stands for the post it shares (as the web shows it). */
function unwrapRepost(post: Json): Json {
  const shared = obj(obj(obj(post.text_post_app_info)?.share_info)?.reposted_post);
  return shared && (shared.pk !== undefined || shared.code !== undefined) ? shared : post;
}

/** A post record of any surface; undefined when it names no post. `item` is its thread item (2023 counts). */
export function postOf(raw: unknown, item?: Json): ThreadsPost | undefined {
  const found = obj(raw);
  if (!found) return undefined;
  const post = unwrapRepost(found);
  const code = str(post.code);
  let pk = idOf(post.pk, str(post.id)?.split('_')[0]);
  if (!pk && code) {
    try {
      pk = codeToPk(code);
    } catch {
      return undefined;
    }
  }
  if (!pk) return undefined;
  const info = obj(post.text_post_app_info) ?? {};
  const media: MediaEntry[] = [];
  let thumb: string | undefined;
  const slides = objs(post.carousel_media);
  for (const slide of slides.length ? slides : [post]) {
    const m = mediaOf(slide);
    if (m.media) media.push(m.media);
    thumb ??= m.thumb;
  }
  const hidden = post.like_and_view_counts_disabled === true;
  return {
    pk,
    code: code ?? pkToCode(pk),
    user: userOf(post.user),
    text: textOf(post),
    ts: count(post.taken_at) || undefined,
    likes: hidden ? undefined : count(post.like_count),
    replies: count(info.direct_reply_count) ?? countFromCta(item?.view_replies_cta_string),
    reposts: count(info.repost_count) ?? count(info.reshare_count),
    media,
    thumb,
    unavailable: info.is_post_unavailable === true || post.is_post_unavailable === true,
    raw: post,
  };
}

export function postToDraft(p: ThreadsPost): ItemDraft {
  const stats: Stats = {};
  if (p.likes !== undefined) stats.likes = p.likes;
  if (p.replies !== undefined) stats.comments = p.replies;
  if (p.reposts !== undefined) stats.shares = p.reposts;
  const video = p.media.find((m) => m.kind === 'video');
  const first = p.media[0];
  return {
    native_id: p.pk,
    type: video ? 'video' : first ? 'image' : 'text',
    text: p.text,
    author: p.user?.name ?? p.user?.handle,
    author_id: p.user?.id,
    author_handle: p.user?.handle,
    url: postUrl(p.user?.handle, p.code),
    thumb: p.thumb,
    media: p.media,
    ts: p.ts,
    duration_s: video?.duration_s,
    aspect: first?.w && first.h ? { width: first.w, height: first.h } : undefined,
    stats,
  };
}

export function postToComment(p: ThreadsPost, parentId?: string): Comment {
  return {
    cid: p.pk,
    text: p.text ?? '',
    likes: p.likes ?? 0,
    reply_total: p.replies ?? 0,
    user_id: p.user?.id ?? '',
    handle: p.user?.handle ?? '',
    user_name: p.user?.name ?? p.user?.handle ?? '',
    created_at: p.ts ?? 0,
    source: 'threads',
    url: postUrl(p.user?.handle, p.code),
    ...(parentId ? { parent_id: parentId } : {}),
  };
}

/** A thread row: {thread_items: [{post}, …]} (web and app), {node: {thread_items}} (2026 edges) or a bare post. */
export function threadPosts(row: unknown): ThreadsPost[] {
  const r = obj(row);
  if (!r) return [];
  const thread = obj(r.node) ?? r;
  const items = objs(thread.thread_items);
  if (!items.length) {
    const single = postOf(obj(thread.post) ?? thread);
    return single ? [single] : [];
  }
  return items.map((it) => postOf(it.post, it)).filter((p): p is ThreadsPost => !!p);
}

/** The bio of a user record: biography, or the 2026 web's text_app_biography fragments. */
function bioOf(u: Json): string | undefined {
  const plain = str(u.biography);
  if (plain) return plain;
  const fragments = objs(obj(obj(u.text_app_biography)?.text_fragments)?.fragments);
  const joined = fragments.map((f) => (typeof f.plaintext === 'string' ? f.plaintext : '')).join('');
  return joined.trim() ? joined : undefined;
}

function avatarOf(u: Json): string | undefined {
  const hd = httpsUrl(obj(u.hd_profile_pic_url_info)?.url);
  if (hd) return hd;
  let best: { url: string; w: number } | undefined;
  for (const v of objs(u.hd_profile_pic_versions)) {
    const url = httpsUrl(v.url);
    const w = dimension(v.width) ?? 0;
    if (url && (!best || w > best.w)) best = { url, w };
  }
  return best?.url ?? httpsUrl(u.profile_pic_url);
}

/**
 * A user record → Author. Only the follower count is Threads' own on every surface; the private API's
 * following_count and media_count are the Instagram account's, so they are left out (0 = not reported).
 */
export function authorOf(raw: unknown): Author | null {
  const u = obj(raw);
  const base = userOf(u);
  if (!u || !base?.id) return null;
  const handle = base.handle;
  return {
    id: base.id,
    source: 'threads',
    handle,
    name: base.name,
    bio: bioOf(u),
    avatar: avatarOf(u),
    url: handle ? profileUrl(handle) : undefined,
    followers: count(u.follower_count),
    verified: base.verified,
  };
}

/** users/search rows: accounts as text cards (native id @handle), as mastodon's account search does. */
export function userCard(raw: unknown): ItemDraft | undefined {
  const u = obj(raw);
  const author = authorOf(u);
  if (!u || !author?.handle) return undefined;
  // The index is Instagram's: an account that never joined Threads has no Threads profile to show.
  if (u.has_onboarded_to_text_post_app === false || u.is_active_on_text_post_app === false) return undefined;
  return {
    native_id: `@${author.handle}`,
    type: 'text',
    title: author.name ?? author.handle,
    text: author.bio,
    author: author.name ?? author.handle,
    author_id: author.id,
    author_handle: author.handle,
    url: author.url,
    thumb: author.avatar,
    stats: {},
  };
}
