import { NotFound, UpstreamError } from '../crawl/errors.js';
import type { MediaSlot, StreamCandidate } from '../download/types.js';
import type { CrawlContext, ItemDraft, ItemsAction, Params } from './types.js';

/*
 * Small pieces every platform's download resolver shares: the post through the platform's own detail
 * action, and slots built from candidate lists without empty or duplicate entries.
 */

/** The post as `detail` gives it (its first item); a detail that answers nothing is NotFound. */
export async function detailDraft(ctx: CrawlContext, detail: ItemsAction, params: Params): Promise<ItemDraft> {
  const page = await detail.page(ctx, params);
  const draft = page.items[0];
  if (!draft) throw new NotFound(`${ctx.platform} answered no post for ${String(params.query)}`);
  return draft;
}

/** Absolute http(s) URL or nothing (protocol-relative URLs become https). */
export function absUrl(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (s.startsWith('//')) return `https:${s}`;
  return /^https?:\/\/[^\s]+$/i.test(s) ? s : undefined;
}

/** Whether a URL names an HLS playlist (…/x.m3u8, query or not), which download does not fetch. */
export const isPlaylist = (url: string): boolean => /\.m3u8(?:[?#]|$)/i.test(url);

/** A positive finite number from a number or a numeric string. */
export function num(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** One slot from candidates, the first URL of each kept once (the platform repeats streams across lists); none: no slot. */
export function slot(kind: MediaSlot['kind'], candidates: Array<StreamCandidate | undefined>, group?: string): MediaSlot | undefined {
  const seen = new Set<string>();
  const kept: StreamCandidate[] = [];
  for (const c of candidates) {
    if (!c) continue;
    const key = `${c.url} ${c.audio_url ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(c);
  }
  if (!kept.length) return undefined;
  return group ? { kind, group, candidates: kept } : { kind, candidates: kept };
}

export const slots = (list: Array<MediaSlot | undefined>): MediaSlot[] => list.filter((s): s is MediaSlot => !!s);

/**
 * Slots from the media the detail parser already picked, for platforms whose answer names one URL per
 * position and nothing else: each is the platform's own rendition, labelled as given.
 */
export function slotsFromDraft(draft: ItemDraft, sourceQuality: string, watermark = false): MediaSlot[] {
  return slots((draft.media ?? []).map((m) => slot(m.kind, [{ kind: m.kind, url: m.url, w: m.w, h: m.h, duration_s: m.duration_s, watermark, source_quality: sourceQuality }])));
}

/**
 * The plan's slots, or why a post that does carry media has none to fetch: media offered only as a
 * streaming playlist (HLS/DASH manifest without a file) is named, never answered as an empty post.
 */
export function fetchable(ctx: CrawlContext, list: Array<MediaSlot | undefined>, playlistOnly: string[]): MediaSlot[] {
  const got = slots(list);
  for (const what of playlistOnly) ctx.warn(`${what} is offered only as a streaming playlist, which download does not fetch`);
  if (!got.length && playlistOnly.length) throw new UpstreamError(`${ctx.platform} offers this post's media only as a streaming playlist (${playlistOnly.join('; ')}): no file to download`);
  return got;
}

/*
 * The raw answer a draft was parsed from, for parsers shared by many routes (detail falls back across
 * several endpoints, each read by the same parser): the parser remembers, download looks it up. Weak:
 * drafts of lists are collected as usual.
 */
const rawByDraft = new WeakMap<ItemDraft, unknown>();

export function rememberRaw<T extends ItemDraft | undefined>(draft: T, raw: unknown): T {
  if (draft) rawByDraft.set(draft, raw);
  return draft;
}

export const rawOf = (draft: ItemDraft): unknown => rawByDraft.get(draft);
