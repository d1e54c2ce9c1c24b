import { load } from '../../crawl/cheerio.js';
import type { Stats } from '../../domain/item.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';

/*
 * Pure Mastodon JSON → domain mapping. `host` is the server that answered: status and account ids are local to
 * it, so native ids are `<host>/<status id>` and local accounts get the handle `user@host`.
 */

type Json = Record<string, unknown>;
type Media = NonNullable<ItemDraft['media']>[number];

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);
/** Mastodon sends counts as numbers, but tag history as numeric strings. */
export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

export function unixSeconds(v: unknown): number | undefined {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? Math.floor(t / 1000) : undefined;
}

/** Status/note HTML → plain text: paragraphs become blank lines, <br> newlines, hidden URL parts kept whole. */
export function htmlToText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  if (!/[<&]/.test(html)) return html.trim();
  const $ = load(html, null, false);
  $('br').replaceWith('\n');
  $('p').after('\n\n');
  return $.root()
    .text()
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `user@host` for every account: local accounts carry only `user` in `acct`. */
export function accountHandle(account: Json | undefined, host: string): string | undefined {
  const acct = str(account?.acct) ?? str(account?.username);
  if (!acct) return undefined;
  return acct.includes('@') ? acct : `${acct}@${host}`;
}

function accountName(account: Json | undefined): string | undefined {
  return str(account?.display_name) ?? str(account?.username);
}

function stats(s: Json): Stats {
  const out: Stats = {};
  const likes = num(s.favourites_count);
  const comments = num(s.replies_count);
  const shares = num(s.reblogs_count);
  if (likes !== undefined) out.likes = likes;
  if (comments !== undefined) out.comments = comments;
  if (shares !== undefined) out.shares = shares;
  return out;
}

/** image → image; video and gifv (a looping mp4) → video; audio and unknown attachments are not media cards. */
export function attachmentToMedia(raw: unknown): (Media & { preview?: string }) | undefined {
  const a = obj(raw);
  if (!a) return undefined;
  const type = str(a.type);
  const kind = type === 'image' ? 'image' : type === 'video' || type === 'gifv' ? 'video' : undefined;
  const url = str(a.url) ?? str(a.remote_url);
  if (!kind || !url) return undefined;
  const original = obj(obj(a.meta)?.original) ?? {};
  const m: Media & { preview?: string } = { kind, url };
  const w = num(original.width);
  const h = num(original.height);
  const duration = num(original.duration);
  if (w) m.w = w;
  if (h) m.h = h;
  if (kind === 'video' && duration !== undefined) m.duration_s = duration;
  const preview = str(a.preview_url);
  if (preview) m.preview = preview;
  return m;
}

/** One status (a boost is shown as the boosted status) → ItemDraft. */
export function statusToDraft(raw: unknown, host: string): ItemDraft | undefined {
  const outer = obj(raw);
  if (!outer) return undefined;
  const s = obj(outer.reblog) ?? outer;
  const id = str(s.id);
  if (!id) return undefined;
  const account = obj(s.account);
  const media = arr(s.media_attachments)
    .map(attachmentToMedia)
    .filter((m): m is Media & { preview?: string } => m !== undefined);
  const video = media.find((m) => m.kind === 'video');
  const first = media[0];
  const text = htmlToText(s.content) || str(s.text);
  const draft: ItemDraft = {
    native_id: `${host}/${id}`,
    type: video ? 'video' : media.length ? 'image' : 'text',
    // The content warning is the post's own summary line (ActivityPub `summary`).
    title: str(s.spoiler_text),
    text,
    author: accountName(account),
    author_id: str(account?.id),
    author_handle: accountHandle(account, host),
    url: str(s.url) ?? str(s.uri),
    thumb: first?.preview ?? (first?.kind === 'image' ? first.url : undefined),
    media: media.map(({ preview: _p, ...m }) => m),
    ts: unixSeconds(s.created_at),
    duration_s: video?.duration_s,
    aspect: first?.w && first.h ? { width: first.w, height: first.h } : undefined,
    stats: stats(s),
  };
  return draft;
}

export function statusesToDrafts(list: unknown, host: string): ItemDraft[] {
  return arr(list)
    .map((s) => statusToDraft(s, host))
    .filter((d): d is ItemDraft => d !== undefined);
}

/** An account as a search card: there is no post, so it is a text item pointing at the profile. */
export function accountToDraft(raw: unknown, host: string): ItemDraft | undefined {
  const a = obj(raw);
  const acct = str(a?.acct);
  if (!a || !acct) return undefined;
  return {
    native_id: `${host}/@${acct}`,
    type: 'text',
    title: accountName(a),
    text: htmlToText(a.note) || undefined,
    author: accountName(a),
    author_id: str(a.id),
    author_handle: accountHandle(a, host),
    url: str(a.url),
    thumb: str(a.avatar_static) ?? str(a.avatar),
    ts: unixSeconds(a.created_at),
    stats: {},
  };
}

export function accountToAuthor(raw: unknown, host: string): Author | undefined {
  const a = obj(raw);
  const id = str(a?.id);
  if (!a || !id) return undefined;
  return {
    id,
    source: 'mastodon',
    handle: accountHandle(a, host),
    name: accountName(a),
    bio: htmlToText(a.note) || undefined,
    avatar: str(a.avatar),
    url: str(a.url),
    followers: num(a.followers_count),
    following: num(a.following_count),
    posts: num(a.statuses_count),
  };
}

export function statusToComment(raw: unknown, host: string): (Comment & { reply_to?: string }) | undefined {
  const s = obj(raw);
  const id = str(s?.id);
  if (!s || !id) return undefined;
  const account = obj(s.account);
  return {
    cid: id,
    text: htmlToText(s.content) || str(s.text) || '',
    likes: num(s.favourites_count) ?? 0,
    reply_total: num(s.replies_count) ?? 0,
    user_id: str(account?.id) ?? '',
    handle: accountHandle(account, host) ?? '',
    user_name: accountName(account) ?? '',
    created_at: unixSeconds(s.created_at) ?? 0,
    source: 'mastodon',
    url: str(s.url) ?? str(s.uri),
    reply_to: str(s.in_reply_to_id),
  };
}

/**
 * A context's descendants in thread order. A direct reply to the post is a top-level comment (no parent_id);
 * a reply to another reply carries that reply's cid as parent_id and follows its parent (depth-first). A reply
 * whose parent is not in the list (hidden, deleted) is shown at top level.
 */
export function threadDescendants(descendants: unknown, rootId: string, host: string): Comment[] {
  const all = arr(descendants)
    .map((d) => statusToComment(d, host))
    .filter((c): c is Comment & { reply_to?: string } => c !== undefined);
  const ids = new Set(all.map((c) => c.cid));
  const children = new Map<string, Array<Comment & { reply_to?: string }>>();
  const top: Array<Comment & { reply_to?: string }> = [];
  for (const c of all) {
    if (c.reply_to && c.reply_to !== rootId && ids.has(c.reply_to) && c.reply_to !== c.cid) {
      const list = children.get(c.reply_to) ?? [];
      list.push(c);
      children.set(c.reply_to, list);
    } else top.push(c);
  }
  const out: Comment[] = [];
  const seen = new Set<string>();
  const visit = (c: Comment & { reply_to?: string }, parent?: string) => {
    if (seen.has(c.cid)) return;
    seen.add(c.cid);
    const { reply_to: _r, ...comment } = c;
    out.push(parent ? { ...comment, parent_id: parent } : comment);
    for (const child of children.get(c.cid) ?? []) visit(child, c.cid);
  };
  for (const c of top) visit(c);
  // A reply cycle (never seen, but not worth looping over) would leave comments unvisited.
  for (const c of all) visit(c);
  return out;
}

/** Trending tags: `#name`, ranked as served; hot_value = uses summed over the reported history days. */
export function tagsToTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const raw of arr(list)) {
    const t = obj(raw);
    const name = str(t?.name);
    if (!t || !name) continue;
    const uses = arr(t.history)
      .map((h) => num(obj(h)?.uses))
      .filter((n): n is number => n !== undefined);
    const trend: Trend = { word: `#${name}`, source: 'mastodon', rank: out.length + 1 };
    if (uses.length) trend.hot_value = uses.reduce((a, b) => a + b, 0);
    const url = str(t.url);
    if (url) trend.url = url;
    out.push(trend);
  }
  return out;
}

/** Trending links (preview cards): the page title as the word, uses over the reported days as heat. */
export function linksToTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const raw of arr(list)) {
    const l = obj(raw);
    const url = str(l?.url);
    const word = str(l?.title)?.trim() || url;
    if (!l || !word) continue;
    const uses = arr(l.history)
      .map((h) => num(obj(h)?.uses))
      .filter((n): n is number => n !== undefined);
    const trend: Trend = { word, source: 'mastodon', rank: out.length + 1 };
    if (uses.length) trend.hot_value = uses.reduce((a, b) => a + b, 0);
    if (url) trend.url = url;
    out.push(trend);
  }
  return out;
}

/** Trending posts as trends (the fallback when a server has no tag trends): the post's first line, its likes. */
export function statusesToTrends(list: unknown, host: string): Trend[] {
  const out: Trend[] = [];
  for (const d of statusesToDrafts(list, host)) {
    const line = (d.title ?? d.text ?? '').split('\n').find((l) => l.trim() !== '') ?? (d.author_handle ? `@${d.author_handle}` : d.native_id);
    const trend: Trend = { word: line.length > 80 ? `${line.slice(0, 79)}…` : line, source: 'mastodon', rank: out.length + 1 };
    if (d.stats.likes !== undefined) trend.hot_value = d.stats.likes;
    if (d.url) trend.url = d.url;
    out.push(trend);
  }
  return out;
}
