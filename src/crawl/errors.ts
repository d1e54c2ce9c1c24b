import type { ErrorCode } from '../domain/errors.js';

/** Typed crawl failures; the runner turns each into the envelope's error (or a blocked/empty source). */
export class CrawlError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}
export class Blocked extends CrawlError {
  constructor(message = 'the platform answered with a captcha or risk control') { super('blocked', message); }
}
export class SessionExpired extends CrawlError {
  constructor(message = 'the platform wants a (fresh) login session') { super('session_expired', message); }
}
export class RateLimited extends CrawlError {
  readonly retryAfterS?: number;
  constructor(message = 'the platform throttled the crawl', retryAfterS?: number) {
    super('rate_limited', message);
    this.retryAfterS = retryAfterS;
  }
}
export class NotFound extends CrawlError {
  constructor(message = 'the platform says this does not exist') { super('not_found', message); }
}
export class Timeout extends CrawlError {
  constructor(message = 'the platform did not answer in time') { super('timeout', message); }
}
export class UpstreamError extends CrawlError {
  constructor(message: string) { super('upstream_error', message); }
}
/** The platform answered something we cannot read: reported as upstream_error. */
export class ParseError extends CrawlError {
  constructor(message: string) { super('upstream_error', `could not parse the platform's answer: ${message}`); }
}
/** The caller's reference or params cannot be used with this platform. */
export class InvalidInput extends CrawlError {
  constructor(message: string) { super('invalid_request', message); }
}
/** Replay mode: no recording answers this request. Fails the task loudly; never reaches the network. */
export class ReplayMiss extends Error {
  readonly method: string;
  readonly url: string;
  constructor(method: string, url: string, detail = '') {
    super(`replay: no recording matches ${method} ${url}${detail ? ` (${detail})` : ''}`);
    this.name = 'ReplayMiss';
    this.method = method;
    this.url = url;
  }
}
/** The task was cancelled while crawling. */
export class Cancelled extends Error {
  constructor() { super('cancelled'); this.name = 'Cancelled'; }
}

export const isReplayMiss = (e: unknown): e is ReplayMiss =>
  e instanceof ReplayMiss || (e instanceof Error && e.name === 'ReplayMiss');
