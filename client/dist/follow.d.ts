import type { CrawlerClient } from './client.js';
import type { NeedsConfirmation, Params, Progress, Task } from './types.js';
export interface RunOptions {
    /**
     * Aborting cancels the task on the server, then the call throws the abort reason; a timeout
     * (`AbortSignal.timeout`) only stops following it: the task goes on, and its id was given to `onTask`.
     */
    signal?: AbortSignal;
    /** The task's progress events (items, pages) as the server sends them, and its last count at the end. */
    onProgress?: (p: Progress, taskId: string) => void;
    /** The task's id as soon as it is accepted. */
    onTask?: (taskId: string) => void;
}
/** Submits a task and follows its event stream to the end: the finished task, whatever its status. */
export declare function runTask<R>(client: CrawlerClient, source: string, action: string, params: Params, o: RunOptions): Promise<Task<R> | NeedsConfirmation>;
