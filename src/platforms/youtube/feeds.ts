import { CrawlError, InvalidInput, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { Category } from '../../domain/catalog.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params, TrendsAction } from '../types.js';
import { call, checkAlerts, isFallbackable, visitorOf } from './api.js';
import { browseChannel, resolveChannel } from './creator.js';
import { channelOfToken, decodeYtCursor, encodeYtCursor, type YtCursor } from './cursor.js';
import { channelOwner, parseBrowse, parseSearch, selectedUploadsTab, trendsOf, type CardPage, type Owner } from './parse.js';
import { parseChannelRef } from './refs.js';
import type { Json } from './text.js';

/** search params "videos only" (EgIQAQ… = filter type video), byte for byte as the recorded client sends them. */
export const SEARCH_VIDEOS = 'EgIQAfABAQ%3D%3D';

/*
 * Trending: YouTube retired the general trending page (browse FEtrending answers 400 INVALID_ARGUMENT since
 * 2025). What survives are destination pages NewPipe's kiosks read: the trending tab of the Gaming destination
 * channel (the default, and trending's stand-in), the Live destination's "live now" tab, and the Podcasts
 * destination's episodes.
 */
export const KIOSKS: Record<string, { browseId: string; params: string; name: string }> = {
  gaming: { browseId: 'UCOpNcN46UbXVtpKMrmU4Abg', params: 'Egh0cmVuZGluZw%3D%3D', name: 'Gaming: trending videos' },
  live: { browseId: 'UC4R8DWoMoI7CAwX8_LjQHig', params: 'EgdsaXZldGFikgEDCKEK', name: 'Live: live now' },
  podcasts: { browseId: 'FEpodcasts_destination', params: 'qgcCCAM%3D', name: 'Podcasts: popular episodes' },
};
export const HOT_CATEGORIES: Category[] = Object.entries(KIOSKS).map(([id, k]) => ({ id, name: k.name, actions: ['hot'] }));
const FETRENDING = { browseId: 'FEtrending', params: '4gIOGgxtb3N0X3BvcHVsYXI%3D' };
const RETIRED_KEY = 'fetrending:retired';
const RETIRED_TTL_MS = 24 * 3600_000;

const CHANNEL_TTL_MS = 24 * 3600_000;

function next(ctx: CrawlContext, page: CardPage, prev: YtCursor | undefined, visitor: string | undefined, owner?: Owner): string | undefined {
  return page.next ? encodeYtCursor(ctx, { t: page.next, v: visitor ?? prev?.v, a: owner ?? prev?.a }) : undefined;
}

/** The channel of a tab continuation: carried in the cursor, else named by the token and remembered. */
function ownerOf(ctx: CrawlContext, c: YtCursor): Owner | undefined {
  if (c.a) return c.a;
  const id = channelOfToken(c.t);
  return id ? (ctx.memo.get<Owner>(`channel:${id}`) ?? { id }) : undefined;
}

/** A continuation of a browse feed (channel tab, kiosk). */
async function browseMore(ctx: CrawlContext, c: YtCursor, what: string, channelTab: boolean): Promise<Page<ItemDraft>> {
  const visitorData = c.v ?? ctx.memo.get<string>('visitor:WEB');
  const { body } = await call(ctx, { client: 'WEB', endpoint: 'browse', body: { continuation: c.t }, context: { visitorData }, what });
  const owner = channelTab ? ownerOf(ctx, c) : undefined;
  const page = parseBrowse(body, owner);
  if (!page) throw new ParseError(`${what}: the continuation answer has no items list`);
  return { items: page.items, next_cursor: next(ctx, page, { ...c, a: owner }, visitorOf(body)) };
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const c = decodeYtCursor(ctx, cursor);
  const q = (params.query ?? '').trim();
  if (!c && !q) throw new InvalidInput('params.query: a search keyword is required');
  const what = `search "${q}"${c ? ' (continuation)' : ''}`;
  const { body } = await call(ctx, {
    client: 'WEB',
    endpoint: 'search',
    body: c ? { continuation: c.t } : { query: q, params: SEARCH_VIDEOS },
    context: { visitorData: c ? (c.v ?? ctx.memo.get<string>('visitor:WEB')) : undefined },
    what,
  });
  const page = parseSearch(body);
  if (!page) throw new ParseError(`${what}: the answer has no results list`);
  if (!page.items.length && page.others) {
    // A real answer, only not of videos (a channel or playlist search): nothing to return, and said why.
    ctx.warn(`${what}: YouTube answered ${page.others} channel/playlist result(s) and no videos`);
  } else if (!page.items.length && !c && !page.said) {
    throw new ParseError(`${what}: no result cards this adapter can read and no "no results" message`);
  }
  return { items: page.items, next_cursor: next(ctx, page, c, visitorOf(body)) };
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const c = decodeYtCursor(ctx, cursor);
  if (c) return browseMore(ctx, c, `channel videos of ${params.query} (continuation)`, true);
  const channelId = await resolveChannel(ctx, parseChannelRef(params.query));
  let body: Json;
  try {
    ({ body } = await browseChannel(ctx, channelId));
  } catch (e) {
    if ((e as { ageGate?: boolean }).ageGate) return uploadsPlaylistPage(ctx, channelId, e);
    throw e;
  }
  const owner = channelOwner(body);
  const tab = selectedUploadsTab(body);
  if (!tab) {
    ctx.warn(`channel ${channelId} has no Videos tab (YouTube answered another tab)`);
    return { items: [] };
  }
  // Asked for Videos, YouTube may answer another uploads tab (a channel that only streams or posts Shorts).
  if (tab !== 'videos') ctx.warn(`channel ${channelId}: YouTube answered its ${tab === 'streams' ? 'Live' : 'Shorts'} tab instead of Videos; these are those uploads`);
  if (owner.id) ctx.memo.set(`channel:${owner.id}`, owner, CHANNEL_TTL_MS);
  const page = parseBrowse(body, owner);
  if (!page) throw new ParseError(`channel ${channelId}: the Videos tab has no items list`);
  return { items: page.items, next_cursor: next(ctx, page, undefined, visitorOf(body), owner) };
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}

/**
 * The browse continuation the web client builds for a channel's long-form uploads playlist (UULF + the id
 * after "UC"): message 80226972 {2: "VLUULF…", 3: "CADCBgIIAA%3D%3D", 35: "UULF…"}, base64 with "=" as %3D.
 */
export function uploadsContinuation(channelId: string): string {
  const rest = channelId.slice(2);
  const field = (n: number, v: string) => Buffer.concat([varint(n * 8 + 2), varint(Buffer.byteLength(v)), Buffer.from(v)]);
  const inner = Buffer.concat([field(2, `VLUULF${rest}`), field(3, 'CADCBgIIAA%3D%3D'), field(35, `UULF${rest}`)]);
  return Buffer.concat([varint(80226972 * 8 + 2), varint(inner.length), inner]).toString('base64').replace(/=/g, '%3D');
}

/*
 * An age-restricted channel's tabs answer only the age gate to anonymous visitors, while its uploads
 * playlist stays public. Its long-form uploads are read there; when that fails too, the gate is the answer.
 */
async function uploadsPlaylistPage(ctx: CrawlContext, channelId: string, gate: unknown): Promise<Page<ItemDraft>> {
  const what = `channel ${channelId} (age-restricted): uploads playlist`;
  const owner = ctx.memo.get<Owner>(`channel:${channelId}`) ?? { id: channelId };
  let body: Json;
  try {
    const visitorData = ctx.memo.get<string>('visitor:WEB');
    ({ body } = await call(ctx, { client: 'WEB', endpoint: 'browse', body: { continuation: uploadsContinuation(channelId) }, context: { visitorData }, what }));
  } catch (e) {
    if (isFallbackable(e)) throw gate;
    throw e;
  }
  const page = parseBrowse(body, owner);
  if (!page?.items.length) throw gate;
  ctx.warn(`channel ${channelId} is age-restricted: these are its long-form uploads from its public uploads playlist (no Shorts or live streams)`);
  return { items: page.items, next_cursor: next(ctx, page, undefined, visitorOf(body), owner) };
}

async function kioskPage(ctx: CrawlContext, kiosk: { browseId: string; params: string }, what: string): Promise<{ page: CardPage; body: Json }> {
  const { body } = await call(ctx, { client: 'WEB', endpoint: 'browse', body: { browseId: kiosk.browseId, params: kiosk.params }, what });
  checkAlerts(body, what);
  const page = parseBrowse(body);
  if (!page) throw new ParseError(`${what}: the answer has no items list`);
  return { page, body };
}

async function hotPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const id = params.category ?? 'gaming';
  const kiosk = KIOSKS[id];
  if (!kiosk) throw new InvalidInput(`params.category: must be one of ${Object.keys(KIOSKS).join(', ')}`);
  const c = decodeYtCursor(ctx, cursor);
  if (c) return browseMore(ctx, c, `${kiosk.name} (continuation)`, false);
  const { page, body } = await kioskPage(ctx, kiosk, kiosk.name);
  return { items: page.items, next_cursor: next(ctx, page, undefined, visitorOf(body)) };
}

async function trendingRun(ctx: CrawlContext): Promise<Trend[]> {
  let first: unknown;
  if (!ctx.memo.get(RETIRED_KEY)) {
    try {
      const { page } = await kioskPage(ctx, FETRENDING, 'trending page (FEtrending)');
      if (page.items.length) return trendsOf(page.items);
    } catch (e) {
      if (!isFallbackable(e)) throw e;
      first = e;
      // Asked once a day at most: the page has answered 400 since 2025.
      if (e instanceof CrawlError) ctx.memo.set(RETIRED_KEY, true, RETIRED_TTL_MS);
    }
  }
  try {
    const { page } = await kioskPage(ctx, KIOSKS.gaming, KIOSKS.gaming.name);
    if (first instanceof CrawlError) {
      ctx.warn(`YouTube's general trending page is retired (${first.message}); these are the Gaming destination's trending videos`);
    }
    return trendsOf(page.items);
  } catch (e) {
    // The retired page's real answer says more than a missing recording of its stand-in.
    if (isReplayMiss(e) && first !== undefined && !isReplayMiss(first)) throw first;
    throw e;
  }
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Search YouTube videos by keyword (video results only, as YouTube ranks them)',
  params: [{ name: 'query', type: 'string', required: true, description: 'search keywords' }],
  page: searchPage,
};

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A channel's uploads, newest first (its Videos tab); walks the back catalogue with max_items",
  walk: true,
  timeOrdered: true,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the channel: @handle, youtube.com/@handle, /channel/UC…, /c/<name>, /user/<name>, or a bare UC… id',
    },
  ],
  page: postsPage,
};

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "Videos of a YouTube destination page: Gaming's trending tab (default), Live's live-now tab, Podcasts' episodes (the general trending page is retired)",
  categories: true,
  page: hotPage,
};

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: 'Trending YouTube videos as ranked titles (views as heat): the Gaming destination, since the general trending page is retired',
  run: trendingRun,
};
