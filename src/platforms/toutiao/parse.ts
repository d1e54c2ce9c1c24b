import { load } from '../../crawl/cheerio.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { count, idStr, type Json, obj, objs, parseJson, str, unixSeconds } from './json.js';
import { creatorUrl, isPostId, isToken, postUrl, trendingNativeId, trendingUrl, type PostKind } from './refs.js';

/* Pure raw → domain conversions. None of them throws on a missing optional field. */

type Media = NonNullable<ItemDraft['media']>[number];

/** An absolute https URL out of a toutiao URL value ("//p3.pstatp.com/…" included), or undefined. */
export function httpsUrl(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  const u = s.startsWith('//') ? `https:${s}` : s.replace(/^http:\/\//i, 'https://');
  return /^https:\/\/[^/\s]+\//i.test(u) ? u : undefined;
}

/** An image object {url, url_list:[{url}]} or a bare URL string. */
function imageUrl(v: unknown): string | undefined {
  const o = obj(v);
  if (!o) return httpsUrl(v);
  return httpsUrl(o.url) ?? objs(o.url_list).map((e) => httpsUrl(e.url)).find(Boolean);
}

const stripTags = (s: string): string =>
  s
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();

// ---------------------------------------------------------------------------------------------
// Hot boards

/** One hot-board entry: a topic cluster, its rank and heat. */
export interface BoardEntry {
  clusterId: string;
  word: string;
  rank: number;
  hot?: number;
  image?: string;
  url: string;
}

/**
 * Web board (www.toutiao.com/hot-event/hot-board/?origin=toutiao_pc): data[] {ClusterId, ClusterIdStr, Title,
 * QueryWord, HotValue (string), Url, Image{url}, LabelUri{url}}. Url carries tracking params, so the
 * entry's link is the clean topic page /trending/<ClusterIdStr>/, as DailyHotApi and newsnow build it.
 */
export function webBoard(raw: unknown): BoardEntry[] {
  const out: BoardEntry[] = [];
  for (const e of objs(obj(raw)?.data)) {
    const clusterId = idStr(e.ClusterIdStr) ?? idStr(e.ClusterId);
    const word = str(e.Title) ?? str(e.QueryWord);
    if (!clusterId || !word) continue;
    const entry: BoardEntry = { clusterId, word, rank: out.length + 1, url: trendingUrl(clusterId) };
    const hot = count(e.HotValue);
    if (hot !== undefined) entry.hot = hot;
    const image = imageUrl(e.Image);
    if (image) entry.image = image;
    out.push(entry);
  }
  return out;
}

/** The link an app cell opens: its topic page for a search cell, the page a webview cell shows. */
function appCellUrl(schema: string | undefined, clusterId: string): string {
  const q = schema && /^sslocal:\/\/[a-z_]+\?/i.test(schema) ? new URLSearchParams(schema.slice(schema.indexOf('?') + 1)) : undefined;
  const boardCluster = idStr(q?.get('hot_board_cluster_id'));
  if (boardCluster) return trendingUrl(boardCluster);
  const page = httpsUrl(q?.get('url'));
  return page ?? trendingUrl(clusterId);
}

/**
 * App board (i-lq.snssdk.com/api/feed/hotboard_online/v1/): {"message":"success","data":[{"content":"<JSON>"}]},
 * each content a feed cell with raw_data {title, hot_item_id_str, hot_value, schema, large_image} and
 * log_pb.impr_rank. The content string is parsed a second time.
 */
export function appBoard(raw: unknown): BoardEntry[] {
  const out: BoardEntry[] = [];
  for (const e of objs(obj(raw)?.data)) {
    let cell: Json | undefined;
    try {
      cell = typeof e.content === 'string' ? obj(parseJson(e.content)) : obj(e.content);
    } catch {
      continue;
    }
    const data = obj(cell?.raw_data);
    const clusterId = idStr(data?.hot_item_id_str) ?? idStr(data?.hot_item_id) ?? idStr(cell?.id);
    const word = str(data?.title);
    if (!cell || !data || !clusterId || !word) continue;
    const rank = Number(str(obj(cell.log_pb)?.impr_rank));
    const entry: BoardEntry = { clusterId, word, rank: Number.isSafeInteger(rank) && rank > 0 ? rank : out.length + 1, url: appCellUrl(str(data.schema), clusterId) };
    const hot = count(data.hot_value);
    if (hot !== undefined) entry.hot = hot;
    const image = imageUrl(data.large_image);
    if (image) entry.image = image;
    out.push(entry);
  }
  return out;
}

export function boardTrend(e: BoardEntry): Trend {
  const t: Trend = { word: e.word, source: 'toutiao', rank: e.rank, url: e.url };
  if (e.hot !== undefined) t.hot_value = e.hot;
  return t;
}

/** A board entry as an item: a topic (text), linked to its topic page; never passed off as a post. */
export function boardDraft(e: BoardEntry): ItemDraft {
  const d: ItemDraft = { native_id: trendingNativeId(e.clusterId), type: 'text', title: e.word, url: e.url, stats: {} };
  if (e.image) d.thumb = e.image;
  return d;
}

// ---------------------------------------------------------------------------------------------
// Feeds (a creator's posts) and search cards

const textOf = (v: unknown): string | undefined => {
  if (typeof v === 'string') return stripTags(v) || undefined;
  const o = obj(v);
  return o ? textOf(o.text ?? o.title) : undefined;
};

/** The author id items carry: the creator token where given, else the numeric user id. */
function authorIdOf(e: Json): string | undefined {
  const info = obj(e.user_info);
  const user = obj(e.user);
  const token = [info?.user_id, user?.user_id, e.user_id].map(str).find((v) => v !== undefined && isToken(v));
  return token ?? idStr(user?.id) ?? idStr(user?.user_id) ?? idStr(info?.user_id);
}

function kindOf(e: Json, fallback: PostKind): PostKind {
  if (str(e.thread_id_str) || fallback === 'micro') return 'micro';
  if (e.has_video === true || e.has_video === 1 || (count(e.video_duration) ?? 0) > 0) return 'video';
  return fallback === 'unknown' ? 'article' : fallback;
}

/** Drops a micro-post "title" that is only the start of its own text. */
function distinctTitle(title: string | undefined, text: string | undefined): string | undefined {
  if (!title) return undefined;
  const head = title.replace(/(?:…|\.\.\.)$/, '');
  if (text && (text.startsWith(head) || head.startsWith(text))) return undefined;
  return title;
}

/**
 * A post in a creator's feed (/api/pc/list/user/feed?category=profile_all, data[]): articles, videos and
 * micro-posts. Fields as public crawlers read them (search index 59167119737, 66250831631, 24275252243):
 * group_id / item_id / thread_id_str, title, content / abstract, publish_time / create_time / behot_time,
 * user {name, id}, user_info.user_id (token), media_name / source, digg_count, comment_count, read_count,
 * image_url / middle_image, has_video / video_duration.
 */
export function feedItemToDraft(e: Json, fallbackKind: PostKind = 'unknown', bareId = true): ItemDraft | undefined {
  if (e.tag === 'ad' || e.is_feed_ad === true) return undefined;
  const ids = bareId ? [e.group_id, e.item_id, e.thread_id_str, e.id, obj(e.log_pb)?.group_id_str] : [e.group_id, e.item_id, e.thread_id_str];
  const id = ids.map(idStr).find((v) => v !== undefined && isPostId(v));
  if (!id) return undefined;
  const kind = kindOf(e, fallbackKind);
  const text = textOf(e.content) ?? textOf(e.abstract) ?? textOf(e.Abstract);
  const title = kind === 'micro' ? distinctTitle(textOf(e.title), text) : (textOf(e.title) ?? textOf(obj(e.emphasis)?.rich_content));
  if (!title && !text) return undefined;
  const user = obj(e.user);
  const d: ItemDraft = {
    native_id: id,
    type: kind === 'video' ? 'video' : 'text',
    url: postUrl(id, kind),
    stats: {},
  };
  if (title) d.title = title;
  if (text) d.text = text;
  const author = str(user?.name) ?? str(e.media_name) ?? str(e.source) ?? str(e.detail_source);
  if (author) d.author = author;
  const authorId = authorIdOf(e);
  if (authorId) d.author_id = authorId;
  const ts = unixSeconds(e.publish_time) ?? unixSeconds(e.create_time) ?? unixSeconds(e.datetime) ?? unixSeconds(e.behot_time);
  if (ts) d.ts = ts;
  const thumb = imageUrl(e.image_url) ?? imageUrl(e.middle_image);
  if (thumb) d.thumb = thumb;
  const duration = count(e.video_duration);
  if (kind === 'video' && duration) d.duration_s = duration;
  const likes = count(e.digg_count);
  const comments = count(e.comment_count);
  const views = count(e.read_count);
  if (likes !== undefined) d.stats.likes = likes;
  if (comments !== undefined) d.stats.comments = comments;
  if (views !== undefined) d.stats.views = views;
  return d;
}

/**
 * Result cards of so.toutiao.com/search: each a <script data-druid-card-data-id="…"> (older pages:
 * data-for="s-result-json") holding {"data": {…}} (search index 71297596170, 41607675475).
 */
export function searchCards(html: string): Json[] {
  const out: Json[] = [];
  const re = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (!/data-druid-card-data-id=|data-for=["']s-result-json["']/.test(m[1])) continue;
    const body = m[2].trim();
    if (!body.startsWith('{')) continue;
    try {
      const data = obj(obj(parseJson(body))?.data);
      if (data) out.push(data);
    } catch {
      /* a card that is not JSON is not a result */
    }
  }
  return out;
}

/** Search tabs (pd=) and the post kind their cards are. */
export const SEARCH_TABS = { synthesis: 'unknown', information: 'article', weitoutiao: 'micro', video: 'video' } as const satisfies Record<string, PostKind>;
export type SearchTab = keyof typeof SEARCH_TABS;

/**
 * One search card as an item: only cards naming a toutiao post by group_id / item_id are results (a
 * card's bare `id` may name a user or a topic).
 */
export function searchCardToDraft(card: Json, tab: SearchTab): ItemDraft | undefined {
  return feedItemToDraft(card, SEARCH_TABS[tab], false);
}

// ---------------------------------------------------------------------------------------------
// Post pages (RENDER_DATA)

/** `<script id="RENDER_DATA" type="application/json">` holds URL-encoded JSON (yt-dlp toutiao.py). */
export function renderData(html: string): Json | undefined {
  const m = /<script\b[^>]*\bid=["']RENDER_DATA["'][^>]*>([\s\S]*?)<\/script>/i.exec(html);
  if (!m) return undefined;
  const raw = m[1].trim();
  try {
    return obj(parseJson(raw.startsWith('{') ? raw : decodeURIComponent(raw)));
  } catch {
    return undefined;
  }
}

/** Text and images of an article body (HTML). */
export function articleBody(html: string): { text?: string; images: string[] } {
  const $ = load(`<div id="tt-root">${html}</div>`);
  const images: string[] = [];
  $('img').each((_, el) => {
    const u = httpsUrl($(el).attr('src')) ?? httpsUrl($(el).attr('data-src'));
    if (u && !images.includes(u)) images.push(u);
  });
  $('br').replaceWith('\n');
  $('p, h1, h2, h3, h4, h5, h6, li, blockquote, pre, div').each((_, el) => {
    $(el).append('\n');
  });
  const text = $('#tt-root')
    .text()
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text: text || undefined, images };
}

interface VideoTrack {
  url: string;
  w?: number;
  h?: number;
}

/** main_url is a plain URL in page data; the older video API sent it base64-encoded. */
export function trackUrl(v: unknown): string | undefined {
  const direct = httpsUrl(v);
  if (direct) return direct;
  const s = str(v);
  if (!s || !/^[A-Za-z0-9+/=]{16,}$/.test(s)) return undefined;
  return httpsUrl(Buffer.from(s, 'base64').toString('utf8'));
}

function tracks(list: unknown, metaKey: string): VideoTrack[] {
  const entries = Array.isArray(list) ? objs(list) : objs(Object.values(obj(list) ?? {}));
  const out: VideoTrack[] = [];
  for (const e of entries) {
    const url = trackUrl(e.main_url) ?? trackUrl(e.backup_url_1);
    if (!url) continue;
    const meta = obj(e[metaKey]) ?? e;
    const t: VideoTrack = { url };
    const w = count(meta.vwidth);
    const h = count(meta.vheight);
    if (w) t.w = w;
    if (h) t.h = h;
    out.push(t);
  }
  return out.sort((a, b) => (b.h ?? 0) * (b.w ?? 0) - (a.h ?? 0) * (a.w ?? 0));
}

export interface PostPage {
  draft: ItemDraft;
  /** Notes for the caller (a video-only stream, a missing part). */
  notes: string[];
  /** A video page's videoPlayInfo (download lists every track of it). */
  videoPlayInfo?: Json;
}

/**
 * A video page: data.initialVideo {title, publishTime, poster / coverUrl, userInfo {name, userId},
 * commentCount, repinCount, playCount, detailUrl, videoPlayInfo {video_duration, video_list[] {main_url,
 * video_meta {vwidth, vheight, definition}}, dynamic_video {dynamic_video_list, dynamic_audio_list}}}
 * (yt-dlp toutiao.py; search index 24275252243, 71249200963).
 */
function videoPage(v: Json, data: Json, id: string): PostPage {
  const notes: string[] = [];
  const play = obj(v.videoPlayInfo) ?? {};
  const duration = count(play.video_duration);
  const d: ItemDraft = { native_id: idStr(v.group_id) ?? id, type: 'video', url: postUrl(id, 'video'), stats: {} };
  const title = str(v.title) ?? str(obj(data.seoTDK)?.title);
  if (title) d.title = title;
  const text = str(v.abstract) ?? str(obj(data.seoTDK)?.description);
  if (text) d.text = text;
  const user = obj(v.userInfo);
  const author = str(user?.name);
  if (author) d.author = author;
  const authorId = str(user?.userId);
  if (authorId) d.author_id = authorId;
  const ts = unixSeconds(v.publishTime);
  if (ts) d.ts = ts;
  const thumb = httpsUrl(v.poster) ?? httpsUrl(v.coverUrl);
  if (thumb) d.thumb = thumb;
  if (duration) d.duration_s = duration;
  // yt-dlp reads like_count from repinCount; comments and plays are named plainly.
  const comments = count(v.commentCount);
  const likes = count(v.repinCount);
  const views = count(v.playCount);
  if (comments !== undefined) d.stats.comments = comments;
  if (likes !== undefined) d.stats.likes = likes;
  if (views !== undefined) d.stats.views = views;
  const progressive = tracks(play.video_list, 'video_meta');
  const dynamic = obj(play.dynamic_video);
  const split = tracks(dynamic?.dynamic_video_list, 'video_meta');
  const best = progressive[0] ?? split[0];
  if (best) {
    const m: Media = { kind: 'video', url: best.url };
    if (best.w) m.w = best.w;
    if (best.h) m.h = best.h;
    if (duration) m.duration_s = duration;
    d.media = [m];
    if (best.w && best.h) d.aspect = { width: best.w, height: best.h };
    if (!progressive.length) notes.push(`video ${id} offers only separate video and audio streams; media[] is the video-only stream`);
  } else {
    notes.push(`video ${id}: the page names no playable stream`);
  }
  return { draft: d, notes, videoPlayInfo: play };
}

/** An article page: data.seoTDK {title, description, publishTimestamp} and data.content (HTML) (search index 24275252243). */
function articlePage(data: Json, id: string): PostPage {
  const seo = obj(data.seoTDK) ?? {};
  const body = articleBody(str(data.content) ?? '');
  const d: ItemDraft = { native_id: id, type: 'text', url: postUrl(id, 'article'), stats: {} };
  const title = str(seo.title) ?? str(data.title);
  if (title) d.title = title;
  const text = body.text ?? str(seo.description);
  if (text) d.text = text;
  const ts = unixSeconds(seo.publishTimestamp) ?? unixSeconds(data.publishTime);
  if (ts) d.ts = ts;
  if (body.images.length) {
    d.media = body.images.map((url): Media => ({ kind: 'image', url }));
    d.thumb = body.images[0];
  }
  return { draft: d, notes: [] };
}

/**
 * The phone site's page (m.toutiao.com): RENDER_DATA root articleInfo {title, content, source, mediaUser
 * {name}, publishTime, diggCount, commentCount}; a micro-post keeps its body in articleInfo.thread.threadBase
 * {content, title, user {name}, createTime, diggCount} (search index 71297596170).
 */
function mobilePage(info: Json, id: string): PostPage | undefined {
  const base = obj(obj(info.thread)?.threadBase);
  if (base) {
    const text = textOf(base.content);
    if (!text) return undefined;
    const d: ItemDraft = { native_id: id, type: 'text', url: postUrl(id, 'micro'), text, stats: {} };
    const title = distinctTitle(textOf(base.title), text);
    if (title) d.title = title;
    const user = obj(base.user);
    const author = str(user?.name);
    if (author) d.author = author;
    const authorId = [user?.user_id, user?.id].map(idStr).find(Boolean);
    if (authorId) d.author_id = authorId;
    const ts = unixSeconds(base.createTime) ?? unixSeconds(base.displayCreateTime);
    if (ts) d.ts = ts;
    const likes = count(base.diggCount);
    if (likes !== undefined) d.stats.likes = likes;
    return { draft: d, notes: [] };
  }
  const content = str(info.content);
  if (!content) return undefined;
  const body = articleBody(content);
  const d: ItemDraft = { native_id: id, type: 'text', url: postUrl(id, 'article'), stats: {} };
  const title = textOf(info.title);
  if (title) d.title = title;
  if (body.text) d.text = body.text;
  const author = str(obj(info.mediaUser)?.name) ?? str(info.source) ?? str(info.detailSource);
  if (author) d.author = author;
  const ts = unixSeconds(info.publishTime);
  if (ts) d.ts = ts;
  if (body.images.length) {
    d.media = body.images.map((url): Media => ({ kind: 'image', url }));
    d.thumb = body.images[0];
  }
  const likes = count(info.diggCount);
  const comments = count(info.commentCount);
  if (likes !== undefined) d.stats.likes = likes;
  if (comments !== undefined) d.stats.comments = comments;
  return { draft: d, notes: [] };
}

/** Whichever known page shape RENDER_DATA holds; undefined when it holds none of them. */
export function postFromRenderData(rd: Json, id: string): PostPage | undefined {
  const data = obj(rd.data);
  const video = obj(data?.initialVideo);
  if (data && video) return videoPage(video, data, id);
  if (data && (typeof data.content === 'string' || obj(data.seoTDK))) return articlePage(data, id);
  const info = obj(rd.articleInfo) ?? obj(data?.articleInfo);
  return info ? mobilePage(info, id) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Comments and creators

/**
 * /article/v4/tab_comments/: {err_no, message, data[] {comment {id, id_str, text, digg_count, reply_count,
 * user_id, user_name, create_time}}, total_number, has_more, offset} (search index 58672554702,
 * 71297596170; user_id and user_profile_image_url as in 31729423862).
 */
export function commentFrom(entry: Json): Comment | undefined {
  const c = obj(entry.comment) ?? entry;
  const cid = idStr(c.id_str) ?? idStr(c.id);
  const text = str(c.text);
  if (!cid || text === undefined) return undefined;
  const name = str(c.user_name) ?? str(obj(c.user)?.name) ?? '';
  return {
    cid,
    text: c.text as string,
    likes: count(c.digg_count) ?? 0,
    reply_total: count(c.reply_count) ?? 0,
    user_id: idStr(c.user_id) ?? idStr(obj(c.user)?.user_id) ?? '',
    handle: name,
    user_name: name,
    created_at: unixSeconds(c.create_time) ?? 0,
    source: 'toutiao',
  };
}

/**
 * The profile page's RENDER_DATA data.profileUserInfo {userId, mediaId, name, avatarUrl, description,
 * userVerified} (search index 24275252243, 71249200963), with fans_stat's {fans, following, digg_count}.
 */
export function authorFromProfile(info: Json, token: string, stat?: Json): Author {
  const a: Author = { id: token, source: 'toutiao', url: creatorUrl(token) };
  const name = str(info.name);
  if (name) a.name = name;
  const bio = str(info.description);
  if (bio) a.bio = bio;
  const avatar = httpsUrl(info.avatarUrl);
  if (avatar) a.avatar = avatar;
  if (typeof info.userVerified === 'boolean') a.verified = info.userVerified;
  const followers = count(stat?.fans);
  const following = count(stat?.following);
  const likes = count(stat?.digg_count);
  if (followers !== undefined) a.followers = followers;
  if (following !== undefined) a.following = following;
  if (likes !== undefined) a.likes = likes;
  return a;
}
