import { Dispatcher } from 'undici';
import type { ReplayRules } from '../../platforms/types.js';
import { ReplayMiss } from '../errors.js';
import { requestParams, type Recording } from './har.js';
import { compileRules, matchRequest, routeKey, type CompiledRules } from './match.js';
import { rangeAnswer } from './range.js';

export interface ReplayOptions {
  recordings: Recording[];
  /** Replay rules of the platform that owns a host (signatures to ignore, ids, cursors). */
  rulesFor?: (host: string) => ReplayRules | undefined;
  /** Called on every request that found no recording (for logs and health). */
  onMiss?: (miss: ReplayMiss) => void;
  /** How long an answer to this host waits (CRAWLER_REPLAY_DELAY_MS): replayed crawls last like live ones. */
  delayMs?: (host: string) => number;
}

type LegacyHandler = {
  onConnect?(abort: (err?: Error) => void, context?: unknown): void;
  onHeaders?(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean | void;
  onData?(chunk: Buffer): boolean | void;
  onComplete?(trailers: Buffer[]): void;
  onError?(err: Error): void;
};

/**
 * An undici Dispatcher that answers every request from HAR recordings and never opens a socket.
 * Unmatched requests fail with ReplayMiss, naming the method and URL.
 */
export class ReplayDispatcher extends Dispatcher {
  /** Recordings by method, host and path: a request is compared only with those of its own route. */
  private readonly byRoute = new Map<string, Recording[]>();
  private readonly count: number;
  private readonly rulesCache = new Map<string, CompiledRules>();
  private readonly uses = new Map<Recording, number>();
  /** The latest misses (a long-running sandbox would otherwise keep every one). */
  readonly misses: ReplayMiss[] = [];

  constructor(private readonly opts: ReplayOptions) {
    super();
    this.count = opts.recordings.length;
    for (const rec of opts.recordings) {
      const key = routeKey(rec.method, rec.url, this.rules(rec.url.hostname));
      const list = this.byRoute.get(key);
      if (list) list.push(rec);
      else this.byRoute.set(key, [rec]);
    }
  }

  get size(): number {
    return this.count;
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const h = handler as unknown as LegacyHandler;
    let aborted = false;
    let wake: (() => void) | undefined;
    h.onConnect?.((err?: Error) => {
      aborted = true;
      wake?.();
      h.onError?.(err ?? new Error('aborted'));
    });
    if (aborted) return true;
    collectBody(options.body)
      .then(async (body) => {
        const delay = this.opts.delayMs?.(new URL(String(options.origin)).hostname) ?? 0;
        if (delay > 0 && !aborted) {
          // An abort (a cancelled crawl) ends the wait at once, as a closed socket would.
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, delay);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        if (aborted) return;
        const url = new URL(String(options.path), String(options.origin));
        const method = String(options.method ?? 'GET').toUpperCase();
        const headers = headerMap(options.headers);
        const params = requestParams(url, body.length ? { mimeType: headers.get('content-type'), text: body.toString('utf8') } : undefined);
        const found = matchRequest({ method, url, params }, this.byRoute.get(routeKey(method, url, this.rules(url.hostname))) ?? [], this.rules(url.hostname), this.uses);
        if ('miss' in found) {
          const miss = new ReplayMiss(method, url.toString(), found.miss);
          this.misses.push(miss);
          if (this.misses.length > MISSES_KEPT) this.misses.splice(0, this.misses.length - MISSES_KEPT);
          this.opts.onMiss?.(miss);
          h.onError?.(miss);
          return;
        }
        this.uses.set(found.recording, (this.uses.get(found.recording) ?? 0) + 1);
        const answer = rangeAnswer(found.recording, headers.get('range'), method === 'HEAD');
        const raw: Buffer[] = [];
        for (const [k, v] of answer.headers) raw.push(Buffer.from(k), Buffer.from(v));
        h.onHeaders?.(answer.status, raw, () => {}, answer.statusText);
        if (aborted) return;
        if (answer.body.length) h.onData?.(answer.body);
        if (!aborted) h.onComplete?.([]);
      })
      .catch((err: Error) => {
        if (!aborted) h.onError?.(err);
      });
    return true;
  }

  async close(): Promise<void> {}
  async destroy(): Promise<void> {}

  private rules(host: string): CompiledRules {
    let r = this.rulesCache.get(host);
    if (!r) {
      r = compileRules(this.opts.rulesFor?.(host));
      this.rulesCache.set(host, r);
    }
    return r;
  }
}

const MISSES_KEPT = 100;

function headerMap(headers: Dispatcher.DispatchOptions['headers']): Map<string, string> {
  const out = new Map<string, string>();
  if (!headers) return out;
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) out.set(String(headers[i]).toLowerCase(), String(headers[i + 1]));
  } else if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [k, v] of headers as Iterable<[string, string]>) out.set(String(k).toLowerCase(), String(v));
  } else {
    for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
      if (v !== undefined) out.set(k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v));
    }
  }
  return out;
}

async function collectBody(body: Dispatcher.DispatchOptions['body']): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
