import type { Stats } from '../../domain/item.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { midToBid, postUrl, profileUrl } from './refs.js';

/*
 * Pure parsers: m.weibo.cn JSON (and s.weibo.com HTML in html.ts) → domain objects. Nothing here throws on
 * a missing optional field; a number weibo did not report stays absent.
 */

type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
const nonEmpty = (v: unknown): string | undefined => {
  const s = str(v);
  return s && s.trim() ? s : undefined;
};

const UNITS: Record<string, number> = { 万: 1e4, w: 1e4, W: 1e4, 亿: 1e8, k: 1e3, K: 1e3 };

/** Weibo counts: numbers, or strings like "145.5万", "2.9亿", "87万次播放", "100万+", "1,234". */
export function parseCount(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /(\d+(?:\.\d+)?)\s*(万|亿|[wWkK](?![a-zA-Z]))?/.exec(v.replace(/(\d),(?=\d{3})/g, '$1'));
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] ? UNITS[m[2]] : 1);
  return Number.isFinite(n) ? Math.round(n) : undefined;
}

/** A count that must be whole (a comment total): parseCount, kept only when it is a safe integer. */
export function wholeCount(v: unknown): number | undefined {
  const n = parseCount(v);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/** A 1-based rank: a positive safe integer, else undefined (a fraction or 1e300 ranks nothing). */
const rankOf = (n: number | undefined): number | undefined => (n !== undefined && Number.isSafeInteger(n) && n > 0 ? n : undefined);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CST_MS = 8 * 3600_000;

/**
 * Weibo timestamps → unix seconds. The API form is "Sat Jun 15 10:38:14 +0800 2019"; some containers use
 * relative Beijing-time forms ("刚刚", "5分钟前", "3小时前", "昨天 12:30", "06-27", "2019-06-27").
 */
export function parseWeiboDate(v: unknown, now: number = Date.now()): number | undefined {
  if (typeof v === 'number') {
    const t = Number.isFinite(v) ? Math.trunc(v > 1e12 ? v / 1000 : v) : NaN;
    return Number.isSafeInteger(t) ? t : undefined;
  }
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  let m = /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? )?([A-Za-z]{3}) (\d{1,2}) (\d{1,2}):(\d{2}):(\d{2}) ([+-])(\d{2}):?(\d{2}) (\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[1]);
    if (month < 0) return undefined;
    const offset = (m[6] === '-' ? -1 : 1) * (Number(m[7]) * 60 + Number(m[8])) * 60_000;
    const ms = Date.UTC(Number(m[9]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])) - offset;
    return Math.floor(ms / 1000);
  }
  const beijing = new Date(now + CST_MS);
  const at = (y: number, mo: number, d: number, h = 0, mi = 0): number => Math.floor((Date.UTC(y, mo, d, h, mi) - CST_MS) / 1000);
  if (s === '刚刚') return Math.floor(now / 1000);
  if ((m = /^(\d+)\s*秒前$/.exec(s))) return Math.floor(now / 1000) - Number(m[1]);
  if ((m = /^(\d+)\s*分钟前$/.exec(s))) return Math.floor(now / 1000) - Number(m[1]) * 60;
  if ((m = /^(\d+)\s*小时前$/.exec(s))) return Math.floor(now / 1000) - Number(m[1]) * 3600;
  if ((m = /^(今天|昨天)\s*(\d{1,2}):(\d{2})$/.exec(s))) {
    const back = m[1] === '昨天' ? 1 : 0;
    return at(beijing.getUTCFullYear(), beijing.getUTCMonth(), beijing.getUTCDate() - back, Number(m[2]), Number(m[3]));
  }
  if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(s))) {
    return at(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0));
  }
  if ((m = /^(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(s))) {
    return at(beijing.getUTCFullYear(), Number(m[1]) - 1, Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0));
  }
  return undefined;
}

/** Weibo's ids (status mids and comment ids alike) carry their creation second in the bits above the 22nd. */
const ID_EPOCH_S = 515_483_463;
/** Ids minted before this scheme (weibo's first years) decode to nonsense; their dates are left to created_at. */
const ID_TIME_FLOOR_S = Date.UTC(2012, 0, 1) / 1000;

/** The creation time encoded in a weibo id, or undefined when the id does not carry one plausibly. */
export function idTime(id: unknown, now: number = Date.now()): number | undefined {
  const s = str(id);
  if (!s || !/^\d{15,19}$/.test(s)) return undefined;
  const t = Number(BigInt(s) >> 22n) + ID_EPOCH_S;
  return t >= ID_TIME_FLOOR_S && t <= now / 1000 + 86_400 ? t : undefined;
}

/** created_at forms that name an absolute instant: the API form with its year and offset. */
const ABSOLUTE_DATE = /\d{1,2}:\d{2}:\d{2} [+-]\d{2}:?\d{2} \d{4}$/;

/**
 * A status's or comment's time. The API form of created_at is exact; the timeline's short forms ("06-27",
 * "15小时前", "刚刚", "昨天 12:30") lose the year or are relative to when weibo answered, so the time the
 * id encodes wins over them. Without a usable id the short form is read as Beijing time, and a yearless
 * date that would lie in the future is taken as last year's. No created_at at all stays no time.
 */
export function statusTime(createdAt: unknown, id: unknown, now: number = Date.now()): number | undefined {
  if (typeof createdAt !== 'string' || !createdAt.trim()) return parseWeiboDate(createdAt, now);
  if (ABSOLUTE_DATE.test(createdAt.trim())) return parseWeiboDate(createdAt, now);
  const fromId = idTime(id, now);
  if (fromId !== undefined) return fromId;
  const t = parseWeiboDate(createdAt, now);
  if (t !== undefined && /^\d{1,2}-\d{1,2}(\s|$)/.test(createdAt.trim()) && t > now / 1000 + 86_400) {
    const d = new Date(t * 1000);
    d.setUTCFullYear(d.getUTCFullYear() - 1);
    return Math.floor(d.getTime() / 1000);
  }
  return t;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+|#39);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

/**
 * Weibo's status HTML → plain text: <br> becomes a newline, emoji <img alt="[doge]"> becomes its alt text,
 * link icons are dropped, links and topic spans keep their text, and the trailing "全文" link of a
 * truncated status goes.
 */
export function htmlToText(html: unknown): string {
  if (typeof html !== 'string') return '';
  let s = html.replace(/<a\b[^>]*href=["']?\/status\/[^>]*>\s*全文\s*<\/a>\s*$/i, '');
  s = s.replace(/<br\s*\/?>/gi, '\n');
  s = s.replace(/<img\b[^>]*>/gi, (tag) => {
    const alt = /\balt=(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    return alt ? (alt[1] ?? alt[2] ?? alt[3] ?? '') : '';
  });
  s = s.replace(/<[^>]+>/g, '');
  s = decodeEntities(s);
  return s
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+$/g, ''))
    .join('\n')
    .trim();
}

/** True when the status text is the short form of a long post (the full text needs statuses/extend). */
export function isTruncated(mblog: Json): boolean {
  const long = obj(mblog.longText);
  if (long && nonEmpty(long.longTextContent)) return false;
  if (mblog.isLongText !== true) return false;
  const text = str(mblog.text) ?? '';
  return /全文\s*<\/a>\s*$/.test(text) || /(\.\.\.|…)\s*$/.test(htmlToText(text));
}

/** Flattens getIndex cards to their statuses: card_type 9 carries an mblog, card_type 11 nests a card_group. */
export function cardsToMblogs(cards: unknown): Json[] {
  const out: Json[] = [];
  const walk = (list: unknown, depth: number): void => {
    for (const c of arr(list)) {
      const card = obj(c);
      if (!card) continue;
      const mblog = obj(card.mblog);
      if (mblog) out.push(mblog);
      else if (depth < 3 && Array.isArray(card.card_group)) walk(card.card_group, depth + 1);
    }
  };
  walk(cards, 0);
  return out;
}

type MediaEntry = NonNullable<ItemDraft['media']>[number];

interface Stream {
  url: string;
  w?: number;
  h?: number;
  score: number;
  /** The answer's name for it (mp4_720p_mp4, stream_url_hd, a playback_list quality label). */
  label: string;
}

const LABEL_SCORE: Array<[RegExp, number]> = [
  [/2160|4k/i, 3840 * 2160],
  [/1440|2k/i, 2560 * 1440],
  [/1080/i, 1920 * 1080],
  [/720/i, 1280 * 720],
  [/hd/i, 852 * 480],
  [/sd|ld|stream_url$/i, 640 * 360],
];

function dimsOf(url: string): { w?: number; h?: number } {
  const m = /[?&]template=(\d+)x(\d+)/.exec(url);
  return m ? { w: Number(m[1]), h: Number(m[2]) } : {};
}

const isHttpUrl = (v: unknown): v is string => typeof v === 'string' && /^(https?:)?\/\//.test(v);

/** Every playable stream weibo lists for a video card, best first (largest frame; mp4 before HLS). */
export function videoStreams(pageInfo: Json): Stream[] {
  const found: Stream[] = [];
  const add = (url: unknown, label: string, w?: unknown, h?: unknown): void => {
    if (!isHttpUrl(url)) return;
    const d = dimsOf(url);
    const width = Number(w) > 0 ? Number(w) : d.w;
    const height = Number(h) > 0 ? Number(h) : d.h;
    const byLabel = LABEL_SCORE.find(([re]) => re.test(label))?.[1] ?? 0;
    const score = width && height ? width * height : byLabel;
    found.push({ url, w: width, h: height, score: /\.m3u8/i.test(url) ? score / 10 : score, label });
  };
  for (const [k, v] of Object.entries(obj(pageInfo.urls) ?? {})) add(v, k);
  const mi = obj(pageInfo.media_info) ?? {};
  for (const [k, v] of Object.entries(mi)) if (/mp4|stream_url|hevc|h265/i.test(k)) add(v, k);
  // weibo.com's playback_list also lists scrubber thumbnails (image/jpeg); only video entries are streams.
  for (const p of arr(mi.playback_list)) {
    const meta = obj(obj(p)?.meta);
    const info = obj(obj(p)?.play_info);
    const mime = str(info?.mime);
    if (!info || (mime && !/^video\//i.test(mime)) || /\.(jpe?g|png|webp)(\?|$)/i.test(str(info.url) ?? '')) continue;
    const label = str(info.quality_label) ?? str(meta?.quality_label) ?? str(info.label) ?? str(meta?.label) ?? '';
    add(info.url, label, info.width, info.height);
  }
  const seen = new Set<string>();
  return found
    .filter((s) => (seen.has(s.url) ? false : (seen.add(s.url), true)))
    .sort((a, b) => b.score - a.score);
}

export function videoDuration(pageInfo: Json): number | undefined {
  const mi = obj(pageInfo.media_info) ?? {};
  const d = Number(mi.duration ?? pageInfo.duration ?? mi.video_duration);
  return Number.isFinite(d) && d > 0 ? d : undefined;
}

/** m.weibo.cn says page_info.type "video"; weibo.com says object_type "video" (its type is "11"). */
export const isVideoCard = (pageInfo: Json): boolean => pageInfo.type === 'video' || pageInfo.object_type === 'video';

/** The cover: m.weibo.cn gives page_pic as {url}, weibo.com as a plain URL (and pic_info.pic_big). */
function videoCover(pageInfo: Json): string | undefined {
  const mi = obj(pageInfo.media_info) ?? {};
  const candidates = [
    obj(pageInfo.page_pic)?.url,
    pageInfo.page_pic,
    obj(obj(pageInfo.pic_info)?.pic_big)?.url,
    obj(obj(mi.big_pic_info)?.pic_big)?.url,
  ];
  return candidates.find(isHttpUrl);
}

function videoTitle(pageInfo: Json): string | undefined {
  const mi = obj(pageInfo.media_info) ?? {};
  return (nonEmpty(pageInfo.title) ?? nonEmpty(mi.video_title) ?? nonEmpty(mi.kol_title))?.trim();
}

/** Play counts: "187万次播放" on m.weibo.cn; weibo.com reports views as online_users(_number), "1.5万次观看". */
function videoViews(pageInfo: Json): number | undefined {
  const mi = obj(pageInfo.media_info) ?? {};
  return parseCount(pageInfo.play_count ?? mi.play_count ?? mi.online_users_number ?? mi.online_users);
}

const positive = (v: unknown): number | undefined => (Number(v) > 0 ? Number(v) : undefined);

/**
 * weibo.com's pic_infos: one entry per pic id (pic_ids gives the order), each in several sizes with url,
 * width and height; largest is the original upload.
 */
function pcPics(mblog: Json): { media: MediaEntry[]; thumb?: string } | undefined {
  const infos = obj(mblog.pic_infos);
  if (!infos) return undefined;
  const ids = arr(mblog.pic_ids).map(str).filter((id): id is string => !!id && !!obj(infos[id]));
  const order = ids.length ? ids : Object.keys(infos);
  const media: MediaEntry[] = [];
  let thumb: string | undefined;
  for (const id of order) {
    const info = obj(infos[id]);
    if (!info) continue;
    const size = [info.largest, info.original, info.mw2000, info.large].map(obj).find((v) => isHttpUrl(v?.url));
    if (!size) continue;
    media.push({ kind: 'image', url: size.url as string, w: positive(size.width), h: positive(size.height) });
    thumb ??= [obj(info.bmiddle)?.url, obj(info.thumbnail)?.url].find(isHttpUrl);
  }
  return media.length ? { media, thumb } : undefined;
}

function picMedia(pic: Json): MediaEntry | undefined {
  const large = obj(pic.large);
  const url = [large?.url, pic.url].find(isHttpUrl);
  if (!url) return undefined;
  const geo = obj(large?.geo) ?? (large ? undefined : obj(pic.geo));
  const w = Number(geo?.width);
  const h = Number(geo?.height);
  return { kind: 'image', url, w: w > 0 ? w : undefined, h: h > 0 ? h : undefined };
}

interface MediaFacts {
  type: ItemDraft['type'];
  media: MediaEntry[];
  thumb?: string;
  title?: string;
  duration_s?: number;
  aspect?: { width: number; height: number };
  views?: number;
}

function mediaOf(mblog: Json): MediaFacts | undefined {
  const pageInfo = obj(mblog.page_info);
  if (pageInfo && isVideoCard(pageInfo)) {
    const streams = videoStreams(pageInfo);
    const best = streams[0];
    const duration = videoDuration(pageInfo);
    return {
      type: 'video',
      media: best ? [{ kind: 'video', url: best.url, w: best.w, h: best.h, duration_s: duration }] : [],
      thumb: videoCover(pageInfo),
      title: videoTitle(pageInfo),
      duration_s: duration,
      aspect: best?.w && best?.h ? { width: best.w, height: best.h } : undefined,
      views: videoViews(pageInfo),
    };
  }
  const pics = arr(mblog.pics).map(obj).filter((p): p is Json => !!p);
  if (pics.length) {
    const media = pics.map(picMedia).filter((m): m is MediaEntry => !!m);
    if (!media.length) return undefined;
    const small = pics[0].url;
    const first = media[0];
    return {
      type: 'image',
      media,
      thumb: isHttpUrl(small) ? small : first.url,
      aspect: first.w && first.h ? { width: first.w, height: first.h } : undefined,
    };
  }
  const pc = pcPics(mblog);
  if (pc) {
    const first = pc.media[0];
    return {
      type: 'image',
      media: pc.media,
      thumb: pc.thumb ?? first.url,
      aspect: first.w && first.h ? { width: first.w, height: first.h } : undefined,
    };
  }
  return undefined;
}

/** One status (mblog) → ItemDraft. Returns undefined only when the status has no id at all. */
export function mblogToDraft(mblog: Json): ItemDraft | undefined {
  const mid = str(mblog.mid) ?? str(mblog.idstr) ?? str(mblog.id);
  if (!mid || !/^\d+$/.test(mid)) return undefined;
  const user = obj(mblog.user);
  const uid = str(user?.idstr) ?? str(user?.id);
  const bid = nonEmpty(mblog.bid) ?? nonEmpty(mblog.mblogid) ?? safeBid(mid);
  const long = nonEmpty(obj(mblog.longText)?.longTextContent);
  const own = mediaOf(mblog);
  // A repost without media of its own shows the original's; keep the repost as the item but carry that media.
  const retweeted = obj(mblog.retweeted_status);
  const borrowed = !own && retweeted ? mediaOf(retweeted) : undefined;
  const facts = own ?? borrowed;
  const stats: Stats = {
    likes: parseCount(mblog.attitudes_count),
    comments: parseCount(mblog.comments_count),
    shares: parseCount(mblog.reposts_count),
    // Play counts of a borrowed video belong to the original post, not to this repost.
    views: own?.views,
  };
  for (const k of Object.keys(stats) as (keyof Stats)[]) if (stats[k] === undefined) delete stats[k];
  return {
    native_id: mid,
    type: facts?.type ?? 'text',
    title: facts?.title,
    text: htmlToText(long ?? mblog.text),
    author: nonEmpty(user?.screen_name),
    author_id: uid,
    author_handle: nonEmpty(user?.screen_name),
    url: postUrl(mid, uid, bid),
    thumb: facts?.thumb,
    media: facts?.media ?? [],
    ts: statusTime(mblog.created_at, mid),
    duration_s: facts?.duration_s,
    aspect: facts?.aspect,
    stats,
  };
}

function safeBid(mid: string): string | undefined {
  try {
    return midToBid(mid);
  } catch {
    return undefined;
  }
}

/** data.userInfo (or a status's user) → Author. */
export function userToAuthor(user: Json): Author | undefined {
  const id = str(user.idstr) ?? str(user.id);
  if (!id) return undefined;
  const avatar = [user.avatar_hd, user.avatar_large, user.profile_image_url].find(isHttpUrl);
  const author: Author = {
    id,
    source: 'weibo',
    handle: nonEmpty(user.screen_name),
    name: nonEmpty(user.screen_name) ?? nonEmpty(user.name),
    bio: nonEmpty(user.description),
    avatar,
    url: profileUrl(id),
    followers: parseCount(user.followers_count ?? user.followers_count_str),
    following: parseCount(user.follow_count ?? user.friends_count),
    posts: parseCount(user.statuses_count),
    verified: typeof user.verified === 'boolean' ? user.verified : undefined,
  };
  for (const k of Object.keys(author) as (keyof Author)[]) if (author[k] === undefined) delete author[k];
  return author;
}

function commentOf(c: Json, postMid: string, parentId?: string): Comment | undefined {
  const cid = str(c.idstr) ?? str(c.id) ?? str(c.mid);
  if (!cid) return undefined;
  const user = obj(c.user);
  const name = str(user?.screen_name) ?? '';
  const comment: Comment = {
    cid,
    text: htmlToText(c.text),
    likes: parseCount(c.like_count ?? c.like_counts) ?? 0,
    reply_total: parseCount(c.total_number) ?? 0,
    user_id: str(user?.idstr) ?? str(user?.id) ?? '',
    handle: name,
    user_name: name,
    created_at: statusTime(c.created_at, cid) ?? 0,
    source: 'weibo',
    url: `https://m.weibo.cn/detail/${postMid}?cid=${cid}`,
  };
  if (parentId && parentId !== cid) comment.parent_id = parentId;
  return comment;
}

/** The comment a reply answers, when weibo names it; else the thread's root. */
function replyTarget(c: Json, rootId: string): string {
  const replied = obj(c.reply_comment);
  return str(replied?.idstr) ?? str(replied?.id) ?? str(c.reply_id) ?? rootId;
}

/**
 * hotflow's data.data → flat Comment list: each root comment followed by its inline replies
 * (its `comments` array, false when it has none), each reply carrying parent_id.
 */
export function threadComments(list: unknown, postMid: string): Comment[] {
  const out: Comment[] = [];
  for (const raw of arr(list)) {
    const c = obj(raw);
    if (!c) continue;
    const root = commentOf(c, postMid);
    if (!root) continue;
    out.push(root);
    for (const r of arr(c.comments)) {
      const reply = obj(r);
      if (!reply) continue;
      const child = commentOf(reply, postMid, replyTarget(reply, root.cid));
      if (child) out.push(child);
    }
  }
  return out;
}

/** hotFlowChild's data → replies of one root comment. */
export function childComments(list: unknown, postMid: string, rootId: string): Comment[] {
  return arr(list)
    .map(obj)
    .filter((c): c is Json => !!c)
    .map((c) => commentOf(c, postMid, replyTarget(c, str(c.rootidstr) ?? str(c.rootid) ?? rootId)))
    .filter((c): c is Comment => !!c);
}

/** Comments are paged by max_id plus max_id_type; both travel in one native cursor "<max_id>:<max_id_type>". */
export function encodeCommentCursor(maxId: unknown, maxIdType: unknown): string | undefined {
  const id = str(maxId);
  if (!id || !/^\d+$/.test(id) || /^0+$/.test(id)) return undefined;
  const type = str(maxIdType);
  return `${id}:${type && /^\d+$/.test(type) ? type : '0'}`;
}

export function decodeCommentCursor(cursor: string | undefined): { maxId?: string; maxIdType: string } {
  if (!cursor) return { maxIdType: '0' };
  const m = /^(\d+)(?::(\d+))?$/.exec(cursor);
  if (!m) return { maxIdType: '0', maxId: undefined };
  return { maxId: m[1], maxIdType: m[2] ?? '0' };
}

export interface HotEntry {
  word: string;
  rank?: number;
  hot?: number;
  url?: string;
  pinned: boolean;
  ad: boolean;
}

/** The search link of a hot-search entry, without the tracking parameters. */
function searchLink(scheme: unknown): string | undefined {
  if (typeof scheme !== 'string' || !/^https?:\/\//.test(scheme)) return undefined;
  try {
    const u = new URL(scheme);
    const containerid = u.searchParams.get('containerid');
    if (!containerid) return scheme;
    const clean = new URL(`${u.origin}${u.pathname}`);
    clean.searchParams.set('containerid', containerid);
    return clean.toString();
  } catch {
    return scheme;
  }
}

/**
 * The realtime hot-search board (getIndex 106003type=25…realtimehot): data.cards[0].card_group holds the
 * ranked words (card_type 4); later cards are side lists (rising, entertainment) and rule links.
 */
export function hotBoardEntries(data: Json): HotEntry[] {
  const cards = arr(data.cards).map(obj).filter((c): c is Json => !!c);
  const board = cards.find((c) => arr(c.card_group).some((g) => obj(g)?.card_type === 4 && nonEmpty(obj(g)?.desc)));
  if (!board) return [];
  const out: HotEntry[] = [];
  for (const g of arr(board.card_group)) {
    const e = obj(g);
    const word = nonEmpty(e?.desc)?.trim();
    if (!e || e.card_type !== 4 || !word) continue;
    const itemid = str(e.itemid) ?? '';
    const ext = str(obj(e.actionlog)?.ext) ?? '';
    const pic = str(e.pic) ?? '';
    const ad = !!e.promotion || /is_ad_pos:1|adid:/.test(itemid) || /ads_word:/.test(ext);
    const realpos = /(?:^|\|)realpos:(\d+)/.exec(itemid) ?? /(?:^|\|)realpos:(\d+)/.exec(ext) ?? /img_search_(\d+)\.png/.exec(pic);
    const rank = !ad && realpos ? Number(realpos[1]) : undefined;
    out.push({
      word,
      rank: rankOf(rank),
      hot: parseCount(e.desc_extr),
      url: searchLink(e.scheme),
      pinned: !ad && !rank && /stick/i.test(pic),
      ad,
    });
  }
  return out;
}

export function hotEntriesToTrends(entries: HotEntry[]): Trend[] {
  return entries
    .filter((e) => e.rank !== undefined)
    .map((e) => compactTrend({ word: e.word, source: 'weibo', rank: e.rank as number, hot_value: e.hot, url: e.url }));
}

/** The hot-topic container (231648_-_4): card_type 25 entries with title_sub "#topic#" and desc "N讨论 M阅读". */
export function topicContainerTrends(data: Json): Trend[] {
  const trends: Trend[] = [];
  for (const c of arr(data.cards)) {
    for (const g of [obj(c), ...arr(obj(c)?.card_group).map(obj)]) {
      const word = nonEmpty(g?.title_sub);
      if (!g || !word) continue;
      trends.push(
        compactTrend({ word: stripHashes(word), source: 'weibo', rank: trends.length + 1, hot_value: readsOf(str(g.desc)), url: searchLink(g.scheme) }),
      );
    }
  }
  return trends;
}

export const stripHashes = (s: string): string => s.trim().replace(/^#(.+)#$/, '$1');

/** "1.6万讨论 1165.7万阅读" → the read count. */
export function readsOf(desc: string | undefined): number | undefined {
  if (!desc) return undefined;
  const m = /([\d.]+\s*[万亿]?)\s*阅读/.exec(desc);
  return m ? parseCount(m[1]) : undefined;
}

function compactTrend(t: Trend): Trend {
  if (t.hot_value === undefined) delete t.hot_value;
  if (t.url === undefined) delete t.url;
  return t;
}

/*
 * weibo.com (desktop site) ajax answers. Its statuses are close to m.weibo.cn's: same created_at form,
 * mid/idstr, user.idstr, reposts/comments/attitudes_count; they differ in text_raw (plain text), pic_infos
 * (a map of sizes instead of pics[]), mblogid (the bid) and page_info (object_type "video", page_pic a URL,
 * media_info.playback_list). mediaOf above reads both shapes.
 */

const EXPAND_LINK = /\s*(?:\.\.\.|…)?\s*<span class=["']?expand["']?>\s*展开\s*<\/span>\s*$/i;

/** Plain status text as weibo.com gives it (text_raw, longtext): zero-width padding and trailing blanks go. */
function plainText(s: string): string {
  return s
    .replace(/\u200b/g, '')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+$/g, ''))
    .join('\n')
    .trim();
}

/** The text of a weibo.com status: the long text when fetched, else text_raw, else the HTML text. */
export function pcStatusText(status: Json): string {
  const long = nonEmpty(obj(status.longText)?.longTextContent) ?? nonEmpty(status.longTextContent);
  if (long) return plainText(long);
  const raw = nonEmpty(status.text_raw);
  if (raw) return plainText(raw);
  const html = str(status.text) ?? '';
  return htmlToText(html.replace(EXPAND_LINK, ''));
}

/** weibo.com marks a status whose text is a preview with isLongText; the full text needs statuses/longtext. */
export function pcIsTruncated(status: Json): boolean {
  if (nonEmpty(obj(status.longText)?.longTextContent) || nonEmpty(status.longTextContent)) return false;
  return status.isLongText === true;
}

/** One weibo.com status → ItemDraft; undefined only when it has no id at all. */
export function pcStatusToDraft(status: Json): ItemDraft | undefined {
  const draft = mblogToDraft(status);
  if (!draft) return undefined;
  return { ...draft, text: pcStatusText(status) };
}

/** statuses/mymblog's data.list → drafts. */
export function pcTimelineDrafts(data: Json): ItemDraft[] {
  return arr(data.list)
    .map(obj)
    .filter((s): s is Json => !!s)
    .map(pcStatusToDraft)
    .filter((d): d is ItemDraft => !!d);
}

/**
 * mymblog pages by page number. Its data.since_id names the next page and comes back empty on the last
 * one; a page without statuses ends the timeline too.
 */
export function pcTimelineNext(data: Json, page: number, itemCount: number): number | undefined {
  if (itemCount === 0) return undefined;
  if (typeof data.since_id === 'string' && data.since_id.trim() === '') return undefined;
  if (data.since_id === 0) return undefined;
  return page + 1;
}

/** weibo.com timeline cursors say where they came from: "pc:<page>" (m.weibo.cn's are bare since_ids). */
export function encodePcPage(page: number | undefined): string | undefined {
  return page !== undefined ? `pc:${page}` : undefined;
}

export function decodePcPage(cursor: string | undefined): number | undefined {
  const m = /^pc:(\d+)$/.exec(cursor ?? '');
  return m && Number(m[1]) > 0 ? Number(m[1]) : undefined;
}

/** buildComments pages by max_id alone; "pc:<max_id>", absent when max_id is 0 (the last page). */
export function encodePcCommentCursor(maxId: unknown): string | undefined {
  const id = str(maxId);
  return id && /^\d+$/.test(id) && !/^0+$/.test(id) ? `pc:${id}` : undefined;
}

export function decodePcCommentCursor(cursor: string | undefined): string | undefined {
  return /^pc:(\d+)$/.exec(cursor ?? '')?.[1];
}

const sWeiboSearch = (q: string): string => `https://s.weibo.com/weibo?q=${encodeURIComponent(q)}`;

/**
 * weibo.com/ajax/side/hotSearch: data.realtime holds the board (word, num heat, realpos 1-based rank,
 * rank 0-based, is_ad on adverts); data.hotgov is the pinned entry above it.
 */
export function hotSearchEntries(data: Json): HotEntry[] {
  const out: HotEntry[] = [];
  const gov = obj(data.hotgov);
  const govWord = nonEmpty(gov?.word) ?? nonEmpty(gov?.name) ?? nonEmpty(gov?.note);
  if (gov && govWord) {
    const word = stripHashes(govWord);
    out.push({ word, url: sWeiboSearch(govWord.trim()), pinned: true, ad: false });
  }
  for (const raw of arr(data.realtime)) {
    const e = obj(raw);
    const word = (nonEmpty(e?.word) ?? nonEmpty(e?.note))?.trim();
    if (!e || !word) continue;
    const ad = Number(e.is_ad) === 1 || str(e.icon_desc) === '荐';
    const realpos = rankOf(Number(e.realpos));
    const zeroBased = typeof e.rank === 'number' ? rankOf(e.rank + 1) : undefined;
    const rank = ad ? undefined : (realpos ?? zeroBased);
    out.push({
      word,
      rank,
      hot: parseCount(e.num ?? e.raw_hot),
      url: sWeiboSearch(nonEmpty(e.word_scheme)?.trim() ?? `#${word}#`),
      pinned: false,
      ad,
    });
  }
  return out;
}

/** weibo.com/ajax/statuses/topic_band: data.statuses in board order, each a topic with read/mention counts. */
export function topicBandTrends(data: Json): Trend[] {
  const trends: Trend[] = [];
  for (const raw of arr(data.statuses)) {
    const e = obj(raw);
    const topic = nonEmpty(e?.topic);
    if (!e || !topic || Number(e.is_ad) === 1) continue;
    const word = stripHashes(topic);
    trends.push(compactTrend({ word, source: 'weibo', rank: trends.length + 1, hot_value: parseCount(e.read), url: sWeiboSearch(`#${word}#`) }));
  }
  return trends;
}
