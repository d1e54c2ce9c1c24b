import pino from 'pino';
import type { Dispatcher } from 'undici';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { DEFAULT_UA } from '../../src/crawl/http.js';
import type { CrawlContext, GuestJar } from '../../src/platforms/types.js';
import { Registry } from '../../src/platforms/registry.js';
import { tieba } from '../../src/platforms/tieba/index.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Replays like the other dispatcher, and keeps what each request carried (headers, body). */
class CapturingDispatcher extends ReplayDispatcher {
  readonly sent: Sent[] = [];
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const headers: Record<string, string> = {};
    const h = options.headers as Record<string, string | string[] | undefined> | string[] | undefined;
    if (Array.isArray(h)) for (let i = 0; i + 1 < h.length; i += 2) headers[String(h[i]).toLowerCase()] = String(h[i + 1]);
    else if (h) for (const [k, v] of Object.entries(h)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    const body = typeof options.body === 'string' ? options.body : Buffer.isBuffer(options.body) ? options.body.toString('utf8') : '';
    this.sent.push({ method: String(options.method), path: String(options.path), headers, body });
    return super.dispatch(options, handler);
  }
}

/** A tieba crawl context answered from HAR files, with a guest jar that may start filled. */
export function tiebaCtx(files: string[], opts: { cookies?: string; guest?: Record<string, string> } = {}): { ctx: CrawlContext; requests: string[]; warnings: string[]; sent: Sent[] } {
  const registry = new Registry();
  const dispatcher = new CapturingDispatcher({ recordings: loadRecordings(files), rulesFor: (h) => registry.forHost(h)?.replay });
  const store = new Map<string, unknown>(Object.entries(opts.guest ?? {}));
  const guest: GuestJar = { userAgent: DEFAULT_UA, get: <T>(k: string) => store.get(k) as T | undefined, set: (k, v) => void store.set(k, v), delete: (k) => void store.delete(k) };
  const requests: string[] = [];
  const warnings: string[] = [];
  const ctx = makeContext({
    adapter: tieba,
    profile: 'default',
    cookies: opts.cookies,
    memo: new MemoryMemo(),
    guest,
    dispatcher,
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings,
    onRequest: (m, u) => requests.push(`${m} ${u.toString()}`),
  });
  return { ctx, requests, warnings, sent: dispatcher.sent };
}
