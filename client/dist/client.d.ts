import { type FetchLike } from './http.js';
import { type StreamOptions } from './stream.js';
import type { Accepted, AnyTask, Capabilities, CatalogEntry, Category, Health, Item, ItemOf, PagedAction, PlanOf, Params, ResultOf, Task, TaskEvent, TaskList, TaskStatus } from './types.js';
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
