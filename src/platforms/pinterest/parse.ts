import type { Author } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { obj, WWW, type Json } from './api.js';
import { pinUrl, userUrl } from './refs.js';

type Media = NonNullable<ItemDraft['media']>[number];

export const objs = (v: unknown): Json[] => (Array.isArray(v) ? v : []).map(obj).filter((o): o is Json => !!o);

/** Trimmed text; pinterest writes " " for an empty description. */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** A decimal id (pinterest sends ids as strings; numbers past 2^53 have lost digits and are no ids). */
export function idOf(v: unknown): string | undefined {
  const s = typeof v === 'string' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : undefined;
  return s && /^[1-9]\d{0,19}$/.test(s) ? s : undefined;
}

export function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;
}

function httpsUrl(v: unknown): string | undefined {
  const s = text(v);
  if (!s) return undefined;
  if (s.startsWith('//')) return `https:${s}`;
  return /^https?:\/\//i.test(s) ? s : undefined;
}

/** "Wed, 09 Feb 2022 20:32:10 +0000" → unix seconds. */
export function timeOf(v: unknown): number | undefined {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

interface Picture {
  url: string;
  w?: number;
  h?: number;
}

function picture(v: unknown): Picture | undefined {
  const o = obj(v);
  const url = httpsUrl(o?.url);
  return url ? { url, w: count(o?.width), h: count(o?.height) } : undefined;
}

/**
 * images{60x60 … 736x, orig}: the original for media, 736x for the cover. Originals can answer 403 while
 * 736x loads (gallery-dl#8081), so the cover never rests on orig when a sized copy exists.
 */
export function pictures(images: unknown): { orig?: Picture; cover?: Picture } {
  const o = obj(images) ?? {};
  const sized = Object.entries(o)
    .filter(([k]) => k !== 'orig')
    .map(([, v]) => picture(v))
    .filter((p): p is Picture => !!p)
    .sort((a, b) => (b.w ?? 0) - (a.w ?? 0));
  const orig = picture(o.orig) ?? sized[0];
  return { orig, cover: picture(o['736x']) ?? sized[0] ?? orig };
}

export interface Stream {
  url: string;
  w?: number;
  h?: number;
  duration_s?: number;
  thumb?: string;
}

const HLS_KEYS = ['V_HLSV4', 'V_HLSV3_WEB', 'V_HLSV3_MOBILE'];

/**
 * The best of a video_list: the highest V_<n>P progressive MP4 (V_720P is the usual top), then an MP4
 * whose path names its height (/720p/ under V_EXP7 in the recorded search), then HLS (V_HLSV4 first; the
 * media proxy rewrites playlists), then the largest entry. duration is in milliseconds.
 */
export function bestVideo(videoList: unknown): Stream | undefined {
  const entries = Object.entries(obj(videoList) ?? {})
    .map(([key, v]) => {
      const o = obj(v);
      const url = httpsUrl(o?.url);
      const ms = count(o?.duration);
      return url ? { key, url, w: count(o?.width), h: count(o?.height), duration_s: ms ? ms / 1000 : undefined, thumb: httpsUrl(o?.thumbnail) } : undefined;
    })
    .filter((e): e is NonNullable<typeof e> => !!e);
  const height = (s: string | undefined) => (s ? Number(s) : -1);
  const byKey = entries.filter((e) => /^V_\d+P$/.test(e.key)).sort((a, b) => height(/\d+/.exec(b.key)?.[0]) - height(/\d+/.exec(a.key)?.[0]));
  const byPath = entries.filter((e) => /\/\d+p\//.test(e.url) && !/\.m3u8/i.test(e.url)).sort((a, b) => height(/\/(\d+)p\//.exec(b.url)?.[1]) - height(/\/(\d+)p\//.exec(a.url)?.[1]));
  const hls = HLS_KEYS.map((k) => entries.find((e) => e.key === k)).find((e) => !!e) ?? entries.find((e) => /\.m3u8/i.test(e.url));
  const largest = [...entries].sort((a, b) => (b.w ?? 0) * (b.h ?? 0) - (a.w ?? 0) * (a.h ?? 0))[0];
  const best = byKey[0] ?? byPath[0] ?? hls ?? largest;
  if (!best) return undefined;
  const { key: _key, ...stream } = best;
  return stream;
}

const videoMedia = (s: Stream): Media => ({ kind: 'video', url: s.url, w: s.w, h: s.h, duration_s: s.duration_s });
const imageMedia = (p: Picture): Media => ({ kind: 'image', url: p.url, w: p.w, h: p.h });

/**
 * Idea (story) pins: pages of blocks; image blocks carry image.images.originals, video blocks a video_list
 * (gallery-dl _extract_story). Text, sticker and music blocks are not media of the item.
 */
function storyMedia(story: Json): Media[] {
  const out: Media[] = [];
  for (const page of objs(story.pages)) {
    for (const block of objs(page.blocks)) {
      const type = text(block.type) ?? '';
      const video = obj(block.video);
      if (type === 'story_pin_video_block' || video) {
        const s = bestVideo(video?.video_list);
        if (s) out.push(videoMedia(s));
      } else if (type === 'story_pin_image_block') {
        const images = obj(obj(block.image)?.images);
        const p = picture(images?.originals) ?? pictures(images).orig;
        if (p) out.push(imageMedia(p));
      }
    }
  }
  return out;
}

/**
 * Carousel pins: carousel_slots[].images lists one or more sizes; every size of a pinimg picture shares its
 * path after the size segment, so the original is the same path under /originals/ (gallery-dl _extract_carousel).
 */
function carouselMedia(carousel: Json): Media[] {
  const out: Media[] = [];
  for (const slot of objs(carousel.carousel_slots)) {
    const images = obj(slot.images) ?? {};
    const orig = picture(images.orig) ?? picture(images.originals);
    if (orig) {
      out.push(imageMedia(orig));
      continue;
    }
    const [size, first] = Object.entries(images).find(([, v]) => picture(v)) ?? [];
    const p = picture(first);
    if (p && size) out.push({ kind: 'image', url: p.url.replace(`/${size}/`, '/originals/') });
  }
  return out;
}

/** A pin's media: an idea pin's pages, a carousel's slots, a video, or the picture. */
export function pinMedia(pin: Json): Media[] {
  const story = obj(pin.story_pin_data);
  const fromStory = story ? storyMedia(story) : [];
  if (fromStory.length) return fromStory;
  const carousel = obj(pin.carousel_data);
  const fromCarousel = carousel ? carouselMedia(carousel) : [];
  if (fromCarousel.length) return fromCarousel;
  const video = bestVideo(obj(pin.videos)?.video_list);
  if (video) return [videoMedia(video)];
  const { orig } = pictures(pin.images);
  return orig ? [imageMedia(orig)] : [];
}

/** Every reaction (reaction_counts {"1": 140, "5": 1}: heart and the others) counted as a like. */
export function reactions(v: unknown): number | undefined {
  const o = obj(v);
  if (!o) return undefined;
  let n = 0;
  for (const c of Object.values(o)) n += count(c) ?? 0;
  return n;
}

/** The pin's own pinner; a pin object without one names its creator. */
const ownerOf = (pin: Json): Json | undefined => obj(pin.pinner) ?? obj(pin.native_creator) ?? obj(pin.origin_pinner);

/** A pin object (search results, feeds, PinResource) → draft; anything that is not a pin → undefined. */
export function pinToDraft(v: unknown): ItemDraft | undefined {
  const pin = obj(v);
  if (!pin || (pin.type !== undefined && pin.type !== 'pin')) return undefined;
  const id = idOf(pin.id);
  if (!id) return undefined;
  const media = pinMedia(pin);
  const { cover } = pictures(pin.images);
  const video = media.find((m) => m.kind === 'video');
  const first = media[0];
  const owner = ownerOf(pin);
  const handle = text(owner?.username);
  const agg = obj(pin.aggregated_pin_data);
  const stats = {
    likes: reactions(pin.reaction_counts),
    comments: count(agg?.comment_count) ?? count(pin.comment_count),
    // Saves (repins to other boards) are pinterest's resharing count.
    shares: count(obj(agg?.aggregated_stats)?.saves) ?? count(pin.repin_count),
  };
  const sized = video ?? first;
  return {
    native_id: id,
    // Pinterest has no text-only pins: one without listed media is still a picture post.
    type: video ? 'video' : 'image',
    title: text(pin.title) ?? text(pin.grid_title),
    text: text(pin.description) ?? text(pin.closeup_unified_description) ?? text(pin.closeup_description),
    author: text(owner?.full_name) ?? handle,
    author_id: idOf(owner?.id),
    author_handle: handle,
    url: pinUrl(id),
    thumb: cover?.url ?? bestVideo(obj(pin.videos)?.video_list)?.thumb ?? media.find((m) => m.kind === 'image')?.url,
    media,
    ts: timeOf(pin.created_at),
    duration_s: video?.duration_s,
    aspect: sized?.w && sized?.h ? { width: sized.w, height: sized.h } : undefined,
    stats: Object.fromEntries(Object.entries(stats).filter(([, n]) => n !== undefined)),
  };
}

/**
 * A board (search with type boards) as an item: its cover picture, name and owner. Board and pin ids come
 * from one id space, so the native id says which it is: board:<id>.
 */
export function boardToDraft(v: unknown): ItemDraft | undefined {
  const board = obj(v);
  if (!board || board.type !== 'board') return undefined;
  const id = idOf(board.id);
  if (!id) return undefined;
  const owner = obj(board.owner) ?? obj(board.user);
  const handle = text(owner?.username);
  // Covers: the hd and plain cover URLs, else the largest listed cover size (lists per size), else the
  // first pin thumbnail (BoardResource lists pin_thumbnail_urls).
  const sizes = Object.values(obj(board.images) ?? {}).map((list) => picture(Array.isArray(list) ? list[0] : list)).filter((p): p is Picture => !!p);
  const thumbs = Array.isArray(board.pin_thumbnail_urls) ? board.pin_thumbnail_urls : [];
  const cover =
    httpsUrl(board.image_cover_hd_url) ?? httpsUrl(board.image_cover_url) ?? sizes.sort((a, b) => (b.w ?? 0) - (a.w ?? 0))[0]?.url ?? httpsUrl(thumbs[0]) ?? httpsUrl(board.image_thumbnail_url);
  const path = text(board.url);
  return {
    native_id: `board:${id}`,
    type: 'image',
    title: text(board.name),
    text: text(board.description),
    author: text(owner?.full_name) ?? handle,
    author_id: idOf(owner?.id),
    author_handle: handle,
    url: path && path.startsWith('/') ? `${WWW}${path}` : undefined,
    thumb: cover,
    media: cover ? [{ kind: 'image', url: cover }] : [],
    ts: timeOf(board.created_at),
    stats: {},
  };
}

/** UserResource data (field_set_key profile) → author. */
export function authorOf(v: unknown): Author | undefined {
  const u = obj(v);
  const id = idOf(u?.id);
  const handle = text(u?.username);
  if (!u || !id || !handle) return undefined;
  const verified = obj(u.verified_identity)?.verified === true || u.is_verified_merchant === true;
  return {
    id,
    source: 'pinterest',
    handle,
    name: text(u.full_name),
    bio: text(u.about),
    avatar: httpsUrl(u.image_xlarge_url) ?? httpsUrl(u.image_large_url) ?? httpsUrl(u.image_medium_url),
    url: userUrl(handle),
    followers: count(u.follower_count),
    following: count(u.following_count),
    posts: count(u.pin_count),
    verified,
  };
}
