import { z } from 'zod';

export const ERROR_CODES = [
  'invalid_request',
  'auth_required',
  'forbidden_scope',
  'unsupported',
  'not_found',
  'rate_limited',
  'blocked',
  'session_expired',
  'timeout',
  'duplicate',
  'upstream_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** HTTP status per code; the blanks of the spec are filled by decisions.md. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  auth_required: 401,
  forbidden_scope: 403,
  unsupported: 404,
  not_found: 404,
  rate_limited: 429,
  blocked: 503,
  session_expired: 503,
  timeout: 504,
  duplicate: 409,
  upstream_error: 502,
};

const RETRYABLE: ReadonlySet<ErrorCode> = new Set(['rate_limited', 'blocked', 'timeout', 'upstream_error', 'duplicate']);
export const isRetryable = (code: ErrorCode): boolean => RETRYABLE.has(code);

export const ErrorBodySchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** An error meant for the caller: carries the spec's code and the HTTP status to answer with. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, message: string, status?: number) {
    super(message);
    this.code = code;
    this.status = status ?? HTTP_STATUS[code];
  }
  toBody(): { ok: false; error: ErrorBody } {
    return { ok: false, error: { code: this.code, message: this.message, retryable: isRetryable(this.code) } };
  }
}

export const errorBody = (code: ErrorCode, message: string): ErrorBody => ({ code, message, retryable: isRetryable(code) });
