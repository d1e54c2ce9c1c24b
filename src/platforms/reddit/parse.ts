import { ParseError } from '../../crawl/errors.js';
import type { Author, Comment } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { WWW_ORIGIN } from './http.js';
import { postUrl, profileUrl, stripPrefix } from './refs.js';

/*
 * Pure reddit JSON → domain. Reddit's "things" are {kind, data}: t1 comment, t2 account, t3 post, t5
 * subreddit, "more" a placeholder for comments not sent. Nothing here throws on a missing optional field.
 */

type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** A whole number reddit reports (a count, a unix time): finite is not enough for fields that must be integers. */
export const whole = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && Number.isSafeInteger(Math.trunc(n)) ? Math.trunc(n) : undefined;
};

const REDDIT_CDN = /^(?:[a-z0-9-]+\.)*(?:redd\.it|redditmedia\.com|redditstatic\.com)$/i;
const REDDIT_SITE = /^(?:[a-z0-9-]+\.)*(?:reddit\.com|redd\.it)$/i;

/**
 * An origin media URL as reddit lists it, made fetchable: without raw_json=1 reddit HTML-escapes "&" in
 * JSON strings (and a preview URL's signature breaks on "&amp;"), and old listings name http CDN hosts.
 */
export function cleanUrl(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  let u = v.trim().replace(/&amp;/g, '&');
  if (u.startsWith('//')) u = `https:${u}`;
  if (!/^https?:\/\//i.test(u)) return undefined;
  try {
    const parsed = new URL(u);
    if (parsed.protocol === 'http:' && REDDIT_CDN.test(parsed.hostname)) u = `https://${u.slice('http://'.length)}`;
  } catch {
    return undefined;
  }
  return u;
}

const hostOf = (u: string): string => {
  try {
    return new URL(u).hostname;
  } catch {
    return '';
  }
};

export interface Listing {
  children: Array<{ kind: string; data: Obj }>;
  after?: string;
}

/** A {kind: "Listing"} body; anything else is not an answer this adapter can read. */
export function listingOf(body: unknown, what: string): Listing {
  const o = obj(body);
  const data = obj(o?.data);
  if (!o || str(o.kind) !== 'Listing' || !data || !Array.isArray(data.children)) throw new ParseError(`${what}: expected a reddit Listing`);
  const children: Listing['children'] = [];
  for (const c of data.children) {
    const kind = str(obj(c)?.kind);
    const d = obj(obj(c)?.data);
    if (kind && d) children.push({ kind, data: d });
  }
  return { children, after: str(data.after) };
}

// ---- posts (t3) -------------------------------------------------------------------------------------

type Media = NonNullable<ItemDraft['media']>[number];

interface Picture {
  url: string;
  width?: number;
  height?: number;
}

function picture(v: unknown): Picture | undefined {
  const o = obj(v);
  const url = cleanUrl(o?.url ?? o?.u);
  if (!o || !url) return undefined;
  return { url, width: num(o.width) ?? num(o.x), height: num(o.y) ?? num(o.height) };
}

const THUMB_WIDTH = 640;

/** The largest rendition at most 640 px wide: big enough for a card, far lighter than the source. */
function cardSized(source: Picture | undefined, renditions: Picture[]): Picture | undefined {
  const fitting = renditions.filter((p) => (p.width ?? 0) > 0 && (p.width ?? 0) <= THUMB_WIDTH).sort((a, b) => (a.width ?? 0) - (b.width ?? 0));
  return fitting.at(-1) ?? source ?? renditions.at(-1);
}

function previewImage(d: Obj): { source?: Picture; renditions: Picture[] } | undefined {
  const first = obj(arr(obj(d.preview)?.images)[0]);
  if (!first) return undefined;
  return { source: picture(first.source), renditions: arr(first.resolutions).map(picture).filter((p): p is Picture => !!p) };
}

interface Stream {
  url: string;
  width?: number;
  height?: number;
  duration?: number;
}

/** Reddit-hosted video (v.redd.it) or the mp4 reddit renders for gifs: fallback_url is a progressive mp4. */
function stream(d: Obj): Stream | undefined {
  const candidates = [obj(obj(d.secure_media)?.reddit_video), obj(obj(d.media)?.reddit_video), obj(obj(d.preview)?.reddit_video_preview)];
  for (const rv of candidates) {
    const url = cleanUrl(rv?.fallback_url);
    if (rv && url) return { url, width: num(rv.width), height: num(rv.height), duration: num(rv.duration) };
  }
  return undefined;
}

/** Gallery items in the poster's order, from gallery_data + media_metadata. */
function gallery(d: Obj): Media[] {
  const meta = obj(d.media_metadata);
  if (!meta) return [];
  const order = arr(obj(d.gallery_data)?.items)
    .map((i) => str(obj(i)?.media_id))
    .filter((id): id is string => !!id);
  const out: Media[] = [];
  for (const id of order.length ? order : Object.keys(meta)) {
    const m = obj(meta[id]);
    if (!m || (m.status !== undefined && m.status !== 'valid')) continue;
    const s = obj(m.s);
    const w = num(s?.x);
    const h = num(s?.y);
    if (m.e === 'AnimatedImage') {
      const mp4 = cleanUrl(s?.mp4);
      const gif = cleanUrl(s?.gif);
      if (mp4) out.push({ kind: 'video', url: mp4, w, h });
      else if (gif) out.push({ kind: 'image', url: gif, w, h });
      continue;
    }
    const url = cleanUrl(s?.u);
    if (url) out.push({ kind: 'image', url, w, h });
  }
  return out;
}

function galleryThumb(d: Obj): string | undefined {
  const meta = obj(d.media_metadata);
  const firstId = str(obj(arr(obj(d.gallery_data)?.items)[0])?.media_id) ?? (meta ? Object.keys(meta)[0] : undefined);
  const m = obj(firstId && meta ? meta[firstId] : undefined);
  if (!m) return undefined;
  const renditions = arr(m.p).map(picture).filter((p): p is Picture => !!p);
  return cardSized(picture(m.s), renditions)?.url;
}

const IMAGE_PATH = /\.(?:jpe?g|png|gif|webp)$/i;

/** A single-image post: the original on i.redd.it when reddit hosts it, else reddit's preview copy (never a third-party host). */
function singleImage(d: Obj): Media | undefined {
  const link = cleanUrl(d.url_overridden_by_dest ?? d.url);
  const isImage = d.post_hint === 'image' || (link !== undefined && hostOf(link) === 'i.redd.it' && IMAGE_PATH.test(new URL(link).pathname));
  if (!isImage) return undefined;
  const source = previewImage(d)?.source;
  const url = link && REDDIT_CDN.test(hostOf(link)) ? link : source?.url;
  if (!url) return undefined;
  return { kind: 'image', url, w: source?.width, h: source?.height };
}

function thumbOf(d: Obj): string | undefined {
  const p = previewImage(d);
  const fromPreview = p ? cardSized(p.source, p.renditions)?.url : undefined;
  // thumbnail is "self", "default", "nsfw", "spoiler", "image" or "" when reddit has no picture.
  return fromPreview ?? galleryThumb(d) ?? cleanUrl(d.thumbnail);
}

/** Crossposts carry their media on the original post. */
export function mediaSource(d: Obj): Obj {
  const parent = obj(arr(d.crosspost_parent_list)[0]);
  if (parent && !stream(d) && gallery(d).length === 0 && !singleImage(d)) return parent;
  return d;
}

function authorFields(d: Obj): Pick<ItemDraft, 'author' | 'author_id' | 'author_handle'> {
  const name = str(d.author);
  // "[deleted]" is what reddit shows once the account is gone: there is no author to name.
  if (!name || name === '[deleted]') return {};
  const fullname = str(d.author_fullname);
  return { author: name, author_handle: name, author_id: fullname ? stripPrefix(fullname) : undefined };
}

const permalinkUrl = (d: Obj, id: string): string => {
  const p = str(d.permalink);
  return p ? `${WWW_ORIGIN}${p.startsWith('/') ? p : `/${p}`}` : postUrl(id);
};

/** One post (t3 data) → draft; undefined when it carries no id. */
export function postToDraft(d: Obj): ItemDraft | undefined {
  const id = str(d.id);
  if (!id) return undefined;
  const src = mediaSource(d);
  const video = stream(src);
  const pics = gallery(src);
  const image = singleImage(src);
  let type: ItemDraft['type'] = 'text';
  let media: Media[] = [];
  let aspect: ItemDraft['aspect'];
  let duration: number | undefined;
  if (video) {
    type = 'video';
    media = [{ kind: 'video', url: video.url, w: video.width, h: video.height, duration_s: video.duration }];
    duration = video.duration;
    if (video.width && video.height) aspect = { width: video.width, height: video.height };
  } else if (pics.length) {
    type = 'image';
    media = pics;
  } else if (image) {
    type = 'image';
    media = [image];
  } else if (src.post_hint === 'rich:video' || src.post_hint === 'hosted:video') {
    // An embedded player (YouTube, Streamable…): a video post, but reddit hands out no stream for it.
    type = 'video';
  }
  if (!aspect && media[0]?.w && media[0]?.h) aspect = { width: media[0].w, height: media[0].h };
  return {
    native_id: id,
    type,
    title: str(d.title),
    // A crosspost without words of its own shows the original's (its self text, or the link it shares).
    text: textOf(d) ?? crosspostText(d),
    ...authorFields(d),
    url: permalinkUrl(d, id),
    thumb: thumbOf(src) ?? (src !== d ? thumbOf(d) : undefined),
    media,
    ts: num(d.created_utc),
    duration_s: duration,
    aspect,
    stats: { likes: num(d.score), comments: num(d.num_comments), shares: num(d.num_crossposts), views: num(d.view_count) },
  };
}

/** The body of a self post; for a link post without a body, the address it links to. */
function textOf(d: Obj): string | undefined {
  const self = typeof d.selftext === 'string' && d.selftext.trim() !== '' ? d.selftext : undefined;
  if (self || d.is_self === true) return self;
  const link = cleanUrl(d.url_overridden_by_dest ?? d.url);
  return link && !REDDIT_SITE.test(hostOf(link)) && !REDDIT_CDN.test(hostOf(link)) ? link : undefined;
}

function crosspostText(d: Obj): string | undefined {
  const parent = obj(arr(d.crosspost_parent_list)[0]);
  return parent ? textOf(parent) : undefined;
}

export function postsOf(listing: Listing): ItemDraft[] {
  return listing.children
    .filter((c) => c.kind === 't3')
    .map((c) => postToDraft(c.data))
    .filter((d): d is ItemDraft => !!d);
}

/** A comment (t1) as a text item, for detail on a t1_ fullname. */
export function commentToDraft(d: Obj): ItemDraft | undefined {
  const id = str(d.id);
  if (!id) return undefined;
  const link = str(d.link_id);
  return {
    native_id: id,
    type: 'text',
    title: str(d.link_title),
    text: typeof d.body === 'string' ? d.body : undefined,
    ...authorFields(d),
    url: str(d.permalink) ? permalinkUrl(d, id) : link ? `${WWW_ORIGIN}/comments/${stripPrefix(link)}/_/${id}/` : undefined,
    media: [],
    ts: num(d.created_utc),
    stats: { likes: num(d.score) },
  };
}

/** The post of a /comments/<id> answer ([post listing, comment listing]) or of an /api/info, /by_id listing. */
export function postOf(body: unknown, what: string): Obj | undefined {
  const listing = listingOf(Array.isArray(body) ? body[0] : body, what);
  return listing.children.find((c) => c.kind === 't3')?.data;
}

// ---- comments (t1 and more) -------------------------------------------------------------------------

/** Comments reddit did not send: ids to ask /api/morechildren for, or a "continue this thread" link. */
export type Stub = { children: string[] } | { continueFrom: string };

export interface Flat {
  comments: Comment[];
  stubs: Stub[];
}

function stubOf(d: Obj): Stub | undefined {
  const children = arr(d.children).filter((c): c is string => typeof c === 'string' && c !== '');
  if (children.length) return { children };
  // count 0 with no children (id "_") is "continue this thread": the replies are on the parent's own page.
  const parent = str(d.parent_id);
  if (parent?.startsWith('t1_')) return { continueFrom: stripPrefix(parent) };
  return undefined;
}

/** Direct replies reddit says exist: those sent, those behind "load more", and at least one behind "continue". */
function replyCount(kids: Array<{ kind: string; data: Obj }>): number {
  let n = 0;
  for (const k of kids) {
    if (k.kind === 't1') n++;
    else if (k.kind === 'more') n += Math.max(arr(k.data.children).length, 1);
  }
  return n;
}

function kidsOf(replies: unknown): Array<{ kind: string; data: Obj }> {
  const data = obj(obj(replies)?.data);
  const out: Array<{ kind: string; data: Obj }> = [];
  for (const c of arr(data?.children)) {
    const kind = str(obj(c)?.kind);
    const d = obj(obj(c)?.data);
    if (kind && d) out.push({ kind, data: d });
  }
  return out;
}

export function toComment(d: Obj, postId: string, replyTotal: number): Comment | undefined {
  const id = str(d.id);
  if (!id) return undefined;
  const parent = str(d.parent_id);
  const author = str(d.author) ?? '';
  const fullname = str(d.author_fullname);
  const comment: Comment = {
    cid: id,
    text: typeof d.body === 'string' ? d.body : '',
    likes: num(d.score) ?? num(d.ups) ?? 0,
    reply_total: replyTotal,
    user_id: fullname ? stripPrefix(fullname) : '',
    handle: author,
    user_name: author,
    created_at: whole(d.created_utc) ?? 0,
    source: 'reddit',
    url: str(d.permalink) ? permalinkUrl(d, id) : `${WWW_ORIGIN}/comments/${postId}/_/${id}/`,
  };
  // Top-level comments answer the post (t3_): they have no parent comment.
  if (parent?.startsWith('t1_')) comment.parent_id = stripPrefix(parent);
  return comment;
}

/** A nested comment listing, depth first: every reply right after its parent, stubs in reading order. */
export function flattenTree(children: Array<{ kind: string; data: Obj }>, postId: string, out: Flat = { comments: [], stubs: [] }): Flat {
  for (const { kind, data } of children) {
    if (kind === 't1') {
      const kids = kidsOf(data.replies);
      const c = toComment(data, postId, replyCount(kids));
      if (c) out.comments.push(c);
      flattenTree(kids, postId, out);
    } else if (kind === 'more') {
      const s = stubOf(data);
      if (s) out.stubs.push(s);
    }
  }
  return out;
}

/** The comment listing of a /comments/<id> answer. */
export function commentListing(body: unknown, what: string): Listing {
  if (!Array.isArray(body) || body.length < 2) throw new ParseError(`${what}: expected [post, comments] listings`);
  return listingOf(body[1], what);
}

/**
 * /api/morechildren answers a flat list (json.data.things) whose members name their parent. It is put back
 * into tree order: things whose parent is not in the batch are roots, each followed by its replies.
 */
export function flattenThings(body: unknown, postId: string, what: string): Flat {
  const json = obj(obj(body)?.json);
  const data = obj(json?.data);
  if (!json || (!data && arr(json.errors).length === 0)) throw new ParseError(`${what}: expected {json: {data: {things}}}`);
  const things: Array<{ kind: string; data: Obj }> = [];
  for (const t of arr(data?.things)) {
    const kind = str(obj(t)?.kind);
    const d = obj(obj(t)?.data);
    if (kind && d) things.push({ kind, data: d });
  }
  const present = new Set(things.filter((t) => t.kind === 't1').map((t) => `t1_${str(t.data.id) ?? ''}`));
  const byParent = new Map<string, Array<{ kind: string; data: Obj }>>();
  const roots: Array<{ kind: string; data: Obj }> = [];
  for (const t of things) {
    const parent = str(t.data.parent_id) ?? '';
    if (present.has(parent)) byParent.set(parent, [...(byParent.get(parent) ?? []), t]);
    else roots.push(t);
  }
  const out: Flat = { comments: [], stubs: [] };
  const visit = (list: Array<{ kind: string; data: Obj }>): void => {
    for (const t of list) {
      if (t.kind === 't1') {
        const kids = byParent.get(`t1_${str(t.data.id) ?? ''}`) ?? [];
        const c = toComment(t.data, postId, replyCount(kids.length ? kids : kidsOf(t.data.replies)));
        if (c) out.comments.push(c);
        visit(kids);
        flattenTree(kidsOf(t.data.replies), postId, out);
      } else if (t.kind === 'more') {
        const s = stubOf(t.data);
        if (s) out.stubs.push(s);
      }
    }
  };
  visit(roots);
  return out;
}

/** /comments/<post>/_/<comment> for "continue this thread": the replies of that comment (already listed itself). */
export function continuedReplies(body: unknown, parentId: string, postId: string, what: string): Flat {
  const listing = commentListing(body, what);
  const parent = listing.children.find((c) => c.kind === 't1' && c.data.id === parentId);
  if (!parent) return { comments: [], stubs: [] };
  return flattenTree(kidsOf(parent.data.replies), postId);
}

// ---- accounts (t2) ----------------------------------------------------------------------------------

/** /user/<name>/about ({kind: t2, data}) or /api/v1/me (the account object itself) → Author. */
export function accountToAuthor(body: unknown): Author | undefined {
  const o = obj(body);
  const d = str(o?.kind) === 't2' ? obj(o?.data) : o;
  if (!d) return undefined;
  const name = str(d.name);
  const id = str(d.id) ?? name;
  if (!id) return undefined;
  // A member's profile is a user subreddit (u_<name>): its title is the display name, its subscribers the followers.
  const profile = obj(d.subreddit);
  const karma = num(d.total_karma) ?? (num(d.link_karma) !== undefined || num(d.comment_karma) !== undefined ? (num(d.link_karma) ?? 0) + (num(d.comment_karma) ?? 0) : undefined);
  const author: Author = {
    id,
    source: 'reddit',
    handle: name,
    name: str(profile?.title)?.trim() || name,
    bio: str(profile?.public_description)?.trim() || undefined,
    avatar: cleanUrl(d.snoovatar_img) ?? cleanUrl(d.icon_img) ?? cleanUrl(profile?.icon_img),
    url: name ? profileUrl(name) : undefined,
    followers: num(profile?.subscribers),
    likes: karma,
    verified: typeof d.verified === 'boolean' ? d.verified : undefined,
  };
  for (const k of Object.keys(author) as Array<keyof Author>) if (author[k] === undefined) delete author[k];
  return author;
}

// ---- writes -----------------------------------------------------------------------------------------

export interface WriteError {
  code: string;
  message: string;
  field?: string;
}

/**
 * Reddit's refusals: {"json": {"errors": [["CODE", "message", "field"]]}} with HTTP 200, or (submit's
 * validation) HTTP 400 {"error_type", "reason", "explanation", "fields"}.
 */
export function writeErrors(body: unknown): WriteError[] {
  const o = obj(body);
  const out: WriteError[] = [];
  for (const e of arr(obj(o?.json)?.errors)) {
    const parts = arr(e);
    const code = str(parts[0]);
    if (code) out.push({ code, message: str(parts[1]) ?? code, field: str(parts[2]) });
  }
  if (o && (str(o.error_type) || str(o.reason)) && str(o.explanation ?? o.message)) {
    out.push({ code: str(o.reason) ?? str(o.error_type) ?? 'ERROR', message: str(o.explanation) ?? str(o.message) ?? '', field: arr(o.fields).map(String).join(',') || undefined });
  }
  return out;
}

export const writeData = (body: unknown): Obj | undefined => obj(obj(obj(body)?.json)?.data);
