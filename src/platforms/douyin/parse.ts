import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { noteUrl, userUrl, videoUrl } from './refs.js';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const objs = (v: unknown): Json[] => (Array.isArray(v) ? v : []).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** A decimal id; numbers past 2^53 have lost digits in JSON.parse and are not ids any more. */
function idOf(...vs: unknown[]): string | undefined {
  for (const v of vs) {
    const s = str(v);
    if (s && /^\d+$/.test(s) && !/^0+$/.test(s)) return s;
  }
  return undefined;
}

/** A count douyin reported; 0 in its answers often means "not reported" for views, so views keep only positives. */
function count(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
const positive = (v: unknown): number | undefined => {
  const n = count(v);
  return n && n > 0 ? n : undefined;
};

function httpsUrl(v: unknown): string | undefined {
  const s = str(v)?.trim();
  if (!s) return undefined;
  if (s.startsWith('//')) return `https:${s}`;
  return /^https?:\/\//i.test(s) ? s : undefined;
}

/** First usable URL of a {url_list} image/video address. */
export function firstUrl(addr: unknown): string | undefined {
  const list = obj(addr)?.url_list;
  for (const u of Array.isArray(list) ? list : []) {
    const url = httpsUrl(u);
    if (url) return url;
  }
  return undefined;
}

/** An image's URL a browser can show: douyin lists HEIC first for apps, then JPEG/WebP of the same picture. */
export function imageUrl(addr: unknown): string | undefined {
  const list = obj(addr)?.url_list;
  const urls = (Array.isArray(list) ? list : []).map(httpsUrl).filter((u): u is string => !!u);
  return urls.find((u) => !/\.heic(?:\?|$)/i.test(u)) ?? urls[0];
}

/**
 * The share page's play_addr points at /playwm/ (the watermarked rendition); /play/ on the same host and
 * video_id is the clean one the app plays.
 */
export const withoutWatermark = (url: string): string => url.replace(/\/playwm\//, '/play/');

interface Stream {
  url: string;
  w?: number;
  h?: number;
  bitRate: number;
}

/**
 * The best clean stream of a video: the highest bit_rate rendition's play_addr, else play_addr itself.
 * download_addr is the watermarked download rendition and is never used.
 */
export function bestStream(video: Json): Stream | undefined {
  const out: Stream[] = [];
  for (const r of objs(video.bit_rate)) {
    const addr = obj(r.play_addr);
    const url = firstUrl(addr);
    if (url) out.push({ url: withoutWatermark(url), w: positive(addr?.width), h: positive(addr?.height), bitRate: count(r.bit_rate) ?? 0 });
  }
  out.sort((a, b) => b.bitRate - a.bitRate);
  if (out[0]) return out[0];
  const addr = obj(video.play_addr) ?? obj(video.play_addr_h264);
  const url = firstUrl(addr);
  return url ? { url: withoutWatermark(url), w: positive(addr?.width) ?? positive(video.width), h: positive(addr?.height) ?? positive(video.height), bitRate: 0 } : undefined;
}

/** Image posts (aweme_type 68 / "note"): images[] or image_post_info.images[]; a live photo carries its clip. */
/** An image post's pictures: images[], else image_post_info.images[] (each its display_image). */
export function imageList(a: Json): Json[] {
  return objs(a.images).length ? objs(a.images) : objs(obj(a.image_post_info)?.images).map((i) => obj(i.display_image) ?? i);
}

function imagesOf(a: Json): ItemDraft['media'] {
  const list = imageList(a);
  const media: NonNullable<ItemDraft['media']> = [];
  for (const img of list) {
    const url = imageUrl(img);
    if (url) media.push({ kind: 'image', url, w: positive(img.width), h: positive(img.height) });
    const clip = obj(img.video);
    const clipUrl = clip && (bestStream(clip)?.url);
    if (clipUrl) media.push({ kind: 'video', url: clipUrl, duration_s: durationS(clip.duration) });
  }
  return media;
}

/** Durations come in ms in aweme structs (and in seconds in a few older ones: small values). */
export function durationS(v: unknown): number | undefined {
  const n = positive(v);
  if (!n) return undefined;
  return n > 1000 ? Math.round(n / 100) / 10 : n;
}

export function authorOf(raw: unknown): Author | undefined {
  const u = obj(raw);
  const sec = str(u?.sec_uid);
  const uid = idOf(u?.uid, u?.id_str);
  const id = sec ?? uid;
  if (!u || !id) return undefined;
  const handle = str(u.unique_id) ?? str(u.short_id);
  return {
    id,
    source: 'douyin',
    handle: handle && handle !== '0' ? handle : undefined,
    name: str(u.nickname),
    bio: str(u.signature),
    avatar: firstUrl(u.avatar_larger) ?? firstUrl(u.avatar_medium) ?? firstUrl(u.avatar_300x300) ?? firstUrl(u.avatar_thumb),
    url: sec ? userUrl(sec) : undefined,
    followers: positive(u.follower_count) ?? positive(u.mplatform_followers_count),
    following: positive(u.following_count),
    posts: positive(u.aweme_count),
    likes: positive(u.total_favorited),
    verified: u.is_verified === true || Boolean(str(u.custom_verify)) || Boolean(str(u.enterprise_verify_reason)) || (count(u.verification_type) ?? 0) > 0 ? true : undefined,
  };
}

const IMAGE_TYPES = new Set([2, 68, 150]);

/** One aweme struct (web, app, share page and the retired share API all use it) → a draft. */
export function awemeToDraft(raw: unknown): ItemDraft | undefined {
  const a = obj(raw);
  const id = idOf(a?.aweme_id, a?.group_id);
  if (!a || !id) return undefined;
  const video = obj(a.video) ?? {};
  const images = imagesOf(a) ?? [];
  const isImage = images.some((m) => m.kind === 'image') || IMAGE_TYPES.has(count(a.aweme_type) ?? -1);
  const stream = isImage ? undefined : bestStream(video);
  const author = obj(a.author);
  const stats = obj(a.statistics) ?? {};
  const duration = durationS(video.duration) ?? durationS(a.duration);
  const w = stream?.w ?? positive(video.width);
  const h = stream?.h ?? positive(video.height);
  const media: NonNullable<ItemDraft['media']> = isImage ? images : stream ? [{ kind: 'video', url: stream.url, w, h, duration_s: duration }] : [];
  return {
    native_id: id,
    type: isImage ? 'image' : stream ? 'video' : 'text',
    text: str(a.desc),
    author: str(author?.nickname),
    author_id: str(author?.sec_uid) ?? idOf(author?.uid),
    author_handle: (() => {
      const h = str(author?.unique_id) ?? str(author?.short_id);
      return h && h !== '0' ? h : undefined;
    })(),
    url: isImage ? noteUrl(id) : videoUrl(id),
    thumb: firstUrl(video.origin_cover) ?? firstUrl(video.cover) ?? (isImage ? images.find((m) => m.kind === 'image')?.url : undefined),
    media,
    ts: positive(a.create_time),
    duration_s: isImage ? undefined : duration,
    aspect: !isImage && w && h ? { width: w, height: h } : undefined,
    stats: {
      likes: count(stats.digg_count),
      comments: count(stats.comment_count),
      shares: count(stats.share_count),
      views: positive(stats.play_count),
    },
  };
}

export function commentOf(raw: unknown, awemeId: string): Comment | undefined {
  const c = obj(raw);
  const cid = idOf(c?.cid);
  if (!c || !cid) return undefined;
  const user = obj(c.user);
  const name = str(user?.nickname) ?? '';
  const handle = str(user?.unique_id) ?? str(user?.short_id) ?? name;
  const out: Comment = {
    cid,
    text: typeof c.text === 'string' ? c.text : '',
    likes: count(c.digg_count) ?? 0,
    reply_total: count(c.reply_comment_total) ?? 0,
    user_id: idOf(user?.uid) ?? str(user?.sec_uid) ?? '',
    handle: handle === '0' ? name : handle,
    user_name: name,
    created_at: positive(c.create_time) ?? 0,
    source: 'douyin',
    url: videoUrl(idOf(c.aweme_id) ?? awemeId),
  };
  const sec = str(user?.sec_uid);
  if (sec) out.sec_uid = sec;
  // reply_id is the thread's root for a reply (0 on a root comment); reply_to_reply_id the reply answered.
  const parent = idOf(c.reply_to_reply_id) ?? idOf(c.reply_id);
  if (parent && parent !== cid) out.parent_id = parent;
  return out;
}

/** Comments of one page, each root followed by the replies douyin inlined under it (reply_comment[]). */
export function commentsOf(list: unknown, awemeId: string, parent?: string): Comment[] {
  const out: Comment[] = [];
  const seen = new Set<string>();
  for (const raw of objs(list)) {
    const c = commentOf(raw, awemeId);
    if (!c || seen.has(c.cid)) continue;
    seen.add(c.cid);
    if (parent && !c.parent_id) c.parent_id = parent;
    out.push(c);
    for (const r of objs(raw.reply_comment)) {
      const reply = commentOf(r, awemeId);
      if (!reply || seen.has(reply.cid)) continue;
      seen.add(reply.cid);
      reply.parent_id ??= c.cid;
      out.push(reply);
    }
  }
  return out;
}

const searchUrl = (word: string): string => `https://www.douyin.com/search/${encodeURIComponent(word)}`;

/** Hot-search word_list / trending_list entries → trends, ranked as listed (position when given). */
export function wordTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const w of objs(list)) {
    const word = str(w.word);
    if (!word) continue;
    out.push({ word, source: 'douyin', rank: out.length + 1, hot_value: positive(w.hot_value), url: searchUrl(word) });
  }
  return out;
}

/** The video each hot-search word leads to (group_id + word_cover): hot posts of the board. */
export function wordDrafts(list: unknown): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const w of objs(list)) {
    const id = idOf(w.group_id);
    const word = str(w.word);
    if (!id || !word) continue;
    out.push({
      native_id: id,
      type: 'video',
      title: word,
      url: videoUrl(id),
      thumb: firstUrl(w.word_cover),
      media: [],
      ts: positive(w.event_time),
      stats: { views: positive(w.view_count) },
    });
  }
  return out;
}

export function musicTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const m of objs(list)) {
    const info = obj(m.music_info);
    const title = str(info?.title);
    if (!title) continue;
    const author = str(info?.author);
    const id = idOf(info?.id_str, info?.mid);
    out.push({ word: author ? `${title} - ${author}` : title, source: 'douyin', rank: out.length + 1, hot_value: positive(m.heat), url: id ? `https://www.douyin.com/music/${id}` : undefined });
  }
  return out;
}

export function starTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const s of objs(list)) {
    const u = obj(s.user_info);
    const name = str(u?.nickname);
    if (!name) continue;
    const sec = str(u?.sec_uid);
    out.push({ word: name, source: 'douyin', rank: out.length + 1, hot_value: positive(s.hot_value), url: sec ? userUrl(sec) : undefined });
  }
  return out;
}

export function brandTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const b of objs(list)) {
    const name = str(b.name);
    if (!name) continue;
    const sec = str(b.bluev_sec_uid);
    out.push({ word: name, source: 'douyin', rank: out.length + 1, hot_value: positive(b.heat), url: sec ? userUrl(sec) : undefined });
  }
  return out;
}

export function liveTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const r of objs(list)) {
    const user = obj(r.user);
    const room = obj(r.room);
    const name = str(user?.nickname);
    if (!name) continue;
    const title = str(room?.title);
    const sec = str(user?.sec_uid);
    out.push({ word: title ? `${name}: ${title}` : name, source: 'douyin', rank: out.length + 1, hot_value: positive(r.score) ?? positive(room?.user_count), url: sec ? userUrl(sec) : undefined });
  }
  return out;
}
