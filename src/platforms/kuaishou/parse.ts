import { rememberRaw } from '../download-slots.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { isWebId, profileUrl, searchUrl, videoUrl } from './refs.js';
import { deref, rootQuery, unwrapJson, type Json } from './state.js';

/* Pure raw → domain conversions. None of them throws on a missing optional field. */

type Media = NonNullable<ItemDraft['media']>[number];

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const objs = (v: unknown): Json[] => arr(v).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}
const nonEmpty = (v: unknown): string | undefined => {
  const s = str(v);
  return s && s.trim() ? s : undefined;
};

/** A count as kuaishou reports it: a number, "154028", or a display form "169.8w" / "1.2万" / "3亿". */
export function parseCount(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*([\d,]+(?:\.\d+)?)\s*([wW万亿])?\+?\s*$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1].replace(/,/g, ''));
  if (!Number.isFinite(n)) return undefined;
  const scale = m[2] === '亿' ? 1e8 : m[2] ? 1e4 : 1;
  return Math.round(n * scale);
}

export const positive = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
};
/** Kuaishou timestamps and durations are milliseconds. */
const msToS = (v: unknown): number | undefined => {
  const n = positive(v);
  const s = n === undefined ? undefined : Math.floor(n / 1000);
  return s !== undefined && Number.isSafeInteger(s) ? s : undefined;
};
export const msToSeconds = (v: unknown): number | undefined => {
  const n = positive(v);
  return n === undefined ? undefined : Math.round(n) / 1000;
};
export const httpUrl = (v: unknown): string | undefined => {
  const s = nonEmpty(v);
  if (!s) return undefined;
  if (/^(?:https?:)?\/\//i.test(s)) return s.replace(/^http:\/\//i, 'https://');
  // The hot board serves its posters percent-encoded.
  if (/^https?%3A%2F%2F/i.test(s)) {
    try {
      return decodeURIComponent(s);
    } catch {
      return undefined;
    }
  }
  return undefined;
};
/** The first URL of a [{cdn, url}] list. */
const firstUrl = (v: unknown): string | undefined => {
  for (const o of objs(v)) {
    const u = httpUrl(o.url);
    if (u) return u;
  }
  return undefined;
};

function stats(parts: { likes?: unknown; comments?: unknown; shares?: unknown; views?: unknown }): ItemDraft['stats'] {
  const out: ItemDraft['stats'] = {};
  const likes = parseCount(parts.likes);
  const comments = parseCount(parts.comments);
  const shares = parseCount(parts.shares);
  const views = parseCount(parts.views);
  if (likes !== undefined) out.likes = likes;
  if (comments !== undefined) out.comments = comments;
  if (shares !== undefined) out.shares = shares;
  if (views !== undefined) out.views = views;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Streams: manifest (h264) / manifestH265 (hevc) / videoResource.{h264,hevc}, each an adaptationSet
// of representations; photoUrl and friends when no manifest came.

interface Stream {
  url: string;
  w?: number;
  h?: number;
  bitrate: number;
  hevc: boolean;
  duration?: number;
}

function representations(manifest: unknown, hevc: boolean): Stream[] {
  const m = obj(unwrapJson(manifest));
  const out: Stream[] = [];
  for (const set of objs(m?.adaptationSet)) {
    for (const r of objs(set.representation)) {
      const url = httpUrl(r.url) ?? httpUrl(arr(r.backupUrl)[0]);
      if (!url) continue;
      const codec = typeof r.codecs === 'string' ? r.codecs : '';
      out.push({
        url,
        w: positive(r.width),
        h: positive(r.height),
        bitrate: positive(r.avgBitrate) ?? positive(r.maxBitrate) ?? 0,
        hevc: hevc || /hev|hvc|h265/i.test(codec),
        duration: msToSeconds(set.duration),
      });
    }
  }
  return out;
}

/**
 * The best playable stream: the largest h264 representation (highest bitrate among equals); hevc only
 * when no h264 one exists, since h264 plays in every browser and hevc does not.
 */
export function bestStream(photo: Json): Stream | undefined {
  const resource = obj(unwrapJson(photo.videoResource));
  const all = [
    ...representations(photo.manifest, false),
    ...representations(resource?.h264, false),
    ...representations(photo.manifestH265, true),
    ...representations(resource?.hevc, true),
  ];
  const pool = all.some((s) => !s.hevc) ? all.filter((s) => !s.hevc) : all;
  let best: Stream | undefined;
  for (const s of pool) {
    const area = (s.w ?? 0) * (s.h ?? 0);
    const bestArea = best ? (best.w ?? 0) * (best.h ?? 0) : -1;
    if (!best || area > bestArea || (area === bestArea && s.bitrate > best.bitrate)) best = s;
  }
  if (best) return best;
  const plain = httpUrl(photo.photoUrl) ?? firstUrl(photo.photoUrls) ?? firstUrl(photo.mainMvUrls) ?? httpUrl(photo.mp4Url);
  if (plain) return { url: plain, bitrate: 0, hevc: false };
  const h265 = httpUrl(photo.photoH265Url) ?? firstUrl(photo.photoH265Urls);
  return h265 ? { url: h265, bitrate: 0, hevc: true } : undefined;
}

function videoMedia(stream: Stream | undefined, duration?: number, dims?: { w?: number; h?: number }): Media[] {
  if (!stream) return [];
  const m: Media = { kind: 'video', url: stream.url };
  const w = stream.w ?? dims?.w;
  const h = stream.h ?? dims?.h;
  if (w) m.w = w;
  if (h) m.h = h;
  const d = duration ?? stream.duration;
  if (d) m.duration_s = d;
  return [m];
}

// ---------------------------------------------------------------------------------------------
// Web answers (GraphQL feeds, signed REST feeds, detail): {type, author{id,name}, photo{…}}.

/** A web photo object plus its author → draft. */
export function webPhotoToDraft(photoRaw: unknown, authorRaw?: unknown, fallbackId?: string): ItemDraft | undefined {
  return rememberRaw(webPhotoDraft(photoRaw, authorRaw, fallbackId), photoRaw);
}

function webPhotoDraft(photoRaw: unknown, authorRaw?: unknown, fallbackId?: string): ItemDraft | undefined {
  const photo = obj(photoRaw);
  if (!photo) return undefined;
  const id = nonEmpty(photo.id) ?? fallbackId;
  if (!id) return undefined;
  const author = obj(authorRaw);
  const duration = msToSeconds(photo.duration);
  const stream = bestStream(photo);
  const media = videoMedia(stream, duration);
  const draft: ItemDraft = {
    native_id: id,
    type: 'video',
    text: str(photo.caption) ?? str(photo.originCaption),
    author: nonEmpty(author?.name),
    author_id: nonEmpty(author?.id),
    url: videoUrl(id),
    thumb: httpUrl(photo.coverUrl) ?? firstUrl(photo.coverUrls),
    media,
    ts: msToS(photo.timestamp),
    duration_s: duration,
    stats: stats({ likes: photo.realLikeCount ?? photo.likeCount, comments: photo.commentCount, views: photo.viewCount }),
  };
  if (stream?.w && stream.h) draft.aspect = { width: stream.w, height: stream.h };
  return draft;
}

export const webFeedToDraft = (raw: unknown): ItemDraft | undefined => {
  const feed = obj(raw);
  return feed ? webPhotoToDraft(feed.photo, feed.author) : undefined;
};

export const webFeeds = (list: unknown): ItemDraft[] =>
  objs(list)
    .map(webFeedToDraft)
    .filter((d): d is ItemDraft => !!d);

/** The short-video page's Apollo cache: VisionVideoDetailPhoto:<id> and its author. */
export function apolloDetail(client: Json, photoId: string): ItemDraft | undefined {
  const query = rootQuery(client, 'visionVideoDetail').find((q) => obj(q.photo));
  const photo = obj(client[`VisionVideoDetailPhoto:${photoId}`]) ?? (query ? deref(client, query.photo) : undefined);
  if (!photo) return undefined;
  let author = query ? deref(client, query.author) : undefined;
  if (!author) {
    const keys = Object.keys(client).filter((k) => /^VisionVideoDetailAuthor:[^.]+$/.test(k));
    if (keys.length === 1) author = obj(client[keys[0]]);
  }
  return webPhotoToDraft(photo, author, photoId);
}

// ---------------------------------------------------------------------------------------------
// App-shaped photos: the WeChat mini-program feeds, the mobile share page (INIT_STATE) and
// /rest/wd/photo/info. photoId is numeric there; share_info carries the web id.

/** `userId=3x…&photoId=3x…` → the web photo id. */
export function sharedPhotoId(shareInfo: unknown): string | undefined {
  const s = str(shareInfo);
  if (!s) return undefined;
  const id = new URLSearchParams(s).get('photoId') ?? '';
  return isWebId(id) ? id : undefined;
}

export function appPhotoToDraft(raw: unknown, o: { photoId?: string; entry?: Json } = {}): ItemDraft | undefined {
  const p = obj(raw);
  return rememberRaw(appPhotoDraft(raw, o), p && { ...p, mp4Url: o.entry?.mp4Url ?? p.mp4Url });
}

function appPhotoDraft(raw: unknown, o: { photoId?: string; entry?: Json } = {}): ItemDraft | undefined {
  const p = obj(raw);
  if (!p) return undefined;
  const id = o.photoId ?? sharedPhotoId(p.share_info) ?? nonEmpty(p.photoId) ?? nonEmpty(p.photo_id);
  if (!id) return undefined;
  const ext = obj(p.ext_params);
  const w = positive(p.width) ?? positive(ext?.w);
  const h = positive(p.height) ?? positive(ext?.h);
  const atlas = obj(o.entry?.atlas) ?? obj(ext?.atlas);
  const images = atlasImages(atlas, w, h);
  const image = images.length > 0 || p.singlePicture === true || /ATLAS/i.test(str(p.photoType) ?? '');
  const duration = image ? undefined : msToSeconds(p.duration) ?? msToSeconds(ext?.video);
  const stream = image ? undefined : bestStream({ ...p, mp4Url: o.entry?.mp4Url ?? p.mp4Url });
  const cover = firstUrl(p.coverUrls) ?? httpUrl(p.coverUrl) ?? firstUrl(p.webpCoverUrls);
  const draft: ItemDraft = {
    native_id: id,
    type: image ? 'image' : 'video',
    text: str(p.caption),
    author: nonEmpty(p.userName) ?? nonEmpty(p.user_name),
    author_id: nonEmpty(p.userEid) ?? nonEmpty(p.userId) ?? nonEmpty(p.user_id),
    author_handle: nonEmpty(p.kwaiId),
    url: isWebId(id) ? videoUrl(id) : undefined,
    thumb: cover,
    media: image ? (images.length ? images : cover ? [{ kind: 'image', url: cover, ...(w ? { w } : {}), ...(h ? { h } : {}) }] : []) : videoMedia(stream, duration, { w, h }),
    ts: msToS(p.timestamp),
    duration_s: duration,
    stats: stats({ likes: p.likeCount, comments: p.commentCount, shares: p.shareCount, views: p.viewCount }),
  };
  if (w && h) draft.aspect = { width: w, height: h };
  return draft;
}

/** An image post's pictures: atlas {cdn: [host…], list: [path…]}. */
function atlasImages(atlas: Json | undefined, w?: number, h?: number): Media[] {
  const host = arr(atlas?.cdn).map(str).find((c) => c && /^[a-z0-9.-]+$/i.test(c));
  if (!host) return [];
  return arr(atlas?.list)
    .map(str)
    .filter((p): p is string => !!p && p.startsWith('/'))
    .map((p) => ({ kind: 'image' as const, url: `https://${host}${p}`, ...(w ? { w } : {}), ...(h ? { h } : {}) }));
}

export const appFeeds = (list: unknown): ItemDraft[] =>
  objs(list)
    .map((f) => appPhotoToDraft(f))
    .filter((d): d is ItemDraft => !!d);

/** The mobile share page's INIT_STATE: the entry holding `photo` (the one with this id when several). */
export function initStateDetail(state: Json, photoId: string): ItemDraft | undefined {
  const entries = Object.values(state)
    .map(obj)
    .filter((e): e is Json => !!e && !!obj(e.photo));
  const entry = entries.find((e) => sharedPhotoId(obj(e.photo)?.share_info) === photoId) ?? (entries.length === 1 ? entries[0] : undefined);
  return entry ? appPhotoToDraft(entry.photo, { photoId, entry }) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Hot board: $ROOT_QUERY.visionHotRank({"page":"home"}).items → VisionHotRankItem:* entries.

export interface HotEntry {
  word: string;
  rank: number;
  hotValue?: number;
  photoId?: string;
  poster?: string;
}

export function hotEntries(client: Json): HotEntry[] | undefined {
  const ranks = rootQuery(client, 'visionHotRank').filter((r) => Array.isArray(r.items));
  if (!ranks.length) return undefined;
  // The home board first ({"page":"home"}), then whatever other board the page carries.
  const board = ranks[0];
  const out: HotEntry[] = [];
  for (const [i, ref] of arr(board.items).entries()) {
    const item = deref(client, ref);
    const word = nonEmpty(item?.name);
    if (!item || !word) continue;
    const ids = arr(unwrapJson(item.photoIds)).map(str).filter((s): s is string => !!s && isWebId(s));
    const poster = httpUrl(item.poster);
    const cached = poster ? /clientCacheKey=([0-9a-z]{15})/.exec(poster)?.[1] : undefined;
    const rank = positive(item.rank);
    out.push({
      word,
      rank: rank && Number.isInteger(rank) ? rank : i + 1,
      hotValue: parseCount(item.hotValue),
      photoId: ids[0] ?? (cached && isWebId(cached) ? cached : undefined),
      poster,
    });
  }
  return out;
}

export function hotToDraft(e: HotEntry): ItemDraft | undefined {
  if (!e.photoId) return undefined;
  return { native_id: e.photoId, type: 'video', title: e.word, url: videoUrl(e.photoId), thumb: e.poster, media: [], stats: {} };
}

export const hotToTrend = (e: HotEntry): Trend => ({
  word: e.word,
  source: 'kuaishou',
  rank: e.rank,
  ...(e.hotValue !== undefined ? { hot_value: e.hotValue } : {}),
  url: searchUrl(e.word),
});

// ---------------------------------------------------------------------------------------------
// Creators.

/** visionProfile's operation object → author (fan counts may be display strings, "169.8w"). */
export function visionProfileAuthor(op: Json, userId: string): Author | undefined {
  const up = obj(op.userProfile);
  const p = obj(up?.profile);
  if (!p) return undefined;
  const counts = obj(up?.ownerCount) ?? {};
  const id = nonEmpty(p.user_id) ?? userId;
  return compactAuthor({
    id,
    source: 'kuaishou',
    name: nonEmpty(p.user_name),
    bio: str(p.user_text),
    avatar: httpUrl(p.headurl),
    url: isWebId(id) ? profileUrl(id) : undefined,
    followers: parseCount(counts.fan),
    following: parseCount(counts.follow),
    posts: parseCount(counts.photo_public) ?? parseCount(counts.photo),
  });
}

/** The mini-program's wechatApp/user/profile answer → author. */
export function wxProfileAuthor(body: Json, userId: string): Author | undefined {
  const up = obj(body.userProfile);
  const p = obj(up?.profile);
  if (!p) return undefined;
  const counts = obj(up?.ownerCount) ?? {};
  const id = nonEmpty(p.user_id) ?? userId;
  return compactAuthor({
    id,
    source: 'kuaishou',
    handle: nonEmpty(p.kwaiId),
    name: nonEmpty(p.user_name),
    bio: str(p.user_text),
    avatar: httpUrl(p.headurl) ?? firstUrl(p.headurls),
    url: isWebId(id) ? profileUrl(id) : undefined,
    followers: parseCount(counts.fan),
    following: parseCount(counts.follow),
    posts: parseCount(counts.photo_public) ?? parseCount(counts.photo),
    likes: parseCount(counts.like),
    verified: typeof p.verified === 'boolean' ? p.verified : undefined,
  });
}

export interface FoundUser {
  userId: string;
  kwaiId?: string;
  name?: string;
}

/** The mini-program's search/user answer → users. */
export const wxUsers = (body: Json): FoundUser[] =>
  objs(body.users)
    .map((u) => ({ userId: str(u.user_id) ?? '', kwaiId: nonEmpty(u.kwaiId), name: nonEmpty(u.user_name) }))
    .filter((u) => /^\d+$/.test(u.userId) || isWebId(u.userId));

function compactAuthor(a: Author): Author {
  for (const k of Object.keys(a) as (keyof Author)[]) {
    const v = a[k];
    // 0 is "not reported" in the spec: leave the field out.
    if (v === undefined || v === 0) delete a[k];
  }
  return a;
}

// ---------------------------------------------------------------------------------------------
// Comments: REST V2 (snake_case: comment_id, author_id, author_name, likeCount, commentCount) and the
// GraphQL list (camelCase: commentId, authorId, authorName, likedCount, subCommentCount).

export function commentOf(raw: unknown, photoId: string, parent?: string): Comment | undefined {
  const r = obj(raw);
  const cid = r && (str(r.comment_id) ?? str(r.commentId));
  if (!r || !cid) return undefined;
  const name = nonEmpty(r.author_name) ?? nonEmpty(r.authorName) ?? '';
  const c: Comment = {
    cid,
    text: str(r.content) ?? '',
    likes: parseCount(r.likeCount) ?? parseCount(r.realLikedCount) ?? parseCount(r.likedCount) ?? 0,
    reply_total: parseCount(r.commentCount) ?? parseCount(r.subCommentCount) ?? 0,
    user_id: str(r.author_id) ?? str(r.authorId) ?? '',
    handle: name,
    user_name: name,
    created_at: msToS(r.timestamp) ?? 0,
    source: 'kuaishou',
    url: videoUrl(photoId),
  };
  if (parent && parent !== cid) c.parent_id = parent;
  return c;
}

/** A REST V2 root comment announces replies with hasSubComments, the GraphQL one with a pcursor other than no_more. */
export function hasReplies(raw: Json): boolean {
  if (typeof raw.hasSubComments === 'boolean') return raw.hasSubComments;
  if (typeof raw.subCommentsPcursor === 'string') return raw.subCommentsPcursor !== 'no_more';
  return (parseCount(raw.commentCount) ?? parseCount(raw.subCommentCount) ?? 0) > 0;
}
