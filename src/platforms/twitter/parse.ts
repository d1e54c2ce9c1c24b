import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { isTweetId, profileUrl, snowflakeTimeMs, tweetUrl, userIdUrl } from './refs.js';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const objs = (v: unknown): Json[] => arr(v).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

/** A count X reported (numbers, or numeric strings like views.count); anything else is "not reported". */
export function count(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

const idOf = (v: unknown): string | undefined => {
  const s = str(v);
  return s && isTweetId(s) ? s : undefined;
};

/** "Wed Jul 08 21:59:10 +0000 2026" or ISO → unix seconds. */
export function timeOf(v: unknown): number | undefined {
  const s = str(v);
  if (!s) return undefined;
  const m = /^\w{3} (\w{3}) (\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{4}) (\d{4})$/.exec(s);
  const ms = m ? Date.parse(`${m[2]} ${m[1]} ${m[5]} ${m[3]} GMT${m[4]}`) : Date.parse(s);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Media on pbs.twimg.com / video.twimg.com.

/** A pbs.twimg.com picture at its original size (name=orig), or the size asked for. */
export function pbsUrl(url: string, name = 'orig'): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.hostname !== 'pbs.twimg.com') return url;
  // Profile pictures come as _normal (48 px); without the suffix they are the uploaded size.
  if (u.pathname.startsWith('/profile_images/')) {
    u.pathname = u.pathname.replace(/_(?:normal|bigger|mini|x96|200x200|400x400)(\.\w+)$/, '$1');
    return u.toString();
  }
  if (u.pathname.startsWith('/profile_banners/')) return url;
  const ext = /\.(jpe?g|png|webp|gif)$/i.exec(u.pathname);
  if (ext) {
    u.pathname = u.pathname.slice(0, -ext[0].length);
    const format = ext[1]!.toLowerCase();
    u.searchParams.set('format', format === 'jpeg' ? 'jpg' : format);
  }
  if (u.searchParams.has('format')) u.searchParams.set('name', name);
  return u.toString();
}

/** The highest-bitrate mp4 of a video_info (HLS playlists are left to the media layer's own route). */
export function bestMp4(videoInfo: unknown): { url: string; bitrate: number } | undefined {
  let best: { url: string; bitrate: number } | undefined;
  for (const v of objs(obj(videoInfo)?.variants)) {
    const url = str(v.url) ?? str(v.src);
    const type = str(v.content_type) ?? str(v.type);
    if (!url || (type && type !== 'video/mp4') || (!type && !/\.mp4(?:\?|$)/.test(url))) continue;
    const bitrate = count(v.bitrate) ?? 0;
    if (!best || bitrate > best.bitrate) best = { url, bitrate };
  }
  return best;
}

type Media = NonNullable<ItemDraft['media']>[number];

function mediaOf(list: Json[]): { media: Media[]; thumb?: string; video: boolean; duration_s?: number; aspect?: { width: number; height: number } } {
  const media: Media[] = [];
  let thumb: string | undefined;
  let video = false;
  let duration_s: number | undefined;
  let aspect: { width: number; height: number } | undefined;
  for (const m of list) {
    const type = str(m.type);
    const poster = str(m.media_url_https) ?? str(m.media_url);
    const info = obj(m.original_info);
    const w = count(info?.width);
    const h = count(info?.height);
    const size = w && h ? { w, h } : {};
    if (w && h && !aspect) aspect = { width: w, height: h };
    if (poster && !thumb) thumb = pbsUrl(poster, 'small');
    if (type === 'video' || type === 'animated_gif') {
      const ms = count(obj(m.video_info)?.duration_millis);
      const d = ms ? ms / 1000 : undefined;
      if (!video) duration_s = d;
      video = true;
      // A live replay or an HLS-only upload has no mp4: the post is a video without a stream to hand out.
      const best = bestMp4(m.video_info);
      if (!best) continue;
      media.push({ kind: 'video', url: best.url, ...size, ...(d ? { duration_s: d } : {}) });
    } else if (poster) {
      media.push({ kind: 'image', url: pbsUrl(poster), ...size });
    }
  }
  return { media, thumb, video, duration_s, aspect };
}

// ---------------------------------------------------------------------------------------------
// Users: the 2025+ shape (core, avatar, relationship_counts, tweet_counts, profile_bio) and the legacy one.

export interface XUser {
  id: string;
  handle?: string;
  name?: string;
  bio?: string;
  avatar?: string;
  followers?: number;
  following?: number;
  posts?: number;
  likes?: number;
  verified?: boolean;
  protected?: boolean;
}

export function userOf(result: unknown): XUser | undefined {
  const u = obj(result);
  if (!u || (u.__typename !== undefined && u.__typename !== 'User')) return undefined;
  const id = idOf(u.rest_id);
  if (!id) return undefined;
  const legacy = obj(u.legacy) ?? {};
  const core = obj(u.core) ?? {};
  const handle = str(core.screen_name) ?? str(legacy.screen_name);
  const avatar = str(obj(u.avatar)?.image_url) ?? str(legacy.profile_image_url_https);
  const verification = obj(u.verification);
  const verified = u.is_blue_verified === true || verification?.verified === true || legacy.verified === true || !!str(verification?.verified_type) || !!str(legacy.verified_type);
  return {
    id,
    handle,
    name: str(core.name) ?? str(legacy.name),
    bio: str(obj(u.profile_bio)?.description) ?? str(legacy.description),
    avatar: avatar ? pbsUrl(avatar) : undefined,
    followers: count(obj(u.relationship_counts)?.followers) ?? count(legacy.followers_count),
    following: count(obj(u.relationship_counts)?.following) ?? count(legacy.friends_count),
    posts: count(obj(u.tweet_counts)?.tweets) ?? count(legacy.statuses_count),
    likes: count(obj(u.action_counts)?.favorites_count) ?? count(legacy.favourites_count),
    verified,
    protected: obj(u.privacy)?.protected === true || legacy.protected === true,
  };
}

export function authorOf(user: XUser): Author {
  return {
    id: user.id,
    source: 'twitter',
    handle: user.handle,
    name: user.name,
    bio: user.bio,
    avatar: user.avatar,
    url: user.handle ? profileUrl(user.handle) : userIdUrl(user.id),
    followers: user.followers,
    following: user.following,
    posts: user.posts,
    // favourites_count counts likes the account gave, not likes it received: not this field.
    verified: user.verified,
  };
}

// ---------------------------------------------------------------------------------------------
// Tweets.

export type TweetNode =
  | { kind: 'tweet'; tweet: Json }
  | { kind: 'tombstone'; text: string }
  | { kind: 'unavailable'; reason?: string; message?: string };

/** A tweet_results.result: a Tweet (also inside TweetWithVisibilityResults), a tombstone, or unavailable. */
export function tweetNode(result: unknown): TweetNode | undefined {
  const r = obj(result);
  if (!r) return undefined;
  const type = str(r.__typename);
  if (type === 'TweetWithVisibilityResults') return tweetNode(r.tweet);
  if (type === 'TweetTombstone' || r.tombstone) {
    const text = str(obj(obj(r.tombstone)?.text)?.text) ?? 'this post is unavailable';
    return { kind: 'tombstone', text: text.replace(/\s*Learn more\.?$/, '') };
  }
  if (type === 'TweetUnavailable') return { kind: 'unavailable', reason: str(r.reason), message: str(r.message) };
  if ((type === 'Tweet' || type === undefined) && obj(r.legacy) && idOf(r.rest_id ?? obj(r.legacy)?.id_str)) return { kind: 'tweet', tweet: r };
  return undefined;
}

export const tweetIdOf = (t: Json): string | undefined => idOf(t.rest_id) ?? idOf(obj(t.legacy)?.id_str);
export const tweetUserOf = (t: Json): XUser | undefined => userOf(obj(obj(t.core)?.user_results)?.result);

/** The original of a retweet; the tweet itself otherwise. */
export function originalOf(t: Json): Json {
  const rt = tweetNode(obj(obj(obj(t.legacy)?.retweeted_status_result))?.result);
  return rt?.kind === 'tweet' ? rt.tweet : t;
}

/** The full text: a long post's note_tweet text, t.co links written out, the trailing media link dropped. */
export function tweetText(t: Json): string {
  const legacy = obj(t.legacy) ?? {};
  const note = obj(obj(obj(t.note_tweet)?.note_tweet_results)?.result);
  let text = str(note?.text) ?? str(legacy.full_text) ?? '';
  const entities = obj(legacy.entities) ?? {};
  const urls = [...objs(entities.urls), ...objs(obj(note?.entity_set)?.urls)];
  for (const u of urls) {
    const short = str(u.url);
    const long = str(u.expanded_url);
    if (short && long) text = text.split(short).join(long);
  }
  for (const m of [...objs(entities.media), ...objs(obj(legacy.extended_entities)?.media)]) {
    const short = str(m.url);
    if (short) text = text.split(short).join('');
  }
  return text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').trim();
}

export function tweetToDraft(input: Json): ItemDraft | undefined {
  const t = originalOf(input);
  const id = tweetIdOf(t);
  if (!id) return undefined;
  const legacy = obj(t.legacy) ?? {};
  const user = tweetUserOf(t);
  const list = objs(obj(legacy.extended_entities)?.media);
  const m = mediaOf(list.length ? list : objs(obj(legacy.entities)?.media));
  const text = tweetText(t);
  const handle = user?.handle;
  const draft: ItemDraft = {
    native_id: id,
    type: m.video ? 'video' : m.media.length ? 'image' : 'text',
    text: text || undefined,
    author: user?.name,
    author_id: user?.id ?? idOf(legacy.user_id_str),
    author_handle: handle,
    url: tweetUrl(id, handle),
    thumb: m.thumb,
    media: m.media,
    ts: timeOf(legacy.created_at) ?? secondsOf(id),
    duration_s: m.duration_s,
    aspect: m.aspect,
    stats: {
      likes: count(legacy.favorite_count),
      comments: count(legacy.reply_count),
      shares: count(legacy.retweet_count),
      views: count(obj(t.views)?.count),
    },
  };
  return draft;
}

const secondsOf = (id: string): number | undefined => {
  const ms = snowflakeTimeMs(id);
  return ms === undefined ? undefined : Math.floor(ms / 1000);
};

// ---------------------------------------------------------------------------------------------
// Timelines: instructions → entries (items and module items), cursors.

/** The first `instructions` array anywhere in the answer (each operation nests it differently). */
export function instructionsOf(body: unknown, depth = 0): Json[] | undefined {
  const o = obj(body);
  if (!o || depth > 12) {
    if (Array.isArray(body) && depth <= 12) {
      for (const v of body) {
        const found = instructionsOf(v, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }
  if (Array.isArray(o.instructions)) return objs(o.instructions);
  for (const v of Object.values(o)) {
    if (v && typeof v === 'object') {
      const found = instructionsOf(v, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

export interface Entry {
  entryId: string;
  /** The itemContent of an item (a tweet, a user, a trend, a cursor). */
  item: Json;
  /** The module entry it belongs to. */
  module?: string;
}

/** Every item of the timeline in order: pinned, added, replaced, and module items. */
export function entriesOf(instructions: Json[]): Entry[] {
  const out: Entry[] = [];
  const add = (entry: Json, module?: string): void => {
    const entryId = str(entry.entryId) ?? '';
    const content = obj(entry.content) ?? obj(entry.item) ?? {};
    if (content.__typename === 'TimelineTimelineCursor' || content.cursorType) {
      out.push({ entryId, item: content, module });
      return;
    }
    const itemContent = obj(content.itemContent);
    if (itemContent) out.push({ entryId, item: itemContent, module });
    for (const it of objs(content.items)) add({ entryId: it.entryId, content: obj(it.item) }, entryId);
  };
  for (const ins of instructions) {
    const type = str(ins.type);
    if (type === 'TimelineAddEntries') for (const e of objs(ins.entries)) add(e);
    else if (type === 'TimelinePinEntry' || type === 'TimelineReplaceEntry') {
      const e = obj(ins.entry);
      if (e) add(e);
    } else if (type === 'TimelineAddToModule') {
      const module = str(ins.moduleEntryId);
      for (const it of objs(ins.moduleItems)) add({ entryId: it.entryId, content: obj(it.item) }, module);
    }
  }
  return out;
}

const isPromoted = (e: Entry): boolean => /^promoted[-_]/i.test(e.entryId) || !!obj(e.item.promotedMetadata);

/** The tweets of a timeline, in order, without promoted ones (nor those `skip` says are context). */
export function timelineTweets(instructions: Json[], skip?: (entry: Entry, node: TweetNode) => boolean): TweetNode[] {
  const out: TweetNode[] = [];
  for (const e of entriesOf(instructions)) {
    if (e.item.__typename !== 'TimelineTweet' || isPromoted(e)) continue;
    const node = tweetNode(obj(e.item.tweet_results)?.result);
    if (node && !skip?.(e, node)) out.push(node);
  }
  return out;
}

export function timelineUsers(instructions: Json[]): XUser[] {
  const out: XUser[] = [];
  for (const e of entriesOf(instructions)) {
    if (e.item.__typename !== 'TimelineUser' || isPromoted(e)) continue;
    const u = userOf(obj(e.item.user_results)?.result);
    if (u) out.push(u);
  }
  return out;
}

/** The value of the first cursor entry of one of these types, in that order of preference. */
export function cursorOf(instructions: Json[], ...types: string[]): string | undefined {
  const cursors = entriesOf(instructions).filter((e) => e.item.__typename === 'TimelineTimelineCursor' || e.item.cursorType);
  for (const type of types) {
    const found = cursors.find((c) => c.item.cursorType === type && str(c.item.value));
    if (found) return str(found.item.value);
  }
  return undefined;
}

/** The items of a page as drafts: the tweets (retweets as their originals), deduplicated. */
export function draftsOf(nodes: TweetNode[]): ItemDraft[] {
  const seen = new Set<string>();
  const out: ItemDraft[] = [];
  for (const n of nodes) {
    if (n.kind !== 'tweet') continue;
    const d = tweetToDraft(n.tweet);
    if (d && !seen.has(d.native_id)) {
      seen.add(d.native_id);
      out.push(d);
    }
  }
  return out;
}

/** A user as a card of the People search: native id user:<id>, the profile as its URL. */
export function userDraft(u: XUser): ItemDraft {
  return {
    native_id: `user:${u.id}`,
    type: 'text',
    title: u.name,
    text: u.bio,
    author: u.name,
    author_id: u.id,
    author_handle: u.handle,
    url: u.handle ? profileUrl(u.handle) : userIdUrl(u.id),
    thumb: u.avatar,
    media: [],
    stats: {},
  };
}

// ---------------------------------------------------------------------------------------------
// Conversations (TweetDetail): the focal tweet and the replies after it.

export interface Conversation {
  focal?: TweetNode;
  replies: Comment[];
}

export function commentOf(t: Json, focalId: string): Comment | undefined {
  const id = tweetIdOf(t);
  if (!id) return undefined;
  const legacy = obj(t.legacy) ?? {};
  const user = tweetUserOf(t);
  const parent = idOf(legacy.in_reply_to_status_id_str);
  return {
    cid: id,
    text: tweetText(t),
    likes: count(legacy.favorite_count) ?? 0,
    reply_total: count(legacy.reply_count) ?? 0,
    user_id: user?.id ?? idOf(legacy.user_id_str) ?? '',
    handle: user?.handle ?? '',
    user_name: user?.name ?? '',
    created_at: timeOf(legacy.created_at) ?? secondsOf(id) ?? 0,
    source: 'twitter',
    url: tweetUrl(id, user?.handle),
    // A reply to the post itself is a top-level comment; a reply to a reply names the one it answers.
    ...(parent && parent !== focalId ? { parent_id: parent } : {}),
  };
}

export function conversationOf(instructions: Json[], focalId: string): Conversation {
  let focal: TweetNode | undefined;
  const replies: Comment[] = [];
  const seen = new Set<string>();
  let afterFocal = false;
  for (const e of entriesOf(instructions)) {
    if (e.item.__typename !== 'TimelineTweet' || isPromoted(e)) continue;
    const node = tweetNode(obj(e.item.tweet_results)?.result);
    const idInEntry = /(\d{1,20})$/.exec(e.entryId)?.[1];
    if (!e.module && idInEntry === focalId) {
      focal = node;
      afterFocal = true;
      continue;
    }
    // Ancestors of a reply come before the focal tweet; replies come in conversation modules after it.
    if (!node || node.kind !== 'tweet' || !(afterFocal || e.module)) continue;
    const c = commentOf(node.tweet, focalId);
    if (c && c.cid !== focalId && !seen.has(c.cid)) {
      seen.add(c.cid);
      replies.push(c);
    }
  }
  return { focal, replies };
}

// ---------------------------------------------------------------------------------------------
// Trends (GenericTimelineById, ExplorePage).

/** "1,699 posts", "152K posts", "4M posts" → the number. */
export function postCount(text: string | undefined): number | undefined {
  const m = /([\d.,]+)\s*([KkMmBb])?\s*(?:posts|tweets|Tweets|Posts)/.exec(text ?? '');
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  if (!Number.isFinite(n)) return undefined;
  const mult = { k: 1e3, m: 1e6, b: 1e9 }[(m[2] ?? '').toLowerCase() as 'k' | 'm' | 'b'] ?? 1;
  return Math.round(n * mult);
}

/** twitter://search/?query=… → x.com/search?q=…; twitter://trending/<id> → x.com/i/trending/<id>. */
export function trendUrl(deep: string | undefined, name: string): string {
  if (deep) {
    const trending = /^twitter:\/\/trending\/(\d+)/.exec(deep);
    if (trending) return `https://x.com/i/trending/${trending[1]}`;
    const q = /^twitter:\/\/search\/?\?(.*)$/.exec(deep);
    const query = q ? new URLSearchParams(q[1]).get('query') : undefined;
    if (query) return `https://x.com/search?q=${encodeURIComponent(query)}`;
    if (/^https:\/\/(?:x|twitter)\.com\//.test(deep)) return deep;
  }
  return `https://x.com/search?q=${encodeURIComponent(name)}`;
}

export function trendsOf(instructions: Json[]): Trend[] {
  const out: Trend[] = [];
  for (const e of entriesOf(instructions)) {
    if (e.item.__typename !== 'TimelineTrend') continue;
    const name = str(e.item.name);
    if (!name || isPromoted(e) || obj(e.item.promoted_metadata)) continue;
    const meta = obj(e.item.trend_metadata);
    const deep = str(obj(e.item.trend_url)?.url) ?? str(obj(meta?.url)?.url);
    const hot = postCount(str(meta?.meta_description)) ?? postCount(str(obj(e.item.social_context)?.text));
    out.push({ word: name, source: 'twitter', rank: out.length + 1, ...(hot !== undefined ? { hot_value: hot } : {}), url: trendUrl(deep, name) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The syndication endpoint (cdn.syndication.twimg.com/tweet-result): a reduced legacy-like tweet.

export function syndicationNode(body: Json): TweetNode | undefined {
  const type = str(body.__typename);
  if (type === 'TweetTombstone' || body.tombstone) return tweetNode({ ...body, __typename: 'TweetTombstone' });
  if (type === 'TweetUnavailable') return { kind: 'unavailable', reason: str(body.reason), message: str(body.message) };
  const id = idOf(body.id_str);
  if (!id) return undefined;
  const user = obj(body.user) ?? {};
  // Shaped like a GraphQL Tweet so one parser reads both.
  const tweet: Json = {
    __typename: 'Tweet',
    rest_id: id,
    core: { user_results: { result: { __typename: 'User', rest_id: str(user.id_str), legacy: { screen_name: user.screen_name, name: user.name, profile_image_url_https: user.profile_image_url_https, verified: user.verified } , is_blue_verified: user.is_blue_verified } } },
    legacy: {
      id_str: id,
      full_text: str(body.text),
      created_at: str(body.created_at),
      favorite_count: body.favorite_count,
      reply_count: body.conversation_count,
      entities: body.entities,
      extended_entities: { media: arr(body.mediaDetails) },
      in_reply_to_status_id_str: body.in_reply_to_status_id_str,
    },
  };
  return { kind: 'tweet', tweet };
}
