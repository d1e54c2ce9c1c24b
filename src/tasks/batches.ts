import { BATCH_MAX, type Batch, type BatchAccepted, type BatchRetry } from '../domain/batch.js';
import { ApiError, errorBody, type ErrorBody } from '../domain/errors.js';
import type { TaskStatus } from '../domain/task.js';
import type { BatchStore } from '../store/batches.js';
import type { NewTask, TaskRow } from '../store/types.js';
import { newTaskId, type Caller, type TaskService, type TaskSink } from './service.js';
import { WRITE_ACTIONS } from './writes.js';

const ENTRY_KEYS = ['source', 'action', 'params'];

const isAdmin = (c: Caller) => c.scopes.includes('admin');

/**
 * Many tasks in one request. Each entry goes through TaskService.submit exactly as a POST /v1/tasks of
 * the same body would (validation, cache hits, queueing), so a batch adds bookkeeping, not behaviour.
 */
export class BatchService {
  constructor(
    private readonly tasks: TaskService,
    private readonly store: BatchStore,
  ) {}

  /** entries: already checked to be 1 to BATCH_MAX objects (the route refuses the whole request otherwise). */
  async submit(entries: Array<Record<string, unknown>>, caller: Caller): Promise<BatchAccepted> {
    if (entries.length === 0 || entries.length > BATCH_MAX) throw new ApiError('invalid_request', `tasks: 1 to ${BATCH_MAX} entries`);
    const now = Date.now();
    const id = `b_${newTaskId(now).slice(2)}`;
    const accepted: BatchAccepted['tasks'] = [];
    const refused: BatchAccepted['refused'] = [];
    // Every entry runs at once up to its insert; the group then writes all tasks, the batch and its links in one transaction.
    const group = new InsertGroup(entries.length, (tasks, indexes) => {
      const links = tasks.map((t, i) => ({ idx: indexes[i], task_id: t.id }));
      // Even with every entry refused the batch exists: the caller's code reads one answer shape either way.
      return this.store.batchCreate({ id, owner: caller.owner, created_at: now, size: tasks.length }, links, tasks);
    });
    const settled = await Promise.allSettled(entries.map((entry, index) => this.submitOne(entry, caller, group.sink(index))));
    await group.written;
    const outcomes = settled.map((o) => {
      if (o.status === 'rejected') throw o.reason;
      return o.value;
    });
    outcomes.forEach((o, index) => ('error' in o ? refused.push({ index, error: o.error }) : accepted.push({ index, ...o })));
    return { batch_id: id, accepted: accepted.length, refused, tasks: accepted };
  }

  private async submitOne(entry: Record<string, unknown>, caller: Caller, sink: EntrySink): Promise<{ task_id: string; status: TaskStatus } | { error: ErrorBody }> {
    try {
      return await this.check(entry, caller, sink);
    } catch (e) {
      // Not a refusal but a failure (the store is down): nothing of this batch may be written, or a caller
      // retrying the request would get every entry twice.
      sink.poison(e);
      throw e;
    } finally {
      // A refused entry never reaches the insert: the group must not wait for it.
      sink.settle();
    }
  }

  private async check(entry: Record<string, unknown>, caller: Caller, sink: TaskSink): Promise<{ task_id: string; status: TaskStatus } | { error: ErrorBody }> {
    const extra = Object.keys(entry).find((k) => !ENTRY_KEYS.includes(k));
    if (extra !== undefined) return { error: errorBody('invalid_request', `${extra.slice(0, 64)}: unknown field (expected source, action, params)`) };
    const action = typeof entry.action === 'string' ? entry.action.trim().toLowerCase() : undefined;
    // A write publishes; it needs its own two-step confirm, which a batch cannot carry.
    if (action !== undefined && WRITE_ACTIONS.has(action)) return { error: errorBody('invalid_request', `${action} is a write verb: submit it on its own (POST /v1/tasks) with its confirm step`) };
    try {
      const row = await this.tasks.submit({ source: entry.source, action: entry.action, params: entry.params, ...caller }, sink);
      return { task_id: row.id, status: row.status };
    } catch (e) {
      if (e instanceof ApiError) return { error: errorBody(e.code, e.message) };
      throw e;
    }
  }

  async get(id: string, caller: Caller): Promise<Batch> {
    const batch = await this.own(id, caller);
    const entries = await this.store.batchEntries(batch.id);
    const counts = { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
    for (const e of entries) if (e.status) counts[e.status]++;
    return {
      batch_id: batch.id,
      created_at: new Date(batch.created_at).toISOString(),
      total: batch.size,
      counts,
      task_ids: entries.map((e) => e.task_id),
      tasks: entries.map((e) => ({ index: e.idx, task_id: e.task_id, status: e.status })),
    };
  }

  /** Retries what a retry can help: failures whose error is retryable, and blocked results (decisions.md retry rules). */
  async retry(id: string, caller: Caller): Promise<BatchRetry> {
    const batch = await this.own(id, caller);
    const out: BatchRetry = { batch_id: batch.id, retried: [], skipped: [] };
    for (const e of await this.store.batchEntries(batch.id)) {
      const skip = (reason: string) => out.skipped.push({ index: e.idx, task_id: e.task_id, reason });
      if (e.status === null) {
        skip('the task was purged by retention');
        continue;
      }
      if (e.status === 'queued' || e.status === 'running') {
        skip(`still ${e.status}`);
        continue;
      }
      if (e.status === 'cancelled') {
        skip('cancelled by the caller: retry it on its own (POST /v1/tasks/{id}/retry) if that was a mistake');
        continue;
      }
      if (e.status === 'failed') {
        const err = parseError(e.error);
        if (!err?.retryable) {
          skip(`permanent error${err ? ` ${err.code}` : ''}: retrying would fail the same way`);
          continue;
        }
      }
      try {
        await this.tasks.retry(e.task_id, caller);
        out.retried.push({ index: e.idx, task_id: e.task_id });
      } catch (err) {
        // A succeeded task whose result is not blocked (or one that changed meanwhile) is left as it is.
        if (!(err instanceof ApiError)) throw err;
        skip(e.status === 'succeeded' ? 'succeeded (not blocked): nothing to retry' : err.message);
      }
    }
    return out;
  }

  /** The batch, if this caller may see it: another token's batch answers exactly like an unknown id. */
  private async own(id: string, caller: Caller) {
    const batch = typeof id === 'string' && id.length <= 64 ? await this.store.batchGet(id) : undefined;
    if (!batch || !(isAdmin(caller) || (batch.owner !== null && batch.owner === caller.owner))) {
      throw new ApiError('not_found', `no batch ${JSON.stringify(String(id).slice(0, 64))}`);
    }
    return batch;
  }
}

function parseError(text: string | null): { code: string; retryable: boolean } | undefined {
  if (!text) return undefined;
  try {
    const e = JSON.parse(text) as { code?: unknown; retryable?: unknown };
    return typeof e.code === 'string' ? { code: e.code, retryable: e.retryable === true } : undefined;
  } catch {
    return undefined;
  }
}

interface EntrySink extends TaskSink {
  /** The entry is done: inserted, or refused before any insert. */
  settle(): void;
  /** The entry failed (not refused): the batch is written as nothing at all. */
  poison(error: unknown): void;
}

/**
 * Gathers the task rows of a batch's entries and writes them together once every entry has either
 * asked for its insert or been refused; each insert then resolves with its row (or the write's error).
 */
class InsertGroup {
  private readonly waiting: Array<{ task: NewTask; index: number; resolve: (r: TaskRow) => void; reject: (e: unknown) => void }> = [];
  private open: number;
  private flushed = false;
  private poisoned: { error: unknown } | undefined;
  private settleWritten!: { resolve: () => void; reject: (e: unknown) => void };
  /** Settles once the batch is written (or failed to be), refused entries or not. */
  readonly written = new Promise<void>((resolve, reject) => (this.settleWritten = { resolve, reject }));

  constructor(
    entries: number,
    private readonly write: (tasks: NewTask[], indexes: number[]) => Promise<TaskRow[]>,
  ) {
    this.open = entries;
    // Awaited by submit; marked handled here so a failure that also rejects the inserts is reported once.
    this.written.catch(() => {});
  }

  sink(index: number): EntrySink {
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      if (--this.open === 0) void this.flush();
    };
    return {
      insertTask: (task) => {
        if (this.flushed) return Promise.reject(new Error('batch already written'));
        const row = new Promise<TaskRow>((resolve, reject) => this.waiting.push({ task, index, resolve, reject }));
        settle();
        return row;
      },
      settle,
      poison: (error) => {
        this.poisoned ??= { error };
      },
    };
  }

  private async flush(): Promise<void> {
    this.flushed = true;
    const all = this.waiting.splice(0).sort((a, b) => a.index - b.index);
    if (this.poisoned) {
      for (const w of all) w.reject(this.poisoned.error);
      this.settleWritten.reject(this.poisoned.error);
      return;
    }
    try {
      const rows = await this.write(all.map((w) => w.task), all.map((w) => w.index));
      all.forEach((w, i) => w.resolve(rows[i]));
      this.settleWritten.resolve();
    } catch (e) {
      for (const w of all) w.reject(e);
      this.settleWritten.reject(e);
    }
  }
}
