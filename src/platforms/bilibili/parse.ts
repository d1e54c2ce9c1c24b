import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { aidToBvid, isAid, isBvid } from './ids.js';
import { spaceUrl, videoUrl } from './refs.js';

/* Pure raw → domain conversions. None of them throws on a missing optional field. */

export type Json = Record<string, unknown>;
type Media = NonNullable<ItemDraft['media']>[number];

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const objs = (v: unknown): Json[] => arr(v).map(obj).filter((o): o is Json => !!o);

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'bigint') return v.toString();
  return undefined;
}

const nonEmpty = (v: unknown): string | undefined => {
  const s = str(v);
  return s && s.trim() ? s : undefined;
};

/** An id as a decimal string; 0 and empty mean "none" in bilibili's answers. */
function idOf(...vs: unknown[]): string | undefined {
  for (const v of vs) {
    const s = str(v);
    if (s && /^\d+$/.test(s) && !/^0+$/.test(s)) return s;
  }
  return undefined;
}

/** A count as bilibili reports it: a number, or a display string like "190.3万" / "1.2亿" / "1,234". */
export function parseCount(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*([\d,]+(?:\.\d+)?)\s*([万亿])?\s*$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1].replace(/,/g, ''));
  if (!Number.isFinite(n)) return undefined;
  const scale = m[2] === '万' ? 1e4 : m[2] === '亿' ? 1e8 : 1;
  return Math.round(n * scale);
}

/** "14150:36", "05:26", "1:02:03" or a number of seconds → seconds; 0 / "00:00" (unknown) → undefined. */
export function parseClock(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const parts = v.trim().split(':');
  if (parts.length < 1 || parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return undefined;
  const s = parts.reduce((acc, p) => acc * 60 + Number(p), 0);
  return s > 0 ? s : undefined;
}

/** A positive finite number from a number or a decimal string. */
export const positive = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
};

/** A DASH track's URLs: base_url, then its backups (either spelling). */
export const trackUrls = (t: Json): unknown[] => [t.base_url ?? t.baseUrl, ...arr(t.backup_url ?? t.backupUrl)];

/** A rank, a unix time: a positive whole number; a fraction or a number past 2^53 is no such value. */
export const positiveInt = (v: unknown): number | undefined => {
  const n = positive(v);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
};

/** A count that must be whole (a comment total): parseCount, kept only when it is a safe integer. */
export function wholeCount(v: unknown): number | undefined {
  const n = parseCount(v);
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

/** Origin URL of a CDN asset: protocol-relative → https, and http → https on bilibili's image CDNs (they serve both). */
export function httpsUrl(v: unknown): string | undefined {
  const s = nonEmpty(v)?.trim();
  if (!s) return undefined;
  if (s.startsWith('//')) return `https:${s}`;
  if (/^http:\/\/[^/]*(?:hdslb\.com|biliimg\.com)(?:[:/]|$)/i.test(s)) return `https://${s.slice('http://'.length)}`;
  return /^https?:\/\//i.test(s) ? s : undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Search titles carry <em class="keyword"> highlights and HTML entities. */
export function plainText(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  return s
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    });
}

/** bilibili shows "-" for a video without a description. */
const description = (v: unknown): string | undefined => {
  const s = plainText(v);
  return s === undefined || s.trim() === '' || s.trim() === '-' ? undefined : s;
};

/** {width, height, rotate}; rotate 1 means the stored frame is turned, so the shown aspect is swapped. */
export function aspectOf(dim: unknown): { width: number; height: number } | undefined {
  const d = obj(dim);
  const w = positive(d?.width);
  const h = positive(d?.height);
  if (!w || !h) return undefined;
  return Number(d?.rotate) === 1 ? { width: h, height: w } : { width: w, height: h };
}

function bvidOf(o: Json): string | undefined {
  const b = nonEmpty(o.bvid);
  if (b && isBvid(b)) return b;
  const aid = idOf(o.aid, o.id);
  return aid && isAid(aid) ? aidToBvid(aid) : undefined;
}

function stats(s: { likes?: unknown; comments?: unknown; shares?: unknown; views?: unknown }): ItemDraft['stats'] {
  const out: ItemDraft['stats'] = {};
  const likes = parseCount(s.likes);
  const comments = parseCount(s.comments);
  const shares = parseCount(s.shares);
  const views = parseCount(s.views);
  if (likes !== undefined) out.likes = likes;
  if (comments !== undefined) out.comments = comments;
  if (shares !== undefined) out.shares = shares;
  if (views !== undefined) out.views = views;
  return out;
}

function video(bvid: string, f: Omit<ItemDraft, 'native_id' | 'type' | 'url' | 'media'>): ItemDraft {
  const draft: ItemDraft = { native_id: bvid, type: 'video', url: videoUrl(bvid), media: [], ...f };
  for (const k of Object.keys(draft) as (keyof ItemDraft)[]) if (draft[k] === undefined) delete draft[k];
  return draft;
}

/**
 * The archive object shared by view, popular, ranking/v2 and related lists:
 * {aid, bvid, pic, title, desc, pubdate, duration, owner, stat, dimension}.
 */
export function archiveToDraft(raw: unknown): ItemDraft | undefined {
  const a = obj(raw);
  const bvid = a && bvidOf(a);
  if (!a || !bvid) return undefined;
  const owner = obj(a.owner);
  const stat = obj(a.stat) ?? {};
  return video(bvid, {
    title: plainText(a.title),
    text: description(a.desc),
    author: nonEmpty(owner?.name),
    author_id: idOf(owner?.mid),
    author_handle: nonEmpty(owner?.name),
    thumb: httpsUrl(a.pic),
    ts: positive(a.pubdate),
    duration_s: positive(a.duration),
    aspect: aspectOf(a.dimension),
    stats: stats({ likes: stat.like, comments: stat.reply, shares: stat.share, views: stat.view }),
  });
}

/** wbi/search/type?search_type=video: data.result[] (title with <em> highlights, "mm:ss" duration). */
export function searchVideoToDraft(raw: unknown): ItemDraft | undefined {
  const r = obj(raw);
  if (!r || (r.type !== undefined && r.type !== 'video')) return undefined;
  const bvid = bvidOf(r);
  if (!bvid) return undefined;
  const author = plainText(r.author);
  return video(bvid, {
    title: plainText(r.title),
    text: description(r.description),
    author: author || undefined,
    author_id: idOf(r.mid),
    author_handle: author || undefined,
    thumb: httpsUrl(r.pic),
    ts: positive(r.pubdate),
    duration_s: parseClock(r.duration),
    stats: stats({ likes: r.like, comments: r.review, views: r.play }),
  });
}

/** space arc search: data.list.vlist[] (created, "mm:ss" length, play, comment). */
export function uploadToDraft(raw: unknown): ItemDraft | undefined {
  const v = obj(raw);
  const bvid = v && bvidOf(v);
  if (!v || !bvid) return undefined;
  return video(bvid, {
    title: plainText(v.title),
    text: description(v.description),
    author: nonEmpty(v.author),
    author_id: idOf(v.mid),
    author_handle: nonEmpty(v.author),
    thumb: httpsUrl(v.pic),
    ts: positive(v.created),
    duration_s: parseClock(v.length),
    stats: stats({ comments: v.comment, views: v.play }),
  });
}

/** Home feed (index/top/feed/rcmd): data.item[]; only goto "av" entries are videos (others are ads, live rooms). */
export function rcmdToDraft(raw: unknown): ItemDraft | undefined {
  const r = obj(raw);
  if (!r || (r.goto !== undefined && r.goto !== 'av')) return undefined;
  const bvid = bvidOf(r);
  if (!bvid) return undefined;
  const owner = obj(r.owner);
  const stat = obj(r.stat) ?? {};
  return video(bvid, {
    title: plainText(r.title),
    author: nonEmpty(owner?.name),
    author_id: idOf(owner?.mid),
    author_handle: nonEmpty(owner?.name),
    thumb: httpsUrl(r.pic),
    ts: positive(r.pubdate),
    duration_s: positive(r.duration),
    stats: stats({ likes: stat.like, views: stat.view }),
  });
}

// ---------------------------------------------------------------------------------------------
// Space dynamics (x/polymer/web-dynamic/v1/feed/space): data.items[] with modules.

function imagesOf(list: unknown, urlKey: 'src' | 'url'): Media[] {
  return objs(list)
    .map((p): Media | undefined => {
      const url = httpsUrl(p[urlKey]);
      if (!url) return undefined;
      const m: Media = { kind: 'image', url };
      const w = positive(p.width);
      const h = positive(p.height);
      if (w && h) Object.assign(m, { w, h });
      return m;
    })
    .filter((m): m is Media => !!m);
}

function dynamicUrl(item: Json, id: string): string {
  const jump = httpsUrl(obj(item.basic)?.jump_url);
  try {
    if (jump && /(^|\.)bilibili\.com$/i.test(new URL(jump).hostname)) return jump;
  } catch {
    /* fall back to the dynamic page */
  }
  return `https://t.bilibili.com/${id}`;
}

/**
 * Majors that show one card (a live room, a shared link, a bangumi episode, a song, a course):
 * {title, desc, cover}; live_rcmd carries its card as a JSON string (content.live_play_info).
 */
function cardMajor(major: Json): { title?: string; desc?: string; cover?: string } | undefined {
  let live = obj(major.live_rcmd);
  if (live) {
    let content: unknown = live.content;
    if (typeof content === 'string') {
      try {
        content = JSON.parse(content);
      } catch {
        content = undefined;
      }
    }
    live = obj(obj(content)?.live_play_info);
    return live ? { title: nonEmpty(live.title), cover: httpsUrl(live.cover) } : undefined;
  }
  const c = obj(major.live) ?? obj(major.common) ?? obj(major.pgc) ?? obj(major.music) ?? obj(major.courses) ?? obj(major.medialist);
  if (!c) return undefined;
  return { title: nonEmpty(c.title), desc: nonEmpty(c.desc) ?? nonEmpty(c.desc_first), cover: httpsUrl(c.cover) };
}

export function dynamicToDraft(raw: unknown): ItemDraft | undefined {
  const item = obj(raw);
  const modules = obj(item?.modules);
  const id = item && idOf(item.id_str);
  if (!item || !modules || !id) return undefined;
  const author = obj(modules.module_author);
  const dyn = obj(modules.module_dynamic) ?? {};
  const stat = obj(modules.module_stat) ?? {};
  const major = obj(dyn.major) ?? {};
  const desc = nonEmpty(obj(dyn.desc)?.text);
  const base = {
    author: nonEmpty(author?.name),
    author_id: idOf(author?.mid),
    author_handle: nonEmpty(author?.name),
    ts: positive(author?.pub_ts),
  };
  const counts = {
    likes: obj(stat.like)?.count,
    comments: obj(stat.comment)?.count,
    shares: obj(stat.forward)?.count,
  };

  const archive = obj(major.archive) ?? obj(major.ugc_season);
  const archiveBvid = archive && bvidOf(archive);
  if (archive && archiveBvid) {
    return video(archiveBvid, {
      ...base,
      title: plainText(archive.title),
      text: desc ?? description(archive.desc),
      thumb: httpsUrl(archive.cover),
      duration_s: parseClock(archive.duration_text),
      stats: stats({ ...counts, views: obj(archive.stat)?.play }),
    });
  }

  const draw = obj(major.draw);
  const opus = obj(major.opus);
  const article = obj(major.article);
  const card = !draw && !opus && !article ? cardMajor(major) : undefined;
  const media = draw
    ? imagesOf(draw.items, 'src')
    : opus
      ? imagesOf(opus.pics, 'url')
      : article
        ? arr(article.covers).map((u) => httpsUrl(u)).filter((u): u is string => !!u).map((url): Media => ({ kind: 'image', url }))
        : card?.cover
          ? [{ kind: 'image', url: card.cover } as Media]
          : [];
  const title = nonEmpty(opus?.title) ?? nonEmpty(article?.title) ?? card?.title;
  const text = desc ?? nonEmpty(obj(opus?.summary)?.text) ?? nonEmpty(article?.desc) ?? card?.desc;
  if (!media.length && !text && !title) return undefined;
  const draft: ItemDraft = {
    native_id: id,
    type: media.length ? 'image' : 'text',
    ...base,
    title,
    text,
    url: dynamicUrl(item, id),
    thumb: media[0]?.url,
    media,
    stats: stats(counts),
  };
  for (const k of Object.keys(draft) as (keyof ItemDraft)[]) if (draft[k] === undefined) delete draft[k];
  return draft;
}

// ---------------------------------------------------------------------------------------------
// Play URLs (x/player/playurl): durl[] progressive segments, or dash.video[] / dash.audio[] tracks.

const PCDN = /\.mcdn\.bilivideo\.cn$|\.szbdyd\.com$/i;

/** Prefers a mirror on bilibili's own CDN: PCDN hosts on odd ports often refuse clients outside their ISP. */
export function pickUrl(candidates: unknown[]): string | undefined {
  const urls = candidates.map((c) => httpsUrl(c)).filter((u): u is string => !!u);
  const good = urls.find((u) => {
    try {
      const url = new URL(u);
      return !PCDN.test(url.hostname) && !url.port;
    } catch {
      return false;
    }
  });
  return good ?? urls[0];
}

/** Codec preference at equal quality: AVC plays everywhere, then HEVC, then AV1. */
const CODEC_RANK: Record<number, number> = { 7: 3, 12: 2, 13: 1 };

export interface Streams {
  media: Media[];
  /** What the caller should know about the stream (split segments, video-only DASH). */
  notes: string[];
}

export function streamsOf(raw: unknown, frame?: { width: number; height: number }): Streams {
  const data = obj(raw) ?? {};
  const totalS = positive(data.timelength) !== undefined ? (positive(data.timelength) as number) / 1000 : undefined;
  const durl = objs(data.durl);
  if (durl.length) {
    const media = durl
      .map((seg): Media | undefined => {
        const url = pickUrl([seg.url, ...arr(seg.backup_url ?? seg.backupUrl)]);
        if (!url) return undefined;
        const m: Media = { kind: 'video', url };
        if (frame) Object.assign(m, { w: frame.width, h: frame.height });
        const len = positive(seg.length);
        const d = len !== undefined ? len / 1000 : durl.length === 1 ? totalS : undefined;
        if (d !== undefined) m.duration_s = d;
        return m;
      })
      .filter((m): m is Media => !!m);
    const notes = media.length > 1 ? [`the progressive stream comes in ${media.length} consecutive segments (media[] in order)`] : [];
    return { media, notes };
  }
  const dash = obj(data.dash);
  const tracks = objs(dash?.video);
  if (!tracks.length) return { media: [], notes: ['bilibili answered no playable stream (neither durl nor dash)'] };
  const best = [...tracks].sort((a, b) => Number(b.id) - Number(a.id) || (CODEC_RANK[Number(b.codecid)] ?? 0) - (CODEC_RANK[Number(a.codecid)] ?? 0))[0];
  const url = pickUrl(trackUrls(best));
  if (!url) return { media: [], notes: ['the DASH answer carries no stream URL'] };
  const m: Media = { kind: 'video', url };
  const w = positive(best.width);
  const h = positive(best.height);
  if (w && h) Object.assign(m, { w, h });
  else if (frame) Object.assign(m, { w: frame.width, h: frame.height });
  const d = totalS ?? positive(dash?.duration);
  if (d !== undefined) m.duration_s = d;
  const codec = nonEmpty(best.codecs) ?? `codec ${String(best.codecid)}`;
  return {
    media: [m],
    notes: [`DASH stream: media[0] is the video-only track (quality ${String(best.id)}, ${codec}${w && h ? `, ${w}x${h}` : ''}); the audio is a separate track`],
  };
}

// ---------------------------------------------------------------------------------------------
// Comments (x/v2/reply, x/v2/reply/wbi/main, x/v2/reply/hot, x/v2/reply/reply): replies[] of rpid objects.

export function commentOf(raw: unknown, bvid?: string): Comment | undefined {
  const r = obj(raw);
  const cid = r && idOf(r.rpid_str, r.rpid);
  if (!r || !cid) return undefined;
  const member = obj(r.member);
  const name = nonEmpty(member?.uname) ?? '';
  const c: Comment = {
    cid,
    text: str(obj(r.content)?.message) ?? '',
    likes: parseCount(r.like) ?? 0,
    reply_total: parseCount(r.rcount) ?? parseCount(r.count) ?? 0,
    user_id: idOf(r.mid_str, r.mid, member?.mid) ?? '',
    handle: name,
    user_name: name,
    created_at: positiveInt(r.ctime) ?? 0,
    source: 'bilibili',
  };
  if (bvid) c.url = `${videoUrl(bvid)}#reply${cid}`;
  // parent is the comment answered (0 for a root comment); root is the thread's top comment.
  const parent = idOf(r.parent_str, r.parent) ?? idOf(r.root_str, r.root);
  if (parent && parent !== cid) c.parent_id = parent;
  return c;
}

/** Root comments, each followed by the reply previews bilibili inlines under it (replies[]). */
export function threadComments(list: unknown, bvid: string | undefined, seen: Set<string> = new Set()): Comment[] {
  const out: Comment[] = [];
  for (const raw of objs(list)) {
    const root = commentOf(raw, bvid);
    if (!root || seen.has(root.cid)) continue;
    seen.add(root.cid);
    out.push(root);
    for (const child of objs(raw.replies)) {
      const c = commentOf(child, bvid);
      if (!c || seen.has(c.cid)) continue;
      seen.add(c.cid);
      c.parent_id ??= root.cid;
      out.push(c);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Creators.

function verifiedOf(...officials: unknown[]): boolean | undefined {
  for (const o of officials.map(obj)) {
    if (!o || o.type === undefined) continue;
    // type -1 is "no verification"; 0 personal, 1 organisation.
    return Number(o.type) >= 0;
  }
  return undefined;
}

function author(f: Partial<Author> & { id: string }): Author {
  const a: Author = { source: 'bilibili', url: spaceUrl(f.id), ...f };
  for (const k of Object.keys(a) as (keyof Author)[]) if (a[k] === undefined || a[k] === '') delete a[k];
  return a;
}

/** x/web-interface/card: data.card plus follower / archive_count / like_num. */
export function authorFromCard(raw: unknown): Author | undefined {
  const data = obj(raw);
  const card = obj(data?.card);
  const id = card && idOf(card.mid);
  if (!data || !card || !id) return undefined;
  const name = nonEmpty(card.name);
  return author({
    id,
    handle: name,
    name,
    bio: str(card.sign),
    avatar: httpsUrl(card.face),
    followers: parseCount(data.follower) ?? parseCount(card.fans),
    following: parseCount(card.attention),
    posts: parseCount(data.archive_count),
    likes: parseCount(data.like_num),
    verified: verifiedOf(card.Official, card.official_verify),
  });
}

/** x/space/(wbi/)acc/info: data; followers/following come from x/relation/stat when available. */
export function authorFromAccInfo(raw: unknown, relation?: unknown): Author | undefined {
  const data = obj(raw);
  const id = data && idOf(data.mid);
  if (!data || !id) return undefined;
  const rel = obj(relation);
  const name = nonEmpty(data.name);
  return author({
    id,
    handle: name,
    name,
    bio: str(data.sign),
    avatar: httpsUrl(data.face),
    followers: parseCount(rel?.follower),
    following: parseCount(rel?.following),
    verified: verifiedOf(data.official),
  });
}

// ---------------------------------------------------------------------------------------------
// Hot-search words.

const searchLink = (keyword: string): string => `https://search.bilibili.com/all?keyword=${encodeURIComponent(keyword)}`;

function trend(word: string | undefined, keyword: string | undefined, rank: number): Trend | undefined {
  const w = word?.trim() || keyword?.trim();
  if (!w || !(rank > 0)) return undefined;
  return { word: w, source: 'bilibili', rank, url: searchLink(keyword?.trim() || w) };
}

/** web search square (x/web-interface/(wbi/)search/square): data.trending.list[], ranked by order. */
export function squareTrends(data: Json): Trend[] {
  return objs(obj(data.trending)?.list)
    .map((e, i) => trend(nonEmpty(e.show_name), nonEmpty(e.keyword), i + 1))
    .filter((t): t is Trend => !!t);
}

/** app trending ranking: data.list[] with position; commercial entries are adverts, not searches. */
export function appTrends(data: Json): Trend[] {
  return objs(data.list)
    .filter((e) => String(e.is_commercial ?? '0') !== '1')
    .map((e, i) => trend(nonEmpty(e.show_name), nonEmpty(e.keyword), positiveInt(e.position) ?? i + 1))
    .filter((t): t is Trend => !!t);
}

/** s.search.bilibili.com/main/hotword: list[] at the top level, pos = rank. */
export function hotwordTrends(raw: Json): Trend[] {
  return objs(raw.list)
    .map((e, i) => trend(nonEmpty(e.show_name), nonEmpty(e.keyword), positiveInt(e.pos) ?? positiveInt(e.id) ?? i + 1))
    .filter((t): t is Trend => !!t);
}
