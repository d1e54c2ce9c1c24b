import { type FetchLike } from './http.js';
import { type StreamOptions } from './stream.js';
import type { Accepted, AnyTask, Capabilities, CatalogEntry, Category, Health, Item, ItemOf, PagedAction, PlanOf, Params, ResultOf, Task, TaskEvent, TaskList, TaskStatus, Batch, BatchAccepted, BatchRetry, Watch, WatchInput, WatchList, WatchPatch } from './types.js';
import { type RunOptions } from './follow.js';
import { type Page, type WalkOptions } from './walk.js';
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
export declare const isFinished: (status: string) => boolean;
/** A typed client of the crawler's HTTP API. Needs nothing but `fetch`. */
export declare class CrawlerClient {
    readonly url: string;
    private readonly http;
    private catalogCache?;
    constructor(o: ClientOptions);
    /** POST /v1/tasks. With `wait`, a task finished in time comes back whole; otherwise `{task_id, status: 'queued'}`. */
    submit<A extends string>(task: TaskInput<A>, o?: SubmitOptions): Promise<Submitted<A>>;
    /** GET /v1/tasks/{id}: narrow the result's type on `task.action`. */
    get(taskId: string, o?: {
        signal?: AbortSignal;
    }): Promise<AnyTask>;
    /**
     * The finished task. Given a task to submit, it is submitted with an inline wait (up to 8 s) first;
     * then, or given an id, the task is polled with a growing interval. Transient failures of a poll
     * (network, 429, 5xx) are retried until the deadline.
     */
    wait<A extends string>(task: TaskInput<A>, o?: WaitOptions): Promise<Task<ResultOf<A>> | PlanOf<A>>;
    wait(taskId: string, o?: WaitOptions): Promise<AnyTask>;
    /**
     * Submits the task and follows its event stream to the end: the finished task whatever its status
     * (or a write's plan). Progress comes as it happens; aborting the signal cancels the task on the server.
     */
    run<A extends string>(task: TaskInput<A>, o?: RunOptions): Promise<Task<ResultOf<A>> | PlanOf<A>>;
    /** The task's events (status, progress, result) as they happen; a dropped connection resumes with Last-Event-ID. */
    stream(taskId: string, o?: StreamOptions): AsyncGenerator<TaskEvent<unknown>, void, undefined>;
    /** Cancels a queued or running task (idempotent: an ended task comes back unchanged). */
    cancel(taskId: string, o?: {
        signal?: AbortSignal;
    }): Promise<AnyTask>;
    /** Queues a failed, cancelled or blocked task again under the same id (attempts + 1). */
    retry(taskId: string, o?: {
        signal?: AbortSignal;
    }): Promise<AnyTask>;
    /** GET /v1/tasks: the caller's tasks, newest first, without results. */
    list(q?: ListQuery, o?: {
        signal?: AbortSignal;
    }): Promise<TaskList>;
    /**
     * Every item of a paged action (shape A cards, or comments), yielded as each task ends. It follows
     * next_cursor task by task, or, for `maxItems` on an action that takes `max_items` (posts), runs one
     * paced walk on the server. Aborting the signal cancels the task in flight on the server.
     */
    walk<A extends PagedAction>(source: string, action: A, params?: Params, o?: WalkOptions): AsyncGenerator<ItemOf<A>, void, undefined>;
    /** What `walk` runs, one finished task (page) at a time, with its result: for callers that want cursors and warnings too. */
    pages<A extends PagedAction>(source: string, action: A, params?: Params, o?: WalkOptions): AsyncGenerator<Page<A>, void, undefined>;
    /** POST /v1/tasks/batch: up to 500 read tasks in one request; each refused entry says why, by index. */
    batch(tasks: TaskInput[], o?: {
        signal?: AbortSignal;
    }): Promise<BatchAccepted>;
    /** GET /v1/batches/{id}: counts per status and every task id, in entry order. */
    getBatch(batchId: string, o?: {
        signal?: AbortSignal;
    }): Promise<Batch>;
    /** POST /v1/batches/{id}/retry: retries only the retryable failures (and blocked results). */
    retryBatch(batchId: string, o?: {
        signal?: AbortSignal;
    }): Promise<BatchRetry>;
    /**
     * A succeeded task's rows (GET /v1/tasks/{id}/export), or a watch's collected new items (`{watch: id}`), as
     * JSON lines or CSV: the response, whose body streams (pipe it to a file; nothing is buffered here).
     */
    export(target: string | {
        watch: string;
    }, o?: {
        format?: 'jsonl' | 'csv';
        signal?: AbortSignal;
    }): Promise<Response>;
    /** POST /v1/watches: a feed crawl repeated every every_s seconds (≥ 900) whose runs carry only new items. */
    createWatch(watch: WatchInput, o?: {
        signal?: AbortSignal;
    }): Promise<Watch>;
    /** GET /v1/watches: the caller's watches, newest first (admins: `all`), paged by `cursor` (a previous next_cursor). */
    listWatches(q?: {
        limit?: number;
        cursor?: string;
        all?: boolean;
    }, o?: {
        signal?: AbortSignal;
    }): Promise<WatchList>;
    /** GET /v1/watches/{id}, with its recent runs. */
    getWatch(watchId: string, o?: {
        signal?: AbortSignal;
    }): Promise<Watch>;
    /** PATCH /v1/watches/{id}: every_s, params, paused, callback_url (null removes it), full_page. */
    updateWatch(watchId: string, patch: WatchPatch, o?: {
        signal?: AbortSignal;
    }): Promise<Watch>;
    /** DELETE /v1/watches/{id}, with what it has seen. */
    deleteWatch(watchId: string, o?: {
        signal?: AbortSignal;
    }): Promise<void>;
    /** GET /v1/task-sources (fetched once per client). */
    catalog(): Promise<CatalogEntry[]>;
    /** The catalog entry of `source.action`, or undefined (also for a platform alias such as `x`: the catalog lists platform ids). */
    entry(source: string, action: string): Promise<CatalogEntry | undefined>;
    capabilities(): Promise<Capabilities>;
    categories(source: string): Promise<{
        source: string;
        categories: Category[];
    }>;
    health(): Promise<Health>;
    /** A service-hosted URL as given in results (`/v1/media?u=…`, `/v1/preview?…`), made absolute against the base. */
    mediaUrl(url: string): string;
    /** The scrub preview of a video item (its `preview.url`), or of a platform's post by native id. */
    previewUrl(item: Pick<Item, 'id' | 'preview'>): string;
    previewUrl(platform: string, nativeId: string): string;
}
