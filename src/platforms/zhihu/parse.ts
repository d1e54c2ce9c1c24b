import { rememberRaw } from '../download-slots.js';
import type { Stats } from '../../domain/item.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { htmlToText, imagesFromHtml } from './html.js';
import { contentFromUrl, contentUrl, isContentId, isUrlToken, nativeId, peopleUrl, WWW, type ContentKind } from './refs.js';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const objs = (v: unknown): Json[] => (Array.isArray(v) ? v : []).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

const camel = (k: string): string => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
/** The API answers snake_case, the pages' js-initialData camelCase: read either. */
export const get = (o: Json | undefined, key: string): unknown => (o ? (o[key] !== undefined ? o[key] : o[camel(key)]) : undefined);

/** A count zhihu reported (numbers, or digit strings on some answers). */
export function count(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
const positive = (v: unknown): number | undefined => {
  const n = count(v);
  return n ? n : undefined;
};

/** Decimal content ids; numbers past 2^53 lost digits in JSON.parse and are refused. */
export function contentId(v: unknown): string | undefined {
  const s = str(v);
  return s && isContentId(s) && !/^0+$/.test(s) ? s : undefined;
}

/**
 * A content's id; where JSON.parse lost the digits of a 19-digit numeric id, the id in its own URL
 * (www.zhihu.com/api/v4/articles/<id>, zhuanlan.zhihu.com/p/<id>) stands in.
 */
export function idOf(o: Json, kind: ContentKind): string | undefined {
  const direct = contentId(o.id);
  if (direct) return direct;
  const url = httpsUrl(o.url);
  if (!url) return undefined;
  const ref = contentFromUrl(new URL(url));
  return ref?.kind === kind ? ref.id : undefined;
}

export function httpsUrl(v: unknown): string | undefined {
  const s = str(v)?.trim();
  if (!s) return undefined;
  if (s.startsWith('//')) return `https:${s}`;
  return /^https?:\/\//i.test(s) ? s : undefined;
}

/** Avatar templates carry "{size}": the large rendition. */
const avatar = (o: Json | undefined): string | undefined =>
  httpsUrl(get(o, 'avatar_url')) ?? httpsUrl(str(get(o, 'avatar_url_template'))?.replace('{size}', 'xl'));

/** Search highlights wrap matches in <em>; titles and names are plain text. */
const plain = (v: unknown): string | undefined => {
  const s = str(v);
  return s === undefined ? undefined : htmlToText(s) || undefined;
};

/** Anonymous authors (匿名用户) carry id "0" and no url_token: a name without an identity. */
export function authorFields(raw: unknown): Pick<ItemDraft, 'author' | 'author_id' | 'author_handle'> {
  const a = obj(raw);
  if (!a) return {};
  const id = str(a.id);
  const token = str(get(a, 'url_token'));
  return {
    author: plain(a.name),
    author_id: id && id !== '0' && id !== '-1' ? id : undefined,
    author_handle: token && isUrlToken(token) ? token : undefined,
  };
}

function stats(o: Json): Stats {
  const reaction = obj(obj(o.reaction)?.statistics);
  const out: Stats = {};
  const likes = count(get(o, 'voteup_count')) ?? count(get(o, 'vote_count')) ?? count(reaction?.up_vote_count);
  const comments = count(get(o, 'comment_count')) ?? count(reaction?.comment_count);
  const shares = positive(reaction?.share_count);
  // Reads: the question's visit count, a video's play count, an answer's pv when reported (0 means "not said").
  const views = positive(get(o, 'visit_count')) ?? positive(get(o, 'play_count')) ?? positive(reaction?.pv_count);
  if (likes !== undefined) out.likes = likes;
  if (comments !== undefined) out.comments = comments;
  if (shares !== undefined) out.shares = shares;
  if (views !== undefined) out.views = views;
  return out;
}

const ts = (o: Json, ...keys: string[]): number | undefined => {
  for (const k of keys) {
    const n = positive(get(o, k));
    if (n) return n;
  }
  return undefined;
};

function bodyMedia(html: unknown): NonNullable<ItemDraft['media']> {
  return imagesFromHtml(html).map((i) => ({ kind: 'image' as const, url: i.url, w: i.w, h: i.h }));
}

function thumbOf(o: Json, media: ItemDraft['media']): string | undefined {
  const thumbs = objs(obj(get(o, 'thumbnail_info'))?.thumbnails);
  return (
    httpsUrl(thumbs[0]?.url) ??
    httpsUrl(get(o, 'thumbnail')) ??
    httpsUrl(get(o, 'image_url')) ??
    httpsUrl(get(o, 'title_image')) ??
    media?.find((m) => m.kind === 'image')?.url
  );
}

export function answerDraft(a: Json): ItemDraft | undefined {
  const id = idOf(a, 'answer');
  if (!id) return undefined;
  const q = obj(a.question);
  const question = q ? idOf(q, 'question') : undefined;
  const media = bodyMedia(a.content);
  return {
    native_id: nativeId({ kind: 'answer', id }),
    type: 'text',
    title: plain(q?.title) ?? plain(q?.name),
    text: htmlToText(a.content) || plain(a.excerpt) || '',
    ...authorFields(a.author),
    url: contentUrl({ kind: 'answer', id, question }),
    thumb: thumbOf(a, media),
    media,
    ts: ts(a, 'created_time', 'created'),
    stats: stats(a),
  };
}

export function articleDraft(a: Json): ItemDraft | undefined {
  const id = idOf(a, 'article');
  if (!id) return undefined;
  const media = bodyMedia(a.content);
  return {
    native_id: nativeId({ kind: 'article', id }),
    type: 'text',
    title: plain(a.title),
    text: htmlToText(a.content) || plain(a.excerpt) || '',
    ...authorFields(a.author),
    url: contentUrl({ kind: 'article', id }),
    thumb: thumbOf(a, media),
    media,
    ts: ts(a, 'created', 'created_time'),
    stats: stats(a),
  };
}

export function questionDraft(q: Json): ItemDraft | undefined {
  const id = idOf(q, 'question');
  if (!id) return undefined;
  const media = bodyMedia(q.detail);
  return {
    native_id: nativeId({ kind: 'question', id }),
    type: 'text',
    title: plain(q.title) ?? plain(q.name),
    text: htmlToText(q.detail) || plain(q.excerpt) || '',
    ...authorFields(q.author),
    url: contentUrl({ kind: 'question', id }),
    thumb: thumbOf(q, media),
    media,
    ts: ts(q, 'created', 'created_time'),
    stats: stats(q),
  };
}

interface Stream {
  url: string;
  w?: number;
  h?: number;
  duration?: number;
}

const QUALITY = ['fhd', 'hd', 'sd', 'ld'];

/**
 * A video's best stream: playlist (keyed FHD/HD/SD/LD or lower case) or playlist_v2, the highest quality
 * with an http URL (vdn*.vzuu.com). The flat lists carry none; only detail does.
 */
export function bestStream(video: unknown): Stream | undefined {
  const v = obj(video);
  for (const list of [obj(v?.playlist), obj(get(v, 'playlist_v2'))]) {
    if (!list) continue;
    const byKey = new Map(Object.entries(list).map(([k, x]) => [k.toLowerCase(), obj(x)]));
    for (const q of QUALITY) {
      const s = byKey.get(q);
      const url = httpsUrl(s?.url) ?? httpsUrl(get(s, 'play_url'));
      if (s && url) {
        const d = Number(s.duration ?? v?.duration);
        return { url, w: positive(s.width), h: positive(s.height), duration: Number.isFinite(d) && d > 0 ? d : undefined };
      }
    }
  }
  return undefined;
}

export function zvideoDraft(z: Json, users?: Json): ItemDraft | undefined {
  return rememberRaw(zvideoDraftOf(z, users), z);
}

function zvideoDraftOf(z: Json, users?: Json): ItemDraft | undefined {
  const id = idOf(z, 'zvideo');
  if (!id) return undefined;
  const video = obj(z.video);
  const stream = bestStream(video);
  // Page entities name the author by url_token and keep the person under entities.users.
  const author = typeof z.author === 'string' ? obj(users?.[z.author]) : z.author;
  const duration = stream?.duration ?? (Number(get(video, 'duration')) || undefined);
  const w = stream?.w ?? positive(video?.width);
  const h = stream?.h ?? positive(video?.height);
  return {
    native_id: nativeId({ kind: 'zvideo', id }),
    type: 'video',
    title: plain(z.title),
    text: plain(z.description) ?? '',
    ...authorFields(author),
    url: contentUrl({ kind: 'zvideo', id }),
    thumb: httpsUrl(get(z, 'image_url')) ?? httpsUrl(get(video, 'thumbnail')) ?? httpsUrl(get(z, 'cover_url')),
    media: stream ? [{ kind: 'video', url: stream.url, w, h, duration_s: duration }] : [],
    ts: ts(z, 'published_at', 'created_at', 'created'),
    duration_s: duration,
    aspect: w && h ? { width: w, height: h } : undefined,
    stats: stats(z),
  };
}

/** One content object of any kind, by its `type`. */
export function contentDraft(o: unknown, users?: Json): ItemDraft | undefined {
  const c = obj(o);
  switch (str(c?.type)) {
    case 'answer':
      return answerDraft(c!);
    case 'article':
      return articleDraft(c!);
    case 'question':
      return questionDraft(c!);
    case 'zvideo':
      return zvideoDraft(c!, users);
    default:
      return undefined;
  }
}

/** A member found by people search, as an item pointing at the profile (title = name, text = headline). */
export function peopleDraft(p: Json): ItemDraft | undefined {
  const token = str(get(p, 'url_token'));
  const id = str(p.id);
  const key = token && isUrlToken(token) ? token : id && isUrlToken(id) ? id : undefined;
  if (!key) return undefined;
  return {
    native_id: `people:${key}`,
    type: 'text',
    title: plain(p.name),
    text: plain(p.headline) ?? '',
    ...authorFields(p),
    url: peopleUrl(key),
    thumb: avatar(p),
    media: [],
    stats: {},
  };
}

/**
 * search_v3 (web and app): data[] holds search_result cards with an object (answer, article, zvideo,
 * question, people), and other cards (related queries, boxes) without one, which are skipped.
 */
export function searchDrafts(json: Json): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const card of objs(json.data)) {
    const o = obj(card.object);
    if (!o) continue;
    const d = str(o.type) === 'people' ? peopleDraft(o) : contentDraft(o);
    if (!d) continue;
    // A question card's name sits in the highlight when the object has only the marked-up one.
    if (!d.title) d.title = plain(obj(card.highlight)?.title);
    out.push(d);
  }
  return out;
}

/**
 * Hot-list cards in both shapes: the mobile one (target.title_area/excerpt_area/image_area/link) and the
 * desktop one (target is the question itself; children[0].thumbnail). The heat ("4696 万热度") is a rank
 * signal, not a count, and is left out of stats.
 */
export function hotDraft(card: Json): ItemDraft | undefined {
  const t = obj(card.target);
  if (!t) return undefined;
  const link = httpsUrl(obj(t.link)?.url) ?? httpsUrl(t.url);
  let ref = link ? contentFromUrl(new URL(link)) : undefined;
  if (!ref && contentId(t.id) && (str(t.type) === 'question' || str(t.type) === 'answer' || str(t.type) === 'article')) {
    ref = { kind: str(t.type) as ContentKind, id: contentId(t.id)! };
  }
  if (!ref) return undefined;
  const author = obj(t.author_area) ?? obj(t.author);
  return {
    native_id: nativeId(ref),
    type: ref.kind === 'zvideo' ? 'video' : 'text',
    title: plain(obj(t.title_area)?.text) ?? plain(t.title),
    text: plain(obj(t.excerpt_area)?.text) ?? plain(t.excerpt) ?? '',
    ...authorFields(author),
    url: contentUrl(ref),
    thumb: httpsUrl(obj(t.image_area)?.url) ?? httpsUrl(objs(card.children)[0]?.thumbnail),
    media: [],
    ts: positive(t.created),
    stats: stats(t),
  };
}

export function authorOf(raw: unknown): Author | undefined {
  const u = obj(raw);
  const id = str(u?.id);
  const token = str(get(u, 'url_token'));
  if (!u || !id || id === '0') return undefined;
  const counts = ['answer_count', 'articles_count', 'zvideo_count'].map((k) => count(get(u, k)));
  const posts = counts.some((n) => n !== undefined) ? counts.reduce<number>((a, n) => a + (n ?? 0), 0) : undefined;
  const badges = [...objs(u.badge), ...objs(obj(get(u, 'badge_v2'))?.merged_badges)];
  const org = u.is_org === true || u.isOrg === true || get(u, 'user_type') === 'organization';
  return {
    id,
    source: 'zhihu',
    handle: token && isUrlToken(token) ? token : undefined,
    name: plain(u.name),
    bio: plain(u.headline) ?? plain(u.description),
    avatar: avatar(u),
    url: token ? `${WWW}/${org ? 'org' : 'people'}/${encodeURIComponent(token)}` : undefined,
    followers: count(get(u, 'follower_count')),
    following: count(get(u, 'following_count')),
    posts,
    likes: count(get(u, 'voteup_count')),
    verified: badges.some((b) => str(b.type) === 'identity') ? true : undefined,
  };
}

/** comment_v5: reply_comment_id "0" answers the root; otherwise it names the comment answered. */
export function commentOf(raw: unknown, root?: string): Comment | undefined {
  const c = obj(raw);
  const cid = contentId(c?.id);
  if (!c || !cid || (c.type !== undefined && c.type !== 'comment')) return undefined;
  // Older answers wrap the person: author {member, role}.
  const a = obj(obj(c.author)?.member) ?? obj(c.author);
  const replyTo = contentId(c.reply_comment_id);
  const parent = root ? (replyTo && replyTo !== cid ? replyTo : root) : undefined;
  return {
    cid,
    text: htmlToText(c.content),
    likes: count(c.like_count) ?? count(c.vote_count) ?? 0,
    reply_total: count(c.child_comment_count) ?? 0,
    user_id: str(a?.id) ?? '',
    handle: str(get(a, 'url_token')) ?? '',
    user_name: plain(a?.name) ?? '',
    created_at: positive(c.created_time) ?? 0,
    source: 'zhihu',
    ...(parent && parent !== cid ? { parent_id: parent } : {}),
  };
}

export const searchUrl = (q: string): string => `${WWW}/search?type=content&q=${encodeURIComponent(q)}`;

/**
 * The hot-search words, from any of their answers: the topsearch page (queryDisplay/realQuery), the
 * recommend_query/v2 API (query_display/real_query) and the older top_search API (display_query/query).
 */
export function wordTrends(list: unknown): Trend[] {
  const out: Trend[] = [];
  for (const w of objs(list)) {
    const word = str(get(w, 'query_display')) ?? str(get(w, 'display_query')) ?? str(w.query);
    if (!word) continue;
    const query = str(get(w, 'real_query')) ?? str(w.query) ?? word;
    out.push({ word: word.trim(), source: 'zhihu', rank: out.length + 1, url: searchUrl(query.trim()) });
  }
  return out;
}
