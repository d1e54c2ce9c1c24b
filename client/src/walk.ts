import type { CrawlerClient } from './client.js';
import { CrawlerError } from './errors.js';
import { runTask as follow } from './follow.js';
import type { CommentsResult, Envelope, PagedAction, Params, Progress, ResultOf, Task } from './types.js';

export interface WalkProgress extends Progress {
  /** The task running now. */
  task_id: string;
}

export interface WalkOptions {
  /** Stop after this many items; -1: the whole feed or account. Default: follow next_cursor to the end. */
  maxItems?: number;
  /**
   * task: one task with params.max_items, walked and paced by the server (actions whose catalog entry takes
   * max_items: posts); pages: one task per page, following next_cursor. auto (default): task when maxItems is
   * set and the action takes max_items, else pages.
   */
  mode?: 'auto' | 'task' | 'pages';
  /**
   * Aborting cancels the task in flight on the server, then the iterator throws the abort reason; a
   * timeout (`AbortSignal.timeout`) only stops following it (the task goes on; `onTask` gave its id).
   */
  signal?: AbortSignal;
  /** Items and platform pages so far, fed by the tasks' SSE progress events. */
  onProgress?: (p: WalkProgress) => void;
  /** Each task as it is accepted (its id is what `cancel`, `get` and `crawler tasks` take). */
  onTask?: (taskId: string) => void;
}

/** One finished task of a walk and its result (an Envelope for shape A actions, a Comments result for comments). */
export interface Page<A extends PagedAction> {
  task: Task<ResultOf<A>>;
  result: ResultOf<A>;
}

const PAGE_LIMIT_MAX = 100;
/** Tasks in a row that bring no item although a cursor goes on (filters dropping everything): the walk stops there. */
const EMPTY_TASKS_MAX = 5;

/** One task of the walk, followed to its end (never a write: no plan can come back). */
async function runTask<R>(client: CrawlerClient, source: string, action: string, params: Params, o: WalkOptions, onProgress: (p: Progress, id: string) => void): Promise<Task<R>> {
  return (await follow<R>(client, source, action, params, { signal: o.signal, onTask: o.onTask, onProgress })) as Task<R>;
}

/** A task that ended without a usable page is an error: failed, cancelled elsewhere, or a crawl error in the result. */
function pageOf<A extends PagedAction>(task: Task<ResultOf<A>>): ResultOf<A> {
  const details = { task_id: task.task_id, task };
  if (task.status === 'failed') {
    throw task.error ? CrawlerError.fromBody(task.error, 0, details) : new CrawlerError({ code: 'upstream_error', message: `task ${task.task_id} failed`, details });
  }
  if (task.status === 'cancelled') throw new CrawlerError({ code: 'cancelled', message: `task ${task.task_id} was cancelled`, retryable: true, details });
  const result = task.result as (Envelope | CommentsResult) | undefined;
  if (!result) throw new CrawlerError({ code: 'upstream_error', message: `task ${task.task_id} succeeded without a result`, details });
  // Blocked, not_found, session_expired…: the task succeeded, the crawl did not.
  if (result.error) throw CrawlerError.fromBody(result.error, 0, { ...details, result });
  return result as ResultOf<A>;
}

const nextCursorOf = (r: Envelope | CommentsResult): string | undefined => ('next_cursor' in r ? r.next_cursor : 'has_more' in r && r.has_more ? r.cursor : undefined);

export async function* walkPages<A extends PagedAction>(client: CrawlerClient, source: string, action: A, params: Params, o: WalkOptions): AsyncGenerator<Page<A>, void, undefined> {
  const { max_items: fromParams, ...rest } = params;
  const maxItems = o.maxItems ?? (typeof fromParams === 'number' ? fromParams : undefined);
  if (maxItems !== undefined && (!Number.isInteger(maxItems) || (maxItems < 1 && maxItems !== -1))) {
    throw new CrawlerError({ code: 'invalid_request', message: 'maxItems: -1 (everything) or a whole number from 1' });
  }
  let mode = o.mode ?? 'auto';
  if (mode === 'auto') {
    const entry = maxItems === undefined ? undefined : await client.entry(source, action);
    mode = entry?.params.some((p) => p.name === 'max_items') ? 'task' : 'pages';
  }

  if (mode === 'task') {
    const task = await runTask<ResultOf<A>>(client, source, action, maxItems === undefined ? rest : { ...rest, max_items: maxItems }, o, (p, id) => o.onProgress?.({ ...p, task_id: id }));
    yield { task, result: pageOf<A>(task) };
    return;
  }

  const target = maxItems === undefined || maxItems === -1 ? Number.POSITIVE_INFINITY : maxItems;
  const done = { items: 0, pages: 0 };
  let cursor = rest.cursor as string | undefined;
  let emptyInARow = 0;
  while (done.items < target) {
    // The limit may change between pages (a cursor is bound to the query, not to the page size).
    const limit = Math.min((rest.limit as number | undefined) ?? PAGE_LIMIT_MAX, target - done.items);
    const task = await runTask<ResultOf<A>>(client, source, action, { ...rest, limit, ...(cursor === undefined ? {} : { cursor }) }, o, (p, id) =>
      o.onProgress?.({ items: Math.min(target, done.items + p.items), pages: done.pages + p.pages, task_id: id }),
    );
    const result = pageOf<A>(task);
    const room = target - done.items;
    const page = result.items.length > room ? ({ ...result, items: result.items.slice(0, room) } as ResultOf<A>) : result;
    done.items += page.items.length;
    done.pages += task.progress?.pages ?? 1;
    o.onProgress?.({ ...done, task_id: task.task_id });
    yield { task, result: page };
    emptyInARow = page.items.length ? 0 : emptyInARow + 1;
    const next = nextCursorOf(result);
    if (!next || next === cursor || emptyInARow >= EMPTY_TASKS_MAX) return;
    cursor = next;
  }
}
