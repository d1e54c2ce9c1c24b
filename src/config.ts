import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseSignModes, type SignMode } from './crawl/signing.js';
import { parseBlobUrl, type BlobTarget } from './blobs/open.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const intIn = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const EnvSchema = z.object({
  PORT: intIn(0, 65535).optional(),
  HOST: z.string().trim().min(1).optional(),
  CRAWLER_DATA_DIR: z.string().trim().min(1).optional(),
  CRAWLER_REPLAY: z.string().trim().optional(),
  CRAWLER_PUBLIC_URL: z
    .string()
    .trim()
    .refine((s) => s === '' || /^https?:\/\/[^/\s]+(\/.*)?$/.test(s), 'expected an http(s) URL such as https://crawler.example.com')
    .optional(),
  CRAWLER_WORKERS: intIn(1, 256).optional(),
  CRAWLER_ACCOUNT_SLOTS: intIn(1, 64).optional(),
  CRAWLER_MIN_GAP_MS: intIn(0, 600_000).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  CRAWLER_MEDIA_MAX_IMAGE_MB: intIn(1, 1024).optional(),
  CRAWLER_MEDIA_MAX_VIDEO_MB: intIn(1, 16_384).optional(),
  CRAWLER_PREVIEW_WORKERS: intIn(1, 64).optional(),
  // Bytes of downloaded files kept before the least recently used unpinned ones are evicted (1 MiB to 1 PiB).
  CRAWLER_DOWNLOAD_MAX_BYTES: intIn(1024 * 1024, 2 ** 50).optional(),
  CRAWLER_TASK_RETENTION_DAYS: intIn(1, 3650).optional(),
  CRAWLER_GROUP_COMMIT_MS: intIn(0, 1000).optional(),
  CRAWLER_REQUEST_LOG: z.string().trim().min(1).optional(),
  CRAWLER_REPLAY_DELAY_MS: z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      try {
        parseReplayDelay(s);
      } catch (e) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
      }
    })
    .optional(),
  CRAWLER_QUEUE_LOCK_MS: intIn(500, 3_600_000).optional(),
  CRAWLER_QUEUE_STALLED_MS: intIn(200, 3_600_000).optional(),
  CRAWLER_QUEUE_RECONCILE_MS: intIn(200, 3_600_000).optional(),
  CRAWLER_CANCEL_RECHECK_MS: intIn(100, 600_000).optional(),
  CRAWLER_REDIS_WATCHDOG_MS: intIn(500, 3_600_000).optional(),
  CRAWLER_MCP_WAIT_MS: intIn(0, 120_000).optional(),
  CRAWLER_DATABASE_URL: z
    .string()
    .trim()
    .refine((s) => /^postgres(ql)?:\/\/\S+$/.test(s), 'expected a Postgres URL such as postgres://crawler@db.example.com:5432/crawler')
    .optional(),
  CRAWLER_DATABASE_SCHEMA: z
    .string()
    .trim()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'expected a lower-case schema name (letters, digits, _)')
    .optional(),
  CRAWLER_CORS_ORIGINS: z
    .string()
    .trim()
    .refine(
      (s) => s.split(',').every((o) => o.trim() === '*' || /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?\/?$/i.test(o.trim())),
      'expected a comma-separated list of origins such as https://app.example.com,http://localhost:5173 (or *)',
    )
    .optional(),
  CRAWLER_SIGN_MODE: z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      try {
        parseSignModes(s);
      } catch (e) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${(e as Error).message}; e.g. douyin=browser,tiktok.comments=native` });
      }
    })
    .optional(),
  CRAWLER_REDIS_URL: z
    .string()
    .trim()
    .refine((s) => /^rediss?:\/\/\S+$/.test(s), 'expected a redis:// or rediss:// URL such as redis://127.0.0.1:6379')
    .optional(),
  CRAWLER_REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only')
    .optional(),
  CRAWLER_BLOB_URL: z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      try {
        parseBlobUrl(s);
      } catch (e) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
      }
    })
    .optional(),
  CRAWLER_WEBHOOK_ALLOW_HTTP: z.enum(['0', '1', 'true', 'false']).optional(),
  CRAWLER_WEBHOOK_SECRET: z.string().trim().min(16, 'at least 16 characters').max(256).optional(),
  CRAWLER_WATCH_TICK_MS: intIn(100, 3_600_000).optional(),
  CRAWLER_WATCH_MAX_PER_OWNER: intIn(1, 1_000_000).optional(),
  CRAWLER_SECRET_KEY: z
    .string()
    .trim()
    .refine((s) => /^[0-9a-f]{64}$/i.test(s) || Buffer.from(s, 'base64').length === 32, '32 bytes as 64 hex characters or base64')
    .optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** HAR files or directories; empty when crawling live. */
  replay: string[];
  publicUrl?: string;
  workers: number;
  accountSlots: number;
  /** Overrides every platform's minimum gap between requests when set. */
  minGapMs?: number;
  logLevel: (typeof LOG_LEVELS)[number];
  mediaMaxImageBytes: number;
  mediaMaxVideoBytes: number;
  /** ffmpeg renders at once. */
  previewWorkers: number;
  /** download: total bytes of stored files before LRU eviction (CRAWLER_DOWNLOAD_MAX_BYTES, default 2 GiB). */
  downloadMaxBytes: number;
  /** Ended tasks are kept this long. */
  taskRetentionDays: number;
  /** How often each process looks for due watches (a claim in the store keeps a period to one run fleet-wide). */
  watchTickMs: number;
  /** Watches one token may hold. */
  watchMaxPerOwner: number;
  /** Key for profile secrets at rest; absent: generated into the data dir. */
  secretKey?: string;
  /** How long cache-hit task rows wait to be committed together (0: the next event-loop turn). */
  groupCommitMs: number;
  /** Postgres (a fleet's shared store) instead of the SQLite file in the data dir. */
  databaseUrl?: string;
  /** The Postgres schema holding the tables (default: the server's search_path, usually public). */
  databaseSchema?: string;
  /** Browser origins allowed to call the API (CORS); '*' for any; empty: none. */
  corsOrigins: string[];
  /** How signed platform requests are signed, per platform or platform.endpoint (default auto). */
  signModes: ReadonlyMap<string, SignMode>;
  /** Dispatch, pacing, cancels and SSE wake-ups through Redis (a fleet); absent: all in this process. */
  redisUrl?: string;
  /** Key and channel prefix in Redis, so fleets sharing a server stay apart. */
  redisPrefix: string;
  /** Timings of a fleet's queue (BullMQ locks and stalled checks, the reconciler, cancel re-checks, the Redis watchdog). */
  fleet: FleetTimings;
  /** Appends one JSON line per outbound platform request (send and done) to this file: an audit of who asked what, when. */
  requestLog?: string;
  /** Replay answers wait this long (per host, or every host): a replayed crawl lasts like a live one. */
  replayDelay: ReplayDelay;
  /** Where preview clips live; absent: <data dir>/previews. */
  blob?: BlobTarget;
  /** How long an MCP tool call waits for its task before answering with the task id to poll. */
  mcpWaitMs: number;
  /** Callback URLs may be http:// too, not only https:// (test networks). */
  webhookAllowHttp: boolean;
  /** Signs webhook notifications; absent: derived from the server secret (the same on every process of a fleet). */
  webhookSecret?: string;
  /** CRAWLER_<SOURCE>_OPS variables (operation-data override files), checked against the platforms at start. */
  opsEnv: Record<string, string>;
}

export interface FleetTimings {
  lockMs: number;
  stalledMs: number;
  reconcileMs: number;
  recheckMs: number;
  watchdogMs: number;
}

export interface ReplayDelay {
  defaultMs: number;
  hosts: ReadonlyMap<string, number>;
}

/** "20" (every host) or "20,x.com=800,api.x.com=0": a default and per-host overrides, in ms. */
export function parseReplayDelay(raw: string): ReplayDelay {
  const hosts = new Map<string, number>();
  let defaultMs = 0;
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(?:([a-z0-9.-]+)=)?(\d{1,6})$/i.exec(part);
    if (!m) throw new Error(`"${part}": expected milliseconds, or host=milliseconds (e.g. 20,x.com=800)`);
    if (m[1]) hosts.set(m[1].toLowerCase(), Number(m[2]));
    else defaultMs = Number(m[2]);
  }
  return { defaultMs, hosts };
}

export class ConfigError extends Error {}

/** Reads and validates the environment once; a bad value stops the start with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const picked = Object.fromEntries(Object.keys(EnvSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]));
  const parsed = EnvSchema.safeParse(picked);
  if (!parsed.success) {
    // A URL's password is not echoed back into logs.
    // Nor is a secret's value.
    const shown = (k: string) => (/SECRET/.test(k) ? '***' : String(picked[k]).replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@'));
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}=${JSON.stringify(shown(i.path[0] as string))}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const replay = (e.CRAWLER_REPLAY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => resolve(s));
  const missing = replay.filter((p) => !existsSync(p));
  if (missing.length && !overrides.replay) throw new ConfigError(`CRAWLER_REPLAY: no such file or directory: ${missing.join(', ')}`);
  return {
    port: e.PORT ?? 8080,
    host: e.HOST ?? '0.0.0.0',
    dataDir: resolve(e.CRAWLER_DATA_DIR ?? './data'),
    replay,
    publicUrl: e.CRAWLER_PUBLIC_URL ? e.CRAWLER_PUBLIC_URL.replace(/\/+$/, '') : undefined,
    workers: e.CRAWLER_WORKERS ?? Math.max(4, availableParallelism() * 2),
    accountSlots: e.CRAWLER_ACCOUNT_SLOTS ?? 1,
    minGapMs: e.CRAWLER_MIN_GAP_MS ?? (replay.length ? 0 : undefined),
    logLevel: e.LOG_LEVEL ?? 'info',
    mediaMaxImageBytes: (e.CRAWLER_MEDIA_MAX_IMAGE_MB ?? 32) * 1024 * 1024,
    mediaMaxVideoBytes: (e.CRAWLER_MEDIA_MAX_VIDEO_MB ?? 2048) * 1024 * 1024,
    previewWorkers: e.CRAWLER_PREVIEW_WORKERS ?? availableParallelism(),
    downloadMaxBytes: e.CRAWLER_DOWNLOAD_MAX_BYTES ?? 2 * 1024 ** 3,
    secretKey: e.CRAWLER_SECRET_KEY,
    webhookAllowHttp: e.CRAWLER_WEBHOOK_ALLOW_HTTP === '1' || e.CRAWLER_WEBHOOK_ALLOW_HTTP === 'true',
    webhookSecret: e.CRAWLER_WEBHOOK_SECRET,
    taskRetentionDays: e.CRAWLER_TASK_RETENTION_DAYS ?? 7,
    groupCommitMs: e.CRAWLER_GROUP_COMMIT_MS ?? 0,
    watchTickMs: e.CRAWLER_WATCH_TICK_MS ?? 15_000,
    watchMaxPerOwner: e.CRAWLER_WATCH_MAX_PER_OWNER ?? 1000,
    fleet: {
      lockMs: e.CRAWLER_QUEUE_LOCK_MS ?? 30_000,
      stalledMs: e.CRAWLER_QUEUE_STALLED_MS ?? 30_000,
      reconcileMs: e.CRAWLER_QUEUE_RECONCILE_MS ?? 30_000,
      recheckMs: e.CRAWLER_CANCEL_RECHECK_MS ?? 5_000,
      watchdogMs: e.CRAWLER_REDIS_WATCHDOG_MS ?? 30_000,
    },
    requestLog: e.CRAWLER_REQUEST_LOG ? resolve(e.CRAWLER_REQUEST_LOG) : undefined,
    replayDelay: parseReplayDelay(e.CRAWLER_REPLAY_DELAY_MS ?? ''),
    mcpWaitMs: e.CRAWLER_MCP_WAIT_MS ?? 25_000,
    databaseUrl: e.CRAWLER_DATABASE_URL,
    databaseSchema: e.CRAWLER_DATABASE_SCHEMA,
    corsOrigins: (e.CRAWLER_CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, '').toLowerCase())
      .filter(Boolean),
    signModes: parseSignModes(e.CRAWLER_SIGN_MODE ?? ''),
    redisUrl: e.CRAWLER_REDIS_URL,
    redisPrefix: e.CRAWLER_REDIS_PREFIX ?? 'crawler',
    blob: e.CRAWLER_BLOB_URL ? parseBlobUrl(e.CRAWLER_BLOB_URL) : undefined,
    opsEnv: Object.fromEntries(Object.entries(env).filter((kv): kv is [string, string] => /^CRAWLER_.+_OPS$/.test(kv[0]) && typeof kv[1] === 'string' && kv[1].trim() !== '')),
    ...overrides,
  };
}
