import type { Stats } from '../../domain/item.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { WEB_ORIGIN, goodHandle, nativeId, parseAtUri, postUrl, profileUrl, tidSeconds } from './refs.js';

/*
 * Pure parsers: AppView JSON (app.bsky.feed.defs#postView, #threadViewPost, app.bsky.actor.defs#profileView*,
 * app.bsky.unspecced.defs#trendingTopic) → domain objects. Nothing here throws on a missing optional field;
 * a count the AppView did not report stays absent.
 */

type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const nonEmpty = (v: unknown): string | undefined => {
  const s = str(v);
  return s && s.trim() ? s : undefined;
};
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
export const typeOf = (v: unknown): string => str(obj(v)?.$type) ?? '';

/** ISO 8601 → unix seconds. */
export function isoSeconds(v: unknown): number | undefined {
  const s = str(v);
  if (!s) return undefined;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

export interface PostKey {
  did: string;
  rkey: string;
  uri: string;
}

/** The repo DID and record key of a post view's at:// URI. */
export function postKey(post: unknown): PostKey | undefined {
  const uri = str(obj(post)?.uri);
  const at = uri ? parseAtUri(uri) : undefined;
  if (!uri || !at?.rkey || !at.authority.startsWith('did:')) return undefined;
  return { did: at.authority, rkey: at.rkey, uri };
}

/** Where an author's page lives: the handle when it still verifies, else the DID. */
export function authorPath(author: Json | undefined): string | undefined {
  return goodHandle(str(author?.handle)) ?? str(author?.did);
}

function aspectOf(v: unknown): { width: number; height: number } | undefined {
  const a = obj(v);
  const width = count(a?.width);
  const height = count(a?.height);
  return width && height ? { width, height } : undefined;
}

interface Visual {
  type: ItemDraft['type'];
  media: NonNullable<ItemDraft['media']>;
  thumb?: string;
  aspect?: { width: number; height: number };
}

/**
 * The post's own media, from its embed view. recordWithMedia carries the post's media next to a quoted
 * record; a quoted post's media (record#view) belongs to that other post and is not taken. A link card
 * (external#view) lends its thumbnail as the cover but is not the post's media.
 */
export function visualOf(embed: unknown): Visual {
  let view = obj(embed);
  if (typeOf(view) === 'app.bsky.embed.recordWithMedia#view') view = obj(view?.media);
  const kind = typeOf(view);
  if (kind === 'app.bsky.embed.images#view') {
    const images = arr(view?.images).map(obj).filter((i): i is Json => !!i && !!str(i.fullsize));
    if (images.length) {
      const media = images.map((i) => {
        const a = aspectOf(i.aspectRatio);
        return { kind: 'image' as const, url: str(i.fullsize)!, ...(a ? { w: a.width, h: a.height } : {}) };
      });
      return { type: 'image', media, thumb: str(images[0].thumb) ?? str(images[0].fullsize), aspect: aspectOf(images[0].aspectRatio) };
    }
  }
  if (kind === 'app.bsky.embed.gallery#view') {
    // The newer gallery embed (2026): `items` of #viewImage with `thumbnail` (not `thumb`) and `fullsize`.
    // A video item, if the AppView ever lists one, names its HLS `playlist`.
    const media: Visual['media'] = [];
    let thumb: string | undefined;
    let aspect: Visual['aspect'];
    for (const item of arr(view?.items).map(obj)) {
      const a = aspectOf(item?.aspectRatio);
      const full = str(item?.fullsize);
      const playlist = str(item?.playlist);
      const url = playlist ?? full;
      if (!item || !url) continue;
      media.push({ kind: playlist ? 'video' : 'image', url, ...(a ? { w: a.width, h: a.height } : {}) });
      if (!thumb) {
        thumb = str(item.thumbnail) ?? str(item.thumb) ?? full;
        aspect = a;
      }
    }
    if (media.length) return { type: media.some((m) => m.kind === 'video') ? 'video' : 'image', media, thumb, aspect };
  }
  if (kind === 'app.bsky.embed.video#view') {
    const playlist = str(view?.playlist);
    if (playlist) {
      const a = aspectOf(view?.aspectRatio);
      return { type: 'video', media: [{ kind: 'video', url: playlist, ...(a ? { w: a.width, h: a.height } : {}) }], thumb: str(view?.thumbnail), aspect: a };
    }
  }
  if (kind === 'app.bsky.embed.external#view') return { type: 'text', media: [], thumb: str(obj(view?.external)?.thumb) };
  return { type: 'text', media: [] };
}

export function postStats(post: Json): Stats {
  const stats: Stats = {};
  const likes = count(post.likeCount);
  const comments = count(post.replyCount);
  const shares = count(post.repostCount);
  if (likes !== undefined) stats.likes = likes;
  if (comments !== undefined) stats.comments = comments;
  if (shares !== undefined) stats.shares = shares;
  return stats;
}

/** Creation time of a post: the record's createdAt, else its TID record key, else when it was indexed. */
function createdAt(post: Json, rkey: string): number | undefined {
  return isoSeconds(obj(post.record)?.createdAt) ?? tidSeconds(rkey) ?? isoSeconds(post.indexedAt);
}

/** app.bsky.feed.defs#postView → ItemDraft; undefined when the view has no usable at:// URI. */
export function postToDraft(raw: unknown): ItemDraft | undefined {
  const post = obj(raw);
  const key = postKey(post);
  if (!post || !key) return undefined;
  const author = obj(post.author);
  const record = obj(post.record);
  const visual = visualOf(post.embed);
  const handle = goodHandle(str(author?.handle));
  const draft: ItemDraft = {
    native_id: nativeId(key.did, key.rkey),
    type: visual.type,
    text: str(record?.text) ?? '',
    author: nonEmpty(author?.displayName) ?? handle,
    author_id: str(author?.did) ?? key.did,
    author_handle: handle,
    url: postUrl(handle ?? key.did, key.rkey),
    thumb: visual.thumb,
    media: visual.media,
    ts: createdAt(post, key.rkey),
    aspect: visual.aspect,
    stats: postStats(post),
  };
  return draft;
}

const REPOST = 'app.bsky.feed.defs#reasonRepost';

/**
 * app.bsky.feed.defs#feedViewPost[] → drafts. With `skipReposts`, reposts are left out: an author feed
 * lists them, but they are not the creator's posts.
 */
export function feedToDrafts(feed: unknown, skipReposts = false): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const entry of arr(feed).map(obj)) {
    if (!entry) continue;
    if (skipReposts && typeOf(entry.reason) === REPOST) continue;
    const draft = postToDraft(entry.post);
    if (draft) out.push(draft);
  }
  return out;
}

export const postsToDrafts = (posts: unknown): ItemDraft[] =>
  arr(posts)
    .map(postToDraft)
    .filter((d): d is ItemDraft => !!d);

/** Feed paging: the next cursor, only when the page had entries (an empty page with a cursor ends the walk). */
export function nextCursor(body: Json, entries: unknown): string | undefined {
  const c = nonEmpty(body.cursor);
  return c && arr(entries).length ? c : undefined;
}

export type ThreadKind = 'post' | 'notFound' | 'blocked' | 'unknown';

/** What getPostThread put at the thread's root. */
export function threadKind(thread: unknown): ThreadKind {
  const t = obj(thread);
  const type = typeOf(t);
  if (type === 'app.bsky.feed.defs#threadViewPost' || (!type && obj(t?.post))) return 'post';
  if (type === 'app.bsky.feed.defs#notFoundPost' || t?.notFound === true) return 'notFound';
  if (type === 'app.bsky.feed.defs#blockedPost' || t?.blocked === true) return 'blocked';
  return 'unknown';
}

function replyToComment(post: Json, key: PostKey, parentId: string | undefined): Comment {
  const author = obj(post.author);
  const handle = goodHandle(str(author?.handle));
  const comment: Comment = {
    cid: key.uri,
    text: str(obj(post.record)?.text) ?? '',
    likes: count(post.likeCount) ?? 0,
    reply_total: count(post.replyCount) ?? 0,
    user_id: str(author?.did) ?? key.did,
    handle: handle ?? str(author?.did) ?? key.did,
    user_name: nonEmpty(author?.displayName) ?? handle ?? key.did,
    created_at: createdAt(post, key.rkey) ?? 0,
    source: 'bluesky',
    url: postUrl(handle ?? key.did, key.rkey),
  };
  if (parentId) comment.parent_id = parentId;
  return comment;
}

export interface FlatThread {
  comments: Comment[];
  /** Replies the AppView counted below the depth it was asked for, not in `comments`. */
  cutOff: number;
}

/**
 * The reply tree of a #threadViewPost, depth first: each reply right after its parent. A comment's cid is
 * its post's at:// URI; parent_id is the at:// URI of the reply it answers (absent for direct replies to
 * the post). Not-found and blocked replies have no content and are skipped with their subtrees.
 */
export function flattenReplies(thread: unknown): FlatThread {
  const comments: Comment[] = [];
  let cutOff = 0;
  const walk = (node: Json, parentId: string | undefined): void => {
    for (const child of arr(node.replies).map(obj)) {
      if (!child || threadKind(child) !== 'post') continue;
      const post = obj(child.post)!;
      const key = postKey(post);
      if (!key) continue;
      comments.push(replyToComment(post, key, parentId));
      const below = count(post.replyCount) ?? 0;
      if (child.replies === undefined && below > 0) cutOff += below;
      walk(child, key.uri);
    }
  };
  const root = obj(thread);
  if (root) walk(root, undefined);
  return { comments, cutOff };
}

/** app.bsky.actor.defs#profileViewDetailed (or #profileView) → Author. */
export function profileToAuthor(raw: unknown): Author | undefined {
  const p = obj(raw);
  const did = str(p?.did);
  if (!p || !did) return undefined;
  const handle = goodHandle(str(p.handle));
  const verification = obj(p.verification);
  const status = str(verification?.verifiedStatus);
  const author: Author = {
    id: did,
    source: 'bluesky',
    handle: handle ?? did,
    name: nonEmpty(p.displayName) ?? handle ?? did,
    bio: str(p.description),
    avatar: str(p.avatar),
    url: profileUrl(handle ?? did),
    followers: count(p.followersCount),
    following: count(p.followsCount),
    posts: count(p.postsCount),
  };
  if (status) author.verified = status === 'valid' || str(verification?.trustedVerifierStatus) === 'valid';
  for (const k of Object.keys(author) as (keyof Author)[]) if (author[k] === undefined) delete author[k];
  return author;
}

/**
 * app.bsky.unspecced.getTrendingTopics → Trend[] (the ranked `topics`; `suggested` is a fixed menu), and
 * the newer app.bsky.unspecced.getTrends (`trends`, each with the `postCount` it is trending on).
 */
export function trendingTopics(body: unknown): Trend[] {
  const out: Trend[] = [];
  const b = obj(body);
  for (const t of arr(b?.topics ?? b?.trends).map(obj)) {
    const word = nonEmpty(t?.displayName) ?? nonEmpty(t?.topic);
    if (!t || !word) continue;
    const trend: Trend = { word, source: 'bluesky', rank: out.length + 1 };
    const posts = count(t.postCount);
    if (posts !== undefined) trend.hot_value = posts;
    const link = str(t.link);
    if (link) {
      try {
        trend.url = new URL(link, WEB_ORIGIN).toString();
      } catch {
        /* no url then */
      }
    }
    out.push(trend);
  }
  return out;
}

const V2_ITEM: Record<string, 'post' | 'notFound' | 'blocked'> = {
  'app.bsky.unspecced.defs#threadItemPost': 'post',
  'app.bsky.unspecced.defs#threadItemNotFound': 'notFound',
  'app.bsky.unspecced.defs#threadItemBlocked': 'blocked',
  // An author who hides from logged-out viewers: no content to show, like a block.
  'app.bsky.unspecced.defs#threadItemNoUnauthenticated': 'blocked',
};

/**
 * app.bsky.unspecced.getPostThreadV2 → the #threadViewPost tree getPostThread answers. V2 lists the thread
 * flat, depth-first, each item with its `depth` relative to the anchor (0; parents are negative), so a
 * reply's parent is the nearest item before it one level up. Parents above the anchor are dropped.
 * Undefined when the answer has no anchor item.
 */
export function threadFromV2(body: unknown): Json | undefined {
  let root: Json | undefined;
  const stack: Json[] = [];
  for (const item of arr(obj(body)?.thread).map(obj)) {
    const depth = item?.depth;
    if (!item || typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0) continue;
    const value = obj(item.value);
    const kind = V2_ITEM[typeOf(value)] ?? (obj(value?.post) ? 'post' : undefined);
    let node: Json;
    if (kind === 'post') node = { $type: 'app.bsky.feed.defs#threadViewPost', post: value!.post };
    else if (kind === 'notFound') node = { $type: 'app.bsky.feed.defs#notFoundPost', uri: item.uri, notFound: true };
    else node = { $type: 'app.bsky.feed.defs#blockedPost', uri: item.uri, blocked: true };
    if (depth === 0) {
      if (root) break; // a second anchor would be another thread
      root = node;
      stack.length = 0;
      stack.push(node);
      continue;
    }
    const parent = stack[depth - 1];
    if (!root || !parent) continue; // an orphan (its parent was not listed): no place in the tree
    (parent.replies = arr(parent.replies)).push(node);
    stack.length = depth;
    stack.push(node);
  }
  return root;
}
