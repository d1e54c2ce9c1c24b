import { CrawlerError } from './errors.js';
import { Http, type FetchLike } from './http.js';
import { sleep } from './sleep.js';
import { streamTask, type StreamOptions } from './stream.js';
import type {
  Accepted,
  AnyTask,
  Capabilities,
  CatalogEntry,
  Category,
  Health,
  Item,
  ItemOf,
  PagedAction,
  PlanOf,
  Params,
  ResultOf,
  Task,
  TaskEvent,
  TaskList,
  TaskStatus,
  Batch,
  BatchAccepted,
  BatchRetry,
  Watch,
  WatchInput,
  WatchList,
  WatchPatch,
} from './types.js';
import { runTask, type RunOptions } from './follow.js';
import { walkPages, type Page, type WalkOptions } from './walk.js';

export interface ClientOptions {
  /** The service's base address, e.g. http://localhost:8080 (a path prefix behind a proxy is kept). */
  url: string;
  /** An API token (`crw_…`); routes that need none (health, media, preview) work without it. */
  token?: string;
  /** A fetch implementation; default: the global fetch. */
  fetch?: FetchLike;
}

export interface TaskInput<A extends string = string> {
  source: string;
  action: A;
  params?: Params;
}

/** What POST /v1/tasks answers: the finished task (inline wait), the acceptance, or a write's plan. */
export type Submitted<A extends string> = Task<ResultOf<A>> | Accepted | PlanOf<A>;

export interface SubmitOptions {
  /** Block up to this many ms (0 to 8000) for the result inline. */
  wait?: number;
  /** Write verbs: the same key on a retry replays instead of posting twice (sent as params.idempotency_key). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** Give up after this long with a CrawlerError `timeout` (status 0); default: wait as long as it takes. */
  timeoutMs?: number;
  /** Stops waiting (the task itself goes on: cancel it with `cancel`). */
  signal?: AbortSignal;
  /** First polling interval; it grows by half each poll up to 5 s. Default 250 ms. */
  pollMs?: number;
}

export interface ListQuery {
  status?: TaskStatus;
  source?: string;
  action?: string;
  limit?: number;
  cursor?: string;
  /** Every token's tasks (admin tokens only). */
  all?: boolean;
}

const INLINE_WAIT_MAX_MS = 8000;
const POLL_MAX_MS = 5000;

export const isFinished = (status: string): boolean => status === 'succeeded' || status === 'failed' || status === 'cancelled';

/** A typed client of the crawler's HTTP API. Needs nothing but `fetch`. */
export class CrawlerClient {
  readonly url: string;
  private readonly http: Http;
  private catalogCache?: Promise<CatalogEntry[]>;

  constructor(o: ClientOptions) {
    const f = o.fetch ?? (globalThis.fetch as FetchLike | undefined);
    if (!f) throw new TypeError('CrawlerClient: no fetch available; pass options.fetch');
    if (!/^https?:\/\//i.test(o.url)) throw new TypeError(`CrawlerClient: url must be an http(s) address, got ${JSON.stringify(o.url)}`);
    this.http = new Http(o.url, o.token, (input, init) => f(input, init));
    this.url = this.http.base;
  }

  /** POST /v1/tasks. With `wait`, a task finished in time comes back whole; otherwise `{task_id, status: 'queued'}`. */
  async submit<A extends string>(task: TaskInput<A>, o: SubmitOptions = {}): Promise<Submitted<A>> {
    const params = o.idempotencyKey === undefined ? (task.params ?? {}) : { ...task.params, idempotency_key: o.idempotencyKey };
    const query = o.wait ? `?wait=${o.wait}` : '';
    const res = await this.http.json<Submitted<A> & { status: string }>(`/v1/tasks${query}`, {
      method: 'POST',
      json: { source: task.source, action: task.action, params },
      signal: o.signal,
      accept: [409],
    });
    if (res.status === 409 && res.body?.status !== 'needs_confirmation') throw CrawlerError.fromResponse(409, res.body, null);
    return res.body;
  }

  /** GET /v1/tasks/{id}: narrow the result's type on `task.action`. */
  async get(taskId: string, o: { signal?: AbortSignal } = {}): Promise<AnyTask> {
    return (await this.http.json<AnyTask>(`/v1/tasks/${encodeURIComponent(taskId)}`, { signal: o.signal })).body;
  }

  /**
   * The finished task. Given a task to submit, it is submitted with an inline wait (up to 8 s) first;
   * then, or given an id, the task is polled with a growing interval. Transient failures of a poll
   * (network, 429, 5xx) are retried until the deadline.
   */
  wait<A extends string>(task: TaskInput<A>, o?: WaitOptions): Promise<Task<ResultOf<A>> | PlanOf<A>>;
  wait(taskId: string, o?: WaitOptions): Promise<AnyTask>;
  async wait(target: string | TaskInput, o: WaitOptions = {}): Promise<unknown> {
    const deadline = o.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + o.timeoutMs;
    const left = () => deadline - Date.now();
    let id: string;
    if (typeof target === 'string') id = target;
    else {
      const inline = Math.max(0, Math.min(INLINE_WAIT_MAX_MS, Math.floor(left())));
      const first = (await this.submit(target, { wait: inline, signal: o.signal })) as { task_id: string; status: string };
      if (first.status === 'needs_confirmation' || isFinished(first.status)) return first;
      id = first.task_id;
    }
    let interval = o.pollMs ?? 250;
    for (let firstPoll = typeof target === 'string'; ; firstPoll = false) {
      if (!firstPoll) {
        if (left() <= 0) break;
        await sleep(Math.min(interval, left()), o.signal);
        interval = Math.min(POLL_MAX_MS, Math.ceil(interval * 1.5));
      }
      try {
        const task = await this.get(id, { signal: o.signal });
        if (isFinished(task.status)) return task;
      } catch (e) {
        if (!(e instanceof CrawlerError && e.retryable)) throw e;
      }
      if (left() <= 0) break;
    }
    throw new CrawlerError({ code: 'timeout', message: `task ${id} did not finish within ${o.timeoutMs} ms (it goes on: poll it, stream it or cancel it)`, retryable: true, details: { task_id: id } });
  }

  /**
   * Submits the task and follows its event stream to the end: the finished task whatever its status
   * (or a write's plan). Progress comes as it happens; aborting the signal cancels the task on the server.
   */
  run<A extends string>(task: TaskInput<A>, o: RunOptions = {}): Promise<Task<ResultOf<A>> | PlanOf<A>> {
    return runTask(this, task.source, task.action, task.params ?? {}, o) as Promise<Task<ResultOf<A>> | PlanOf<A>>;
  }

  /** The task's events (status, progress, result) as they happen; a dropped connection resumes with Last-Event-ID. */
  stream(taskId: string, o: StreamOptions = {}): AsyncGenerator<TaskEvent<unknown>, void, undefined> {
    return streamTask(this.http, taskId, o);
  }

  /** Cancels a queued or running task (idempotent: an ended task comes back unchanged). */
  async cancel(taskId: string, o: { signal?: AbortSignal } = {}): Promise<AnyTask> {
    return (await this.http.json<AnyTask>(`/v1/tasks/${encodeURIComponent(taskId)}/cancel`, { method: 'POST', signal: o.signal })).body;
  }

  /** Queues a failed, cancelled or blocked task again under the same id (attempts + 1). */
  async retry(taskId: string, o: { signal?: AbortSignal } = {}): Promise<AnyTask> {
    return (await this.http.json<AnyTask>(`/v1/tasks/${encodeURIComponent(taskId)}/retry`, { method: 'POST', signal: o.signal })).body;
  }

  /** GET /v1/tasks: the caller's tasks, newest first, without results. */
  async list(q: ListQuery = {}, o: { signal?: AbortSignal } = {}): Promise<TaskList> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== false) search.set(k, String(v));
    const qs = search.toString();
    return (await this.http.json<TaskList>(`/v1/tasks${qs ? `?${qs}` : ''}`, { signal: o.signal })).body;
  }

  /**
   * Every item of a paged action (shape A cards, or comments), yielded as each task ends. It follows
   * next_cursor task by task, or, for `maxItems` on an action that takes `max_items` (posts), runs one
   * paced walk on the server. Aborting the signal cancels the task in flight on the server.
   */
  async *walk<A extends PagedAction>(source: string, action: A, params: Params = {}, o: WalkOptions = {}): AsyncGenerator<ItemOf<A>, void, undefined> {
    for await (const page of this.pages(source, action, params, o)) yield* page.result.items as Array<ItemOf<A>>;
  }

  /** What `walk` runs, one finished task (page) at a time, with its result: for callers that want cursors and warnings too. */
  pages<A extends PagedAction>(source: string, action: A, params: Params = {}, o: WalkOptions = {}): AsyncGenerator<Page<A>, void, undefined> {
    return walkPages(this, source, action, params, o);
  }

  /** POST /v1/tasks/batch: up to 500 read tasks in one request; each refused entry says why, by index. */
  async batch(tasks: TaskInput[], o: { signal?: AbortSignal } = {}): Promise<BatchAccepted> {
    const json = { tasks: tasks.map((t) => ({ source: t.source, action: t.action, params: t.params ?? {} })) };
    return (await this.http.json<BatchAccepted>('/v1/tasks/batch', { method: 'POST', json, signal: o.signal })).body;
  }

  /** GET /v1/batches/{id}: counts per status and every task id, in entry order. */
  async getBatch(batchId: string, o: { signal?: AbortSignal } = {}): Promise<Batch> {
    return (await this.http.json<Batch>(`/v1/batches/${encodeURIComponent(batchId)}`, { signal: o.signal })).body;
  }

  /** POST /v1/batches/{id}/retry: retries only the retryable failures (and blocked results). */
  async retryBatch(batchId: string, o: { signal?: AbortSignal } = {}): Promise<BatchRetry> {
    return (await this.http.json<BatchRetry>(`/v1/batches/${encodeURIComponent(batchId)}/retry`, { method: 'POST', signal: o.signal })).body;
  }

  /**
   * A succeeded task's rows (GET /v1/tasks/{id}/export), or a watch's collected new items (`{watch: id}`), as
   * JSON lines or CSV: the response, whose body streams (pipe it to a file; nothing is buffered here).
   */
  async export(target: string | { watch: string }, o: { format?: 'jsonl' | 'csv'; signal?: AbortSignal } = {}): Promise<Response> {
    const path = typeof target === 'string' ? `/v1/tasks/${encodeURIComponent(target)}/export` : `/v1/watches/${encodeURIComponent(target.watch)}/export`;
    const res = await this.http.send(`${path}?format=${o.format ?? 'jsonl'}`, { signal: o.signal });
    if (res.ok) return res;
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* the error as text */
    }
    throw CrawlerError.fromResponse(res.status, body, res.headers.get('retry-after'));
  }

  /** POST /v1/watches: a feed crawl repeated every every_s seconds (≥ 900) whose runs carry only new items. */
  async createWatch(watch: WatchInput, o: { signal?: AbortSignal } = {}): Promise<Watch> {
    return (await this.http.json<Watch>('/v1/watches', { method: 'POST', json: watch, signal: o.signal })).body;
  }

  /** GET /v1/watches: the caller's watches, newest first (admins: `all`), paged by `cursor` (a previous next_cursor). */
  async listWatches(q: { limit?: number; cursor?: string; all?: boolean } = {}, o: { signal?: AbortSignal } = {}): Promise<WatchList> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== false) search.set(k, String(v));
    const qs = search.toString();
    return (await this.http.json<WatchList>(`/v1/watches${qs ? `?${qs}` : ''}`, { signal: o.signal })).body;
  }

  /** GET /v1/watches/{id}, with its recent runs. */
  async getWatch(watchId: string, o: { signal?: AbortSignal } = {}): Promise<Watch> {
    return (await this.http.json<Watch>(`/v1/watches/${encodeURIComponent(watchId)}`, { signal: o.signal })).body;
  }

  /** PATCH /v1/watches/{id}: every_s, params, paused, callback_url (null removes it), full_page. */
  async updateWatch(watchId: string, patch: WatchPatch, o: { signal?: AbortSignal } = {}): Promise<Watch> {
    return (await this.http.json<Watch>(`/v1/watches/${encodeURIComponent(watchId)}`, { method: 'PATCH', json: patch, signal: o.signal })).body;
  }

  /** DELETE /v1/watches/{id}, with what it has seen. */
  async deleteWatch(watchId: string, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.http.json(`/v1/watches/${encodeURIComponent(watchId)}`, { method: 'DELETE', signal: o.signal });
  }

  /** GET /v1/task-sources (fetched once per client). */
  catalog(): Promise<CatalogEntry[]> {
    this.catalogCache ??= this.http.json<CatalogEntry[]>('/v1/task-sources').then(
      (r) => r.body,
      (e) => {
        this.catalogCache = undefined;
        throw e;
      },
    );
    return this.catalogCache;
  }

  /** The catalog entry of `source.action`, or undefined (also for a platform alias such as `x`: the catalog lists platform ids). */
  async entry(source: string, action: string): Promise<CatalogEntry | undefined> {
    const name = `${source.toLowerCase()}.${action}`;
    return (await this.catalog()).find((e) => e.name === name);
  }

  async capabilities(): Promise<Capabilities> {
    return (await this.http.json<Capabilities>('/v1/capabilities')).body;
  }

  async categories(source: string): Promise<{ source: string; categories: Category[] }> {
    return (await this.http.json<{ source: string; categories: Category[] }>(`/v1/categories?source=${encodeURIComponent(source)}`)).body;
  }

  async health(): Promise<Health> {
    return (await this.http.json<Health>('/v1/health')).body;
  }

  /** A service-hosted URL as given in results (`/v1/media?u=…`, `/v1/preview?…`), made absolute against the base. */
  mediaUrl(url: string): string {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
    if (url.startsWith('/')) return this.http.url(url);
    return new URL(url, `${this.http.base}/`).toString();
  }

  /** The scrub preview of a video item (its `preview.url`), or of a platform's post by native id. */
  previewUrl(item: Pick<Item, 'id' | 'preview'>): string;
  previewUrl(platform: string, nativeId: string): string;
  previewUrl(a: string | Pick<Item, 'id' | 'preview'>, nativeId?: string): string {
    if (typeof a !== 'string' && a.preview?.url) return this.mediaUrl(a.preview.url);
    let platform: string;
    let id: string;
    if (typeof a === 'string') {
      platform = a;
      id = nativeId ?? '';
    } else {
      const at = a.id.indexOf(':');
      platform = a.id.slice(0, at);
      id = a.id.slice(at + 1);
    }
    if (!platform || !id) throw new TypeError('previewUrl: needs a platform and a native id (or an item whose id is <provider>:<native_id>)');
    return this.http.url(`/v1/preview?platform=${encodeURIComponent(platform)}&id=${encodeURIComponent(id)}`);
  }
}
