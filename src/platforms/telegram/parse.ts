import { load, type Cheerio, type CheerioAPI } from '../../crawl/cheerio.js';
import type { AnyNode } from 'domhandler';
import type { Author } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { ORIGIN, channelUrl, postUrl } from './refs.js';

/*
 * Pure parsers for t.me's public web preview: the channel history page (t.me/s/<channel>, also
 * t.me/s/<channel>/<id> and ?q= searches), the single-message embed widget (t.me/<channel>/<id>?embed=1)
 * and the channel card page (t.me/<channel>). Nothing here throws on a missing optional field.
 */

export interface TgMedia {
  kind: 'video' | 'image';
  /** Origin URL; absent when t.me withholds the stream (e.g. "Media is too big"). */
  url?: string;
  thumb?: string;
  w?: number;
  h?: number;
  duration_s?: number;
  /** The message id an album member has (its ?single link). */
  id?: number;
}

export interface TgLinkPreview {
  url?: string;
  site?: string;
  title?: string;
  description?: string;
  image?: string;
  video?: TgMedia;
}

export interface TgMessage {
  channel: string;
  id: number;
  /** The channel's display name as the message shows it. */
  author?: string;
  text: string;
  ts?: number;
  views?: number;
  /** The message's own photos and videos, album members included, in page order. */
  media: TgMedia[];
  linkPreview?: TgLinkPreview;
  forwardedFrom?: { name: string; url?: string };
  /** A voice note: audio only, which no Item media kind can carry. */
  voice?: { url?: string; duration_s?: number };
  /** "Channel created", "pinned a message" and the like: not posts. */
  service: boolean;
  /** Why t.me shows no stream for a video ("Media is too big"), when it says so. */
  unsupported?: string;
}

export interface ChannelInfo {
  title?: string;
  username?: string;
  description?: string;
  avatar?: string;
  verified: boolean;
  /** counter_type → value: subscribers, photos, videos, files, links (members for groups). */
  counters: Record<string, number>;
}

export interface HistoryPage {
  messages: TgMessage[];
  /** The page carries a message history section (public preview enabled). */
  hasHistory: boolean;
  /** t.me's "No posts found" marker. */
  noMessagesFound: boolean;
  /** The page links to older messages (data-before / rel=prev). */
  hasOlder: boolean;
  /** The page links to newer messages (data-after / rel=next): it is not the newest page. */
  hasNewer: boolean;
  channel?: ChannelInfo;
  /** The embed widget's error ("Post not found", "Channel is private"). */
  widgetError?: string;
  /** The t.me/<username> card rather than a history (answered without the usual redirect). */
  isCard: boolean;
  /** Does the body look like any t.me page at all. */
  isTme: boolean;
}

export interface TmePage {
  /** Absent on the "you can contact @x" page t.me shows for a username that names nothing. */
  title?: string;
  extra?: string;
  description?: string;
  avatar?: string;
  verified: boolean;
  kind: 'channel' | 'group' | 'user' | 'bot' | 'unknown';
  followers?: number;
  /** The page offers "Preview channel" (t.me/s/<channel>). */
  previewable: boolean;
}

const BR = '\uE000';

/** Text as a browser shows it: whitespace runs collapse, <br> is a line break, emoji images give their character. */
export function plainText(el: Cheerio<AnyNode>): string {
  if (!el.length) return '';
  const c = el.clone();
  c.find('br').replaceWith(BR);
  return c
    .text()
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t\n\r\f]+/g, ' ')
    .split(BR)
    .map((line) => line.trim())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** "746" → 746, "69.4K" → 69400, "1.2M" → 1200000, "12 345" → 12345. */
export function parseCount(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const t = s.replace(/[\s\u00a0\u202f\u2009]/g, '');
  const m = /^(\d+(?:[.,]\d+)?)([KMB])?$/i.exec(t);
  if (!m) return undefined;
  if (m[2]) {
    const mult = { K: 1e3, M: 1e6, B: 1e9 }[m[2].toUpperCase() as 'K' | 'M' | 'B'];
    return Math.round(Number(m[1].replace(',', '.')) * mult);
  }
  return Number(m[1].replace(/[.,]/g, ''));
}

/** "0:05" → 5, "27:40" → 1660, "1:02:03" → 3723. */
export function parseDuration(s: string | undefined): number | undefined {
  const t = (s ?? '').trim();
  if (!/^\d+(?::\d{1,2}){0,2}$/.test(t)) return undefined;
  return t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

/** The url(...) of a style's background-image, absolute. */
export function backgroundUrl(style: string | undefined): string | undefined {
  const m = /background-image\s*:\s*url\(\s*(['"]?)([^'")]+)\1\s*\)/i.exec(style ?? '');
  return m ? absolute(m[2]) : undefined;
}

function absolute(u: string | undefined): string | undefined {
  if (!u) return undefined;
  try {
    return new URL(u.trim(), `${ORIGIN}/`).toString();
  } catch {
    return undefined;
  }
}

const pxWidth = (style: string | undefined): number | undefined => {
  const m = /(?:^|[;\s])width\s*:\s*([\d.]+)px/i.exec(style ?? '');
  return m ? Number(m[1]) : undefined;
};
const paddingTopPct = (style: string | undefined): number | undefined => {
  const m = /padding-top\s*:\s*([\d.]+)%/i.exec(style ?? '');
  return m ? Number(m[1]) : undefined;
};

/*
 * A single photo/video states its size as the wrap's width in px and the height as a padding-top
 * percentage of that width. Album cells carry layout sizes instead, which are not the media's.
 */
function sizeOf(widthStyle: string | undefined, ratioStyle: string | undefined): { w?: number; h?: number } {
  const w = pxWidth(widthStyle);
  const pct = paddingTopPct(ratioStyle);
  if (!w || !pct) return {};
  return { w: Math.round(w), h: Math.round((w * pct) / 100) };
}

const singleId = (href: string | undefined): number | undefined => {
  const m = /\/(\d+)(?:\?|$)/.exec(href ?? '');
  return m ? Number(m[1]) : undefined;
};

const trimmed = (s: string | undefined): string | undefined => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t || undefined;
};

function outsideQuotes(el: Cheerio<AnyNode>): boolean {
  return el.closest('.tgme_widget_message_reply, .tgme_widget_message_link_preview').length === 0;
}

function parseVideo(player: Cheerio<AnyNode>, grouped: boolean): TgMedia {
  const src = player.find('video').first().attr('src');
  const wrap = player.find('.tgme_widget_message_video_wrap, .link_preview_video_wrap').first();
  const thumb = backgroundUrl(player.find('[class*="video_thumb"], [class*="roundvideo_thumb"]').first().attr('style'));
  const duration = parseDuration(player.find('time[class*="duration"]').first().text());
  const media: TgMedia = { kind: 'video', url: absolute(src), thumb, duration_s: duration };
  if (!grouped) Object.assign(media, sizeOf(wrap.attr('style'), wrap.attr('style')));
  const id = singleId(player.attr('href'));
  if (id !== undefined) media.id = id;
  return media;
}

function parsePhoto(wrap: Cheerio<AnyNode>, grouped: boolean): TgMedia {
  const media: TgMedia = { kind: 'image', url: backgroundUrl(wrap.attr('style')) };
  if (!grouped) Object.assign(media, sizeOf(wrap.attr('style'), wrap.find('.tgme_widget_message_photo').first().attr('style')));
  const id = singleId(wrap.attr('href'));
  if (id !== undefined) media.id = id;
  return media;
}

const MEDIA_SELECTOR = [
  '.tgme_widget_message_photo_wrap',
  '.tgme_widget_message_video_player',
  '.tgme_widget_message_roundvideo_player',
  '.tgme_widget_message_sticker',
].join(', ');

function parseMedia($: CheerioAPI, msg: Cheerio<AnyNode>): { media: TgMedia[]; unsupported?: string } {
  const media: TgMedia[] = [];
  let unsupported: string | undefined;
  msg.find(MEDIA_SELECTOR).each((_, node) => {
    const el = $(node);
    if (!outsideQuotes(el)) return;
    const grouped = el.hasClass('grouped_media_wrap');
    if (el.is('.tgme_widget_message_video_player, .tgme_widget_message_roundvideo_player')) {
      const v = parseVideo(el, grouped);
      if (!v.url) unsupported ??= trimmed(el.find('.message_media_not_supported_label').first().text()) ?? 'no stream in the web preview';
      media.push(v);
    } else if (el.is('.tgme_widget_message_photo_wrap')) {
      const p = parsePhoto(el, grouped);
      if (p.url) media.push(p);
    } else {
      const url = absolute(el.attr('data-webp')) ?? backgroundUrl(el.attr('style')) ?? absolute(el.find('img').attr('src'));
      if (url) media.push({ kind: 'image', url });
    }
  });
  return { media, unsupported };
}

function parseLinkPreview(msg: Cheerio<AnyNode>): TgLinkPreview | undefined {
  const a = msg.find('.tgme_widget_message_link_preview').first();
  if (!a.length) return undefined;
  const lp: TgLinkPreview = {
    url: absolute(a.attr('href')),
    site: trimmed(a.find('.link_preview_site_name').first().text()),
    title: trimmed(a.find('.link_preview_title').first().text()),
    description: plainText(a.find('.link_preview_description').first()) || undefined,
    image: backgroundUrl(a.find('.link_preview_image, .link_preview_right_image').first().attr('style')),
  };
  const player = a.find('.link_preview_video_player').first();
  if (player.length) lp.video = parseVideo(player, false);
  return lp;
}

function messageText($: CheerioAPI, msg: Cheerio<AnyNode>): string {
  // Captions under albums are wrapped twice; the inner element is the text, the outer adds a spacer.
  const candidates = msg.find('.tgme_widget_message_text').filter((_, e) => outsideQuotes($(e)) && $(e).find('.tgme_widget_message_text').length === 0);
  const text = plainText(candidates.first());
  if (text) return text;
  return pollText($, msg) ?? '';
}

/** A poll as text: its question, then one line per option with the share t.me shows ("• option — 16%"). */
function pollText($: CheerioAPI, msg: Cheerio<AnyNode>): string | undefined {
  const poll = msg.find('.tgme_widget_message_poll').first();
  const question = trimmed(poll.find('.tgme_widget_message_poll_question').first().text()) ?? trimmed(msg.find('.tgme_widget_message_poll_question').first().text());
  if (!question) return undefined;
  const options: string[] = [];
  poll.find('.tgme_widget_message_poll_option').each((_, o) => {
    const option = trimmed($(o).find('.tgme_widget_message_poll_option_text').first().text());
    if (!option) return;
    const share = trimmed($(o).find('.tgme_widget_message_poll_option_percent').first().text());
    options.push(`• ${option}${share ? ` — ${share}` : ''}`);
  });
  return [question, ...options].join('\n');
}

/** One `.tgme_widget_message[data-post]`; undefined when it carries no usable post id. */
export function parseMessage($: CheerioAPI, msg: Cheerio<AnyNode>): TgMessage | undefined {
  const post = msg.attr('data-post') ?? '';
  const m = /^([A-Za-z0-9_]+)\/(\d+)$/.exec(post.trim());
  if (!m) return undefined;
  const { media, unsupported } = parseMedia($, msg);
  const datetime = msg.find('.tgme_widget_message_date time[datetime]').first().attr('datetime') ?? msg.find('time[datetime]').first().attr('datetime');
  const ms = datetime ? Date.parse(datetime) : NaN;
  const out: TgMessage = {
    channel: m[1],
    id: Number(m[2]),
    text: messageText($, msg),
    media,
    service: msg.hasClass('service_message'),
  };
  const author = trimmed(msg.find('.tgme_widget_message_owner_name').first().text()) ?? trimmed(msg.find('.tgme_widget_message_author').first().text());
  if (author) out.author = author;
  if (Number.isFinite(ms)) out.ts = Math.floor(ms / 1000);
  const views = parseCount(msg.find('.tgme_widget_message_views').first().text());
  if (views !== undefined) out.views = views;
  const lp = parseLinkPreview(msg);
  if (lp) out.linkPreview = lp;
  const fwd = msg.find('.tgme_widget_message_forwarded_from_name').first();
  const fwdName = trimmed(fwd.text());
  if (fwdName) out.forwardedFrom = { name: fwdName, ...(fwd.attr('href') ? { url: absolute(fwd.attr('href')) } : {}) };
  const audio = msg.find('audio.tgme_widget_message_voice').first();
  if (audio.length) {
    out.voice = { url: absolute(audio.attr('src')), duration_s: parseDuration(msg.find('.tgme_widget_message_voice_duration').first().text()) };
  }
  if (unsupported) out.unsupported = unsupported;
  return out;
}

export function parseChannelInfo($: CheerioAPI): ChannelInfo | undefined {
  const info = $('.tgme_channel_info').first();
  if (!info.length) return undefined;
  const header = info.find('.tgme_channel_info_header').first();
  const counters: Record<string, number> = {};
  info.find('.tgme_channel_info_counter').each((_, c) => {
    const type = trimmed($(c).find('.counter_type').text())?.toLowerCase();
    const value = parseCount($(c).find('.counter_value').text());
    if (type && value !== undefined) counters[type] = value;
  });
  const usernameText = trimmed(info.find('.tgme_channel_info_header_username').first().text());
  const out: ChannelInfo = { verified: header.find('.verified-icon').length > 0, counters };
  const title = trimmed(info.find('.tgme_channel_info_header_title').first().text());
  if (title) out.title = title;
  if (usernameText && /^@[A-Za-z0-9_]+$/.test(usernameText)) out.username = usernameText.slice(1);
  const description = plainText(info.find('.tgme_channel_info_description').first());
  if (description) out.description = description;
  const avatar = absolute(header.find('.tgme_page_photo_image img').first().attr('src'));
  if (avatar) out.avatar = avatar;
  return out;
}

/** A t.me/s/<channel> page (history, search, or the page around one message), or the embed widget. */
export function parseHistory(html: string): HistoryPage {
  const $ = load(html);
  const messages: TgMessage[] = [];
  $('.tgme_widget_message[data-post]').each((_, el) => {
    const msg = parseMessage($, $(el));
    if (msg) messages.push(msg);
  });
  const rel = (name: string): string => $(`link[rel="${name}"]`).attr('href') ?? '';
  const widgetError = trimmed($('.tgme_widget_message_error').first().text());
  const page: HistoryPage = {
    messages,
    hasHistory: $('.tgme_channel_history').length > 0,
    noMessagesFound: $('.tme_no_messages_found').length > 0,
    hasOlder: $('.tme_messages_more[data-before]').length > 0 || /[?&]before=\d+/.test(rel('prev')),
    hasNewer: $('.tme_messages_more[data-after]').length > 0 || /[?&]after=\d+/.test(rel('next')),
    isCard: $('.tgme_page').length > 0,
    isTme: /tgme_|tme_/.test(html),
  };
  const channel = parseChannelInfo($);
  if (channel) page.channel = channel;
  if (widgetError) page.widgetError = widgetError;
  return page;
}

/** The channel/user card at t.me/<username>. */
export function parseTmePage(html: string): TmePage {
  const $ = load(html);
  const title = trimmed($('.tgme_page_title').first().text());
  const extra = trimmed($('.tgme_page_extra').first().text());
  const page: TmePage = {
    verified: $('.tgme_page_title .verified-icon').length > 0,
    kind: 'unknown',
    previewable: $('a[href^="/s/"], a[href*="//t.me/s/"]').length > 0,
  };
  if (title) page.title = title;
  if (extra) page.extra = extra;
  const description = plainText($('.tgme_page_description').first());
  if (description && !/^If you have Telegram, you can contact @/i.test(description)) page.description = description;
  const avatar = absolute($('img.tgme_page_photo_image').first().attr('src'));
  if (avatar) page.avatar = avatar;
  const counted = /^([\d\s\u00a0\u202f.,]+[KM]?)\s+(subscribers?|members?)\b/i.exec(extra ?? '');
  if (counted) {
    page.kind = /^sub/i.test(counted[2]) ? 'channel' : 'group';
    const n = parseCount(counted[1]);
    if (n !== undefined) page.followers = n;
  } else if (extra && /^@[A-Za-z0-9_]+$/.test(extra)) {
    page.kind = /bot$/i.test(extra) ? 'bot' : 'user';
  }
  return page;
}

/** A message as an ItemDraft: the channel is the author, and the message's own media come first. */
export function messageToDraft(msg: TgMessage, channelTitle?: string): ItemDraft {
  const own = msg.media;
  const lpVideo = msg.linkPreview?.video;
  const videos = [...own.filter((m) => m.kind === 'video'), ...(lpVideo ? [lpVideo] : [])];
  const images = own.filter((m) => m.kind === 'image');
  const type = videos.length ? 'video' : images.length ? 'image' : 'text';
  const playable = [...own, ...(lpVideo ? [lpVideo] : [])].filter((m): m is TgMedia & { url: string } => !!m.url);
  const draft: ItemDraft = {
    native_id: `${msg.channel}/${msg.id}`,
    type,
    text: msg.text,
    author: msg.author ?? channelTitle,
    author_id: msg.channel,
    author_handle: msg.channel,
    url: postUrl(msg.channel, msg.id),
    media: playable.map((m) => {
      const out: NonNullable<ItemDraft['media']>[number] = { kind: m.kind, url: m.url };
      if (m.w) out.w = m.w;
      if (m.h) out.h = m.h;
      if (m.duration_s !== undefined) out.duration_s = m.duration_s;
      return out;
    }),
    stats: msg.views !== undefined ? { views: msg.views } : {},
  };
  const thumb = videos[0]?.thumb ?? images[0]?.url ?? msg.linkPreview?.image;
  if (thumb) draft.thumb = thumb;
  if (msg.ts !== undefined) draft.ts = msg.ts;
  if (videos[0]?.duration_s !== undefined) draft.duration_s = videos[0].duration_s;
  const sized = own.find((m) => m.w && m.h) ?? (lpVideo?.w && lpVideo.h ? lpVideo : undefined);
  if (sized?.w && sized.h) draft.aspect = { width: sized.w, height: sized.h };
  return draft;
}

/** The channel header of a t.me/s page as an Author; `username` is the canonical spelling when known. */
export function channelInfoToAuthor(info: ChannelInfo, username: string): Author {
  const author: Author = { id: username, source: 'telegram', handle: username, url: channelUrl(username), verified: info.verified };
  if (info.title) author.name = info.title;
  if (info.description) author.bio = info.description;
  if (info.avatar) author.avatar = info.avatar;
  const followers = info.counters.subscribers ?? info.counters.subscriber ?? info.counters.members ?? info.counters.member;
  if (followers !== undefined) author.followers = followers;
  return author;
}

/** The t.me/<username> card as an Author (channels without a public preview, groups, users, bots). */
export function tmePageToAuthor(page: TmePage, username: string): Author {
  const author: Author = { id: username, source: 'telegram', handle: username, url: channelUrl(username), verified: page.verified };
  if (page.title) author.name = page.title;
  if (page.description) author.bio = page.description;
  if (page.avatar) author.avatar = page.avatar;
  if (page.followers !== undefined) author.followers = page.followers;
  return author;
}
