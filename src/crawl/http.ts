import { request, type Dispatcher } from 'undici';
import { Cancelled, RateLimited, ReplayMiss, Timeout, UpstreamError, isReplayMiss } from './errors.js';
import { pace as paced, type Pacer } from './pacer.js';
import type { RequestTrace } from './request-log.js';
import { proxyFailure } from '../identity/egress.js';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'HEAD' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  query?: Query;
  headers?: Record<string, string>;
  /** Raw body; or use form / json. */
  body?: string | Buffer;
  form?: Record<string, string>;
  json?: unknown;
  timeoutMs?: number;
  /** Follow up to 5 redirects (default); false returns the 3xx itself. */
  followRedirects?: boolean;
}

export interface HttpResponse {
  status: number;
  /** Final URL after redirects. */
  url: string;
  /** URLs that answered with a redirect, in order. */
  redirects: string[];
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

export interface HttpClientOptions {
  dispatcher: Dispatcher;
  /** Pacing key and gap, e.g. the platform id and its minimum gap between requests. */
  pace?: { pacer: Pacer; key: string; gapMs: number };
  signal?: AbortSignal;
  defaultHeaders?: Record<string, string>;
  /** Cookie header sent to hosts for which cookieHosts matches (exact or suffix with a leading dot). */
  cookies?: string;
  cookieHosts?: string[];
  timeoutMs?: number;
  /** Called once per request that goes out, for metrics. */
  onRequest?: (method: string, url: URL) => void;
  /** The request log's hook (CRAWLER_REQUEST_LOG). */
  trace?: RequestTrace;
  /** Judges each target before it is sent (through a proxy, which resolves names itself: the SSRF rules). */
  beforeSend?: (url: URL) => Promise<void>;
  /** The account's proxy: a failure there is reported as the proxy's, in words without its credentials. */
  proxy?: { label: string; onFailure(why: string): void };
}

const MAX_REDIRECTS = 5;
export const DEFAULT_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

export function buildUrl(url: string, query?: Query): URL {
  const u = new URL(url);
  if (query) {
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null) continue;
      u.searchParams.set(k, String(v));
    }
  }
  return u;
}

export function hostMatches(host: string, patterns: readonly string[]): boolean {
  const h = host.toLowerCase();
  return patterns.some((p) => (p.startsWith('.') ? h.endsWith(p) || h === p.slice(1) : h === p));
}

/** One seam for every outbound platform request: pacing, cookies, redirects, timeouts, cancel. */
export class HttpClient {
  constructor(private readonly opts: HttpClientOptions) {}

  get signal(): AbortSignal | undefined {
    return this.opts.signal;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    let url = buildUrl(req.url, req.query);
    let method = req.method ?? 'GET';
    let body: string | Buffer | undefined = req.body;
    const headers: Record<string, string> = { 'user-agent': DEFAULT_UA, ...lower(this.opts.defaultHeaders), ...lower(req.headers) };
    if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    }
    const redirects: string[] = [];
    const follow = req.followRedirects ?? true;
    for (let hop = 0; ; hop++) {
      const res = await this.once(method, url, headers, body, req.timeoutMs ?? this.opts.timeoutMs ?? 20_000);
      const location = res.headers['location'];
      if (follow && location && res.status >= 300 && res.status < 400 && hop < MAX_REDIRECTS) {
        redirects.push(url.toString());
        url = new URL(location, url);
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        continue;
      }
      return makeResponse(res.status, url.toString(), redirects, res.headers, res.body);
    }
  }

  async getJson<T = unknown>(url: string, opts: Omit<HttpRequest, 'url'> = {}): Promise<{ res: HttpResponse; data: T }> {
    const res = await this.request({ ...opts, url });
    return { res, data: res.json<T>() };
  }

  async getText(url: string, opts: Omit<HttpRequest, 'url'> = {}): Promise<HttpResponse> {
    return this.request({ ...opts, url });
  }

  private async once(method: string, url: URL, headers: Record<string, string>, body: string | Buffer | undefined, timeoutMs: number) {
    const { pace, signal } = this.opts;
    if (signal?.aborted) throw new Cancelled();
    let slot: number | undefined;
    if (pace) {
      try {
        slot = await paced(pace.pacer, pace.key, pace.gapMs, signal);
      } catch {
        throw new Cancelled();
      }
    }
    await this.opts.beforeSend?.(url);
    const sendHeaders = { ...headers };
    if (this.opts.cookies && hostMatches(url.hostname, this.opts.cookieHosts ?? [])) sendHeaders['cookie'] = mergeCookies(this.opts.cookies, sendHeaders['cookie']);
    this.opts.onRequest?.(method, url);
    const ended = this.opts.trace?.(method, url, slot);
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const res = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers: sendHeaders,
        body,
        dispatcher: this.opts.dispatcher,
        signal: combined,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const buf = Buffer.from(await res.body.arrayBuffer());
      ended?.({ status: res.statusCode });
      return { status: res.statusCode, headers: flattenHeaders(res.headers), body: buf };
    } catch (err) {
      ended?.({ error: signal?.aborted ? 'cancelled' : ((err as Error)?.message ?? String(err)).slice(0, 200) });
      if (isReplayMiss(err)) throw err;
      if (signal?.aborted) throw new Cancelled();
      const atProxy = this.opts.proxy ? proxyFailure(err) : undefined;
      if (atProxy && this.opts.proxy) {
        this.opts.proxy.onFailure(atProxy);
        throw new UpstreamError(`${method} ${url.host}${url.pathname} failed at proxy ${this.opts.proxy.label}: ${atProxy}`);
      }
      if (timeout.aborted || isTimeoutError(err)) throw new Timeout(`${method} ${url.host}${url.pathname} timed out after ${timeoutMs} ms`);
      const cause = (err as Error)?.message ?? String(err);
      throw new UpstreamError(`${method} ${url.host}${url.pathname} failed: ${cause}`);
    }
  }
}

/** Shared status mapping; platforms map their own codes before or after calling this. */
export function throwForStatus(res: HttpResponse): void {
  if (res.status === 429) {
    const ra = Number(res.headers['retry-after']);
    throw new RateLimited(`HTTP 429 from ${new URL(res.url).host}`, Number.isFinite(ra) ? ra : undefined);
  }
  if (res.status >= 500) throw new UpstreamError(`HTTP ${res.status} from ${new URL(res.url).host}`);
}

function makeResponse(status: number, url: string, redirects: string[], headers: Record<string, string>, body: Buffer): HttpResponse {
  return {
    status,
    url,
    redirects,
    headers,
    body,
    text: () => body.toString('utf8'),
    json<T>() {
      try {
        return JSON.parse(body.toString('utf8')) as T;
      } catch {
        throw new UpstreamError(`expected JSON from ${new URL(url).host}${new URL(url).pathname}, got ${describeBody(headers, body)}`);
      }
    },
  };
}

function describeBody(headers: Record<string, string>, body: Buffer): string {
  const type = headers['content-type'] ?? 'no content type';
  return `${type} (${body.length} bytes)`;
}

function lower(h?: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (h) for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(k.toLowerCase() === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

function isTimeoutError(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  const name = (err as { name?: string })?.name;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || name === 'TimeoutError';
}

export { ReplayMiss };

/** The profile's cookies plus any the adapter set for this request (guest ids); the profile's win on a clash. */
export function mergeCookies(profile: string, extra?: string): string {
  if (!extra) return profile;
  const names = new Set(profile.split(';').map((p) => p.split('=')[0].trim()).filter(Boolean));
  const added = extra
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p && !names.has(p.split('=')[0].trim()));
  return added.length ? `${profile}; ${added.join('; ')}` : profile;
}
