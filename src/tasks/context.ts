import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import { HttpClient } from '../crawl/http.js';
import type { Pacer } from '../crawl/pacer.js';
import type { CrawlContext, PlatformAdapter } from '../platforms/types.js';

export interface ContextDeps {
  adapter: PlatformAdapter;
  profile: string;
  cookies?: string;
  dispatcher: Dispatcher;
  pacer: Pacer;
  /** Overrides the adapter's minimum gap (replay runs need none). */
  gapMs?: number;
  signal: AbortSignal;
  log: Logger;
  warnings: string[];
  onRequest?: (method: string, url: URL) => void;
}

/** The one place a CrawlContext is built, for the runner and for tests alike. */
export function makeContext(d: ContextDeps): CrawlContext {
  const http = new HttpClient({
    dispatcher: d.dispatcher,
    pace: { pacer: d.pacer, key: d.adapter.id, gapMs: d.gapMs ?? d.adapter.minGapMs },
    signal: d.signal,
    cookies: d.cookies,
    cookieHosts: d.adapter.hosts,
    onRequest: d.onRequest,
  });
  return {
    platform: d.adapter.id,
    profile: d.profile,
    http,
    session: { cookies: d.cookies },
    signal: d.signal,
    log: d.log,
    warn: (m) => d.warnings.push(m),
  };
}
