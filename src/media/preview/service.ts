import { randomBytes, createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from '../../blobs/types.js';
import type { Logger } from 'pino';
import type { Item, Preview } from '../../domain/item.js';
import type { PREVIEW_REASONS } from '../../domain/media.js';
import type { PreviewClaim, PreviewRow, Store } from '../../store/types.js';
import { Lru } from '../../tasks/lru.js';
import type { MediaError } from '../errors.js';
import type { MediaProxy } from '../proxy.js';
import { nativeIdOf, videoOrigin } from '../refs.js';
import { mediaUrlBuilder, type MediaUrlBuilder } from '../urls.js';
import { clipArgs, previewSeconds, previewSize, probe, run } from './ffmpeg.js';

export type PreviewReason = (typeof PREVIEW_REASONS)[number];

export type PreviewState =
  | { status: 'ready'; key: string; w: number; h: number; seconds: number; size: number; mtime: number }
  | { status: 'rendering' }
  | { status: 'unavailable'; reason: PreviewReason; message?: string }
  /** The render queue is full: try again later (nothing was started). */
  | { status: 'busy' };

/** Renders waiting for a worker; beyond this a request is turned away rather than queued without bound. */
export const PREVIEW_QUEUE_MAX = 256;

export interface PreviewDeps {
  store: Store;
  /** Where finished clips live (keys `<platform>/<hash>.mp4`); renders stay in a local temp dir until done. */
  blobs: BlobStore;
  media: MediaProxy;
  /** A detail crawl for an item whose stream the service has not seen. */
  detail(platform: string, nativeId: string, profile: string, signal: AbortSignal): Promise<{ items: Item[]; error?: { code: string; message: string } }>;
  hasDetail(platform: string): boolean;
  urls: MediaUrlBuilder;
  dataDir: string;
  workers: number;
  ffmpeg: boolean;
  internalToken: string;
  /** The service's own loopback base URL, known once it listens. */
  selfUrl(): string | undefined;
  log: Logger;
  renderTimeoutMs?: number;
  /** A render lease lasts this long unless renewed (default 60 s); it is renewed every third of it. */
  leaseMs?: number;
  /** How often a process waiting for another's render reads the store (default 500 ms). */
  pollMs?: number;
}

/** Transient failures are retried after a while; permanent ones are remembered longer. */
const FAILURE_TTL_MS: Record<PreviewReason, number> = { blocked: 10 * 60_000, session_expired: 10 * 60_000, expired: 60 * 60_000, no_stream: 24 * 3600_000, unsupported: 24 * 3600_000 };

/**
 * Scrub previews: a bounded pool of ffmpeg renders reading the service's own media proxy (so the SSRF
 * rules, platform headers and expired-URL refresh apply), written to a local temp file and put into the
 * blob store whole; identical requests share one render. Across processes sharing the store, a render
 * lease in the preview row (claimed in one conditional statement, renewed while ffmpeg runs) lets one
 * process render a clip while the others wait for it to land in the shared blob store.
 */
export class PreviewService {
  private readonly jobs = new Map<string, Promise<PreviewState>>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private readonly root: string;
  private readonly tmp: string;
  private readonly aborts = new Set<AbortController>();
  /**
   * Failures of items the service never handed out stay in memory only: the route is public, and a
   * stranger's made-up ids must not grow the database.
   */
  private readonly strays = new Lru<{ reason: PreviewReason; message?: string; at: number }>(5000);
  /** ffmpeg processes started since boot (health and tests). */
  rendersStarted = 0;
  /** This process, as the owner of the render leases it holds. */
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly leaseMs: number;
  private closed = false;

  constructor(private readonly d: PreviewDeps) {
    this.leaseMs = d.leaseMs ?? 60_000;
    this.root = join(d.dataDir, 'previews');
    this.tmp = join(this.root, '.tmp');
    // A render cut short by a crash leaves only a temp file; none is ever served.
    rmSync(this.tmp, { recursive: true, force: true });
    mkdirSync(this.tmp, { recursive: true });
  }

  get tempDir(): string {
    return this.tmp;
  }

  /** A ready clip's bytes (a range of them); undefined when the clip went away since its state was read. */
  open(key: string, range?: ByteRange): Promise<Readable | undefined> {
    return this.d.blobs.stream(key, range);
  }

  /** Rows written before the blob store hold the clip's absolute path under the previews dir. */
  private keyOf(file: string): string | undefined {
    if (!isAbsolute(file)) return file;
    const rel = relative(this.root, file);
    return rel.startsWith('..') || isAbsolute(rel) ? undefined : rel.split(sep).join('/');
  }

  /** The current state, without starting anything. */
  async state(platform: string, nativeId: string): Promise<PreviewState | undefined> {
    if (!this.d.ffmpeg) return { status: 'unavailable', reason: 'unsupported', message: 'ffmpeg is not installed on this server' };
    if (this.jobs.has(key(platform, nativeId))) return { status: 'rendering' };
    const stray = this.strays.get(key(platform, nativeId));
    if (stray && Date.now() - stray.at < FAILURE_TTL_MS[stray.reason]) return { status: 'unavailable', reason: stray.reason, message: stray.message };
    const row = await this.d.store.previewGet(platform, nativeId);
    if (!row) return undefined;
    // A render that began while the store was read is the newer news.
    if (this.jobs.has(key(platform, nativeId))) return { status: 'rendering' };
    return this.fromRow(row);
  }

  /** What a stored row says: rendering under a live lease, ready with its clip, or a failure not yet due for a retry. */
  private async fromRow(row: PreviewRow): Promise<PreviewState | undefined> {
    if (row.state === 'rendering') return (row.lease_until ?? 0) > Date.now() ? { status: 'rendering' } : undefined;
    if (row.state === 'ready' && row.file) {
      const blobKey = this.keyOf(row.file);
      const st = blobKey === undefined ? undefined : await this.d.blobs.stat(blobKey);
      if (!st || blobKey === undefined) return undefined;
      return { status: 'ready', key: blobKey, w: row.w ?? 0, h: row.h ?? 0, seconds: row.seconds ?? 0, size: st.size, mtime: st.mtime };
    }
    if (row.state === 'failed' && Date.now() - row.updated_at < FAILURE_TTL_MS[(row.reason as PreviewReason) ?? 'expired']) {
      return { status: 'unavailable', reason: (row.reason as PreviewReason) ?? 'expired' };
    }
    return undefined;
  }

  /** State now, starting a render when the clip is cold. */
  async request(platform: string, nativeId: string, source?: { origin: string; profile: string }): Promise<PreviewState> {
    const now = await this.state(platform, nativeId);
    if (now) return now;
    // Checked again in the same turn as the start: a concurrent request may have started it meanwhile.
    if (this.jobs.has(key(platform, nativeId))) return { status: 'rendering' };
    if (this.waiting.length >= PREVIEW_QUEUE_MAX) return { status: 'busy' };
    // Cold (state just said so): start the job without asking the store and the disk again.
    void this.start(platform, nativeId, source);
    return { status: 'rendering' };
  }

  /** Renders (or joins the render in progress) and resolves with the final state. */
  async render(platform: string, nativeId: string, source?: { origin: string; profile: string }): Promise<PreviewState> {
    const running = this.jobs.get(key(platform, nativeId));
    if (running) return running;
    const known = await this.state(platform, nativeId);
    if (known && known.status !== 'rendering') return known;
    // Another caller may have started it while the store was read.
    const joined = this.jobs.get(key(platform, nativeId));
    if (joined) return joined;
    if (this.waiting.length >= PREVIEW_QUEUE_MAX) return { status: 'busy' };
    return this.start(platform, nativeId, source);
  }

  private start(platform: string, nativeId: string, source?: { origin: string; profile: string }): Promise<PreviewState> {
    const k = key(platform, nativeId);
    const job = this.shared(platform, nativeId, source).finally(() => this.jobs.delete(k));
    this.jobs.set(k, job);
    return job;
  }

  /** Renders here when this process wins the lease; otherwise waits (bounded) for the clip the winner stores. */
  private async shared(platform: string, nativeId: string, source?: { origin: string; profile: string }): Promise<PreviewState> {
    const deadline = Date.now() + (this.d.renderTimeoutMs ?? 300_000) + this.leaseMs;
    while (!this.closed && Date.now() < deadline) {
      const mine = await this.queued(() => this.claimAndRender(platform, nativeId, source));
      if (mine) return mine;
      const theirs = await this.waitForOther(platform, nativeId, deadline);
      // Nothing came of the other render (released, or its holder died): claim it again.
      if (theirs) return theirs;
    }
    return { status: 'rendering' };
  }

  /** The settled state when the row is settled after all, the render's when the lease is won; undefined when another holds it. */
  private async claimAndRender(platform: string, nativeId: string, source?: { origin: string; profile: string }): Promise<PreviewState | undefined> {
    const row = await this.d.store.previewGet(platform, nativeId);
    let stale: PreviewClaim['stale'];
    if (row && row.state !== 'rendering') {
      const settled = await this.fromRow(row);
      if (settled) return settled;
      stale = { state: row.state, updated_at: row.updated_at };
    }
    const now = Date.now();
    const won = await this.d.store.previewClaim({ platform, native_id: nativeId, owner: this.owner, now, lease_until: now + this.leaseMs, stale });
    return won ? this.renderOnce(platform, nativeId, source) : undefined;
  }

  /** Polls the row another process renders until it settles; undefined when the lease ended without a clip. */
  private async waitForOther(platform: string, nativeId: string, deadline: number): Promise<PreviewState | undefined> {
    while (!this.closed && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, this.d.pollMs ?? 500));
      const row = await this.d.store.previewGet(platform, nativeId);
      if (!row) return undefined;
      const st = await this.fromRow(row);
      if (st?.status !== 'rendering') return st;
    }
    return { status: 'rendering' };
  }

  /** The preview object for an item with a playable stream; eager renders now. */
  async attach(item: Item, eager: boolean, profile: string): Promise<Preview | undefined> {
    const video = item.media.find((m) => m.kind === 'video');
    const origin = videoOrigin(item);
    if (!video || !origin || !this.d.ffmpeg) return undefined;
    const nativeId = nativeIdOf(item);
    const url = this.d.urls.preview(item.provider, nativeId);
    let state = await this.state(item.provider, nativeId);
    let status: Preview['status'] = state?.status === 'ready' ? 'hit' : 'pending';
    if (eager && state?.status !== 'ready') {
      state = await this.render(item.provider, nativeId, { origin, profile });
      if (state.status === 'ready') status = 'rendered';
    }
    if (state?.status === 'ready') return { url, w: state.w, h: state.h, seconds: state.seconds, status };
    // Announced from the source's own numbers by the renderer's rule; what the source did not report is left out.
    const srcW = video.w ?? item.aspect?.width;
    const srcH = video.h ?? item.aspect?.height;
    const size = srcW && srcH && srcH >= 2 ? previewSize(srcW, srcH) : undefined;
    const duration = video.duration_s ?? item.duration_s;
    return { url, ...(size && size.w > 0 ? size : {}), ...(duration && duration > 0 ? { seconds: previewSeconds(duration) } : {}), status };
  }

  /** Aborts the renders in progress and waits (up to 5 s) for them to settle, so none writes to a closed store. */
  async close(): Promise<void> {
    this.closed = true;
    for (const ac of this.aborts) ac.abort();
    const settled = Promise.allSettled([...this.jobs.values()]);
    await Promise.race([settled, new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  private async queued<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.d.workers) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async renderOnce(platform: string, nativeId: string, given?: { origin: string; profile: string }): Promise<PreviewState> {
    const ac = new AbortController();
    this.aborts.add(ac);
    const tmpFile = join(this.tmp, `${randomBytes(8).toString('hex')}.mp4`);
    let persist = false;
    const failWith = async (reason: PreviewReason, message?: string): Promise<PreviewState> => {
      // Cut short by a shutdown: nothing is wrong with the clip, and another process may render it at once.
      if (ac.signal.aborted) {
        await this.release(platform, nativeId);
        return { status: 'rendering' };
      }
      if (persist) return this.fail(platform, nativeId, reason, message);
      // No durable record for an id the service never handed out: the lease row goes, the failure stays in memory.
      const st = this.stray(platform, nativeId, reason, message);
      await this.release(platform, nativeId);
      return st;
    };
    // The lease is ours while ffmpeg runs; losing it (the store was unreachable for a whole lease) costs a second render at worst.
    const renew = setInterval(() => {
      this.d.store
        .previewRenew(platform, nativeId, this.owner, Date.now() + this.leaseMs)
        .then((held) => held || this.d.log.warn({ platform, nativeId }, 'preview render lease lost to another process'))
        .catch((e) => this.d.log.warn({ err: e, platform, nativeId }, 'preview render lease not renewed'));
    }, this.leaseMs / 3);
    renew.unref();
    try {
      const known = given ?? (await this.knownStream(platform, nativeId));
      // Only items the service handed out get a durable failure record.
      persist = Boolean(known);
      const source = known ?? (await this.findSource(platform, nativeId, ac.signal));
      if ('reason' in source) return failWith(source.reason, source.message);
      // In-process check first: refreshes an expired URL and tells blocked/session_expired apart, which ffmpeg cannot.
      try {
        const head = await this.d.media.open({ u: source.origin, method: 'GET', range: 'bytes=0-1023', video: { platform, profile: source.profile, cookies: (await this.d.store.profileGet(platform, source.profile))?.cookies ?? undefined } }, ac.signal);
        head.body?.on('error', () => {});
        head.body?.destroy();
      } catch (e) {
        return failWith(reasonOf(e as MediaError), (e as Error).message);
      }
      const self = this.d.selfUrl();
      if (!self) return failWith('unsupported', 'the service is not listening yet');
      const input = mediaUrlBuilder(self).video(source.origin, platform, source.profile);
      this.rendersStarted++;
      const res = await run('ffmpeg', clipArgs(input, tmpFile, `Authorization: Bearer ${this.d.internalToken}\r\n`), this.d.renderTimeoutMs ?? 300_000, ac.signal);
      if (res.code !== 0) return failWith('no_stream', `ffmpeg could not render the stream: ${res.stderr.trim().split('\n').slice(-2).join(' ')}`);
      const info = await probe(tmpFile);
      if (!info.height) return failWith('no_stream', 'the rendered clip has no video');
      const blobKey = `${safe(platform)}/${createHash('sha256').update(nativeId).digest('hex').slice(0, 40)}.mp4`;
      const st = await this.d.blobs.put(blobKey, { file: tmpFile });
      const seconds = Math.round(info.seconds * 100) / 100;
      await this.d.store.previewPut({ platform, native_id: nativeId, state: 'ready', reason: null, w: info.width, h: info.height, seconds, file: blobKey, updated_at: Date.now() });
      return { status: 'ready', key: blobKey, w: info.width, h: info.height, seconds, size: st.size, mtime: st.mtime };
    } catch (e) {
      this.d.log.warn({ err: e, platform, nativeId }, 'preview render failed');
      return failWith('no_stream', (e as Error).message);
    } finally {
      clearInterval(renew);
      this.aborts.delete(ac);
      rmSync(tmpFile, { force: true });
    }
  }

  private async release(platform: string, nativeId: string): Promise<void> {
    try {
      await this.d.store.previewRelease(platform, nativeId, this.owner);
    } catch (e) {
      // The lease runs out by itself; until then others wait for it.
      this.d.log.warn({ err: e, platform, nativeId }, 'preview render lease not released');
    }
  }

  private async knownStream(platform: string, nativeId: string): Promise<{ origin: string; profile: string } | undefined> {
    const known = await this.d.store.videoOf(platform, nativeId);
    return known ? { origin: known.url, profile: known.profile } : undefined;
  }

  /** An item the service has not seen: its detail crawl finds the stream (or says why not). */
  private async findSource(platform: string, nativeId: string, signal: AbortSignal): Promise<{ origin: string; profile: string } | { reason: PreviewReason; message: string }> {
    if (!this.d.hasDetail(platform)) return { reason: 'unsupported', message: `${platform} items can only be previewed after a crawl that returned them` };
    const env = await this.d.detail(platform, nativeId, 'default', signal);
    if (env.error) {
      const c = env.error.code;
      const reason: PreviewReason = c === 'blocked' ? 'blocked' : c === 'session_expired' ? 'session_expired' : c === 'invalid_request' || c === 'unsupported' ? 'unsupported' : 'expired';
      return { reason, message: env.error.message };
    }
    const origin = env.items[0] && videoOrigin(env.items[0]);
    return origin ? { origin, profile: 'default' } : { reason: 'no_stream', message: 'the item has no playable video stream' };
  }

  private stray(platform: string, nativeId: string, reason: PreviewReason, message?: string): PreviewState {
    this.strays.set(key(platform, nativeId), { reason, message, at: Date.now() });
    return { status: 'unavailable', reason, message };
  }

  private async fail(platform: string, nativeId: string, reason: PreviewReason, message?: string): Promise<PreviewState> {
    await this.d.store.previewPut({ platform, native_id: nativeId, state: 'failed', reason, w: null, h: null, seconds: null, file: null, updated_at: Date.now() });
    return { status: 'unavailable', reason, message };
  }
}

const key = (platform: string, id: string) => `${platform}\u0000${id}`;
const safe = (s: string) => s.replace(/[^a-z0-9_-]/gi, '_');

function reasonOf(e: MediaError): PreviewReason {
  if (e.reason === 'blocked' || e.code === 'blocked') return 'blocked';
  if (e.reason === 'session_expired' || e.code === 'session_expired') return 'session_expired';
  if (e.refused) return 'unsupported';
  return 'expired';
}
