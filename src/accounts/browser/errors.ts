import { CrawlError } from '../../crawl/errors.js';

/**
 * The service has no usable Chromium. Not retryable: another attempt on the same machine fails the
 * same way, so it is reported as "unsupported here" rather than as an upstream failure.
 */
export class BrowserUnavailable extends CrawlError {
  constructor(message: string) {
    super('unsupported', message);
  }
}

/** The pool was closed (service shutting down) while a caller still wanted a page. */
export class BrowserPoolClosed extends Error {
  constructor() {
    super('browser pool: closed');
    this.name = 'BrowserPoolClosed';
  }
}
