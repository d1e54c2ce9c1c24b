import { ApiError, type ErrorCode } from '../domain/errors.js';
import type { MEDIA_FAILURE_REASONS } from '../domain/media.js';

/** Why a media URL could not be served after a refresh attempt. */
export type MediaFailureReason = (typeof MEDIA_FAILURE_REASONS)[number];

/** A media failure: the spec's error envelope plus, where it helps, the reason. */
export class MediaError extends ApiError {
  /** Overrides the code's usual retry advice (a replay miss never goes away by asking again). */
  retryable?: boolean;
  /** Refused by the media rules before any origin connection (a preview of it is unsupported). */
  refused?: boolean;
  constructor(code: ErrorCode, message: string, readonly reason?: MediaFailureReason, status?: number) {
    super(code, message, status);
  }
  override toBody() {
    const body = super.toBody();
    if (this.retryable !== undefined) body.error.retryable = this.retryable;
    if (this.reason) (body.error as typeof body.error & { reason?: string }).reason = this.reason;
    return body;
  }
}

/** A media URL refused by the rules (allowlist, addresses, ports): bad input, not worth retrying. */
export function notAllowed(message: string): MediaError {
  const e = new MediaError('invalid_request', message);
  e.retryable = false;
  e.refused = true;
  return e;
}
