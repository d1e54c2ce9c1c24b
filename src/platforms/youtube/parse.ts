import type { Stats } from '../../domain/item.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { channelUrl, commentUrl, handleFrom, isChannelId, watchUrl } from './refs.js';
import {
  arr,
  bestThumb,
  dig,
  findAll,
  findFirst,
  nonEmpty,
  obj,
  parseAgo,
  parseClock,
  parseCount,
  str,
  text,
  type Json,
} from './text.js';

/*
 * Pure parsers: innertube answers → domain objects. Nothing here throws on a missing optional field; a count
 * YouTube did not report stays absent. Feed cards only carry relative dates ("9 months ago"), so feed items
 * have no ts; detail has the exact publish time.
 */

export interface Owner {
  id?: string;
  name?: string;
  handle?: string;
}

/** Channel identity behind a byline: runs whose browseEndpoint names a UC… channel. */
function ownerOf(byline: unknown): Owner {
  const name = text(byline);
  // A collaboration byline ("A and B") opens a dialog listing every channel; the uploader is listed first,
  // and naming it alone keeps the author's name and id about the same channel.
  for (const li of findAll(byline, 'listItemViewModel').map(obj)) {
    const id = str(findFirst(li, 'browseId'));
    if (!id || !isChannelId(id)) continue;
    const handle = /@[^\s\u2069\u2068\u200e•]+/.exec(text(li?.subtitle) ?? '')?.[0];
    return { id, name: nonEmpty(text(li?.title)?.trim()) ?? nonEmpty(name), handle: handle ?? handleFrom(str(findFirst(li, 'canonicalBaseUrl'))) };
  }
  const endpoints = findAll(byline, 'browseEndpoint').map(obj);
  const ep = endpoints.find((e) => isChannelId(str(e?.browseId) ?? ''));
  return { id: str(ep?.browseId), name: nonEmpty(name), handle: handleFrom(str(ep?.canonicalBaseUrl)) };
}

function viewsOf(v: unknown): number | undefined {
  const s = text(v);
  // "1,234 watching" counts live viewers, not views.
  if (!s || /watching/i.test(s)) return undefined;
  return parseCount(s);
}

function draft(id: string, fields: Omit<ItemDraft, 'native_id' | 'type' | 'url' | 'stats'> & { stats?: Stats }): ItemDraft {
  return { native_id: id, type: 'video', url: watchUrl(id), ...fields, stats: fields.stats ?? {} };
}

/** videoRenderer (search), gridVideoRenderer (kiosk shelves), compactVideoRenderer: the classic card. */
export function videoCard(r: Json, channel?: Owner): ItemDraft | undefined {
  const id = str(r.videoId);
  if (!id) return undefined;
  const owner = ownerOf(r.ownerText ?? r.longBylineText ?? r.shortBylineText);
  const overlayTime = findAll(r.thumbnailOverlays, 'thumbnailOverlayTimeStatusRenderer').map((o) => text(obj(o)?.text))[0];
  const snippet = arr(r.detailedMetadataSnippets).map((s) => text(obj(s)?.snippetText))[0] ?? text(r.descriptionSnippet);
  const views = viewsOf(r.viewCountText);
  const who = owner.id || owner.name ? owner : (channel ?? {});
  return draft(id, {
    title: text(r.title),
    text: snippet,
    author: who.name,
    author_id: who.id,
    author_handle: who.handle,
    thumb: bestThumb(r.thumbnail)?.url,
    duration_s: parseClock(r.lengthText) ?? parseClock(overlayTime),
    stats: views === undefined ? {} : { views },
  });
}

/** playlistVideoRenderer (a playlist's entries, e.g. a channel's uploads playlist): views sit in videoInfo. */
export function playlistCard(r: Json, channel?: Owner): ItemDraft | undefined {
  const card = videoCard(r, channel);
  if (!card) return undefined;
  const info = arr(obj(r.videoInfo)?.runs).map((x) => str(obj(x)?.text) ?? '');
  const views = info.map((t) => (/\bviews?\b/i.test(t) ? parseCount(t) : undefined)).find((v) => v !== undefined);
  const seconds = Number(str(r.lengthSeconds));
  return {
    ...card,
    duration_s: card.duration_s ?? (Number.isFinite(seconds) && seconds > 0 ? seconds : undefined),
    stats: views === undefined ? card.stats : { ...card.stats, views },
  };
}

/** lockupViewModel (channel Videos tab, newer feeds): view-model card. */
export function lockupCard(l: Json, channel?: Owner): ItemDraft | undefined {
  const id = str(l.contentId);
  if (!id || (l.contentType !== undefined && l.contentType !== 'LOCKUP_CONTENT_TYPE_VIDEO')) return undefined;
  const meta = obj(dig(l, 'metadata', 'lockupMetadataViewModel'));
  const parts = findAll(meta?.metadata, 'metadataParts').flatMap(arr).map(obj);
  let views: number | undefined;
  let owner: Owner = {};
  for (const p of parts) {
    const t = text(p?.text);
    if (!t) continue;
    if (/\bviews?\b/i.test(t)) views = parseCount(t);
    else if (!owner.name && findFirst(p, 'browseEndpoint')) owner = { ...ownerOf(p), name: t };
  }
  const badges = findAll(l.contentImage, 'thumbnailBadgeViewModel').map((b) => str(obj(b)?.text));
  const duration = badges.map(parseClock).find((d) => d !== undefined);
  const who = owner.id || owner.name ? owner : (channel ?? {});
  return draft(id, {
    title: text(meta?.title),
    author: who.name,
    author_id: who.id,
    author_handle: who.handle,
    thumb: bestThumb(dig(l, 'contentImage', 'thumbnailViewModel', 'image'))?.url,
    duration_s: duration,
    stats: views === undefined ? {} : { views },
  });
}

/** shortsLockupViewModel (Shorts tab, shorts shelves): title and rounded views from its overlay. */
export function shortsCard(s: Json, channel?: Owner): ItemDraft | undefined {
  const watch = obj(findFirst(s.onTap, 'reelWatchEndpoint'));
  const id = str(watch?.videoId) ?? /^shorts-shelf-item-([A-Za-z0-9_-]{11})$/.exec(str(s.entityId) ?? '')?.[1];
  if (!id) return undefined;
  const overlay = obj(s.overlayMetadata);
  const views = viewsOf(dig(overlay, 'secondaryText'));
  // The reel endpoint's first frame is the video's own shape when YouTube flags it as such.
  const frame = bestThumb(watch?.thumbnail);
  const aspect = dig(watch, 'thumbnail', 'isOriginalAspectRatio') === true && frame?.width && frame.height ? { width: frame.width, height: frame.height } : undefined;
  const who = channel ?? {};
  return draft(id, {
    title: text(dig(overlay, 'primaryText')),
    author: who.name,
    author_id: who.id,
    author_handle: who.handle,
    thumb: bestThumb(dig(s, 'thumbnailViewModel', 'thumbnailViewModel', 'image'))?.url ?? frame?.url,
    aspect,
    stats: views === undefined ? {} : { views },
  });
}

/** reelItemRenderer: the older Shorts card. */
function reelCard(r: Json, channel?: Owner): ItemDraft | undefined {
  const id = str(r.videoId);
  if (!id) return undefined;
  const views = viewsOf(r.viewCountText);
  const who = channel ?? {};
  return draft(id, {
    title: text(r.headline),
    author: who.name,
    author_id: who.id,
    author_handle: who.handle,
    thumb: bestThumb(r.thumbnail)?.url,
    stats: views === undefined ? {} : { views },
  });
}

/** One entry of a results list, whatever its wrapper; shelves (recommendations) are not results. */
export function cardOf(entry: unknown, channel?: Owner): ItemDraft | undefined {
  let e = obj(entry);
  if (!e) return undefined;
  const rich = obj(dig(e, 'richItemRenderer', 'content'));
  if (rich) e = rich;
  const r = obj(e.videoRenderer) ?? obj(e.gridVideoRenderer) ?? obj(e.compactVideoRenderer);
  if (r) return videoCard(r, channel);
  const pl = obj(e.playlistVideoRenderer);
  if (pl) return playlistCard(pl, channel);
  const l = obj(e.lockupViewModel);
  if (l) return lockupCard(l, channel);
  const sl = obj(e.shortsLockupViewModel);
  if (sl) return shortsCard(sl, channel);
  const reel = obj(e.reelItemRenderer);
  if (reel) return reelCard(reel, channel);
  return undefined;
}

/** Result cards that are not videos (channels, playlists, mixes…): counted so a page of them is told apart from a broken answer. */
function otherResult(entry: unknown): boolean {
  const e = obj(entry);
  if (!e) return false;
  if (e.channelRenderer || e.playlistRenderer || e.radioRenderer || e.movieRenderer || e.showRenderer) return true;
  const l = obj(e.lockupViewModel);
  return !!l && l.contentType !== undefined && l.contentType !== 'LOCKUP_CONTENT_TYPE_VIDEO';
}

/** The continuation token of a list's trailing continuationItemRenderer. */
export function continuationOf(items: unknown[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const c = obj(obj(items[i])?.continuationItemRenderer);
    if (!c) continue;
    return str(dig(c, 'continuationEndpoint', 'continuationCommand', 'token')) ?? str(dig(c, 'button', 'buttonRenderer', 'command', 'continuationCommand', 'token'));
  }
  return undefined;
}

/** Items appended/reloaded by a continuation answer (onResponseReceived{Commands,Actions,Endpoints}). */
export function continuationItems(body: Json): unknown[] {
  const out: unknown[] = [];
  for (const key of ['onResponseReceivedCommands', 'onResponseReceivedActions', 'onResponseReceivedEndpoints']) {
    for (const a of arr(body[key])) {
      const act = obj(obj(a)?.appendContinuationItemsAction) ?? obj(obj(a)?.reloadContinuationItemsCommand);
      out.push(...arr(act?.continuationItems));
    }
  }
  return out;
}

export interface CardPage {
  items: ItemDraft[];
  next?: string;
  /** YouTube said there are no results (backgroundPromoRenderer / messageRenderer). */
  said?: string;
  /** Results that are not videos (channels, playlists), left out. */
  others?: number;
}

function emptyMessage(list: unknown[]): string | undefined {
  for (const e of list) {
    const m = obj(obj(e)?.backgroundPromoRenderer) ?? obj(obj(e)?.messageRenderer);
    if (m) return text(m.title) ?? text(m.text) ?? 'no results';
  }
  return undefined;
}

/** search: first page (twoColumnSearchResultsRenderer) or a continuation. */
export function parseSearch(body: Json): CardPage | undefined {
  const sections = body.contents !== undefined
    ? arr(dig(body, 'contents', 'twoColumnSearchResultsRenderer', 'primaryContents', 'sectionListRenderer', 'contents'))
    : continuationItems(body);
  if (!sections.length && body.contents === undefined && body.onResponseReceivedCommands === undefined) return undefined;
  const items: ItemDraft[] = [];
  let said: string | undefined;
  let others = 0;
  for (const s of sections) {
    const list = arr(dig(s, 'itemSectionRenderer', 'contents'));
    said ??= emptyMessage(list);
    for (const e of list) {
      const card = cardOf(e);
      if (card) items.push(card);
      else if (otherResult(e)) others++;
    }
  }
  return { items, next: continuationOf(sections), said: items.length ? undefined : said, others: others || undefined };
}

/**
 * The header variants of system channels that carry no channelMetadataRenderer: topic / destination channels
 * (carouselHeaderRenderer → topicChannelDetailsRenderer), auto-generated game channels
 * (interactiveTabbedHeaderRenderer), and the page's microformat, which names the canonical channel URL.
 */
function systemHeaders(body: Json): { topic?: Json; game?: Json; micro?: Json; microId?: string } {
  const micro = obj(dig(body, 'microformat', 'microformatDataRenderer'));
  return {
    topic: obj(findFirst(dig(body, 'header', 'carouselHeaderRenderer'), 'topicChannelDetailsRenderer')),
    game: obj(dig(body, 'header', 'interactiveTabbedHeaderRenderer')),
    micro,
    microId: /\/channel\/(UC[A-Za-z0-9_-]{22})(?:[/?#]|$)/.exec(str(micro?.urlCanonical) ?? '')?.[1],
  };
}

/** The channel a browse answer is about (metadata first, then the header). */
export function channelOwner(body: Json): Owner {
  const m = obj(dig(body, 'metadata', 'channelMetadataRenderer'));
  const header = obj(dig(body, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const c4 = obj(dig(body, 'header', 'c4TabbedHeaderRenderer'));
  const sys = systemHeaders(body);
  const rows = findAll(header?.metadata, 'metadataParts').flatMap(arr).map((p) => text(obj(p)?.text));
  const topicId = str(findFirst(sys.topic?.subscribeButton, 'channelId'));
  return {
    id: str(m?.externalId) ?? str(c4?.channelId) ?? sys.microId ?? (topicId && isChannelId(topicId) ? topicId : undefined),
    name:
      nonEmpty(m?.title) ??
      text(dig(header, 'title', 'dynamicTextViewModel', 'text')) ??
      nonEmpty(c4?.title) ??
      nonEmpty(sys.micro?.title) ??
      nonEmpty(text(sys.topic?.title)) ??
      nonEmpty(text(sys.game?.title)),
    handle: handleFrom(str(m?.vanityChannelUrl)) ?? rows.map((t) => (t?.startsWith('@') ? t : undefined)).find(Boolean) ?? text(c4?.channelHandleText),
  };
}

/** The selected tab's list (channel Videos tab, kiosk shelf grid). */
function selectedTab(body: Json): Json | undefined {
  const tabs = arr(dig(body, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs')).map((t) => obj(obj(t)?.tabRenderer));
  return tabs.find((t) => t?.selected === true) ?? (tabs.length === 1 ? tabs[0] : undefined);
}

/** Items of a browse answer: the first page of a tab, or a continuation. */
export function parseBrowse(body: Json, channel?: Owner): CardPage | undefined {
  const fromContinuation = (): CardPage => {
    const list = continuationItems(body);
    return { items: list.map((e) => cardOf(e, channel)).filter((d): d is ItemDraft => !!d), next: continuationOf(list) };
  };
  if (body.contents === undefined) {
    if (body.onResponseReceivedActions === undefined && body.onResponseReceivedEndpoints === undefined) return undefined;
    return fromContinuation();
  }
  // A playlist continuation answers the page frame in contents and the entries in a reload command.
  if (continuationItems(body).length) {
    const page = fromContinuation();
    if (page.items.length) return page;
  }
  const tab = selectedTab(body);
  if (!tab) return undefined;
  const content = obj(tab.content);
  let list = arr(dig(content, 'richGridRenderer', 'contents'));
  if (!content?.richGridRenderer) {
    // sectionListRenderer → itemSectionRenderer → (shelfRenderer → gridRenderer | expandedShelfContentsRenderer | cards);
    // the expanded shelf is the older trending page's list.
    list = arr(dig(content, 'sectionListRenderer', 'contents')).flatMap((s) =>
      arr(dig(s, 'itemSectionRenderer', 'contents')).flatMap((e) => {
        const grid =
          dig(e, 'shelfRenderer', 'content', 'gridRenderer', 'items') ??
          dig(e, 'shelfRenderer', 'content', 'expandedShelfContentsRenderer', 'items') ??
          dig(e, 'gridRenderer', 'items');
        return grid !== undefined ? arr(grid) : [e];
      }),
    );
  }
  const items = list.map((e) => cardOf(e, channel)).filter((d): d is ItemDraft => !!d);
  return { items, next: continuationOf(list), said: items.length ? undefined : emptyMessage(list) };
}

/** Channel tabs that list the channel's own uploads; their browse params spell the tab's name in field 2. */
const UPLOAD_TABS: Array<{ kind: 'videos' | 'streams' | 'shorts'; params: string; title: RegExp }> = [
  { kind: 'videos', params: 'EgZ2aWRlb3', title: /^videos$/i }, // "videos"
  { kind: 'streams', params: 'EgdzdHJlYW1z', title: /^live$/i }, // "streams"
  { kind: 'shorts', params: 'EgZzaG9ydHM', title: /^shorts$/i }, // "shorts"
];

/** Which uploads tab the answer selected (Videos, Live, Shorts), if any. */
export function selectedUploadsTab(body: Json): 'videos' | 'streams' | 'shorts' | undefined {
  const tab = selectedTab(body);
  const params = str(dig(tab, 'endpoint', 'browseEndpoint', 'params')) ?? '';
  const title = str(tab?.title) ?? '';
  return UPLOAD_TABS.find((t) => params.startsWith(t.params) || t.title.test(title))?.kind;
}

/** The videos tab is the one whose browse params spell "videos" (EgZ2aWRlb3… = field 2, "videos"). */
export function selectedTabIsVideos(body: Json): boolean {
  return selectedUploadsTab(body) === 'videos';
}

/**
 * Channel header + metadata → Author. `requestedId` is the UC id the browse asked for: some system channels'
 * answers never repeat it, and a channel is known by the id it was fetched under.
 */
export function parseChannel(body: Json, requestedId?: string): Author | undefined {
  const owner = channelOwner(body);
  owner.id ??= requestedId && isChannelId(requestedId) && (owner.name || body.header !== undefined) ? requestedId : undefined;
  if (!owner.id) return undefined;
  const m = obj(dig(body, 'metadata', 'channelMetadataRenderer'));
  const header = obj(dig(body, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const c4 = obj(dig(body, 'header', 'c4TabbedHeaderRenderer'));
  const sys = systemHeaders(body);
  const parts = findAll(header?.metadata, 'metadataParts').flatMap(arr).map((p) => text(obj(p)?.text) ?? '');
  const subs = parts.find((t) => /subscribers?\b/i.test(t)) ?? text(c4?.subscriberCountText) ?? text(sys.topic?.subtitle) ?? text(findFirst(sys.topic, 'subscriberCountText'));
  const videos = parts.find((t) => /\bvideos?\b/i.test(t)) ?? text(c4?.videosCountText);
  const avatar =
    bestThumb(m?.avatar) ??
    bestThumb(dig(header, 'image', 'decoratedAvatarViewModel', 'avatar', 'avatarViewModel', 'image')) ??
    bestThumb(c4?.avatar) ??
    bestThumb(sys.topic?.avatar) ??
    bestThumb(sys.game?.boxArt) ??
    bestThumb(sys.micro?.thumbnail);
  const titleBadges = findAll(dig(header, 'title'), 'imageName').map(str);
  const c4Badges = arr(c4?.badges).map((b) => str(dig(b, 'metadataBadgeRenderer', 'style')));
  const verified =
    header || c4
      ? titleBadges.some((n) => n === 'CHECK_CIRCLE_FILLED' || n === 'AUDIO_BADGE') || c4Badges.some((s) => s?.startsWith('BADGE_STYLE_TYPE_VERIFIED'))
      : undefined;
  return {
    id: owner.id,
    source: 'youtube',
    handle: owner.handle,
    name: owner.name,
    bio:
      nonEmpty(m?.description) ??
      text(dig(header, 'description', 'descriptionPreviewViewModel', 'description')) ??
      nonEmpty(text(sys.game?.description)) ??
      nonEmpty(sys.micro?.description),
    avatar: avatar?.url,
    url: channelUrl(owner.id),
    followers: subs ? parseCount(subs) : undefined,
    posts: videos ? parseCount(videos) : undefined,
    verified,
  };
}

/** Kiosk cards → ranked trends (the video titles, ranked as YouTube lists them; views as the heat). */
export function trendsOf(items: ItemDraft[]): Trend[] {
  return items
    .filter((d) => d.title)
    .map((d, i) => ({ word: d.title as string, source: 'youtube', rank: i + 1, hot_value: d.stats.views, url: d.url }));
}

// ---- comments -------------------------------------------------------------------------------------------

export interface Thread {
  comment: Comment;
  /** Continuation of this thread's replies. */
  replies?: string;
}

export interface CommentPage {
  threads: Thread[];
  next?: string;
  total?: number;
}

/** The `next` answer for a video: the comment section's continuation, or why there is none. */
export function commentsEntry(body: Json): { token: string } | { off: string } | { missing: true } {
  const results = arr(dig(body, 'contents', 'twoColumnWatchNextResults', 'results', 'results', 'contents'));
  const sections = results.map((r) => obj(obj(r)?.itemSectionRenderer)).filter((s): s is Json => !!s);
  const section = sections.find((s) => s.sectionIdentifier === 'comment-item-section' || s.targetId === 'comments-section');
  const panel = arr(body.engagementPanels)
    .map((p) => obj(obj(p)?.engagementPanelSectionListRenderer))
    .find((p) => p?.panelIdentifier === 'engagement-panel-comments-section' || p?.targetId === 'engagement-panel-comments-section');
  const lists = [arr(section?.contents), ...arr(dig(panel, 'content', 'sectionListRenderer', 'contents')).map((s) => arr(dig(s, 'itemSectionRenderer', 'contents')))];
  for (const list of lists) {
    const token = continuationOf(list);
    if (token) return { token };
  }
  for (const list of lists) {
    const msg = list.map((e) => text(dig(e, 'messageRenderer', 'text'))).find(Boolean);
    if (msg) return { off: msg.replace(/\s*Learn more\s*$/i, '').trim() };
  }
  // A watch page that rendered its video but no comment section: comments are off or unavailable here.
  if (results.some((r) => obj(r)?.videoPrimaryInfoRenderer)) return { off: 'YouTube shows no comment section for this video' };
  return { missing: true };
}

/** Commenters are shown by @handle; a channel without one is shown by name and has no handle. */
function commenterHandle(shown: string, endpoint: unknown): string {
  if (shown.startsWith('@')) return shown;
  return handleFrom(str(findFirst(endpoint, 'canonicalBaseUrl'))) ?? '';
}

type Entities = Map<string, Json>;

function entities(body: Json): Entities {
  const map: Entities = new Map();
  for (const m of arr(dig(body, 'frameworkUpdates', 'entityBatchUpdate', 'mutations'))) {
    const key = str(obj(m)?.entityKey);
    const payload = obj(obj(m)?.payload);
    if (key && payload) map.set(key, payload);
  }
  return map;
}

function fromViewModel(vm: Json, ents: Entities, videoId: string, nowMs: number, parentId?: string): Comment | undefined {
  const p = obj(ents.get(str(vm.commentKey) ?? '')?.commentEntityPayload);
  const props = obj(p?.properties);
  const cid = str(props?.commentId) ?? str(vm.commentId);
  if (!p || !cid) return undefined;
  const author = obj(p.author);
  const toolbar = obj(p.toolbar);
  const name = nonEmpty(author?.displayName) ?? '';
  return {
    cid,
    text: text(props?.content) ?? '',
    likes: parseCount(toolbar?.likeCountNotliked) ?? 0,
    reply_total: parseCount(toolbar?.replyCount) ?? 0,
    user_id: str(author?.channelId) ?? '',
    handle: commenterHandle(name, author?.channelCommand),
    user_name: name,
    created_at: parseAgo(props?.publishedTime, nowMs) ?? 0,
    source: 'youtube',
    url: commentUrl(videoId, cid),
    parent_id: parentId,
  };
}

function fromRenderer(r: Json, videoId: string, nowMs: number, parentId?: string): Comment | undefined {
  const cid = str(r.commentId);
  if (!cid) return undefined;
  const name = text(r.authorText)?.trim() ?? '';
  return {
    cid,
    text: text(r.contentText) ?? '',
    likes: parseCount(text(r.voteCount)) ?? 0,
    reply_total: Number(r.replyCount) > 0 ? Number(r.replyCount) : 0,
    user_id: str(dig(r, 'authorEndpoint', 'browseEndpoint', 'browseId')) ?? '',
    handle: commenterHandle(name, r.authorEndpoint),
    user_name: name,
    created_at: parseAgo(text(r.publishedTimeText), nowMs) ?? 0,
    source: 'youtube',
    url: commentUrl(videoId, cid),
    parent_id: parentId,
  };
}

/** A comment in either shape: commentViewModel (+ entity payloads) or the older commentRenderer. */
function commentOf(e: Json, ents: Entities, videoId: string, nowMs: number, parentId?: string): Comment | undefined {
  const vm = obj(dig(e, 'commentViewModel', 'commentViewModel')) ?? obj(e.commentViewModel);
  if (vm) return fromViewModel(vm, ents, videoId, nowMs, parentId);
  const r = obj(dig(e, 'comment', 'commentRenderer')) ?? obj(e.commentRenderer);
  return r ? fromRenderer(r, videoId, nowMs, parentId) : undefined;
}

/** A page of top-level comment threads (each with its replies' continuation). */
export function parseCommentThreads(body: Json, videoId: string, nowMs: number): CommentPage {
  const ents = entities(body);
  const list = continuationItems(body);
  const threads: Thread[] = [];
  let total: number | undefined;
  for (const e of list) {
    const header = obj(obj(e)?.commentsHeaderRenderer);
    if (header) {
      const n = parseCount(text(header.countText)) ?? parseCount(text(header.commentsCount));
      total = n !== undefined && Number.isSafeInteger(n) ? n : undefined;
      continue;
    }
    const t = obj(obj(e)?.commentThreadRenderer);
    if (!t) {
      // A reply page (its continuation handed back as a cursor) lists bare comments; a reply's id is
      // "<parent id>.<reply id>".
      const reply = obj(e) ? commentOf(obj(e) as Json, ents, videoId, nowMs) : undefined;
      if (reply) threads.push({ comment: { ...reply, parent_id: reply.cid.includes('.') ? reply.cid.split('.')[0] : undefined } });
      continue;
    }
    const comment = commentOf(t, ents, videoId, nowMs);
    if (!comment) continue;
    const replies = continuationOf(arr(dig(t, 'replies', 'commentRepliesRenderer', 'contents')));
    threads.push({ comment, replies });
  }
  return { threads, next: continuationOf(list), total };
}

/** A page of replies to one thread. */
export function parseReplies(body: Json, videoId: string, parentId: string, nowMs: number): { items: Comment[]; next?: string } {
  const ents = entities(body);
  const list = continuationItems(body);
  const items = list.map((e) => obj(e)).filter((e): e is Json => !!e).map((e) => commentOf(e, ents, videoId, nowMs, parentId)).filter((c): c is Comment => !!c);
  return { items, next: continuationOf(list) };
}

// ---- detail ---------------------------------------------------------------------------------------------

export interface Stream {
  url: string;
  width?: number;
  height?: number;
  duration_s?: number;
}

export type StreamChoice = { stream: Stream } | { none: string };

/** A format whose URL is given as is (https), not signature-ciphered. */
export const directFormat = (f: Json): boolean => typeof f.url === 'string' && /^https:\/\//.test(f.url);

/**
 * A playable stream: a progressive (audio+video) format with a direct URL, else the HLS master playlist the
 * Apple clients get (the media proxy rewrites its renditions). Ciphered formats (signatureCipher) need the
 * player's JavaScript, and adaptive-only answers carry no single playable file: both are said, not faked.
 */
export function playableStream(pr: Json): StreamChoice {
  const sd = obj(pr.streamingData);
  if (!sd) return { none: 'YouTube sent no streamingData' };
  const formats = arr(sd.formats).map(obj).filter((f): f is Json => !!f);
  const direct = formats.filter(directFormat);
  if (direct.length) {
    const best = direct.reduce((a, b) => ((Number(b.height) || 0) > (Number(a.height) || 0) ? b : a));
    const ms = Number(best.approxDurationMs);
    return {
      stream: {
        url: best.url as string,
        width: Number(best.width) || undefined,
        height: Number(best.height) || undefined,
        duration_s: ms > 0 ? ms / 1000 : undefined,
      },
    };
  }
  const hls = str(sd.hlsManifestUrl);
  if (hls && /^https:\/\//.test(hls)) {
    // The playlist's best rendition matches the largest adaptive video format.
    const frame = frameOf(pr);
    return { stream: { url: hls, width: frame?.width, height: frame?.height } };
  }
  if (formats.some((f) => f.signatureCipher !== undefined || f.cipher !== undefined)) {
    return { none: 'its progressive formats are signature-ciphered (they need the player JavaScript to decipher)' };
  }
  if (arr(sd.adaptiveFormats).length) {
    return { none: 'YouTube answered only adaptive (separate audio/video) streams, no progressive file or HLS playlist' };
  }
  return { none: 'YouTube listed no formats' };
}

/** Largest video dimensions any format reports (the media's shape even without a stream to offer). */
function frameOf(pr: Json): { width: number; height: number } | undefined {
  let best: { width: number; height: number } | undefined;
  for (const f of [...arr(dig(pr, 'streamingData', 'formats')), ...arr(dig(pr, 'streamingData', 'adaptiveFormats'))]) {
    const w = Number(obj(f)?.width);
    const h = Number(obj(f)?.height);
    if (w > 0 && h > 0 && (!best || w * h > best.width * best.height)) best = { width: w, height: h };
  }
  return best;
}

export interface WatchExtras {
  likes?: number;
  comments?: number;
  date?: string;
  handle?: string;
}

/** Likes, comment count, date and owner handle from the WEB `next` answer of a watch page. */
export function watchExtras(body: Json): WatchExtras {
  const results = arr(dig(body, 'contents', 'twoColumnWatchNextResults', 'results', 'results', 'contents'));
  const primary = obj(results.map((r) => obj(r)?.videoPrimaryInfoRenderer).find(Boolean));
  const secondary = obj(results.map((r) => obj(r)?.videoSecondaryInfoRenderer).find(Boolean));
  let likes: number | undefined;
  for (const l of findAll(primary, 'likeButtonViewModel').map(obj)) {
    const bvm = obj(findFirst(l, 'buttonViewModel'));
    // "like this video along with 1,697 other people" is exact; the title ("1.6k") is rounded.
    const a11y = /along with ([\d,.\s\u00a0]+)/.exec(str(bvm?.accessibilityText) ?? '');
    likes = a11y ? parseCount(a11y[1]) : parseCount(str(bvm?.title));
    if (likes !== undefined) break;
  }
  const panel = arr(body.engagementPanels)
    .map((p) => obj(obj(p)?.engagementPanelSectionListRenderer))
    .find((p) => p?.panelIdentifier === 'engagement-panel-comments-section');
  const owner = obj(dig(secondary, 'owner', 'videoOwnerRenderer'));
  return {
    likes,
    comments: parseCount(text(dig(panel, 'header', 'engagementPanelTitleHeaderRenderer', 'contextualInfo'))),
    date: text(primary?.dateText),
    handle: handleFrom(str(findFirst(owner?.navigationEndpoint ?? owner?.title, 'canonicalBaseUrl'))),
  };
}

export interface DetailSources {
  videoId: string;
  /** The player answer that decided playability (mobile client, or WEB as a last resort). */
  player: Json;
  /** microformat.playerMicroformatRenderer of the WEB metadata player. */
  micro?: Json;
  extras?: WatchExtras;
  stream?: Stream;
  ts?: number;
}

export function detailDraft(s: DetailSources): ItemDraft {
  const vd = obj(s.player.videoDetails) ?? {};
  const micro = s.micro ?? obj(dig(s.player, 'microformat', 'playerMicroformatRenderer')) ?? {};
  const views = parseCount(str(vd.viewCount)) ?? parseCount(str(micro.viewCount));
  const likes = parseCount(str(micro.likeCount)) ?? s.extras?.likes;
  const stats: Stats = {};
  if (views !== undefined) stats.views = views;
  if (likes !== undefined) stats.likes = likes;
  if (s.extras?.comments !== undefined) stats.comments = s.extras.comments;
  const frame = s.stream?.width && s.stream.height ? { width: s.stream.width, height: s.stream.height } : frameOf(s.player);
  const thumb = bestThumb(dig(vd, 'thumbnail')) ?? bestThumb(micro.thumbnail);
  const length = Number(vd.lengthSeconds ?? micro.lengthSeconds);
  return draft(s.videoId, {
    title: nonEmpty(vd.title) ?? text(micro.title),
    text: str(vd.shortDescription) ?? text(micro.description),
    author: nonEmpty(vd.author) ?? nonEmpty(micro.ownerChannelName),
    author_id: str(vd.channelId) ?? str(micro.externalChannelId),
    author_handle: handleFrom(str(micro.ownerProfileUrl)) ?? s.extras?.handle,
    thumb: thumb?.url,
    media: s.stream
      ? [{ kind: 'video', url: s.stream.url, w: s.stream.width, h: s.stream.height, duration_s: s.stream.duration_s ?? (length > 0 ? length : undefined) }]
      : [],
    ts: s.ts,
    duration_s: length > 0 ? length : undefined,
    aspect: frame,
    stats,
  });
}
