import type { Http } from './http.js';
import type { TaskEvent } from './types.js';
export interface StreamOptions {
    /** Resume after this event id (the `id` of the last event you handled). */
    lastEventId?: number;
    signal?: AbortSignal;
    /** Wait before reconnecting after a drop; default: the server's `retry:` hint. Doubles per failed attempt, at most 30 s. */
    reconnectDelayMs?: number;
    /** Consecutive reconnects that bring no event before giving up with `network_error`; default 8. */
    maxReconnects?: number;
}
/**
 * GET /v1/tasks/{id}/stream as an async iterator. A dropped connection is reopened with
 * Last-Event-ID, so every event arrives once and in order; the iterator ends after `result`.
 */
export declare function streamTask<R>(http: Http, taskId: string, o?: StreamOptions): AsyncGenerator<TaskEvent<R>, void, undefined>;
