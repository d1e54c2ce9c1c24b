import { randomBytes, createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { BlobStore, ByteRange } from '../blobs/types.js';
import type { DownloadFile } from '../domain/download.js';
import { CrawlError } from '../crawl/errors.js';
import { MediaError } from '../media/errors.js';
import type { MediaProxy } from '../media/proxy.js';
import type { DownloadFileRow } from '../store/download-files.js';
import type { Store } from '../store/types.js';
import type { FileSigner } from './capability.js';
import { mimeOf, mux, probeFile } from './ffmpeg.js';
import { fileName } from './names.js';
import { rankCandidates, slotsFor, type MediaFilter, type Quality } from './pick.js';
import { sha256File, transfer } from './transfer.js';
import type { DownloadPlan, StreamCandidate } from './types.js';

export const DEFAULT_FILE_CAP = 2 * 1024 ** 3;
export const DEFAULT_IMAGE_CAP = 32 * 1024 ** 2;
const PROGRESS_STEP = 1024 * 1024;

export interface DownloadDeps {
  store: Store;
  /** Where finished files live: the data dir (embedded) or the fleet's blob store; keys `<prefix><sha[0:2]>/<sha256>`. */
  blobs: BlobStore;
  blobPrefix: string;
  /** Local directory for partial transfers and mux output (never shared: each process writes its own). */
  tmpDir: string;
  media: MediaProxy;
  signer: FileSigner;
  publicUrl?: string;
  /** CRAWLER_DOWNLOAD_MAX_BYTES: beyond it, least recently used unpinned files are evicted. */
  maxBytes: number;
  fileCap?: number;
  imageCap?: number;
  ffmpeg: boolean;
  log: Logger;
  now?: () => number;
}

export interface DownloadRun {
  platform: string;
  profile: string;
  cookies?: string;
  media: MediaFilter;
  quality: Quality;
  signal: AbortSignal;
  warn(message: string): void;
  onProgress(p: { bytes: number; files: number; files_total: number }): void;
}

export type OpenedFile = { row: DownloadFileRow; size: number; mtime: number } | { gone: string };

/**
 * The download core: picks a stream per media slot, fetches it through the media proxy into a local
 * partial file (hashed as it is written), muxes separate audio in with `ffmpeg -c copy`, stores it
 * content-addressed in the blob store, records it, and keeps the total under the quota (LRU, pins spared).
 */
export class DownloadService {
  private readonly fileCap: number;
  private readonly imageCap: number;
  private readonly now: () => number;

  constructor(private readonly d: DownloadDeps) {
    this.fileCap = d.fileCap ?? DEFAULT_FILE_CAP;
    this.imageCap = d.imageCap ?? DEFAULT_IMAGE_CAP;
    this.now = d.now ?? Date.now;
    mkdirSync(d.tmpDir, { recursive: true });
    // Partial transfers no retry came back for within a day, and mux output a crash left, are only litter.
    for (const name of readdirSync(d.tmpDir)) {
      const file = join(d.tmpDir, name);
      try {
        if (name.endsWith('.mux.mp4') || statSync(file).mtimeMs < this.now() - 86_400_000) rmSync(file, { force: true });
      } catch {
        /* gone meanwhile */
      }
    }
  }

  /** Runs of one stream in this process take turns: they share its partial file. */
  private readonly turns = new Map<string, Promise<unknown>>();
  private async inTurn<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.turns.get(key) ?? Promise.resolve();
    const mine = before.catch(() => {}).then(fn);
    this.turns.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.turns.get(key) === mine) this.turns.delete(key);
    }
  }

  /** Stores the plan's media; throws CrawlError (the result's error) when a slot cannot be stored. */
  async store(plan: DownloadPlan, r: DownloadRun): Promise<DownloadFile[]> {
    const slots = slotsFor(plan.slots, r.media);
    const out: DownloadFile[] = [];
    const stored = new Set<string>();
    let bytes = 0;
    let told = 0;
    const progress = () => {
      told = bytes;
      r.onProgress({ bytes, files: out.length, files_total: slots.length });
    };
    progress();
    for (let i = 0; i < slots.length; i++) {
      const ranked = rankCandidates(slots[i].candidates, r.quality);
      if (ranked.length === 0) throw new CrawlError('not_found', `media ${i + 1} of the post lists no stream`);
      const row = await this.storeSlot(plan, i, slots.length, ranked, r, (n) => {
        bytes += n;
        // One event per MiB: progress rows are stored, and a 2 GiB file must not write thousands.
        if (bytes - told >= PROGRESS_STEP) progress();
      });
      stored.add(row.sha256);
      out.push(this.fileOf(row));
      progress();
    }
    await this.enforceQuota(stored);
    return out;
  }

  /** The first candidate (in rank order) that can be fetched; a later one only when an earlier failed. */
  private async storeSlot(plan: DownloadPlan, index: number, count: number, ranked: StreamCandidate[], r: DownloadRun, onBytes: (n: number) => void): Promise<DownloadFileRow> {
    let first: unknown;
    for (const c of ranked) {
      const sourceKey = `${plan.draft.native_id}#${index}#${c.source_quality}`;
      try {
        const row = await this.inTurn(`${r.platform}\u0000${sourceKey}`, async () => {
          const known = await this.d.store.downloads.bySource(r.platform, sourceKey);
          if (known && (await this.d.blobs.stat(known.blob_key))) {
            await this.d.store.downloads.touch(known.id, this.now());
            return known;
          }
          return this.fetchCandidate(plan, index, count, c, sourceKey, r, onBytes);
        });
        if (c !== ranked[0]) r.warn(`media ${index + 1}: ${ranked[0].source_quality} could not be fetched (${(first as Error).message}); stored ${c.source_quality} instead`);
        if (c.watermark) r.warn(`media ${index + 1}: the platform offers only a watermarked stream (${c.source_quality})`);
        return row;
      } catch (e) {
        if (r.signal.aborted) throw e;
        // Refused by the rules: another rendition of the same CDN will not do better. A stream over the size
        // cap falls through: a smaller rendition may fit.
        if (e instanceof MediaError && e.refused) throw asCrawlError(e);
        first ??= e;
        r.warn(`media ${index + 1}: ${c.source_quality}: ${(e as Error).message}`);
      }
    }
    throw asCrawlError(first);
  }

  private async fetchCandidate(plan: DownloadPlan, index: number, count: number, c: StreamCandidate, sourceKey: string, r: DownloadRun, onBytes: (n: number) => void): Promise<DownloadFileRow> {
    // Named by what it holds, so a retry of the same post finds the partial file and resumes it.
    const base = join(this.d.tmpDir, createHash('sha256').update(`${r.platform}\u0000${sourceKey}`).digest('hex').slice(0, 32));
    const cap = c.kind === 'image' ? this.imageCap : this.fileCap;
    const common = { platform: r.platform, profile: r.profile, cookies: r.cookies, headers: c.headers, signal: r.signal, onBytes };
    const parts = [`${base}.v.part`, ...(c.audio_url ? [`${base}.a.part`] : [])];
    const muxed = `${base}.mux.mp4`;
    try {
      const v = await transfer(this.d.media, { ...common, url: c.url, cap, part: parts[0] });
      let file = parts[0];
      let sha = v.sha256;
      let size = v.bytes;
      if (c.audio_url) {
        await transfer(this.d.media, { ...common, url: c.audio_url, cap: Math.max(0, cap - v.bytes), part: parts[1] });
        if (!this.d.ffmpeg) throw new CrawlError('upstream_error', 'this stream comes as separate video and audio, and ffmpeg (needed to join them) is not installed on this server');
        await mux(parts[0], parts[1], muxed, r.signal);
        file = muxed;
        sha = await sha256File(muxed);
        size = (await stat(muxed)).size;
      }
      const probe = this.d.ffmpeg ? await probeFile(file) : undefined;
      if (c.kind === 'video' && this.d.ffmpeg && !probe?.video) throw new CrawlError('upstream_error', `media ${index + 1}: the origin's answer is not a video stream`);
      const mime = c.audio_url ? 'video/mp4' : mimeOf(c.kind, v.type ?? c.mime, probe);
      const blobKey = `${this.d.blobPrefix}${sha.slice(0, 2)}/${sha}`;
      const same = await this.d.store.downloads.bySha(sha);
      if (same && (await this.d.blobs.stat(same.blob_key))) await rm(file, { force: true });
      else await this.d.blobs.put(blobKey, { file });
      const now = this.now();
      const row: DownloadFileRow = {
        id: `f_${randomBytes(12).toString('base64url')}`,
        sha256: sha,
        blob_key: same?.blob_key ?? blobKey,
        bytes: size,
        mime,
        kind: c.kind,
        w: probe?.w ?? c.w ?? null,
        h: probe?.h ?? c.h ?? null,
        duration_s: c.kind === 'video' ? (probe?.duration_s ?? c.duration_s ?? null) : null,
        source_quality: c.source_quality,
        name: fileName(plan.draft.author_handle ?? plan.draft.author, plan.draft.native_id, index, count, mime),
        platform: r.platform,
        native_id: plan.draft.native_id,
        source_key: sourceKey,
        created_at: now,
        last_access: now,
        pinned: false,
        evicted_at: null,
      };
      await this.d.store.downloads.put(row);
      await Promise.all(parts.map((p) => rm(p, { force: true })));
      return row;
    } catch (e) {
      // A cancel leaves nothing behind; another failure keeps the partial transfer for the retry to resume.
      const drop = r.signal.aborted || (e instanceof MediaError && e.retryable === false) ? parts : [];
      await Promise.all([...drop, muxed].map((p) => rm(p, { force: true })));
      throw e;
    }
  }

  /** Evicts least recently used blobs no pinned file uses until the total fits; this run's files are spared. */
  async enforceQuota(spare: ReadonlySet<string> = new Set()): Promise<number> {
    let usage = await this.d.store.downloads.usage();
    let evicted = 0;
    while (usage > this.d.maxBytes) {
      const batch = (await this.d.store.downloads.evictable(50)).filter((b) => !spare.has(b.sha256));
      if (batch.length === 0) break;
      for (const b of batch) {
        if (usage <= this.d.maxBytes) break;
        // Rows first: a reader then sees "evicted", never a row whose blob is missing.
        if ((await this.d.store.downloads.evict(b.sha256, this.now())) > 0) {
          await this.d.blobs.delete(b.blob_key).catch((e) => this.d.log.warn({ err: e, key: b.blob_key }, 'evicted blob not deleted'));
          usage -= b.bytes;
          evicted++;
        }
      }
      usage = await this.d.store.downloads.usage();
    }
    return evicted;
  }

  /** The file for GET/HEAD /v1/files/{id}, or why it is gone. */
  async open(id: string): Promise<OpenedFile> {
    const row = await this.d.store.downloads.get(id);
    if (!row) return { gone: 'no stored file has this id' };
    if (row.evicted_at !== null) return { gone: `this file was evicted by the download quota on ${new Date(row.evicted_at).toISOString()}; download the post again to store it anew` };
    const st = await this.d.blobs.stat(row.blob_key);
    if (!st) return { gone: 'this file was evicted (its stored bytes are gone); download the post again to store it anew' };
    return { row, size: st.size, mtime: st.mtime };
  }

  read(row: DownloadFileRow, range?: ByteRange): Promise<Readable | undefined> {
    return this.d.blobs.stream(row.blob_key, range);
  }

  touch(id: string): Promise<void> {
    return this.d.store.downloads.touch(id, this.now());
  }

  pin(id: string, pinned: boolean): Promise<boolean> {
    return this.d.store.downloads.pin(id, pinned);
  }

  fileOf(row: DownloadFileRow): DownloadFile {
    return {
      id: row.id,
      url: this.d.signer.url(row.id, this.d.publicUrl),
      kind: row.kind,
      mime: row.mime,
      bytes: row.bytes,
      sha256: row.sha256,
      ...(row.w ? { w: row.w } : {}),
      ...(row.h ? { h: row.h } : {}),
      ...(row.duration_s ? { duration_s: row.duration_s } : {}),
      source_quality: row.source_quality,
      name: row.name,
    };
  }
}

function asCrawlError(e: unknown): CrawlError {
  if (e instanceof CrawlError) return e;
  if (e instanceof MediaError) return new CrawlError(e.code, e.message);
  throw e;
}
