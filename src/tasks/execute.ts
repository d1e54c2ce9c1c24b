import type { Item } from '../domain/item.js';
import type { CreatorResult, Envelope, TaskResult, TrendResult, WriteResult } from '../domain/results.js';
import { errorBody } from '../domain/errors.js';
import { type CrawlError, isReplayMiss } from '../crawl/errors.js';
import { absoluteOrigin, type MediaUrlBuilder } from '../media/urls.js';
import type { Progress } from '../domain/task.js';
import type { DownloadService } from '../download/service.js';
import type { MediaFilter, Quality } from '../download/pick.js';
import type { DownloadResult } from '../domain/download.js';
import type { DownloadAction } from '../download/types.js';
import type { ActionDef, CrawlContext, ItemsAction, Params, PlatformAdapter } from '../platforms/types.js';
import { walkComments } from './comment-walk.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { buildFilter } from './filters.js';
import { compact, normalizeItem } from './normalize.js';
import { asCrawlError as toCrawlError, sourceOf, withWarnings } from './outcome.js';

export interface ExecuteOptions {
  adapter: PlatformAdapter;
  def: ActionDef;
  params: Params;
  ctx: CrawlContext;
  urls: MediaUrlBuilder;
  warnings: string[];
  onProgress?: (p: Progress) => void;
  /** Runs the download action (absent: the process cannot store files, and download fails saying so). */
  downloads?: DownloadService;
  /** The platform said when to come back (a rate-limit reset): the account cools until then. */
  onRetryAfter?: (seconds: number) => void;
  now?: () => number;
}

/** Hard stops so a walk over a platform that never ends its cursor chain still terminates. */
export const WALK_MAX_PAGES = 2_000;
export const FILTER_EXTRA_PAGES = 5;

/** Runs one action to its result shape. Crawl errors become the result's error; anything else throws (job error). */
export async function executeAction(o: ExecuteOptions): Promise<TaskResult> {
  const now = o.now ?? Date.now;
  const started = now();
  const ms = () => Math.max(0, Math.round(now() - started));
  switch (o.def.shape) {
    case 'download':
      return runDownload(o, o.def, ms);
    case 'items':
      return runItems(o, o.def, ms);
    case 'comments':
      return walkComments(o, o.def, ms);
    case 'creator': {
      try {
        const author = await o.def.run(o.ctx, o.params);
        if (!author) return withWarnings({ ok: true, source: 'empty', items: [], ms: ms() } as CreatorResult, o.warnings);
        // The avatar is media like any other: callers get the service-hosted URL, never the origin.
        const avatar = author.avatar && /^(https?:)?\/\//.test(author.avatar) ? o.urls.image(absoluteOrigin(author.avatar)) : undefined;
        return withWarnings({ ok: true, source: 'live', items: [], ms: ms(), data: { platform: o.adapter.id, author: compact({ ...author, avatar }) } } as CreatorResult, o.warnings);
      } catch (e) {
        const err = asCrawlError(e, o);
        return withWarnings({ ok: false, source: sourceOf(err), items: [], ms: ms(), error: errorBody(err.code, err.message) } as CreatorResult, o.warnings);
      }
    }
    case 'write': {
      try {
        if (o.params.dry_run === true) {
          const plan = await o.def.plan(o.ctx, o.params);
          return compact({ ok: true, state: 'planned', target: plan.target, source: o.adapter.id, ms: ms() }) as WriteResult;
        }
        const out = await o.def.run(o.ctx, o.params);
        const ok = out.state === 'published' || out.state === 'deleted';
        return compact({
          ok,
          state: out.state,
          url: out.url,
          target: out.target,
          source: o.adapter.id,
          ms: ms(),
          error: ok ? undefined : errorBody(out.state === 'rejected' ? 'invalid_request' : (out.state as 'blocked' | 'session_expired'), out.message ?? `the platform answered ${out.state}`),
        }) as WriteResult;
      } catch (e) {
        const err = asCrawlError(e, o);
        const state = err.code === 'session_expired' ? 'session_expired' : err.code === 'blocked' ? 'blocked' : 'rejected';
        return { ok: false, state, source: o.adapter.id, ms: ms(), error: errorBody(err.code, err.message) } as WriteResult;
      }
    }
    case 'trends': {
      try {
        const trends = await o.def.run(o.ctx, o.params);
        return withWarnings(
          { ok: true, source: trends.length ? 'live' : 'empty', items: [], ms: ms(), data: { platform: o.adapter.id, trends: trends.map((t) => compact({ ...t })) } } as TrendResult,
          o.warnings,
        );
      } catch (e) {
        const err = asCrawlError(e, o);
        return withWarnings({ ok: false, source: sourceOf(err), items: [], ms: ms(), error: errorBody(err.code, err.message) } as TrendResult, o.warnings);
      }
    }
  }
}

async function runItems(o: ExecuteOptions, def: ItemsAction, ms: () => number): Promise<Envelope> {
  const { params } = o;
  const maxItems = def.walk ? (params.max_items as number | undefined) : undefined;
  const target = maxItems === undefined ? (params.limit as number) : maxItems === -1 ? Number.POSITIVE_INFINITY : maxItems;
  const filter = buildFilter(params);
  const start = decodeCursor(params.cursor as string | undefined);
  let cursor = start.c;
  let skip = start.s;
  const items: Item[] = [];
  const seen = new Set<string>();
  let pages = 0;
  let platformItems = 0;
  let next: string | undefined;
  const profile = o.ctx.profile;
  const since = params.since as number | undefined;
  const stopsAtSince = since !== undefined && (typeof def.timeOrdered === 'function' ? def.timeOrdered(params) : def.timeOrdered === true);
  for (;;) {
    let page;
    try {
      page = await def.page(o.ctx, params, cursor);
    } catch (e) {
      if (pages > 0 && isReplayMiss(e)) {
        // Recordings rarely hold every page: keep what was replayed and say where the recordings end.
        o.warnings.push(`stopped after ${pages} page(s): ${(e as Error).message}`);
        next = encodeCursor({ c: cursor, s: skip });
        break;
      }
      const err = asCrawlError(e, o);
      if (items.length === 0) {
        return withWarnings<Envelope>({ ok: false, source: sourceOf(err), count: 0, items: [], ms: ms(), error: errorBody(err.code, err.message) }, [...o.warnings, ...filter.warnings()]);
      }
      // Keep what the walk already has; the caller resumes from next_cursor.
      o.warnings.push(`stopped after ${pages} page(s): ${err.code}: ${err.message}`);
      next = encodeCursor({ c: cursor, s: skip });
      break;
    }
    pages++;
    platformItems += page.items.length;
    const drafts = page.items;
    let filled = false;
    for (let i = skip; i < drafts.length; i++) {
      const item = normalizeItem(o.adapter, drafts[i], o.urls, profile);
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      if (filter.active && !filter.test(item)) continue;
      items.push(item);
      if (items.length >= target) {
        filled = true;
        next = i + 1 < drafts.length ? encodeCursor({ c: cursor, s: i + 1 }) : page.next_cursor ? encodeCursor({ c: page.next_cursor, s: 0 }) : undefined;
        break;
      }
    }
    skip = 0;
    o.onProgress?.({ items: items.length, pages });
    if (filled) break;
    if (!page.next_cursor || page.next_cursor === cursor) {
      next = undefined;
      break;
    }
    // A whole page, not one item: pinned posts lead a feed with old dates, and what follows them is newer.
    if (stopsAtSince && drafts.length > 0 && drafts.every((d) => d.ts !== undefined && d.ts < (since as number))) {
      next = undefined;
      break;
    }
    cursor = page.next_cursor;
    const pageCap = maxItems !== undefined ? WALK_MAX_PAGES : filter.active ? FILTER_EXTRA_PAGES + Math.ceil(target / Math.max(1, drafts.length)) : WALK_MAX_PAGES;
    if (pages >= pageCap) {
      o.warnings.push(`stopped after ${pages} pages; pass next_cursor to continue`);
      next = encodeCursor({ c: cursor, s: 0 });
      break;
    }
  }
  const source = items.length === 0 && platformItems === 0 && pages > 0 && !start.c ? 'empty' : 'live';
  return withWarnings(compact({ ok: true, source, count: items.length, items, next_cursor: next, ms: ms() }) as Envelope, [...o.warnings, ...filter.warnings()]);
}

/** Resolves the post, stores its media (src/download/), and answers shape A with the files. */
async function runDownload(o: ExecuteOptions, def: DownloadAction, ms: () => number): Promise<DownloadResult> {
  if (!o.downloads) throw new Error('this process has no download store configured');
  const fail = (err: CrawlError): DownloadResult =>
    withWarnings<DownloadResult>({ ok: false, source: sourceOf(err), count: 0, items: [], files: [], ms: ms(), error: errorBody(err.code, err.message) }, o.warnings);
  try {
    const plan = await def.resolve(o.ctx, o.params);
    const item = normalizeItem(o.adapter, plan.draft, o.urls, o.ctx.profile);
    const files = await o.downloads.store(plan, {
      platform: o.adapter.id,
      profile: o.ctx.profile,
      cookies: o.ctx.session.cookies,
      media: (o.params.media as MediaFilter | undefined) ?? 'any',
      quality: (o.params.quality as Quality | undefined) ?? 'best',
      signal: o.ctx.signal,
      warn: (m) => o.warnings.push(m),
      onProgress: (p) => o.onProgress?.({ items: 1, pages: 1, ...p }),
    });
    // No media of the kind asked for: honest `empty`, the post itself still answered.
    const source = files.length === 0 ? 'empty' : 'live';
    if (files.length === 0) o.warnings.push(plan.slots.length ? `the post has no ${String(o.params.media)} media` : 'the post carries no video or images');
    return withWarnings<DownloadResult>(compact({ ok: true, source, count: 1, items: [item], files, ms: ms() }) as DownloadResult, o.warnings);
  } catch (e) {
    return fail(asCrawlError(e, o));
  }
}

function asCrawlError(e: unknown, o: ExecuteOptions): CrawlError {
  return toCrawlError(e, o.onRetryAfter);
}
