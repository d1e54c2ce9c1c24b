import { CrawlError, RateLimited } from '../crawl/errors.js';

/** A crawl error as the result's error; anything else is a bug and is rethrown (the job fails). */
export function asCrawlError(e: unknown, onRetryAfter?: (seconds: number) => void): CrawlError {
  if (e instanceof RateLimited && e.retryAfterS !== undefined && e.retryAfterS > 0) onRetryAfter?.(e.retryAfterS);
  if (e instanceof CrawlError) return e;
  throw e;
}

export function sourceOf(err: CrawlError): 'blocked' | 'live' {
  return err.code === 'blocked' ? 'blocked' : 'live';
}

export function withWarnings<T extends { warnings?: string[] }>(result: T, warnings: string[]): T {
  const uniq = [...new Set(warnings)];
  if (uniq.length) result.warnings = uniq;
  return result;
}
