import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { checkMediaUrl, type MediaPolicy } from './guard.js';
import { MediaError, notAllowed, type MediaFailureReason } from './errors.js';
import { HLS_MAX_BYTES, HLS_TYPE, rewritePlaylist } from './hls.js';
import { mediaUrlBuilder, type MediaUrlBuilder } from './urls.js';
import { Readable as ReadableStream } from 'node:stream';

export interface ProxyRequest {
  u: string;
  method: 'GET' | 'HEAD';
  range?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  /** Headers a stream asks for (a download candidate's Referer/Origin), after the platform's mediaHeaders; never cookie or host. */
  headers?: Record<string, string>;
  /** The session-gated variant: the platform's profile cookies go to the CDN. */
  video?: { platform: string; cookies?: string; profile?: string };
}

export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  body?: Readable;
  /** The origin URL actually served (after redirects and refreshes). */
  origin: string;
}

/** Re-resolves an expired origin URL through the item it came from. */
export interface MediaRefresher {
  /** The URL this one was already replaced by, if any. */
  current(origin: string): Promise<string | undefined>;
  refresh(origin: string, signal: AbortSignal): Promise<{ url: string } | { reason: MediaFailureReason; message: string }>;
}

export interface ProxyOptions {
  policy: MediaPolicy;
  dispatcher: Dispatcher;
  refresher?: MediaRefresher;
  maxImageBytes: number;
  maxVideoBytes: number;
  headersTimeoutMs: number;
  userAgent: string;
  /** Builds the relative URLs a rewritten playlist points at (signed, so a browser player needs no token). */
  playlistUrls?: MediaUrlBuilder;
}

const MAX_REDIRECTS = 3;
const PASS_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];
// audio/*: the separate audio half of a DASH or adaptive stream (the download action muxes it in).
const VIDEO_EXTRA_TYPES = /^(application\/octet-stream|binary\/octet-stream|application\/vnd\.apple\.mpegurl|application\/x-mpegurl|audio\/)/i;
const EXPIRED_STATUSES = new Set([403, 404, 410]);
/** Playlist entries point back at the proxy, relative to the playlist's own /v1/media URL. */
const PROXIED = mediaUrlBuilder();

/**
 * The one Range form passed on to an origin: a single well-formed byte range, normalised. Several
 * ranges (a CDN would answer multipart/byteranges, which is not media) and malformed or backwards
 * ones are dropped, so the whole body is served (RFC 9110 lets a server ignore Range).
 */
export function singleRange(header: string | undefined): string | undefined {
  if (!header || header.length > 64) return undefined;
  const m = /^\s*bytes\s*=\s*(\d{0,15})\s*-\s*(\d{0,15})\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] !== '' && m[2] !== '' && Number(m[2]) < Number(m[1])) return undefined;
  return `bytes=${m[1]}-${m[2]}`;
}

/** The media proxy: allowlisted, address-checked, streaming with a size cap; never buffers a whole file. */
export class MediaProxy {
  constructor(private readonly o: ProxyOptions) {}

  async open(req: ProxyRequest, clientSignal?: AbortSignal): Promise<ProxyAnswer> {
    const { url, owner } = await checkMediaUrl(req.u, this.o.policy, req.video?.platform);
    if (req.video && owner.id !== req.video.platform) throw notAllowed(`u: ${url.hostname} is not a ${req.video.platform} CDN host`);
    const isVideo = Boolean(req.video);
    const range = singleRange(req.range);
    if (range !== req.range) req = { ...req, range };
    const href = url.toString();
    const replaced = await this.o.refresher?.current(href);
    let res = await this.fetchFollowing(replaced ?? href, req, clientSignal, replaced ? undefined : { url, owner });
    if (EXPIRED_STATUSES.has(res.status) && this.o.refresher) {
      discard(res.body);
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), 60_000);
      try {
        const fresh = await this.o.refresher.refresh(href, ac.signal);
        if ('reason' in fresh) throw failure(fresh.reason, fresh.message);
        res = await this.fetchFollowing(fresh.url, req, clientSignal);
        if (EXPIRED_STATUSES.has(res.status)) {
          discard(res.body);
          throw failure('expired', `the origin refused the refreshed URL too (HTTP ${res.status})`);
        }
      } finally {
        clearTimeout(timer);
      }
    } else if (EXPIRED_STATUSES.has(res.status)) {
      discard(res.body);
      throw failure('expired', `the origin answered HTTP ${res.status} and this URL is not one the service handed out, so it cannot be refreshed`);
    }
    if (req.video && req.method === 'GET' && res.status === 200 && (HLS_TYPE.test(res.headers['content-type'] ?? '') || /\.m3u8$/i.test(new URL(res.url).pathname))) {
      return this.playlist(res, req.video.platform, req.video.profile ?? 'default', clientSignal);
    }
    return this.answer(res, isVideo, req.method);
  }

  /** A small HLS playlist is read whole and its URIs rewritten through the proxy (same platform and profile). */
  private async playlist(res: Fetched, platform: string, profile: string, clientSignal?: AbortSignal): Promise<ProxyAnswer> {
    const chunks: Buffer[] = [];
    let size = 0;
    // The caller may leave while the playlist is read: the origin read stops with it.
    const onClient = () => discard(res.body);
    clientSignal?.addEventListener('abort', onClient, { once: true });
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > HLS_MAX_BYTES) {
          discard(res.body);
          throw new MediaError('upstream_error', `the playlist is larger than ${HLS_MAX_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      if (e instanceof MediaError) throw e;
      // An origin that drops the connection or stalls mid-playlist is an upstream failure, not ours.
      throw new MediaError('upstream_error', `the origin broke off the playlist: ${(e as Error).message}`);
    } finally {
      clientSignal?.removeEventListener('abort', onClient);
    }
    const text = rewritePlaylist(Buffer.concat(chunks).toString('utf8'), res.url, (abs) => (this.o.playlistUrls ?? PROXIED).video(abs, platform, profile));
    const body = Buffer.from(text);
    return {
      status: 200,
      headers: { 'content-type': 'application/vnd.apple.mpegurl', 'content-length': String(body.length) },
      body: ReadableStream.from([body]),
      origin: res.url,
    };
  }

  private answer(res: Fetched, isVideo: boolean, method: string): ProxyAnswer {
    const { status, headers } = res;
    if (status !== 200 && status !== 206 && status !== 304 && status !== 416) {
      discard(res.body);
      throw new MediaError('upstream_error', `the origin answered HTTP ${status}`);
    }
    const out: Record<string, string> = {};
    for (const h of PASS_HEADERS) if (headers[h]) out[h] = headers[h];
    if (status === 200 || status === 206) {
      let type = headers['content-type'] ?? '';
      // Some CDNs label every object as bytes; a recognised media file name then says what it is.
      const named = !type || UNLABELLED.test(type) ? typeFromName(res.url, isVideo) : undefined;
      if (named) out['content-type'] = type = named;
      const okType = /^image\//i.test(type) || (isVideo && (/^video\//i.test(type) || VIDEO_EXTRA_TYPES.test(type)));
      if (!okType) {
        discard(res.body);
        const wrongType = new MediaError('upstream_error', `the origin answered ${type || 'no content type'}, not ${isVideo ? 'video' : 'an image'}`);
        // The same URL will answer the same type again.
        wrongType.retryable = false;
        throw wrongType;
      }
    }
    const cap = isVideo ? this.o.maxVideoBytes : this.o.maxImageBytes;
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) {
      discard(res.body);
      throw new MediaError('upstream_error', `the origin's answer is ${declared} bytes, over the ${cap}-byte cap`);
    }
    if (method === 'HEAD' || !res.body) {
      discard(res.body);
      return { status, headers: out, origin: res.url };
    }
    return { status, headers: out, body: capped(res.body, cap), origin: res.url };
  }

  /** GET/HEAD with manual redirects, each hop re-checked against the allowlist and address rules. */
  private async fetchFollowing(start: string, req: ProxyRequest, clientSignal?: AbortSignal, checked?: Awaited<ReturnType<typeof checkMediaUrl>>): Promise<Fetched> {
    let current = start;
    for (let hop = 0; ; hop++) {
      // The caller's URL was checked already; every redirect target is checked here.
      const { url, owner } = hop === 0 && checked ? checked : await checkMediaUrl(current, this.o.policy, req.video?.platform);
      const headers: Record<string, string> = { 'user-agent': this.o.userAgent, accept: req.video ? 'video/*,*/*;q=0.5' : 'image/*,*/*;q=0.5', ...(owner.mediaHeaders?.(url) ?? {}) };
      for (const [k, v] of Object.entries(req.headers ?? {})) if (!/^(cookie|host|range|content-length|transfer-encoding|connection)$/i.test(k)) headers[k.toLowerCase()] = v;
      if (req.range) headers.range = req.range;
      if (req.ifNoneMatch) headers['if-none-match'] = req.ifNoneMatch;
      if (req.ifModifiedSince) headers['if-modified-since'] = req.ifModifiedSince;
      // A profile's cookies go to its own platform's CDN only, never to a host a redirect led elsewhere.
      if (req.video?.cookies && owner.id === req.video.platform) headers.cookie = req.video.cookies;
      const res = await this.once(url, req.method, headers, clientSignal);
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && res.status !== 304 && location) {
        discard(res.body);
        if (hop >= MAX_REDIRECTS) throw new MediaError('upstream_error', `more than ${MAX_REDIRECTS} redirects`);
        current = new URL(location, url).toString();
        continue;
      }
      return res;
    }
  }

  private async once(url: URL, method: 'GET' | 'HEAD', headers: Record<string, string>, clientSignal?: AbortSignal): Promise<Fetched> {
    // A caller already gone (say, during a refresh) gets no origin request: an aborted signal never fires 'abort' again.
    if (clientSignal?.aborted) throw new MediaError('upstream_error', 'the client went away');
    const ac = new AbortController();
    const onClient = () => ac.abort();
    clientSignal?.addEventListener('abort', onClient, { once: true });
    const timer = setTimeout(() => ac.abort(new Error('headers timeout')), this.o.headersTimeoutMs);
    try {
      const res = await request(url, { method, headers, dispatcher: this.o.dispatcher, signal: ac.signal, highWaterMark: 1024 * 1024 });
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      return { status: res.statusCode, headers: flat, body: res.body as unknown as Readable, url: url.toString() };
    } catch (err) {
      throw mapFetchError(err, ac.signal.aborted && !clientSignal?.aborted);
    } finally {
      clearTimeout(timer);
      clientSignal?.removeEventListener('abort', onClient);
    }
  }
}

const UNLABELLED = /^(application\/octet-stream|binary\/octet-stream|application\/binary)\b/i;
const IMAGE_EXT: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', heic: 'image/heic' };
const VIDEO_EXT: Record<string, string> = { mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', flv: 'video/x-flv', m4s: 'video/iso.segment', ts: 'video/mp2t' };

/** The media type a URL's file name names (images always; videos only on the video variant). */
function typeFromName(url: string, isVideo: boolean): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const ext = /\.([a-z0-9]{2,5})$/i.exec(path)?.[1]?.toLowerCase();
  if (!ext) return undefined;
  return IMAGE_EXT[ext] ?? (isVideo ? VIDEO_EXT[ext] : undefined);
}

interface Fetched {
  status: number;
  headers: Record<string, string>;
  body?: Readable;
  url: string;
}

function failure(reason: MediaFailureReason, message: string): MediaError {
  switch (reason) {
    case 'blocked':
      return new MediaError('blocked', message, reason);
    case 'session_expired':
      return new MediaError('session_expired', message, reason);
    case 'not_found':
      // The item itself is gone: for the caller its media has expired for good.
      return new MediaError('not_found', message, 'expired');
    default:
      return new MediaError('upstream_error', message, reason);
  }
}

function mapFetchError(err: unknown, timedOut: boolean): Error {
  const e = err as { code?: string; cause?: { code?: string; message?: string }; message?: string; name?: string };
  if (e?.code === 'ERR_FORBIDDEN_ADDRESS' || e?.cause?.code === 'ERR_FORBIDDEN_ADDRESS') return notAllowed(e.cause?.message ?? e.message ?? 'forbidden address');
  if (e?.name === 'ReplayMiss') return Object.assign(new MediaError('upstream_error', e.message ?? 'replay miss'), { retryable: false });
  if (timedOut || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_CONNECT_TIMEOUT') return new MediaError('timeout', 'the origin did not answer in time');
  return new MediaError('upstream_error', `the origin could not be reached: ${e?.cause?.message ?? e?.message ?? String(err)}`);
}

/**
 * Counts bytes as they flow and fails the stream past the cap (also for chunked bodies without a
 * length). A listener rather than a Transform: no extra stream hop on the hot path.
 */
function capped(body: Readable, cap: number): Readable {
  let seen = 0;
  body.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > cap) body.destroy(new Error(`media larger than the ${cap}-byte cap`));
  });
  return body;
}

/** Drops an origin body we will not serve, without an unhandled 'error' from the abort. */
function discard(body: Readable | undefined): void {
  if (!body) return;
  body.on('error', () => {});
  body.destroy();
}
