import type { ErrorBody, ErrorCode } from './types.js';

/**
 * Codes the client raises itself, for what never reached an answer of the service:
 * network_error (no connection, or the connection broke), cancelled (the task was cancelled by
 * someone else while the client waited for it).
 */
export type ClientErrorCode = 'network_error' | 'cancelled';

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Any failure the service reports (an HTTP error body, a failed task, a crawl error in a result) or
 * the client meets. Branch on `code` and `retryable`, never on `message`.
 */
export class CrawlerError extends Error {
  override readonly name = 'CrawlerError';
  readonly code: ErrorCode | ClientErrorCode;
  /** The HTTP status of the answer; 0 when the error is not an HTTP answer (a task's error, a network failure). */
  readonly status: number;
  readonly retryable: boolean;
  /** What else is known: task_id, the answer's body, Retry-After seconds, the partial result… */
  readonly details: Record<string, unknown>;

  constructor(init: { code: ErrorCode | ClientErrorCode; message: string; status?: number; retryable?: boolean; details?: Record<string, unknown>; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status ?? 0;
    this.retryable = init.retryable ?? false;
    this.details = init.details ?? {};
  }

  /** From a service error body `{code, message, retryable}` (a task's `error`, a result's `error`). */
  static fromBody(body: ErrorBody, status = 0, details: Record<string, unknown> = {}): CrawlerError {
    return new CrawlerError({ code: body.code, message: body.message, retryable: body.retryable, status, details });
  }

  /** From an HTTP answer that is not 2xx. */
  static fromResponse(status: number, body: unknown, retryAfter: string | null): CrawlerError {
    const details: Record<string, unknown> = { body };
    const seconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
    if (seconds !== undefined) details.retry_after_s = seconds;
    const error = (body as { error?: Partial<ErrorBody> } | undefined)?.error;
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      return new CrawlerError({ code: error.code, message: error.message, retryable: error.retryable ?? RETRYABLE_STATUS.has(status), status, details });
    }
    // Not the service's error body (a proxy in between, a preview's 404): classified by status alone.
    const code: ErrorCode = status === 401 ? 'auth_required' : status === 403 ? 'forbidden_scope' : status === 404 ? 'not_found' : status === 429 ? 'rate_limited' : status === 504 ? 'timeout' : status >= 500 ? 'upstream_error' : 'invalid_request';
    const text = typeof body === 'string' ? body.slice(0, 200) : JSON.stringify(body)?.slice(0, 200);
    return new CrawlerError({ code, message: `HTTP ${status}${text ? `: ${text}` : ''}`, retryable: RETRYABLE_STATUS.has(status), status, details });
  }
}

export const isAbort = (e: unknown): boolean => (e as { name?: string } | null)?.name === 'AbortError';
