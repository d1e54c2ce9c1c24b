import type { Author, Comment } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { isId, noteUrl, userUrl, type Token } from './refs.js';
import type { Json } from './state.js';

/*
 * Answers → drafts. One note parser serves every shape the web uses: search and homefeed items
 * ({id, model_type, note_card, xsec_token}), the feed (detail) item, user_posted notes ({note_id, cover,
 * display_title, …, xsec_token}) and the note page's state (same fields, camelCase turned snake_case).
 */

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const objs = (v: unknown): Json[] => (Array.isArray(v) ? v : []).map(obj).filter((o): o is Json => !!o);

export const more = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 'true';

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

const UNITS: Record<string, number> = { 万: 1e4, w: 1e4, W: 1e4, 亿: 1e8, 千: 1e3, k: 1e3, K: 1e3 };

/**
 * A count as xiaohongshu writes it: 1234, "1234", or the rounded display forms "1.2万", "10万+", "3亿"
 * (taken at their face value, the "+" dropped: the platform's own number, never a guess beyond it).
 */
export function count(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([万wW亿千kK])?\+?\s*$/.exec(v);
  if (!m) return undefined;
  const n = Math.round(Number(m[1]) * (m[2] ? UNITS[m[2]]! : 1));
  return Number.isSafeInteger(n) ? n : undefined;
}
const positive = (v: unknown): number | undefined => {
  const n = count(v);
  return n && n > 0 ? n : undefined;
};

export function httpsUrl(v: unknown): string | undefined {
  const s = str(v)?.trim();
  if (!s) return undefined;
  if (s.startsWith('//')) return `https:${s}`;
  // The API writes the CDN's http:// form; the same path answers on https.
  if (/^http:\/\/[^/]*\.(?:xhscdn\.com|xhscdn\.net|xiaohongshu\.com)\//i.test(s)) return `https://${s.slice(7)}`;
  return /^https?:\/\//i.test(s) ? s : undefined;
}

/** ms or s → unix seconds. */
function seconds(v: unknown): number | undefined {
  const n = positive(v);
  if (!n) return undefined;
  return n > 1e11 ? Math.floor(n / 1000) : n;
}

// ---------------------------------------------------------------------------------------------
// Images

/** The scene-tagged URLs of one picture (WB_DFT: the full picture, WB_PRV: the preview). */
export function scene(img: Json, name: string): string | undefined {
  return httpsUrl(objs(img.info_list).find((i) => i.image_scene === name)?.url);
}

/**
 * The picture's file token: the path after the signed "<time>/<hash>/" prefix, before the "!style" suffix
 * (e.g. 1040g008313ul3ln81c6g5o8vavbg961a6bl9og0, or spectrum/1040g0k0…).
 */
export function imageToken(url: string): string | undefined {
  try {
    const parts = new URL(url).pathname.split('/').filter(Boolean);
    if (parts.length < 3 || !/^\d{6,14}$/.test(parts[0]!)) return undefined;
    const token = parts.slice(2).join('/').split('!')[0];
    return token && /^[\w/.-]+$/.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The picture without the platform's watermark: the original behind the file token on sns-img-bd (the host
 * XHS-Downloader fetches originals from); else the full picture (WB_DFT / url_default); else the preview.
 */
export function bestImage(img: Json): string | undefined {
  const full = scene(img, 'WB_DFT') ?? httpsUrl(img.url_default) ?? httpsUrl(img.url_size_large) ?? httpsUrl(img.url);
  const token = full ? imageToken(full) : undefined;
  if (token) return `https://sns-img-bd.xhscdn.com/${token}`;
  return full ?? scene(img, 'WB_PRV') ?? httpsUrl(img.url_pre);
}

const preview = (img: Json | undefined): string | undefined =>
  img ? (scene(img, 'WB_PRV') ?? httpsUrl(img.url_pre) ?? scene(img, 'WB_DFT') ?? httpsUrl(img.url_default) ?? httpsUrl(img.url)) : undefined;

// ---------------------------------------------------------------------------------------------
// Video

interface Stream {
  url: string;
  w?: number;
  h?: number;
  durationS?: number;
  bitRate: number;
  codec: string;
}

export const CODECS = ['h264', 'h265', 'h266', 'av1'];

/**
 * The best stream of a video (video.media.stream.<codec>[]): the tallest, then h264 before the others at
 * the same height (every browser plays it), then the higher bit rate. master_url first, a backup URL when
 * the master is missing.
 */
export function bestStream(video: Json | undefined): Stream | undefined {
  const streams = obj(obj(obj(video)?.media)?.stream) ?? obj(video?.stream);
  const out: Stream[] = [];
  for (const codec of CODECS) {
    for (const s of objs(streams?.[codec])) {
      const backups = Array.isArray(s.backup_urls) ? s.backup_urls : [];
      const url = httpsUrl(s.master_url) ?? backups.map(httpsUrl).find((u): u is string => !!u);
      if (!url) continue;
      const d = positive(s.duration);
      out.push({ url, w: positive(s.width), h: positive(s.height), durationS: d ? Math.round(d / 100) / 10 : undefined, bitRate: count(s.video_bitrate) ?? count(s.avg_bitrate) ?? 0, codec });
    }
  }
  out.sort((a, b) => (b.h ?? 0) - (a.h ?? 0) || Number(b.codec === 'h264') - Number(a.codec === 'h264') || b.bitRate - a.bitRate);
  return out[0];
}

// ---------------------------------------------------------------------------------------------
// Notes

interface NoteEntry {
  id: string;
  card: Json;
  token: Token;
}

/** Where the note's fields and its id/token sit in each answer shape. */
function entryOf(raw: unknown, source: string): NoteEntry | undefined {
  const e = obj(raw);
  if (!e) return undefined;
  if (e.model_type !== undefined && e.model_type !== 'note') return undefined;
  const card = obj(e.note_card) ?? obj(e.note) ?? e;
  const id = [e.id, e.note_id, card.note_id, card.id].map(str).find((s): s is string => !!s && isId(s));
  if (!id) return undefined;
  const xsecToken = str(e.xsec_token) ?? str(card.xsec_token);
  return { id, card, token: xsecToken ? { xsecToken, xsecSource: source } : {} };
}

/** Notes in list answers keep their xsec_token so the item's url works for detail and comments. */
export function noteDraft(raw: unknown, source = 'pc_search', known: Token = {}): { draft: ItemDraft; token: Token } | undefined {
  const entry = entryOf(raw, source);
  if (!entry) return undefined;
  const { id, card } = entry;
  const token = entry.token.xsecToken ? entry.token : known;
  // The app's answer (relayed by some services as "web" search) says images_list and video_info_v2.
  const images = objs(card.image_list).length ? objs(card.image_list) : objs(card.images_list);
  const video = obj(card.video) ?? obj(card.video_info_v2);
  const isVideo = card.type === 'video' || !!video;
  const stream = isVideo ? bestStream(video) : undefined;
  const media: NonNullable<ItemDraft['media']> = [];
  if (stream) media.push({ kind: 'video', url: stream.url, w: stream.w, h: stream.h, duration_s: stream.durationS ?? videoSeconds(video) });
  if (!isVideo) {
    for (const img of images) {
      const url = bestImage(img);
      if (url) media.push({ kind: 'image', url, w: positive(img.width), h: positive(img.height) });
      // A live photo carries its short clip next to the still.
      const clip = img.live_photo === true ? bestStream(img) : undefined;
      if (clip) media.push({ kind: 'video', url: clip.url, w: clip.w, h: clip.h, duration_s: clip.durationS });
    }
  }
  const cover = obj(card.cover);
  const user = obj(card.user);
  const interact = obj(card.interact_info) ?? card;
  const w = stream?.w ?? positive(cover?.width) ?? positive(images[0]?.width);
  const h = stream?.h ?? positive(cover?.height) ?? positive(images[0]?.height);
  const draft: ItemDraft = {
    native_id: id,
    type: isVideo ? 'video' : images.length || cover ? 'image' : 'text',
    title: str(card.title) ?? str(card.display_title),
    text: typeof card.desc === 'string' ? card.desc : undefined,
    author: str(user?.nickname) ?? str(user?.nick_name),
    author_id: str(user?.user_id) ?? str(user?.userid),
    author_handle: str(user?.red_id),
    url: noteUrl(id, token),
    thumb: preview(cover) ?? preview(images[0]),
    media,
    ts: seconds(card.time) ?? seconds(card.timestamp),
    duration_s: isVideo ? (stream?.durationS ?? videoSeconds(video)) : undefined,
    aspect: w && h ? { width: w, height: h } : undefined,
    stats: {
      likes: count(interact.liked_count),
      comments: count(interact.comment_count ?? interact.comments_count),
      shares: count(interact.share_count ?? interact.shared_count),
    },
  };
  return { draft, token };
}

function videoSeconds(video: Json | undefined): number | undefined {
  return positive(obj(video?.capa)?.duration);
}

// ---------------------------------------------------------------------------------------------
// Comments

export function commentOf(raw: unknown, noteId: string, parent?: string): Comment | undefined {
  const c = obj(raw);
  const cid = str(c?.id);
  if (!c || !cid) return undefined;
  const user = obj(c.user_info);
  const name = str(user?.nickname) ?? '';
  const out: Comment = {
    cid,
    text: typeof c.content === 'string' ? c.content : '',
    likes: count(c.like_count) ?? 0,
    reply_total: count(c.sub_comment_count) ?? 0,
    user_id: str(user?.user_id) ?? '',
    // Comments name no 小红书号; the nickname is the handle a reader sees.
    handle: name,
    user_name: name,
    created_at: seconds(c.create_time) ?? 0,
    source: 'xiaohongshu',
    url: noteUrl(str(c.note_id) ?? noteId),
  };
  // A reply names the comment it answers (target_comment), else the thread's root.
  const target = str(obj(c.target_comment)?.id);
  const parentId = target && target !== cid ? target : parent;
  if (parentId && parentId !== cid) out.parent_id = parentId;
  return out;
}

/** A page of root comments, each followed by the replies the answer inlines (sub_comments). */
export function commentsOf(list: unknown, noteId: string, root?: string): Comment[] {
  const out: Comment[] = [];
  const seen = new Set<string>();
  const add = (c: Comment | undefined): void => {
    if (!c || seen.has(c.cid)) return;
    seen.add(c.cid);
    out.push(c);
  };
  for (const raw of objs(list)) {
    const c = commentOf(raw, noteId, root);
    add(c);
    if (!c) continue;
    for (const r of objs(raw.sub_comments)) add(commentOf(r, noteId, c.cid));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Users

/** The profile page's user.user_page_data → an Author. */
export function authorOf(userId: string, page: Json | undefined): Author | undefined {
  const basic = obj(page?.basic_info);
  if (!page || !basic) return undefined;
  const byType = new Map(objs(page.interactions).map((i) => [str(i.type), i.count] as const));
  const verified = objs(page.tags).some((t) => /verif|official/i.test(String(t.tag_type ?? ''))) || (count(basic.red_official_verify_type) ?? 0) > 0;
  return {
    id: userId,
    source: 'xiaohongshu',
    handle: str(basic.red_id),
    name: str(basic.nickname),
    bio: str(basic.desc),
    avatar: httpsUrl(basic.imageb) ?? httpsUrl(basic.images),
    url: userUrl(userId),
    followers: positive(byType.get('fans')),
    following: positive(byType.get('follows')),
    // 获赞与收藏: likes and saves received, as one number.
    likes: positive(byType.get('interaction')),
    verified: verified ? true : undefined,
  };
}

/** A user card of the user search → an item (native id "user:<id>", url the profile with its token). */
export function userDraft(raw: unknown): ItemDraft | undefined {
  const u = obj(raw);
  const id = str(u?.id) ?? str(u?.user_id);
  if (!u || !id || !isId(id)) return undefined;
  const name = str(u.name) ?? str(u.nickname);
  const token = str(u.xsec_token);
  const fans = str(u.fans);
  return {
    native_id: `user:${id}`,
    type: 'text',
    title: name,
    text: str(u.desc) ?? (fans ? `粉丝 ${fans}${u.note_count !== undefined ? ` · 笔记 ${String(u.note_count)}` : ''}` : str(u.sub_title)),
    author: name,
    author_id: id,
    author_handle: str(u.red_id),
    url: userUrl(id, token ? { xsecToken: token, xsecSource: 'pc_search' } : {}),
    thumb: httpsUrl(u.image) ?? httpsUrl(u.images),
    media: [],
    stats: {},
  };
}
