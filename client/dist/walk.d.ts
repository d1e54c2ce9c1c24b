import type { CrawlerClient } from './client.js';
import type { PagedAction, Params, Progress, ResultOf, Task } from './types.js';
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
export declare function walkPages<A extends PagedAction>(client: CrawlerClient, source: string, action: A, params: Params, o: WalkOptions): AsyncGenerator<Page<A>, void, undefined>;
