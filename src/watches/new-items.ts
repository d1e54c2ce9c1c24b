import type { Item } from '../domain/item.js';
import type { Comment, CommentsResult, Envelope, TaskResult, Trend, TrendResult } from '../domain/results.js';
import type { Store } from '../store/types.js';
import type { WatchStore } from '../store/watches.js';
import { openWatchStore } from '../store/open.js';
import { BACKOFF_CAP_S } from '../domain/watch.js';

export type WatchedItem = Item | Comment | Trend;

/** Seconds until the next run after this many failed runs in a row: doubling, capped at 8 h, never below every_s. */
export function periodS(everyS: number, failures: number): number {
  if (failures <= 0) return everyS;
  return Math.max(everyS, Math.min(everyS * 2 ** Math.min(failures, 30), BACKOFF_CAP_S));
}

/** Each shape's item list and the id that names an item across runs (Item.id, Comment.cid, Trend.word). */
function listOf(action: string, result: TaskResult): { list: WatchedItem[]; idOf: (x: WatchedItem) => string } {
  if (action === 'comments') return { list: (result as CommentsResult).items ?? [], idOf: (x) => (x as Comment).cid };
  if (action === 'trending') return { list: (result as TrendResult).data?.trends ?? [], idOf: (x) => (x as Trend).word };
  return { list: (result as Envelope).items ?? [], idOf: (x) => (x as Item).id };
}

export function idsOf(action: string, result: TaskResult): string[] {
  const { list, idOf } = listOf(action, result);
  return list.map(idOf);
}

/**
 * The run's result as the watch serves it: only the items not in seen (or, with fullPage, every item
 * with the new ones named), plus the watch object. The input is not changed (the cache keeps the whole page).
 */
export function keepNew(action: string, result: TaskResult, seen: Set<string>, watchId: string, fullPage: boolean): { result: TaskResult; newIds: string[] } {
  const { list, idOf } = listOf(action, result);
  // An id twice on one page (a pinned post) is one new item.
  const fresh = new Set<string>();
  const kept = list.filter((x) => {
    const id = idOf(x);
    if (seen.has(id) || fresh.has(id)) return false;
    fresh.add(id);
    return true;
  });
  const newIds = [...fresh];
  const watch = { watch_id: watchId, new_count: newIds.length, seen_count: list.length - kept.length, ...(fullPage ? { new_ids: newIds } : {}) };
  if (fullPage) return { result: { ...result, watch } as TaskResult, newIds };
  if (action === 'comments') return { result: { ...(result as CommentsResult), items: kept as Comment[], watch }, newIds };
  if (action === 'trending') {
    const r = result as TrendResult;
    return { result: { ...r, data: r.data && { ...r.data, trends: kept as Trend[] }, watch }, newIds };
  }
  return { result: { ...(result as Envelope), items: kept as Item[], count: kept.length, watch }, newIds };
}

/**
 * Every new item a watch has collected, oldest run first, read from its runs' stored results (runs whose
 * task was purged after CRAWLER_TASK_RETENTION_DAYS are skipped). For exports: stream it, never collect it.
 */
export async function* watchNewItems(store: Store, watchId: string, watches: WatchStore = openWatchStore(store)): AsyncIterable<WatchedItem> {
  let after: [number, string] | undefined;
  for (;;) {
    const runs = await watches.runs(watchId, { after, limit: 100 });
    for (const run of runs) {
      if (!run.new_count) continue;
      const task = await store.getTask(run.task_id);
      if (!task?.result) continue;
      const result = JSON.parse(task.result) as TaskResult & { watch?: { new_ids?: string[] } };
      const { list, idOf } = listOf(task.action, result);
      const only = result.watch?.new_ids ? new Set(result.watch.new_ids) : undefined;
      for (const x of list) if (!only || only.has(idOf(x))) yield x;
    }
    if (runs.length < 100) return;
    const last = runs[runs.length - 1];
    after = [last.finished_at, last.task_id];
  }
}
