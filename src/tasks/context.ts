import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import { DEFAULT_UA, HttpClient } from '../crawl/http.js';
import type { Pacer } from '../crawl/pacer.js';
import type { RequestTrace } from '../crawl/request-log.js';
import { paceKey } from '../identity/proxy-url.js';
import type { CrawlContext, GuestJar, Memo, PageSigning, PlatformAdapter } from '../platforms/types.js';

export interface ContextDeps {
  adapter: PlatformAdapter;
  profile: string;
  cookies?: string;
  credentials?: Record<string, string>;
  memo: Memo;
  /** Persisted guest state; tests may leave it out (an in-memory one is used). */
  guest?: GuestJar;
  signer?: PageSigning;
  signModes?: ReadonlyMap<string, 'native' | 'browser' | 'auto'>;
  /** The platform's merged operation data; absent: the adapter's defaults. */
  ops?: Record<string, unknown>;
  dispatcher: Dispatcher;
  pacer: Pacer;
  /** Overrides the adapter's minimum gap (replay runs need none). */
  gapMs?: number;
  signal: AbortSignal;
  log: Logger;
  /** The dispatcher answers from recordings (defaults to false: live-mode rules apply). */
  replay?: boolean;
  warnings: string[];
  onRequest?: (method: string, url: URL) => void;
  trace?: RequestTrace;
  /** The egress the account leaves by (`direct` or a proxy's id): platforms limit by address, so it is paced apart. */
  egress?: string;
  /** Set when the account has a proxy (see HttpClientOptions). */
  beforeSend?: (url: URL) => Promise<void>;
  proxy?: { label: string; onFailure(why: string): void };
}

/** A Memo in process memory, one per platform. */
export class MemoryMemo implements Memo {
  private readonly map = new Map<string, { v: unknown; until: number }>();
  constructor(private readonly maxEntries = 20_000) {}
  get<T>(key: string): T | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.until <= Date.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e.v as T;
  }
  set<T>(key: string, value: T, ttlMs?: number): void {
    this.map.delete(key);
    this.map.set(key, { v: value, until: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs });
    if (this.map.size > this.maxEntries) this.sweep();
  }

  /** Drops expired entries, then the oldest ones, so a busy platform cannot grow it without bound. */
  private sweep(): void {
    const now = Date.now();
    for (const [k, e] of this.map) if (e.until <= now) this.map.delete(k);
    for (const k of this.map.keys()) {
      if (this.map.size <= this.maxEntries * 0.9) break;
      this.map.delete(k);
    }
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

/** The one place a CrawlContext is built, for the runner and for tests alike. */
export function makeContext(d: ContextDeps): CrawlContext {
  const guest = d.guest ?? memoryJar();
  const http = new HttpClient({
    defaultHeaders: { 'user-agent': guest.userAgent },
    dispatcher: d.dispatcher,
    pace: { pacer: d.pacer, key: paceKey(d.adapter.id, d.egress ?? 'direct'), gapMs: d.gapMs ?? d.adapter.minGapMs },
    signal: d.signal,
    cookies: d.cookies,
    cookieHosts: d.adapter.hosts,
    onRequest: d.onRequest,
    trace: d.trace,
    beforeSend: d.beforeSend,
    proxy: d.proxy,
  });
  return {
    platform: d.adapter.id,
    profile: d.profile,
    http,
    session: { cookies: d.cookies, credentials: d.credentials },
    memo: d.memo,
    guest,
    signer: d.signer,
    signModes: d.signModes,
    ops: d.ops ?? d.adapter.ops?.defaults ?? {},
    signal: d.signal,
    log: d.log,
    replay: d.replay ?? false,
    // The same note from every page of a walk says nothing new.
    warn: (m) => {
      if (!d.warnings.includes(m)) d.warnings.push(m);
    },
  };
}

function memoryJar(): GuestJar {
  const m = new MemoryMemo();
  return { userAgent: DEFAULT_UA, get: (k) => m.get(k), set: (k, v, t) => m.set(k, v, t), delete: (k) => m.delete(k) };
}
