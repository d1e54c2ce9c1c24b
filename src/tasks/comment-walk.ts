import { type CrawlError, isReplayMiss } from '../crawl/errors.js';
import { errorBody } from '../domain/errors.js';
import type { Comment, CommentsResult } from '../domain/results.js';
import type { CommentsAction, Page } from '../platforms/types.js';
import { decodeCursor, encodeCursor, type CursorState, type ThreadState } from './cursor.js';
import { dateRange, inRange } from './dates.js';
import { FILTER_EXTRA_PAGES, WALK_MAX_PAGES, type ExecuteOptions } from './execute.js';
import { compact } from './normalize.js';
import { asCrawlError, sourceOf, withWarnings } from './outcome.js';
import { MAX_ITEMS_MAX } from './params.js';

export const REPLIES_MODES = ['none', 'first', 'all'] as const;
export type RepliesMode = (typeof REPLIES_MODES)[number];

/** The walk ends here; `at` resumes it (top-level page c from item s, after finishing thread r). */
class Stop {
  constructor(readonly at: CursorState) {}
}

/** Where a top-level comment's replies still have to be read from, or undefined when the page holds them all. */
function threadStart(head: Comment, inline: number, cursors: Page<Comment>['reply_cursors']): { c?: string } | undefined {
  const at = cursors?.[head.cid];
  if (at === null) return undefined;
  if (typeof at === 'string') return { c: at };
  return head.reply_total > inline ? {} : undefined;
}

/** The first index of the thread (top-level comment and its inline replies) that index i belongs to. */
function threadHeadOf(items: Comment[], i: number): number {
  let g = Math.min(i, items.length);
  while (g > 0 && g < items.length && items[g].parent_id) g--;
  return items[g]?.parent_id ? i : g;
}

/**
 * A post's comments: top-level pages in the platform's order, each top-level comment followed by its
 * replies. replies none drops replies, first keeps what the pages carry, all also pages every thread
 * whose replies the page does not hold through the adapter's reply hook (deduplicated by cid, parent_id
 * always set). Stops at limit (or max_items), on an error (keeping what it has, with a cursor that
 * resumes inside the thread it stopped in), at WALK_MAX_PAGES, or at once when cancelled.
 */
export async function walkComments(o: ExecuteOptions, def: CommentsAction, ms: () => number): Promise<CommentsResult> {
  const { params, ctx } = o;
  const mode = (params.replies as RepliesMode | undefined) ?? 'first';
  const maxItems = params.max_items as number | undefined;
  const target = maxItems === undefined ? (params.limit as number) : maxItems === -1 ? MAX_ITEMS_MAX : Math.min(maxItems, MAX_ITEMS_MAX);
  const replyHook = mode === 'all' && !def.wholeTree ? def.replies?.bind(def) : undefined;
  const start = decodeCursor(params.cursor as string | undefined);
  const items: Comment[] = [];
  const seen = new Set<string>();
  let total = 0;
  let pages = 0;
  let topPages = 0;
  let failed: CrawlError | undefined;

  const range = dateRange(params);
  let undated = 0;
  const full = (): boolean => items.length >= target;
  const add = (c: Comment): void => {
    seen.add(c.cid);
    if (range) {
      if (typeof c.created_at !== 'number' || c.created_at <= 0) {
        undated++;
        return;
      }
      if (!inRange(c.created_at, range)) return;
    }
    items.push(compact({ ...c }));
  };
  const progress = (): void => o.onProgress?.({ items: items.length, pages });

  /** undefined: a thread the platform says is gone (not_found), skipped with a warning rather than retried on every resume. */
  async function fetchPage(at: CursorState, get: () => Promise<Page<Comment>>, thread?: string): Promise<Page<Comment> | undefined> {
    ctx.signal.throwIfAborted();
    if (pages >= WALK_MAX_PAGES) {
      o.warnings.push(`stopped after ${pages} pages; pass cursor to continue`);
      throw new Stop(at);
    }
    try {
      const page = await get();
      pages++;
      return page;
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      if (pages > 0 && isReplayMiss(e)) {
        // Recordings rarely hold every page: keep what was replayed and say where the recordings end.
        o.warnings.push(`stopped after ${pages} page(s): ${(e as Error).message}`);
        throw new Stop(at);
      }
      const err = asCrawlError(e, o.onRetryAfter);
      if (thread !== undefined && err.code === 'not_found') {
        o.warnings.push(`replies to comment ${thread} skipped: ${err.message}`);
        return undefined;
      }
      if (items.length === 0) failed = err;
      else o.warnings.push(`stopped after ${pages} page(s): ${err.code}: ${err.message}`);
      throw new Stop(at);
    }
  }

  /** One thread's replies from t on; `outer` is where the top-level walk goes on afterwards. */
  async function walkThread(outer: CursorState, t: ThreadState): Promise<void> {
    let c = t.c;
    let skip = t.s ?? 0;
    for (;;) {
      const at: CursorState = { ...outer, r: { p: t.p, c, s: skip } };
      if (full()) throw new Stop(at);
      const page = await fetchPage(at, () => replyHook!(ctx, params, t.p, c), t.p);
      if (!page) return;
      for (let i = skip; i < page.items.length; i++) {
        const reply = page.items[i];
        if (reply.cid === t.p || seen.has(reply.cid)) continue;
        if (full()) {
          progress();
          throw new Stop({ ...outer, r: { p: t.p, c, s: i } });
        }
        add({ ...reply, parent_id: reply.parent_id || t.p });
      }
      progress();
      if (!page.next_cursor || page.next_cursor === c) return;
      c = page.next_cursor;
      skip = 0;
    }
  }

  let c = start.c;
  let skip = start.s;
  let next: CursorState | undefined;
  try {
    for (;;) {
      if (full()) throw new Stop({ c, s: skip, r: topPages === 0 ? start.r : undefined });
      const page = (await fetchPage({ c, s: skip, r: topPages === 0 ? start.r : undefined }, () => def.page(ctx, params, c)))!;
      topPages++;
      // An adapter's total is the platform's number: only a plain count is passed on.
      if (topPages === 1 && Number.isSafeInteger(page.total) && (page.total as number) >= 0) total = page.total as number;
      const list = page.items;
      // A resumed page may start inside a thread: its head is found so the thread's walk still happens,
      // and what the previous call handed out of it is not handed out again.
      let i = threadHeadOf(list, skip);
      if (topPages === 1) {
        const resumed = start.r ? list.findLastIndex((x, k) => k < skip && x.cid === start.r!.p) : -1;
        for (let k = resumed >= 0 ? resumed : i; k < skip && k < list.length; k++) seen.add(list[k].cid);
        if (start.r && replyHook) {
          await walkThread({ c, s: skip }, start.r);
          i = skip;
        }
      }
      while (i < list.length) {
        const head = list[i];
        let end = i + 1;
        if (!head.parent_id) while (end < list.length && list[end].parent_id) end++;
        for (let k = Math.max(i, skip); k < end; k++) {
          const cm = list[k];
          if ((mode === 'none' && cm.parent_id) || seen.has(cm.cid)) continue;
          if (full()) {
            progress();
            throw new Stop({ c, s: k });
          }
          add(cm);
        }
        if (replyHook && !head.parent_id) {
          // reply_total counts direct replies on some platforms and the whole thread on others: only the
          // direct ones present are compared, so a thread is walked when in doubt (its repeats are dropped).
          let direct = 0;
          for (let k = i + 1; k < end; k++) if (list[k].parent_id === head.cid) direct++;
          const from = threadStart(head, direct, page.reply_cursors);
          if (from) await walkThread({ c, s: end }, { p: head.cid, c: from.c });
        }
        i = end;
      }
      progress();
      skip = 0;
      if (!page.next_cursor || page.next_cursor === c) break;
      // A date range thins pages out (comments are not time-ordered): without max_items the walk for it
      // is bounded like the item filters', and resumable.
      if (range && maxItems === undefined && topPages >= FILTER_EXTRA_PAGES + Math.ceil(target / Math.max(1, list.length))) {
        o.warnings.push(`stopped after ${pages} pages; pass cursor to continue`);
        next = { c: page.next_cursor, s: 0 };
        break;
      }
      c = page.next_cursor;
    }
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    next = e.at;
    if (maxItems === -1 && full()) o.warnings.push(`stopped at ${MAX_ITEMS_MAX} comments (the most one walk collects); pass cursor to continue`);
  }
  if (undated) o.warnings.push(`${undated} comment(s) dropped by a filter: the platform reported no creation time for them, so they could not be judged`);
  if (failed) {
    return withWarnings<CommentsResult>({ source: sourceOf(failed), total: 0, has_more: false, ms: ms(), items: [], error: errorBody(failed.code, failed.message) }, o.warnings);
  }
  total = Math.max(total, items.length);
  const cursor = next ? encodeCursor(next) : undefined;
  const source = items.length === 0 && !start.c && !start.r ? 'empty' : 'live';
  return withWarnings(compact({ source, total, has_more: cursor !== undefined, cursor, ms: ms(), items }) as CommentsResult, o.warnings);
}
