import { rememberRaw } from '../download-slots.js';
import type { Author, Comment } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { commentUrl, pkToShortcode, postUrl, shortcodeToPk, userUrl } from './refs.js';

/*
 * Instagram answers posts in two families (global-platforms.md §2, fixtures/instagram):
 * - GraphQL nodes (web_profile_info, the query_hash feeds, xdt_shortcode_media): __typename Graph*|XDTGraph*,
 *   shortcode, display_url, video_url, edge_* counts, edge_sidecar_to_children;
 * - media items (REST media/<pk>/info, clips, feed and tag sections, the doc_id feeds, xig_polaris_media):
 *   pk/id/code, media_type 1|2|8, image_versions2.candidates, video_versions, carousel_media.
 * Pure functions; a field Instagram did not report stays absent. Ids arrive as digit strings (json.ts).
 */
export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const objs = (v: unknown): Json[] => (Array.isArray(v) ? v : []).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** A decimal id (never a rounded number). */
export function idOf(...vs: unknown[]): string | undefined {
  for (const v of vs) {
    const s = str(v);
    if (s && /^\d{1,20}$/.test(s) && !/^0+$/.test(s)) return s;
  }
  return undefined;
}

export function count(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
const edgeCount = (v: unknown): number | undefined => count(obj(v)?.count);
export const positive = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

export function httpsUrl(v: unknown): string | undefined {
  const s = str(v)?.trim();
  if (!s) return undefined;
  if (s.startsWith('//')) return `https:${s}`;
  return /^https?:\/\//i.test(s) ? s : undefined;
}

interface Rendition {
  url: string;
  w?: number;
  h?: number;
}

/** The largest rendition by area; among equals the first listed (Instagram lists its preferred one first). */
function largest(list: unknown, urlKey = 'url', wKey = 'width', hKey = 'height'): Rendition | undefined {
  let best: (Rendition & { area: number }) | undefined;
  for (const r of objs(list)) {
    const url = httpsUrl(r[urlKey]);
    if (!url) continue;
    const w = positive(r[wKey]);
    const h = positive(r[hKey]);
    const area = (w ?? 0) * (h ?? 0);
    if (!best || area > best.area) best = { url, w, h, area };
  }
  return best && { url: best.url, w: best.w, h: best.h };
}

export const bestImage = (item: Json): Rendition | undefined => largest(obj(item.image_versions2)?.candidates);
export const bestVideo = (item: Json): Rendition | undefined => largest(item.video_versions);

/** Seconds from a DASH manifest's mediaPresentationDuration="PT…S". */
export function dashSeconds(manifest: unknown): number | undefined {
  const iso = typeof manifest === 'string' ? /mediaPresentationDuration=["']([^"']+)["']/.exec(manifest)?.[1] : undefined;
  const m = iso && /^PT(?:([\d.]+)H)?(?:([\d.]+)M)?(?:([\d.]+)S)?$/i.exec(iso);
  if (!m) return undefined;
  const s = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  return s > 0 ? Math.round(s * 1000) / 1000 : undefined;
}

/** The media pk of an item: the id's first part or pk (never a rounded number), else from the code. */
function mediaPk(m: Json): string | undefined {
  const fromId = typeof m.id === 'string' ? idOf(m.id.split('_')[0]) : undefined;
  return fromId ?? idOf(m.pk, m.media_id) ?? (str(m.code) ? shortcodeToPk(str(m.code)!) : str(m.shortcode) ? shortcodeToPk(str(m.shortcode)!) : undefined);
}

function captionOfMedia(m: Json): string | undefined {
  const c = m.caption;
  return typeof c === 'string' ? c : str(obj(c)?.text);
}

// ---- media items ------------------------------------------------------------------------------------

function mediaEntries(m: Json): NonNullable<ItemDraft['media']> {
  const out: NonNullable<ItemDraft['media']> = [];
  const children = objs(m.carousel_media);
  for (const part of children.length ? children : [m]) {
    const video = Number(part.media_type) === 2 ? bestVideo(part) : undefined;
    if (video) {
      out.push({ kind: 'video', url: video.url, w: video.w ?? positive(part.original_width), h: video.h ?? positive(part.original_height), duration_s: positive(part.video_duration) });
      continue;
    }
    const image = bestImage(part) ?? (httpsUrl(part.display_uri) ? { url: httpsUrl(part.display_uri)! } : undefined);
    if (image) out.push({ kind: 'image', url: image.url, w: image.w ?? positive(part.original_width), h: image.h ?? positive(part.original_height) });
  }
  return out;
}

/** A media item (REST, doc_id feeds, polaris) → draft; undefined without an id. */
export function mediaToDraft(raw: unknown): ItemDraft | undefined {
  return rememberRaw(mediaDraftOf(raw), raw);
}

function mediaDraftOf(raw: unknown): ItemDraft | undefined {
  const m = obj(raw);
  const pk = m && mediaPk(m);
  if (!m || !pk) return undefined;
  const code = str(m.code) ?? pkToShortcode(pk);
  const user = obj(m.user) ?? obj(m.owner);
  const children = objs(m.carousel_media);
  const cover = children[0] ?? m;
  const kind = Number(cover.media_type) === 2 ? 'video' : 'image';
  const media = mediaEntries(m);
  const thumb = bestImage(cover)?.url ?? httpsUrl(cover.display_uri) ?? httpsUrl(m.display_uri);
  const w = positive(m.original_width) ?? positive(cover.original_width) ?? media[0]?.w;
  const h = positive(m.original_height) ?? positive(cover.original_height) ?? media[0]?.h;
  const isVideo = kind === 'video';
  return {
    native_id: pk,
    type: kind,
    text: captionOfMedia(m),
    author: str(user?.full_name) ?? str(user?.username),
    author_id: idOf(user?.pk, user?.id, user?.pk_id, typeof m.id === 'string' ? m.id.split('_')[1] : undefined),
    author_handle: str(user?.username),
    url: postUrl(code),
    thumb,
    media,
    ts: count(m.taken_at),
    duration_s: isVideo ? positive(cover.video_duration) ?? positive(m.video_duration) : undefined,
    aspect: w && h ? { width: w, height: h } : undefined,
    stats: {
      likes: count(m.like_count),
      comments: count(m.comment_count),
      shares: count(m.reshare_count),
      views: isVideo ? count(m.play_count) ?? count(m.ig_play_count) ?? count(m.view_count) : undefined,
    },
  };
}

// ---- GraphQL nodes ----------------------------------------------------------------------------------

export const isVideoNode = (n: Json): boolean => n.is_video === true || /Video$/.test(String(n.__typename ?? ''));

function nodeImage(n: Json): Rendition | undefined {
  const res = largest(n.display_resources, 'src', 'config_width', 'config_height');
  const dims = obj(n.dimensions);
  const url = httpsUrl(n.display_url);
  if (url) return { url, w: positive(dims?.width) ?? res?.w, h: positive(dims?.height) ?? res?.h };
  return res ?? (httpsUrl(n.thumbnail_src) ? { url: httpsUrl(n.thumbnail_src)! } : undefined);
}

function nodeSeconds(n: Json): number | undefined {
  return positive(n.video_duration) ?? dashSeconds(obj(n.dash_info)?.video_dash_manifest);
}

function nodeEntries(n: Json): NonNullable<ItemDraft['media']> {
  const children = objs(obj(n.edge_sidecar_to_children)?.edges).map((e) => obj(e.node)).filter((c): c is Json => !!c);
  const out: NonNullable<ItemDraft['media']> = [];
  for (const part of children.length ? children : [n]) {
    const dims = obj(part.dimensions);
    const video = isVideoNode(part) ? httpsUrl(part.video_url) : undefined;
    if (video) {
      out.push({ kind: 'video', url: video, w: positive(dims?.width), h: positive(dims?.height), duration_s: nodeSeconds(part) });
      continue;
    }
    // A video without video_url (hashtag and tagged feeds) is metadata only: its cover is the thumb, not media.
    if (isVideoNode(part)) continue;
    const image = nodeImage(part);
    if (image) out.push({ kind: 'image', url: image.url, w: image.w, h: image.h });
  }
  return out;
}

/** A GraphQL post node → draft; undefined without an id. */
export function nodeToDraft(raw: unknown): ItemDraft | undefined {
  return rememberRaw(nodeDraftOf(raw), raw);
}

function nodeDraftOf(raw: unknown): ItemDraft | undefined {
  const n = obj(raw);
  const pk = n && (idOf(n.id) ?? (str(n.shortcode) ? shortcodeToPk(str(n.shortcode)!) : undefined));
  if (!n || !pk) return undefined;
  const shortcode = str(n.shortcode) ?? pkToShortcode(pk);
  const owner = obj(n.owner);
  const firstChild = obj(objs(obj(n.edge_sidecar_to_children)?.edges)[0]?.node);
  const cover = firstChild ?? n;
  const video = isVideoNode(cover);
  const dims = obj(n.dimensions);
  const caption = str(obj(objs(obj(n.edge_media_to_caption)?.edges)[0]?.node)?.text);
  return {
    native_id: pk,
    type: video ? 'video' : 'image',
    text: caption,
    author: str(owner?.full_name) ?? str(owner?.username),
    author_id: idOf(owner?.id, owner?.pk),
    author_handle: str(owner?.username),
    url: postUrl(shortcode),
    thumb: httpsUrl(n.display_url) ?? httpsUrl(n.thumbnail_src),
    media: nodeEntries(n),
    ts: count(n.taken_at_timestamp),
    duration_s: video ? nodeSeconds(cover) : undefined,
    aspect: positive(dims?.width) && positive(dims?.height) ? { width: positive(dims!.width)!, height: positive(dims!.height)! } : undefined,
    stats: {
      likes: edgeCount(n.edge_liked_by) ?? edgeCount(n.edge_media_preview_like),
      comments: edgeCount(n.edge_media_to_comment) ?? edgeCount(n.edge_media_to_parent_comment),
      views: video ? count(n.video_view_count) ?? count(n.video_play_count) : undefined,
    },
  };
}

/** Either family, told apart by its fields. */
export function postToDraft(raw: unknown): ItemDraft | undefined {
  const r = obj(raw);
  if (!r) return undefined;
  return 'media_type' in r || 'image_versions2' in r || 'code' in r ? mediaToDraft(r) : nodeToDraft(r);
}

export const edgeNodes = (connection: unknown): Json[] => objs(obj(connection)?.edges).map((e) => obj(e.node)).filter((n): n is Json => !!n);

export function draftsOf(list: Iterable<unknown>): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const raw of list) {
    const d = postToDraft(raw);
    if (d) out.push(d);
  }
  return out;
}

// ---- people -----------------------------------------------------------------------------------------

/** web_profile_info's user, a REST user or a search user → Author. */
export function authorOf(raw: unknown): Author | undefined {
  const u = obj(raw);
  if (!u) return undefined;
  const handle = str(u.username);
  // Some relayed answers are trimmed of the id; the posts it lists still name their owner.
  const ownerId = edgeNodes(u.edge_owner_to_timeline_media)
    .map((n) => obj(n.owner))
    .find((o) => o && (!handle || str(o.username)?.toLowerCase() === handle.toLowerCase()));
  const id = idOf(u.id, u.pk, u.pk_id, ownerId?.id);
  if (!id && !handle) return undefined;
  const avatar = httpsUrl(obj(u.hd_profile_pic_url_info)?.url) ?? httpsUrl(u.profile_pic_url_hd) ?? httpsUrl(u.profile_pic_url);
  return {
    id: id ?? handle!,
    source: 'instagram',
    handle,
    name: str(u.full_name),
    bio: str(u.biography),
    avatar,
    url: handle ? userUrl(handle) : undefined,
    followers: edgeCount(u.edge_followed_by) ?? count(u.follower_count),
    following: edgeCount(u.edge_follow) ?? count(u.following_count),
    posts: edgeCount(u.edge_owner_to_timeline_media) ?? count(u.media_count),
    verified: typeof u.is_verified === 'boolean' ? u.is_verified : undefined,
  };
}

/** An account found by search: no post, so a text item pointing at the profile. */
export function userCardToDraft(raw: unknown): ItemDraft | undefined {
  const a = authorOf(raw);
  if (!a?.handle) return undefined;
  return {
    native_id: `@${a.handle}`,
    type: 'text',
    title: a.name ?? a.handle,
    text: a.bio,
    author: a.name,
    author_id: /^\d+$/.test(a.id) ? a.id : undefined,
    author_handle: a.handle,
    url: a.url,
    thumb: a.avatar,
    stats: {},
  };
}

// ---- comments ---------------------------------------------------------------------------------------

/** A comment of any family (GraphQL node, REST, Relay) → Comment; parentId marks a reply. */
export function commentOf(raw: unknown, shortcode: string, parentId?: string): Comment | undefined {
  const n = obj(raw);
  const cid = n && idOf(n.pk, n.id);
  if (!n || !cid) return undefined;
  const user = obj(n.user) ?? obj(n.owner) ?? {};
  const handle = str(user.username) ?? '';
  const parent = parentId ?? idOf(n.parent_comment_id, n.replied_to_comment_id);
  const c: Comment = {
    cid,
    text: typeof n.text === 'string' ? n.text : '',
    likes: count(n.comment_like_count) ?? edgeCount(n.edge_liked_by) ?? 0,
    reply_total: count(n.child_comment_count) ?? edgeCount(n.edge_threaded_comments) ?? 0,
    user_id: idOf(user.pk, user.id, n.user_id) ?? '',
    handle,
    user_name: str(user.full_name) ?? handle,
    created_at: count(n.created_at) ?? count(n.created_at_utc) ?? 0,
    source: 'instagram',
    url: commentUrl(shortcode, cid),
  };
  if (parent && parent !== cid) c.parent_id = parent;
  return c;
}

export function commentsOf(list: Iterable<unknown>, shortcode: string, parentId?: string): Comment[] {
  const out: Comment[] = [];
  for (const raw of list) {
    const c = commentOf(raw, shortcode, parentId);
    if (c) out.push(c);
  }
  return out;
}
