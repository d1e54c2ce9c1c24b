import type { Author, Comment } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { isSecUid, postUrl, profileUrl } from './refs.js';

/*
 * Pure raw → domain conversions for both shapes TikTok answers in:
 *  - web (www.tiktok.com/api/*, page rehydration JSON): camelCase itemStruct {id, desc, createTime, video
 *    {playAddr, downloadAddr, bitrateInfo[{Bitrate, CodecType, PlayAddr{UrlList, Width, Height}}]},
 *    imagePost{images[{imageURL{urlList}}]}, author{id, uniqueId, secUid}, stats, statsV2};
 *  - app (api*.tiktokv.com/aweme/*): snake_case aweme {aweme_id, desc, create_time, video{play_addr,
 *    bit_rate[], download_addr, duration in ms}, image_post_info, author{uid, unique_id, sec_uid}, statistics}.
 * Comments and user-search cards are snake_case in both. Nothing here throws on a missing field.
 */

export type Json = Record<string, unknown>;
type Media = NonNullable<ItemDraft['media']>[number];

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const objs = (v: unknown): Json[] => arr(v).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** A count: a number or a decimal string (statsV2 carries strings); anything else is "not reported". */
export function count(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d{1,16}$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
const positive = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
};
/** A numeric id as a string; 0 and empty mean "none". */
export function idOf(...vs: unknown[]): string | undefined {
  for (const v of vs) {
    const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : undefined;
    if (s && /^\d{1,24}$/.test(s) && !/^0+$/.test(s)) return s;
  }
  return undefined;
}
const handleOf = (v: unknown): string | undefined => {
  const s = text(v)?.trim();
  return s && /^[\w.-]{1,64}$/.test(s) ? s : undefined;
};
const secUidOf = (v: unknown): string | undefined => {
  const s = text(v)?.trim();
  return s && isSecUid(s) ? s : undefined;
};

export const isHttp = (u: string): boolean => /^(?:https?:)?\/\//i.test(u);
/** TikTok lists www.tiktok.com/aweme/v1/play/ next to its CDN copies; yt-dlp found those broken, so a CDN copy wins. */
export function firstUrl(list: unknown): string | undefined {
  const urls = arr(list).filter((u): u is string => typeof u === 'string' && isHttp(u));
  return urls.find((u) => !/^(?:https?:)?\/\/www\.tiktok\.com\//i.test(u)) ?? urls[0];
}
/** App image/video address objects {url_list, width, height}. */
export const urlOf = (v: unknown): string | undefined => (typeof v === 'string' && isHttp(v) ? v : firstUrl(obj(v)?.url_list ?? obj(v)?.urlList ?? obj(v)?.UrlList));

// ---------------------------------------------------------------------------------------------
// Video streams

export interface Stream {
  url: string;
  w?: number;
  h?: number;
  bitrate: number;
  codec: 'h264' | 'h265' | 'other';
  /** The rendition's name (GearName / gear_name), when the answer gives one. */
  gear?: string;
  /** The file size the answer states (web DataSize). */
  bytes?: number;
}

function codecOf(name: string): Stream['codec'] | 'unplayable' {
  const c = name.toLowerCase();
  // bytevc2 is ByteDance's own H.266 flavour: nothing plays it (yt-dlp marks it unplayable).
  if (/bytevc2|h266/.test(c)) return 'unplayable';
  if (/h264|avc/.test(c)) return 'h264';
  if (/h265|hevc|hvc1|bytevc1/.test(c)) return 'h265';
  return 'other';
}

/**
 * The best play stream: the highest-resolution H.264 one (every browser plays it and it carries audio),
 * then higher bitrate; H.265 only when no H.264 is offered, never an H.265 video-only track
 * (…/media-video-hvc1/, yt-dlp #16622). Play streams are TikTok's watermark-free renditions.
 */
/** An H.265 video-only track (…/media-video-hvc1/) carries no audio: never offered. */
export const usableStream = (s: Stream): boolean => !(s.codec === 'h265' && /\/media-video-hvc1\/?(?:\?|$)/.test(s.url));

function pickStream(streams: Stream[]): Stream | undefined {
  const rank = (s: Stream): number => (s.codec === 'h264' ? 2 : s.codec === 'other' ? 1 : 0);
  const usable = streams.filter(usableStream);
  return [...usable].sort((a, b) => rank(b) - rank(a) || (b.w ?? 0) * (b.h ?? 0) - (a.w ?? 0) * (a.h ?? 0) || b.bitrate - a.bitrate)[0];
}

/** Web video: the bitrateInfo[] renditions (bytevc2 ones left out). */
export function webRenditions(video: Json): Stream[] {
  const out: Stream[] = [];
  for (const b of objs(video.bitrateInfo)) {
    const play = obj(b.PlayAddr);
    const url = firstUrl(play?.UrlList);
    const key = str(play?.UrlKey) ?? '';
    const codec = codecOf(`${str(b.CodecType) ?? ''} ${key}`);
    if (!url || codec === 'unplayable') continue;
    const stream: Stream = { url, w: positive(play?.Width), h: positive(play?.Height), bitrate: positive(b.Bitrate) ?? 0, codec };
    const gear = str(b.GearName);
    if (gear) stream.gear = gear;
    const bytes = positive(play?.DataSize);
    if (bytes) stream.bytes = bytes;
    out.push(stream);
  }
  return out;
}

/** Web video's playAddr (a string, or [{src}] on some pages), unless its codec plays nowhere. */
export function webPlayAddr(video: Json): Stream | undefined {
  const play = typeof video.playAddr === 'string' ? video.playAddr : objs(video.playAddr).map((p) => str(p.src)).find((u) => u && isHttp(u));
  const codec = codecOf(str(video.codecType) ?? 'h264');
  return play && isHttp(play) && codec !== 'unplayable' ? { url: play, w: positive(video.width), h: positive(video.height), bitrate: positive(video.bitrate) ?? 0, codec } : undefined;
}

/** Web video: bitrateInfo[] renditions, then playAddr. */
export function webStreams(video: Json): Stream[] {
  const out = webRenditions(video);
  if (out.length) return out;
  const play = webPlayAddr(video);
  return play ? [play] : [];
}

/**
 * App video: bit_rate[] renditions, then play_addr_h264 / play_addr (download_addr carries the watermark).
 * The app's address objects report a placeholder 720x720; the size is video.width/height.
 */
export function appStreams(video: Json): Stream[] {
  const out: Stream[] = [];
  for (const b of objs(video.bit_rate)) {
    const play = obj(b.play_addr);
    const url = urlOf(play);
    const codec = codecOf(`${str(play?.url_key) ?? ''} ${b.is_bytevc1 === 1 || b.is_h265 === 1 ? 'bytevc1' : ''} ${str(b.gear_name) ?? ''}`);
    if (!url || codec === 'unplayable') continue;
    const gear = str(b.gear_name);
    out.push({ url, bitrate: positive(b.bit_rate) ?? 0, codec: codec === 'other' ? 'h264' : codec, ...(gear ? { gear } : {}) });
  }
  if (!out.length) {
    for (const [key, codec] of [['play_addr_h264', 'h264'], ['play_addr', 'other']] as const) {
      const url = urlOf(video[key]);
      if (url) {
        const tagged = codecOf(str(obj(video[key])?.url_key) ?? '');
        out.push({ url, bitrate: 0, codec: tagged === 'unplayable' || tagged === 'other' ? codec : tagged });
        break;
      }
    }
  }
  return out;
}

/** The one playable stream of a post (or the watermarked download copy when TikTok offers nothing else). */
function videoMedia(video: Json, shape: 'web' | 'app', seconds: number | undefined): Media | undefined {
  const best = pickStream(shape === 'web' ? webStreams(video) : appStreams(video));
  const fallback = best ? undefined : shape === 'web' ? (typeof video.downloadAddr === 'string' && isHttp(video.downloadAddr) ? video.downloadAddr : undefined) : urlOf(video.download_addr);
  const url = best?.url ?? fallback;
  if (!url) return undefined;
  const m: Media = { kind: 'video', url };
  const w = best?.w ?? positive(video.width);
  const h = best?.h ?? positive(video.height);
  if (w && h) Object.assign(m, { w, h });
  if (seconds) m.duration_s = seconds;
  return m;
}

// ---------------------------------------------------------------------------------------------
// Posts

function aspectOf(w: unknown, h: unknown): ItemDraft['aspect'] {
  const width = positive(w);
  const height = positive(h);
  return width && height ? { width, height } : undefined;
}

function statsOf(...sources: Array<Json | undefined>): ItemDraft['stats'] {
  const pick = (...keys: string[]): number | undefined => {
    for (const s of sources) for (const k of keys) if (s && count(s[k]) !== undefined) return count(s[k]);
    return undefined;
  };
  const stats: ItemDraft['stats'] = {};
  const likes = pick('diggCount', 'digg_count');
  const comments = pick('commentCount', 'comment_count');
  const shares = pick('shareCount', 'share_count');
  const views = pick('playCount', 'play_count');
  if (likes !== undefined) stats.likes = likes;
  if (comments !== undefined) stats.comments = comments;
  if (shares !== undefined) stats.shares = shares;
  if (views !== undefined) stats.views = views;
  return stats;
}

function compactDraft(d: ItemDraft): ItemDraft {
  for (const k of Object.keys(d) as Array<keyof ItemDraft>) if (d[k] === undefined) delete d[k];
  return d;
}

/** A web itemStruct (camelCase) → draft. */
export function webItemToDraft(raw: unknown): ItemDraft | undefined {
  const r = obj(raw);
  const id = idOf(r?.id);
  if (!r || !id) return undefined;
  // Older answers (SIGI ItemModule) name the author by handle and carry authorId / nickname beside it.
  const a = obj(r.author);
  const handle = handleOf(a ? a.uniqueId : r.author);
  const authorId = idOf(a?.id, r.authorId);
  const name = text(a?.nickname) ?? text(r.nickname);
  const video = obj(r.video) ?? {};
  const images = objs(obj(r.imagePost)?.images);
  const photo = images.length > 0;
  const seconds = photo ? undefined : positive(video.duration);
  const media: Media[] = [];
  if (photo) {
    for (const img of images) {
      const url = firstUrl(obj(img.imageURL)?.urlList);
      if (!url) continue;
      const m: Media = { kind: 'image', url };
      const w = positive(img.imageWidth);
      const h = positive(img.imageHeight);
      if (w && h) Object.assign(m, { w, h });
      media.push(m);
    }
  } else {
    const v = videoMedia(video, 'web', seconds);
    if (v) media.push(v);
  }
  const imageCover = firstUrl(obj(obj(obj(r.imagePost)?.cover)?.imageURL)?.urlList);
  const cover = [video.cover, video.originCover, video.dynamicCover].find((u): u is string => typeof u === 'string' && isHttp(u));
  return compactDraft({
    native_id: id,
    type: photo ? 'image' : 'video',
    title: photo ? text(obj(r.imagePost)?.title) : undefined,
    text: str(r.desc),
    author: name,
    author_id: authorId,
    author_handle: handle,
    url: postUrl(id, handle, photo),
    thumb: photo ? (imageCover ?? media[0]?.url ?? cover) : (cover ?? imageCover),
    media,
    ts: count(r.createTime),
    duration_s: seconds,
    aspect: photo ? (media[0]?.w && media[0]?.h ? { width: media[0].w, height: media[0].h } : undefined) : aspectOf(video.width, video.height),
    stats: statsOf(obj(r.stats), obj(r.statsV2)),
  });
}

/** An app aweme (snake_case) → draft. Durations are milliseconds there. */
export function awemeToDraft(raw: unknown): ItemDraft | undefined {
  const r = obj(raw);
  const id = idOf(r?.aweme_id, r?.group_id);
  if (!r || !id) return undefined;
  const a = obj(r.author) ?? {};
  const handle = handleOf(a.unique_id);
  const video = obj(r.video) ?? {};
  const images = objs(obj(r.image_post_info)?.images);
  const photo = images.length > 0;
  const ms = positive(video.duration) ?? positive(r.duration);
  const seconds = photo || !ms ? undefined : Math.round(ms) / 1000;
  const media: Media[] = [];
  if (photo) {
    for (const img of images) {
      const shown = obj(img.display_image) ?? obj(img.owner_watermark_image);
      const url = urlOf(shown);
      if (!url) continue;
      const m: Media = { kind: 'image', url };
      const w = positive(shown?.width);
      const h = positive(shown?.height);
      if (w && h) Object.assign(m, { w, h });
      media.push(m);
    }
  } else {
    const v = videoMedia(video, 'app', seconds);
    if (v) media.push(v);
  }
  const cover = urlOf(video.cover) ?? urlOf(video.origin_cover) ?? urlOf(video.dynamic_cover);
  return compactDraft({
    native_id: id,
    type: photo ? 'image' : 'video',
    text: str(r.desc),
    author: text(a.nickname),
    author_id: idOf(a.uid, r.author_user_id),
    author_handle: handle,
    url: postUrl(id, handle, photo),
    thumb: photo ? (media[0]?.url ?? cover) : cover,
    media,
    ts: count(r.create_time),
    duration_s: seconds,
    aspect: photo ? (media[0]?.w && media[0]?.h ? { width: media[0].w, height: media[0].h } : undefined) : aspectOf(video.width, video.height),
    stats: statsOf(obj(r.statistics)),
  });
}

/** Either shape: an app aweme names itself aweme_id, a web item id. */
export function itemToDraft(raw: unknown): ItemDraft | undefined {
  const r = obj(raw);
  if (!r) return undefined;
  return r.aweme_id !== undefined ? awemeToDraft(r) : webItemToDraft(r);
}

const drafts = (list: unknown, toDraft: (raw: unknown) => ItemDraft | undefined): ItemDraft[] =>
  arr(list)
    .map(toDraft)
    .filter((d): d is ItemDraft => !!d);

/** Post lists in any answer: itemList (web), item_list (web search), aweme_list (app). */
export function itemsOf(body: Json): ItemDraft[] {
  const list = [body.itemList, body.item_list, body.aweme_list].find(Array.isArray);
  return drafts(list, itemToDraft);
}

/** The single post of a detail answer: itemInfo.itemStruct (web), aweme_detail (app). */
export function detailItemOf(body: Json): unknown {
  return obj(obj(body.itemInfo)?.itemStruct) ?? obj(body.aweme_detail) ?? objs(body.aweme_details)[0];
}

// ---------------------------------------------------------------------------------------------
// Creators

function avatarOf(u: Json): string | undefined {
  for (const k of ['avatarLarger', 'avatarMedium', 'avatarThumb']) {
    const v = u[k];
    if (typeof v === 'string' && isHttp(v)) return v;
  }
  for (const k of ['avatar_larger', 'avatar_300x300', 'avatar_medium', 'avatar_168x168', 'avatar_thumb']) {
    const v = urlOf(u[k]);
    if (v) return v;
  }
  return undefined;
}

function compactAuthor(a: Author): Author {
  for (const k of Object.keys(a) as Array<keyof Author>) if (a[k] === undefined) delete a[k];
  return a;
}

/** webapp.user-detail / api/user/detail userInfo {user, stats, statsV2} (camelCase) → Author. */
export function authorFromUserInfo(raw: unknown): Author | undefined {
  const info = obj(raw);
  const u = obj(info?.user);
  if (!u) return undefined;
  const handle = handleOf(u.uniqueId);
  const secUid = secUidOf(u.secUid);
  const id = idOf(u.id) ?? secUid;
  if (!id) return undefined;
  const s = [obj(info?.stats), obj(info?.statsV2)];
  const pick = (...keys: string[]): number | undefined => {
    for (const src of s) for (const k of keys) if (src && count(src[k]) !== undefined) return count(src[k]);
    return undefined;
  };
  return compactAuthor({
    id,
    source: 'tiktok',
    handle,
    name: text(u.nickname),
    bio: text(u.signature),
    avatar: avatarOf(u),
    url: handle ? profileUrl(handle) : secUid ? profileUrl(secUid) : undefined,
    followers: pick('followerCount'),
    following: pick('followingCount'),
    posts: pick('videoCount'),
    likes: pick('heartCount', 'heart'),
    verified: typeof u.verified === 'boolean' ? u.verified : undefined,
  });
}

/** A snake_case user (app answers, user search cards, comment authors) → Author. */
export function authorFromAppUser(raw: unknown): Author | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const handle = handleOf(u.unique_id);
  const secUid = secUidOf(u.sec_uid);
  const id = idOf(u.uid, u.user_id) ?? secUid;
  if (!id) return undefined;
  // Both reasons are present (empty when not verified) in every snake_case user TikTok answers.
  const reported = typeof u.custom_verify === 'string' || typeof u.enterprise_verify_reason === 'string';
  const verifiedBy = text(u.custom_verify) ?? text(u.enterprise_verify_reason);
  return compactAuthor({
    id,
    source: 'tiktok',
    handle,
    name: text(u.nickname),
    bio: text(u.signature),
    avatar: avatarOf(u),
    url: handle ? profileUrl(handle) : secUid ? profileUrl(secUid) : undefined,
    followers: count(u.follower_count),
    following: count(u.following_count),
    posts: count(u.aweme_count),
    likes: count(u.total_favorited),
    verified: verifiedBy ? true : typeof u.verified === 'boolean' ? u.verified : reported ? false : undefined,
  });
}

/** A user found by search: there is no post, so it is a text item pointing at the profile. */
export function userCardToDraft(raw: unknown): ItemDraft | undefined {
  const info = obj(raw);
  const author = info?.user ? authorFromUserInfo(info) : authorFromAppUser(info);
  if (!author || !author.handle) return undefined;
  return compactDraft({
    native_id: `@${author.handle}`,
    type: 'text',
    title: author.name ?? author.handle,
    text: author.bio,
    author: author.name,
    author_id: /^\d+$/.test(author.id) ? author.id : undefined,
    author_handle: author.handle,
    url: author.url,
    thumb: author.avatar,
    stats: {},
  });
}

/** user_list[].user_info (web and app user search, and the user cards of a general search). */
export function userCardsOf(list: unknown): ItemDraft[] {
  return drafts(
    objs(list).map((e) => e.user_info ?? e),
    userCardToDraft,
  );
}

/**
 * A general search page in either shape: data[] of typed cards, type 1 a post (item, camelCase on the
 * web; aweme_info on the app), type 4 a row of users (user_list).
 */
export function generalResultsOf(body: Json): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const card of objs(body.data)) {
    const post = card.item ?? card.aweme_info;
    if (post !== undefined) {
      const d = itemToDraft(post);
      if (d) out.push(d);
      continue;
    }
    if (Array.isArray(card.user_list)) out.push(...userCardsOf(card.user_list));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Comments (snake_case on the web and in the app)

export function commentOf(raw: unknown): Comment | undefined {
  const r = obj(raw);
  const cid = idOf(r?.cid);
  if (!r || !cid) return undefined;
  const u = obj(r.user) ?? {};
  const handle = handleOf(u.unique_id) ?? '';
  const c: Comment = {
    cid,
    text: str(r.text) ?? '',
    likes: count(r.digg_count) ?? 0,
    reply_total: count(r.reply_comment_total) ?? 0,
    user_id: idOf(u.uid, u.user_id) ?? '',
    handle,
    user_name: text(u.nickname) ?? handle,
    created_at: count(r.create_time) ?? 0,
    source: 'tiktok',
  };
  const sec = secUidOf(u.sec_uid);
  if (sec) c.sec_uid = sec;
  // reply_to_reply_id names the reply answered; reply_id the thread's top comment (0 on a top comment).
  const parent = idOf(r.reply_to_reply_id) ?? idOf(r.reply_id);
  if (parent && parent !== cid) c.parent_id = parent;
  return c;
}

/** Top comments, each followed by the reply previews TikTok inlines under it (reply_comment[]). */
export function threadComments(list: unknown, seen: Set<string> = new Set()): Comment[] {
  const out: Comment[] = [];
  for (const raw of objs(list)) {
    const top = commentOf(raw);
    if (!top || seen.has(top.cid)) continue;
    seen.add(top.cid);
    out.push(top);
    for (const child of objs(raw.reply_comment)) {
      const c = commentOf(child);
      if (!c || seen.has(c.cid)) continue;
      seen.add(c.cid);
      c.parent_id ??= top.cid;
      out.push(c);
    }
  }
  return out;
}
