import type { AnyNode, Element } from 'domhandler';
import { load, type Cheerio, type CheerioAPI } from '../../crawl/cheerio.js';
import type { ItemDraft } from '../types.js';
import {
  canonical, countIn, cssUrl, isoDuration, isoSeconds, ldCounts, ldJson, ldType, liveData, metaTags, num, obj, str, type Json, type LiveCounts,
} from './markup.js';
import { handleFromHref, isFacebookHost, profileIdFromHref, WWW } from './refs.js';

/*
 * Pure parsers: a timeline page's stories (<article data-ft>), a permalink page (story, video or photo
 * layout of m.facebook.com, or a www page's JSON-LD and meta tags) → ItemDraft. A field the page does not
 * carry stays absent.
 */

const PROFILE_PIC = /,\s*profile picture$/i;
const isStaticAsset = (u: string): boolean => /static\.[a-z.]*fbcdn\.net|\/rsrc\.php\/|\/images\/emoji\.php\//i.test(u);
const isSafeImage = (u: string): boolean => /\/safe_image\.php/i.test(u);

export const fbcdn = (u: string | undefined): string | undefined => {
  if (!u) return undefined;
  try {
    const url = new URL(u);
    return /(^|\.)fbcdn\.net$/i.test(url.hostname) && url.protocol === 'https:' && !isStaticAsset(u) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
};

/** data-ft / data-store: JSON in an attribute, sometimes with its backslashes doubled (facebook-scraper). */
export function attrJson(raw: string | undefined): Json | undefined {
  if (!raw) return undefined;
  for (const text of [raw, raw.replace(/\\\\/g, '\\')]) {
    try {
      const v = obj(JSON.parse(text));
      if (v) return v;
    } catch {
      /* next form */
    }
  }
  return undefined;
}

/** Text with line breaks kept: <br> is a newline, paragraphs are separated by a blank line. */
export function textOf($: CheerioAPI, node: Cheerio<AnyNode>): string {
  const copy = node.clone();
  copy.find('br').replaceWith('\n');
  copy.find('wbr').remove();
  // "… More" / "See more" expanders of truncated text are links, not text.
  copy.find('a').each((_, a) => {
    const t = $(a).text().trim();
    if (/^(?:…\s*)?(?:More|See more|See More)$/.test(t)) $(a).remove();
  });
  copy.find('span.text_exposed_hide').remove();
  const paragraphs = copy.find('p');
  const raw = paragraphs.length ? paragraphs.toArray().map((p) => $(p).text()).join('\n\n') : copy.text();
  return raw
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/…\s*$/, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface InlineVideo {
  id?: string;
  /** Best stream: hd_src over sd_src over src. */
  url?: string;
  w?: number;
  h?: number;
  duration_s?: number;
}

export const SOURCE_PREFERENCE = ['hd_src', 'hd_src_no_ratelimit', 'playable_url_quality_hd', 'browser_native_hd_url', 'sd_src', 'sd_src_no_ratelimit', 'playable_url', 'browser_native_sd_url', 'src'];

export function bestSource(fields: Json): string | undefined {
  for (const k of SOURCE_PREFERENCE) {
    const u = fbcdn(str(fields[k])?.replace(/\\\//g, '/'));
    if (u) return u;
  }
  return undefined;
}

/** The inline player's data-store: videoID, src (and hd_src/sd_src where the page offers both), size, DASH length. */
export function inlineVideo(raw: string | undefined): InlineVideo | undefined {
  const ds = attrJson(raw);
  if (!ds) return undefined;
  const manifest = str(ds.dashManifest);
  const length = manifest ? /mediaPresentationDuration=\\?"([^"\\]+)\\?"/.exec(manifest)?.[1] : undefined;
  return { id: str(ds.videoID), url: bestSource(ds), w: num(ds.width), h: num(ds.height), duration_s: isoDuration(length) };
}

/**
 * Stream URLs written into a page's scripts (www pages: VideoConfig hd_src/sd_src, Relay playable_url*,
 * browser_native_*), taken near a mention of the wanted video's id so related videos are not mistaken for it.
 */
export function embeddedSource(text: string, videoId?: string): string | undefined {
  return embeddedSources(text, videoId)[0]?.url;
}

/** Every stream URL of embeddedSource's search, best key first (hd before sd), each URL once. */
export function embeddedSources(text: string, videoId?: string): Array<{ key: string; url: string }> {
  const keys = SOURCE_PREFERENCE.filter((k) => k !== 'src').join('|');
  const found: Array<{ key: string; url: string; at: number }> = [];
  for (const m of text.matchAll(new RegExp(`\\\\?"(${keys})\\\\?"\\s*:\\s*\\\\?"((?:https?:)?[^"\\\\]*(?:\\\\.[^"\\\\]*)*)\\\\?"`, 'g'))) {
    const url = fbcdn(unescapeJs(m[2]!));
    if (url) found.push({ key: m[1]!, url, at: m.index! });
  }
  let near = found;
  if (videoId && found.length) {
    const mentions = [...text.matchAll(new RegExp(`\\b${videoId}\\b`, 'g'))].map((m) => m.index!);
    near = found.filter((f) => mentions.some((at) => Math.abs(at - f.at) < 20_000));
  }
  const out: Array<{ key: string; url: string }> = [];
  for (const k of SOURCE_PREFERENCE) for (const f of near) if (f.key === k && !out.some((o) => o.url === f.url)) out.push({ key: f.key, url: f.url });
  return out;
}

function unescapeJs(s: string): string {
  let out = s;
  for (let i = 0; i < 2 && /\\[/u"\\]/.test(out); i++) {
    try {
      out = JSON.parse(`"${out.replace(/\\\\/g, '\\')}"`) as string;
    } catch {
      out = out.replace(/\\\//g, '/');
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Stories (timeline articles, the permalink page's story div)

interface StoryFt {
  id?: string;
  storyKey?: string;
  ownerId?: string;
  publishTime?: number;
}

function storyFt(raw: string | undefined): StoryFt {
  const ft = attrJson(raw) ?? {};
  let publishTime: number | undefined;
  for (const v of Object.values(obj(ft.page_insights) ?? {})) {
    publishTime ??= num(obj(obj(v)?.post_context)?.publish_time);
  }
  return {
    id: str(ft.top_level_post_id) ?? str(ft.mf_story_key) ?? str(ft.tl_objid),
    storyKey: str(ft.mf_story_key),
    ownerId: str(ft.content_owner_id_new) ?? str(ft.page_id),
    publishTime,
  };
}

function storyUrl(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href, WWW);
    const id = u.searchParams.get('story_fbid');
    const owner = u.searchParams.get('id');
    return id && owner ? `${WWW}/story.php?story_fbid=${id}&id=${owner}` : undefined;
  } catch {
    return undefined;
  }
}

function groupPermalink(href: string | undefined): string | undefined {
  const m = href ? /\/groups\/([^/?#]+)\/permalink\/(\d+)/.exec(href) : null;
  return m ? `${WWW}/groups/${m[1]}/permalink/${m[2]}/` : undefined;
}

/** One story element (an <article> or the permalink page's story div) with its data-ft. */
export function storyDraft($: CheerioAPI, el: Cheerio<Element>, live: Map<string, LiveCounts>): ItemDraft | undefined {
  const ft = storyFt(el.attr('data-ft'));
  if (!ft.id) return undefined;
  const body = el.find('.story_body_container').first();
  const scope = body.length ? body : el;
  const authorLink = el.find('header h3 strong a, header h3 a, a.actor-link').first();
  const href = authorLink.attr('href');
  const handle = handleFromHref(href);
  const authorId = ft.ownerId ?? profileIdFromHref(href);

  // The post's own words: the paragraphs of its body, not those of a shared post's nested body.
  const paragraphs = scope.find('p').filter((_, p) => $(p).closest('header').length === 0 && $(p).closest('.story_body_container').is(scope));
  let text = paragraphs.length ? paragraphs.toArray().map((p) => textOf($, $(p))).filter(Boolean).join('\n\n') : '';
  if (!text) {
    const lead = scope.children('div').first();
    if (lead.length && !lead.find('img, [data-sigil="inlineVideo"]').length) text = textOf($, lead);
  }

  const videoEl = scope.find('[data-sigil="inlineVideo"]').first();
  const video = videoEl.length ? inlineVideo(videoEl.attr('data-store')) : undefined;
  const videoThumb = cssUrl(scope.find('[data-sigil="playInlineVideo"]').first().attr('style') ?? videoEl.find('i.img').first().attr('style'));
  const images: Array<{ kind: 'image'; url: string; w?: number; h?: number }> = [];
  let linkThumb: string | undefined;
  // Photos are <img> elements, or <i class="img"> with a CSS background in some renderings.
  scope.find('img, i.img[style*="url("]').each((_, img) => {
    const $img = $(img);
    if ($img.hasClass('profpic') || $img.closest('header').length || $img.closest('[data-sigil="inlineVideo"]').length || $img.is('[data-sigil~="playInlineVideo"]')) return;
    const src = $img.is('i') ? cssUrl($img.attr('style')) : $img.attr('src');
    if (src && isSafeImage(src)) {
      linkThumb ??= fbcdn(src);
      return;
    }
    const url = fbcdn(src);
    if (url && !images.some((i) => i.url === url)) images.push({ kind: 'image', url, w: $img.is('img') ? num($img.attr('width')) : undefined, h: $img.is('img') ? num($img.attr('height')) : undefined });
  });

  const anchors = el.find('a[href]').toArray().map((a) => $(a).attr('href')!);
  const storyLinks = anchors.filter((h) => /^(?:https:\/\/m\.facebook\.com)?\/story\.php\?/.test(h));
  // MLiveData is keyed by the post's feedback id: the story's own id, or the story_fbid its permalink names.
  const linkedId = storyLinks.map((h) => /[?&]story_fbid=(\d+)/.exec(h)?.[1]).find(Boolean);
  const counts = live.get(ft.id) ?? (linkedId ? live.get(linkedId) : undefined) ?? (ft.storyKey ? live.get(ft.storyKey) : undefined) ?? {};
  const footer = el.find('footer');
  const stats = {
    likes: counts.likes ?? countIn(el.find('.like_def').first().text() || footer.text(), /Likes?/),
    comments: counts.comments ?? countIn(el.find('.cmt_def').first().text() || footer.text(), /comments?/),
    shares: counts.shares ?? countIn(el.find('[data-sigil="feed-ufi-sharers"]').first().text() || footer.text(), /shares?/),
  };

  const owner = handle ?? authorId;
  const url =
    anchors.map(groupPermalink).find(Boolean) ??
    storyLinks.map(storyUrl).find(Boolean) ??
    (video?.id && owner ? `${WWW}/${owner}/videos/${video.id}/` : owner ? `${WWW}/${owner}/posts/${ft.id}` : `${WWW}/${ft.id}`);
  const abbrTime = num(attrJson(el.find('abbr[data-store]').first().attr('data-store'))?.time);

  const media: NonNullable<ItemDraft['media']> = [];
  if (video?.url) media.push({ kind: 'video', url: video.url, w: video.w, h: video.h, duration_s: video.duration_s });
  media.push(...images);
  return {
    native_id: ft.id,
    type: videoEl.length ? 'video' : images.length ? 'image' : 'text',
    text,
    author: authorLink.text().trim() || undefined,
    author_id: authorId,
    author_handle: handle,
    url,
    thumb: videoThumb ?? images[0]?.url ?? linkThumb,
    media,
    ts: ft.publishTime ?? abbrTime,
    duration_s: video?.duration_s,
    stats: definedStats(stats),
  };
}

function definedStats(s: Record<string, number | undefined>): ItemDraft['stats'] {
  const out: ItemDraft['stats'] = {};
  for (const [k, v] of Object.entries(s)) if (v !== undefined) (out as Record<string, number>)[k] = v;
  return out;
}

/** Every story of a timeline page or async answer (facebook-scraper selects article[data-ft*=top_level_post_id]). */
export function timelineDrafts(html: string, scripts = ''): ItemDraft[] {
  const $ = load(html);
  const live = liveData(`${html}\n${scripts}`);
  const out: ItemDraft[] = [];
  $('article[data-ft*="top_level_post_id"]').each((_, a) => {
    const $a = $(a);
    // A shared post's original sits in an article nested inside the sharer's: it is part of that story.
    if ($a.parents('article[data-ft*="top_level_post_id"]').length) return;
    const d = storyDraft($, $a, live);
    if (d && !out.some((o) => o.native_id === d.native_id)) out.push(d);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Permalink pages

export interface Wanted {
  /** The post id the reference names (absent for a video reference). */
  postId?: string;
  videoId?: string;
  /** The page the reference names, when it does. */
  page?: string;
}

/** The story layout (story.php, /<page>/posts/<id>, group permalinks): the story div of #m_story_permalink_view. */
export function storyPageDraft(html: string, want: Wanted, strict = false): ItemDraft | undefined {
  const $ = load(html);
  const live = liveData(html);
  const all = $('[data-ft*="top_level_post_id"]').filter((_, e) => !$(e).parents('[data-ft*="top_level_post_id"]').length);
  if (!all.length) return undefined;
  const ids = [want.postId, want.videoId].filter((x): x is string => !!x);
  const byId = all.filter((_, e) => {
    const ft = storyFt($(e).attr('data-ft'));
    return ids.includes(ft.id ?? '') || ids.includes(ft.storyKey ?? '');
  });
  // A watch page lists related videos as stories too: there only the wanted one will do.
  if (strict && !byId.length) return undefined;
  const inPermalink = all.filter((_, e) => $(e).closest('#m_story_permalink_view').length > 0);
  const el = (byId.length ? byId : inPermalink.length ? inPermalink : all).first() as Cheerio<Element>;
  return storyDraft($, el, live);
}

function ldOf(html: string): { video?: Json; posting?: Json } {
  const lds = ldJson(html);
  return { video: lds.find((o) => ldType(o) === 'VideoObject'), posting: lds.find((o) => ldType(o) === 'SocialMediaPosting') };
}

const stripSiteName = (s: string | undefined): string | undefined => s?.replace(/\s*\|\s*Facebook\s*$/i, '').trim() || undefined;

function idFromUrl(u: string | undefined, segment: RegExp): string | undefined {
  if (!u) return undefined;
  try {
    const url = new URL(u, WWW);
    return url.searchParams.get('v') ?? segment.exec(url.pathname)?.[1];
  } catch {
    return undefined;
  }
}

/** The video layout (/<page>/videos/<id>/, /watch/?v=): JSON-LD VideoObject + SocialMediaPosting and the inline player. */
export function videoPageDraft(html: string, pageUrl: string, want: Wanted): ItemDraft | undefined {
  const $ = load(html);
  const meta = metaTags(html);
  const { video, posting } = ldOf(html);
  const link = canonical(html);
  const videoId = want.videoId ?? idFromUrl(pageUrl, /\/videos\/(?:[^/]+\/)?(\d+)/) ?? idFromUrl(link, /\/videos\/(?:[^/]+\/)?(\d+)/);
  const players = $('[data-sigil="inlineVideo"]').toArray().map((e) => inlineVideo($(e).attr('data-store'))).filter((v): v is InlineVideo => !!v);
  const player = players.find((p) => videoId && p.id === videoId) ?? (videoId ? undefined : players[0]);
  const stream = player?.url ?? embeddedSource(html, videoId) ?? fbcdn(str(video?.contentUrl)) ?? fbcdn(meta.get('og:video:secure_url') ?? meta.get('og:video:url') ?? meta.get('og:video'));
  if (!video && !player && !stream) return undefined;
  const id = want.postId ?? videoId ?? player?.id;
  if (!id) return undefined;

  const author = obj(posting?.author) ?? obj(video?.author);
  const authorUrl = str(author?.url);
  const handle = handleFromHref(authorUrl) ?? want.page;
  const postCounts = posting ? ldCounts(posting) : {};
  const videoCounts = video ? ldCounts(video) : {};
  const w = num(video?.width) ?? player?.w;
  const h = num(video?.height) ?? player?.h;
  const duration = player?.duration_s ?? isoDuration(video?.duration);
  const thumb = fbcdn(str(video?.thumbnailUrl)) ?? fbcdn(str(obj(video?.thumbnail)?.contentUrl)) ?? fbcdn(meta.get('og:image'));
  const url = link && isFacebookHost(new URL(link, WWW).hostname) ? link : videoId && handle ? `${WWW}/${handle}/videos/${videoId}/` : videoId ? `${WWW}/watch/?v=${videoId}` : `${WWW}/${id}`;
  return {
    native_id: id,
    type: 'video',
    title: stripSiteName(str(video?.name)) ?? stripSiteName(meta.get('og:title')),
    text: str(posting?.articleBody) ?? str(video?.description) ?? meta.get('og:description') ?? '',
    author: str(author?.name),
    author_id: str(author?.identifier) ?? profileIdFromHref(authorUrl),
    author_handle: handle,
    url,
    thumb,
    media: stream ? [{ kind: 'video', url: stream, w, h, duration_s: duration }] : [],
    ts: isoSeconds(posting?.dateCreated) ?? isoSeconds(video?.uploadDate) ?? isoSeconds(video?.datePublished),
    duration_s: duration,
    aspect: w && h ? { width: w, height: h } : undefined,
    stats: definedStats({
      likes: postCounts.like ?? videoCounts.like,
      comments: postCounts.comment ?? num(posting?.commentCount) ?? num(video?.commentCount),
      shares: postCounts.share ?? videoCounts.share,
      views: videoCounts.watch,
    }),
  };
}

/** The photo layout (a photo post's page: the "voice" block with div.msg, the photo, "View full size"). */
export function photoPageDraft(html: string, pageUrl: string, want: Wanted): ItemDraft | undefined {
  const $ = load(html);
  const msg = $('.msg').first();
  const full = $('a.sec[target="_blank"]').filter((_, a) => /View full size/i.test($(a).text())).first().attr('href');
  const photo = $('[data-sigil="photo-image"]').first().attr('src') ?? $('img[data-store*="imgsrc"]').first().attr('src');
  if (!msg.length && !full && !photo) return undefined;
  const meta = metaTags(html);
  const live = liveData(html);
  const ogUrl = meta.get('og:url');
  const id = want.postId ?? (live.size === 1 ? [...live.keys()][0] : undefined) ?? idFromUrl(ogUrl, /\/(\d+)\/?$/) ?? idFromUrl(pageUrl, /\/(\d+)\/?$/);
  if (!id) return undefined;
  const actor = msg.find('a.actor-link').first();
  const href = actor.attr('href');
  const words = msg.children('div').first();
  const image = fbcdn(full) ?? fbcdn(photo) ?? fbcdn(meta.get('og:image'));
  const counts = live.get(id) ?? {};
  // og:url names the photo in its album; the canonical link of photo pages hides the album behind a hash.
  const link = (ogUrl && /^https:\/\/www\.facebook\.com\//.test(ogUrl) ? ogUrl : undefined) ?? canonical(html);
  return {
    native_id: id,
    type: image ? 'image' : 'text',
    text: words.length ? textOf($, words) : (meta.get('og:description') ?? ''),
    author: (actor.find('.actor').first().text() || actor.text()).trim() || undefined,
    author_id: /\bentity_id:(\d+),/.exec(html)?.[1] ?? profileIdFromHref(href),
    author_handle: handleFromHref(href) ?? want.page,
    url: link ?? `${WWW}/${id}`,
    thumb: image,
    media: image ? [{ kind: 'image', url: image }] : [],
    ts: num(attrJson($('abbr[data-store]').first().attr('data-store'))?.time),
    stats: definedStats({
      likes: counts.likes ?? countIn($('.like_def').first().text(), /(?:Likes?|people like this|others? like this)/),
      comments: counts.comments,
      shares: counts.shares ?? countIn($('[data-sigil="feed-ufi-sharers"]').first().text(), /shares?/),
    }),
  };
}

/** A www page read from its JSON-LD posting, meta tags and the stream URLs in its scripts. */
export function wwwPageDraft(html: string, pageUrl: string, want: Wanted): ItemDraft | undefined {
  const fromVideo = want.videoId || /"VideoObject"/.test(html) ? videoPageDraft(html, pageUrl, want) : undefined;
  if (fromVideo) return fromVideo;
  const meta = metaTags(html);
  const { posting } = ldOf(html);
  const id = want.postId;
  if (!id || (!posting && !meta.get('og:description') && !meta.get('og:image'))) return undefined;
  const author = obj(posting?.author);
  const authorUrl = str(author?.url);
  const image = fbcdn(str(obj(posting?.image)?.contentUrl) ?? str(posting?.image)) ?? fbcdn(meta.get('og:image'));
  const counts = posting ? ldCounts(posting) : {};
  const link = canonical(html);
  return {
    native_id: id,
    type: image ? 'image' : 'text',
    text: str(posting?.articleBody) ?? meta.get('og:description') ?? '',
    author: str(author?.name),
    author_id: str(author?.identifier) ?? profileIdFromHref(authorUrl),
    author_handle: handleFromHref(authorUrl) ?? want.page,
    url: link ?? pageUrl,
    thumb: image,
    media: image ? [{ kind: 'image', url: image }] : [],
    ts: isoSeconds(posting?.dateCreated) ?? isoSeconds(posting?.datePublished),
    stats: definedStats({ likes: counts.like, comments: counts.comment ?? num(posting?.commentCount), shares: counts.share }),
  };
}

/** A permalink page in whichever layout it came: story, video, photo, else a www page's metadata. */
export function permalinkDraft(html: string, pageUrl: string, want: Wanted): ItemDraft | undefined {
  const path = new URL(pageUrl, WWW).pathname;
  const videoish = /\/videos\/|^\/watch\/?|^\/reel\//.test(path);
  if (videoish) {
    const w = { ...want, videoId: want.videoId ?? idFromUrl(pageUrl, /\/(?:videos\/(?:[^/]+\/)?|reel\/)(\d+)/) };
    const video = videoPageDraft(html, pageUrl, w);
    const { video: ldVideo, posting } = ldOf(html);
    if (video && (ldVideo || posting)) return video;
    // The watch page (m.facebook.com/watch/?v=) shows the video as a story: its words, author and counts.
    const story = storyPageDraft(html, w, true);
    if (!story) return video;
    return {
      ...story,
      native_id: want.postId ?? w.videoId ?? story.native_id,
      type: 'video',
      title: story.title ?? video?.title,
      media: story.media?.some((m) => m.kind === 'video') ? story.media : [...(video?.media ?? []), ...(story.media ?? [])],
      thumb: story.thumb ?? video?.thumb,
      duration_s: story.duration_s ?? video?.duration_s,
    };
  }
  return storyPageDraft(html, want) ?? photoPageDraft(html, pageUrl, want) ?? videoPageDraft(html, pageUrl, want) ?? wwwPageDraft(html, pageUrl, want);
}
