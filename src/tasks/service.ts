import { randomBytes } from 'node:crypto';
import { ApiError } from '../domain/errors.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import type { Metrics } from '../metrics.js';
import type { NewTask, Store, TaskRow } from '../store/types.js';
import type { TaskQueue } from '../queue/types.js';
import type { CancelSignal } from './cancel.js';
import type { WriteAction } from '../platforms/types.js';
import type { ResultCache } from './cache.js';
import { decodeCursor } from './cursor.js';
import type { CursorSeal } from './cursor-seal.js';
import type { MediaSigner } from '../media/capability.js';
import type { EventPublisher } from './publisher.js';
import { cacheKey, validateParams } from './params.js';
import type { Runner } from './runner.js';
import { isFinished, taskJson } from './serialize.js';
import { AnswerSlabs, taskBytes, type ResultBytes } from './answer.js';
import { Lru } from './lru.js';
import { duplicateResult, isWrite, paramsHash, planWrite, requireWriteScope, WRITE_ACTIONS } from './writes.js';

export const WAIT_MAX_MS = 8000;
/** Capability URLs handed out stay valid at least this long. */
const RESIGN_BEFORE_MS = 24 * 3600_000;

/** Who is asking: the token's id (tasks belong to it) and its scopes. */
export interface Caller {
  owner: string | null;
  scopes: readonly string[];
}

export interface SubmitInput extends Caller {
  source: unknown;
  action: unknown;
  params: unknown;
  /** The watch this task is a run of (src/watches/scheduler.ts): queued behind interactive tasks. */
  watchId?: string;
}

/** Where a read task's row is written: the store, or a batch that writes many in one transaction. */
export interface TaskSink {
  insertTask(t: NewTask): Promise<TaskRow>;
}

export interface ListQuery {
  status?: string;
  source?: string;
  action?: string;
  limit: number;
  before?: string;
  all: boolean;
}

const isAdmin = (c: Caller) => c.scopes.includes('admin');

/** Webhook seams of submit: the callback_url's judgement (it may resolve the host), and a task born finished. */
export interface CallbackHooks {
  /** The URL as it will be stored, or an ApiError naming params.callback_url. */
  judge(url: string): Promise<string>;
  bornFinished(row: TaskRow): void;
}

let pool = Buffer.alloc(0);
let poolAt = 0;
/** Random hex from a pooled buffer: one syscall per 512 ids instead of one each. */
function randomHex(bytes: number): string {
  if (poolAt + bytes > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  const out = pool.toString('hex', poolAt, poolAt + bytes);
  poolAt += bytes;
  return out;
}

/** Time-ordered, unguessable task ids. */
export function newTaskId(now = Date.now()): string {
  return `t_${now.toString(36).padStart(9, '0')}${randomHex(8)}`;
}

export class TaskService {
  /** JSON bytes of finished tasks: immutable until a retry, and the GET path is hot. */
  private readonly finishedJson = new Lru<{ owner: string | null; bytes: Buffer }>(5000, 64 * 1024 * 1024);
  /** The cached result's bytes behind each task answered from cache, for its answer (see answer). */
  private readonly hitBytes = new WeakMap<TaskRow, ResultBytes>();
  private readonly answers = new AnswerSlabs();
  /** Earliest capability expiry per cached entry (scanning a result's text costs more than the rest of a hit). */
  private readonly expiries = new WeakMap<object, { at: number | undefined }>();

  constructor(
    private readonly store: Store,
    private readonly queue: TaskQueue,
    private readonly catalog: CatalogIndex,
    private readonly cache: ResultCache,
    private readonly events: EventPublisher,
    private readonly runner: Runner,
    private readonly metrics: Metrics,
    private readonly cursors: CursorSeal,
    private readonly signer: MediaSigner,
    private readonly cancels: CancelSignal,
    private readonly callbacks?: CallbackHooks,
  ) {}

  /** Validates, answers from cache when allowed, gates writes, otherwise queues. Returns the stored row. */
  async submit(input: SubmitInput, sink: TaskSink = this.store): Promise<TaskRow> {
    if (typeof input.source !== 'string' || !input.source.trim()) throw new ApiError('invalid_request', 'source: required (see GET /v1/task-sources)');
    if (typeof input.action !== 'string' || !input.action.trim()) throw new ApiError('invalid_request', 'action: required (see GET /v1/task-sources)');
    const source = input.source.trim().toLowerCase();
    const action = input.action.trim().toLowerCase();
    const found = this.catalog.get(source, action);
    if (!found) {
      const known = this.catalog.get(source, 'x') !== undefined || this.catalog.entries.some((e) => e.group === source);
      throw new ApiError('unsupported', known ? `${source} has no action "${action}" (see GET /v1/task-sources)` : `unknown source "${source}" (see GET /v1/task-sources)`);
    }
    const write = isWrite(found.def);
    // admin implies both; a write-only token can publish without being able to crawl, and the reverse.
    if (write) requireWriteScope(input.scopes);
    else if (!input.scopes.includes('read') && !isAdmin(input)) {
      throw new ApiError('forbidden_scope', `reads need a token with the "read" scope (this token has: ${input.scopes.join(', ') || 'none'})`);
    }
    const params = validateParams(found.entry, input.params);
    if (typeof params.callback_url === 'string') {
      if (!this.callbacks) throw new ApiError('invalid_request', 'params.callback_url: webhooks are not available here');
      params.callback_url = await this.callbacks.judge(params.callback_url);
    }
    const platform = found.adapter.id;
    if (params.cursor !== undefined) {
      try {
        decodeCursor(this.cursors.open(params.cursor as string, platform, action, params));
      } catch (e) {
        throw e instanceof ApiError ? e : new ApiError('invalid_request', (e as Error).message);
      }
    }
    const profile = params.profile as string | undefined;
    if (profile !== undefined && profile !== 'default' && !(await this.store.profileGet(platform, profile))) {
      throw new ApiError('invalid_request', `params.profile: no stored profile ${platform}/${profile}; see GET /v1/profiles`);
    }
    const now = Date.now();
    const paramsText = JSON.stringify(params);
    // One object shape for every new task, finished or not: the store's hot path reads it without shape checks.
    const base: NewTask = {
      id: newTaskId(now),
      source: platform,
      action,
      params: paramsText,
      account: `${platform}:${params.profile ?? 'default'}`,
      owner: input.owner,
      createdAt: now,
      watchId: input.watchId,
      finished: undefined,
    };
    if (write) {
      if (params.dry_run !== true && params.confirm !== true) {
        await planWrite(found.adapter, action, found.def as WriteAction, params, (signal) => this.runner.plan(found.adapter, found.def as never, params, signal));
      }
      this.metrics.tasksSubmitted.inc({ source: platform, action });
      const key = params.idempotency_key as string | undefined;
      if (params.dry_run === true || !key) return this.enqueue(await this.store.insertTask(base));
      const owner = input.owner ?? 'anonymous';
      const hash = paramsHash(params);
      const bound = await this.store.idempotencyGet(owner, key);
      if (!bound) return this.enqueue(await this.store.insertWriteTask(base, owner, key, hash));
      if (bound.params_hash !== hash) throw new ApiError('invalid_request', 'params.idempotency_key: already used with different params');
      const original = await this.store.getTask(bound.task_id);
      if (original && isFinished(original.status)) return original;
      const text = JSON.stringify(duplicateResult(platform, bound.task_id));
      return this.bornFinished(await this.store.insertTask({ ...base, finished: { text } }));
    }
    // A download is never answered from the cache: its files may have been evicted, and running it marks them used.
    if (!params.force && params.cursor === undefined && action !== 'download') {
      const hit = await this.cache.lookup(cacheKey(platform, action, params), params.max_age_s as number | undefined, now);
      if (hit) {
        // Video URLs in a cached result are capabilities: ones that would lapse within a day are signed afresh.
        const earliest = this.earliestExpiry(hit.entry, hit.text);
        const stale = earliest !== undefined && earliest * 1000 < now + RESIGN_BEFORE_MS;
        const finished = stale ? { text: this.signer.resign(hit.text), resultId: undefined, age: undefined } : { text: hit.text, resultId: hit.resultId, age: hit.age_s };
        // Resolves once the row is committed: the caller hears of the task only when it is on disk.
        base.finished = finished;
        const row = await sink.insertTask(base);
        if (!stale) this.hitBytes.set(row, { head: hit.bytes.head, age: hit.age_s, tail: hit.bytes.tail });
        this.metrics.cacheHit(platform, action);
        return params.callback_url === undefined ? row : this.bornFinished(row);
      }
    }
    this.metrics.tasksSubmitted.inc({ source: platform, action });
    return this.enqueue(await sink.insertTask(base));
  }

  private bornFinished(row: TaskRow): TaskRow {
    if (row.params.includes('"callback_url"')) this.callbacks?.bornFinished(row);
    return row;
  }

  private earliestExpiry(entry: object, text: string): number | undefined {
    let e = this.expiries.get(entry);
    if (!e) {
      e = { at: this.signer.earliestExpiry(text) };
      this.expiries.set(entry, e);
    }
    return e.at;
  }

  private async enqueue(row: TaskRow): Promise<TaskRow> {
    // A new task has no listener yet; its queued status (event 1) is restated from the row by a stream.
    await this.queue.add(row);
    this.runner.pump();
    return row;
  }

  /** Waits up to ms for the task to finish (less if signal aborts: the caller left); returns the latest row. */
  async wait(row: TaskRow, ms: number, signal?: AbortSignal): Promise<TaskRow> {
    if (ms <= 0 || isFinished(row.status) || signal?.aborted) return row;
    // Listening starts before the read: a result landing in between is not missed.
    const stop = new AbortController();
    const result = this.events.bus.waitForResult(row.id, row.event_seq, ms, signal ? AbortSignal.any([stop.signal, signal]) : stop.signal);
    const current = (await this.store.getTask(row.id)) as TaskRow;
    if (isFinished(current.status)) {
      stop.abort();
      return current;
    }
    await result;
    return (await this.store.getTask(row.id)) as TaskRow;
  }

  /** The task, if this caller may see it: another token's task answers exactly like an unknown id. */
  async get(id: string, caller: Caller): Promise<TaskRow> {
    const row = typeof id === 'string' && id.length <= 64 ? await this.store.getTask(id) : undefined;
    if (!row || !maySee(row.owner, caller)) throw notFound(id);
    return row;
  }

  /** The submitted task's JSON as bytes (a cached result is copied, not encoded again); write it and drop it. */
  answer(row: TaskRow): Buffer {
    return taskBytes(row, this.hitBytes.get(row), this.answers.take);
  }

  /** The task's JSON bytes (with its result), served from memory once it has finished. */
  async bytes(id: string, caller: Caller): Promise<Buffer> {
    const hit = typeof id === 'string' ? this.finishedJson.get(id) : undefined;
    if (hit) {
      if (!maySee(hit.owner, caller)) throw notFound(id);
      return hit.bytes;
    }
    const row = await this.get(id, caller);
    const bytes = Buffer.from(taskJson(row));
    if (isFinished(row.status)) this.finishedJson.set(row.id, { owner: row.owner, bytes }, bytes.length);
    return bytes;
  }

  /** The caller's tasks (every owner's with all, for admins), newest first, without results. */
  async list(q: ListQuery, caller: Caller): Promise<{ tasks: string[]; next?: string }> {
    if (q.all && !isAdmin(caller)) throw new ApiError('forbidden_scope', 'all=true lists every token\'s tasks and needs an admin token');
    const rows = await this.store.listTasks({ owner: q.all ? undefined : caller.owner, before: q.before, status: q.status, source: q.source, action: q.action, limit: q.limit + 1 });
    const more = rows.length > q.limit;
    const page = more ? rows.slice(0, q.limit) : rows;
    return { tasks: page.map((r) => listEntry(r)), next: more ? page[page.length - 1].id : undefined };
  }

  /** Idempotent: an ended task is returned unchanged. */
  async cancel(id: string, caller: Caller): Promise<TaskRow> {
    const row = await this.get(id, caller);
    if (isFinished(row.status)) return row;
    const seq = this.events.nextId(row.id, row.event_seq) + 1;
    const cancelled = await this.store.cancelTask(row.id, Date.now(), seq);
    if (!cancelled) return this.get(id, caller);
    // A running crawl's slot is freed (and the queue pumped) where it runs; a queued task held no slot.
    await this.cancels.cancel(row.id);
    this.metrics.tasksFinished.inc({ source: row.source, action: row.action, status: 'cancelled', outcome: 'cancelled' });
    this.runner.emitFinal(cancelled);
    return cancelled;
  }

  async retry(id: string, caller: Caller): Promise<TaskRow> {
    const row = await this.get(id, caller);
    if (WRITE_ACTIONS.has(row.action)) {
      throw new ApiError('invalid_request', 'write tasks are never retried: submit a new one (with a new idempotency_key) once you have checked the platform', 409);
    }
    const blocked = row.status === 'succeeded' && row.result !== null && resultSource(row.result) === 'blocked';
    if (!(row.status === 'failed' || row.status === 'cancelled' || blocked)) {
      throw new ApiError(
        'invalid_request',
        row.status === 'succeeded' ? 'only a failed, cancelled or blocked task can be retried; this one succeeded' : `the task is ${row.status}; retry it once it has ended`,
        409,
      );
    }
    const seq = this.events.nextId(row.id, row.event_seq);
    this.finishedJson.delete(row.id);
    const requeued = await this.store.requeueTask(row.id, seq);
    if (!requeued) return this.get(id, caller);
    // The store may have numbered it past seq (another process emitted in between): its row says which id.
    this.events.publish(row.id, requeued.attempts, requeued.event_seq - 1, 'status', taskJson(requeued, false));
    await this.queue.add(requeued);
    this.runner.pump();
    return requeued;
  }
}

function maySee(owner: string | null, caller: Caller): boolean {
  return isAdmin(caller) || (owner !== null && owner === caller.owner);
}

function notFound(id: unknown): ApiError {
  return new ApiError('not_found', `no task ${JSON.stringify(String(id).slice(0, 64))}`);
}

/** A listing entry: the task without its result, and where to read it. */
function listEntry(row: TaskRow): string {
  const text = taskJson(row, false);
  return row.status === 'succeeded' ? `${text.slice(0, -1)},"result_url":"/v1/tasks/${row.id}"}` : text;
}

/** The result's source without parsing the whole result text. */
function resultSource(text: string): string | undefined {
  const m = /"source":"(live|cache|empty|blocked)"/.exec(text.slice(0, 200));
  if (m) return m[1];
  try {
    return (JSON.parse(text) as { source?: string }).source;
  } catch {
    return undefined;
  }
}
