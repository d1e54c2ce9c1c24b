import type { ErrorBody, ErrorCode } from './types.js';
/**
 * Codes the client raises itself, for what never reached an answer of the service:
 * network_error (no connection, or the connection broke), cancelled (the task was cancelled by
 * someone else while the client waited for it).
 */
export type ClientErrorCode = 'network_error' | 'cancelled';
/**
 * Any failure the service reports (an HTTP error body, a failed task, a crawl error in a result) or
 * the client meets. Branch on `code` and `retryable`, never on `message`.
 */
export declare class CrawlerError extends Error {
    readonly name = "CrawlerError";
    readonly code: ErrorCode | ClientErrorCode;
    /** The HTTP status of the answer; 0 when the error is not an HTTP answer (a task's error, a network failure). */
    readonly status: number;
    readonly retryable: boolean;
    /** What else is known: task_id, the answer's body, Retry-After seconds, the partial result… */
    readonly details: Record<string, unknown>;
    constructor(init: {
        code: ErrorCode | ClientErrorCode;
        message: string;
        status?: number;
        retryable?: boolean;
        details?: Record<string, unknown>;
        cause?: unknown;
    });
    /** From a service error body `{code, message, retryable}` (a task's `error`, a result's `error`). */
    static fromBody(body: ErrorBody, status?: number, details?: Record<string, unknown>): CrawlerError;
    /** From an HTTP answer that is not 2xx. */
    static fromResponse(status: number, body: unknown, retryAfter: string | null): CrawlerError;
}
export declare const isAbort: (e: unknown) => boolean;
