import type { ErrorBody } from '../domain/errors.js';
import type { TaskStatus } from '../domain/task.js';

export interface TaskRow {
  id: string;
  status: TaskStatus;
  source: string;
  action: string;
  /** Validated params as JSON text. */
  params: string;
  /** platform:profile, the slot this task runs in. */
  account: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  attempts: number;
  progress: string | null;
  /** Result JSON text, served as is. */
  result: string | null;
  error: string | null;
  owner: string | null;
  event_seq: number;
}

export interface NewTask {
  id: string;
  source: string;
  action: string;
  params: string;
  account: string;
  owner: string | null;
  createdAt: number;
  /** A task born finished (cache hit): a reference to the shared cached result, its age, and its text. */
  finished?: { text: string; resultId?: number; age?: number };
}

export interface TokenRow {
  id: string;
  name: string | null;
  hash: Buffer;
  scopes: string;
  created_at: number;
  revoked_at: number | null;
}

export interface ProfileRow {
  platform: string;
  name: string;
  cookies: string | null;
  /** JSON object of named secrets (API tokens, app passwords); never served. */
  credentials: string | null;
  health: 'ok' | 'cooling' | 'session_expired' | 'unknown';
  cooling_until?: number | null;
  strikes?: number;
  checked_at: number | null;
  used_at: number | null;
}

export interface CacheEntry {
  result_id: number;
  /** Result JSON split around the age_s value, so a hit costs one string join. */
  head: string;
  tail: string;
  created_at: number;
  expires_at: number;
}

/** Where a service-hosted media URL came from, so an expired origin URL can be re-resolved. */
export interface MediaRef {
  url_hash: string;
  platform: string;
  native_id: string;
  /** thumb, or media:<index> */
  slot: string;
  profile: string;
  /** The origin URL itself (a preview renders from it). */
  url: string;
  kind: 'video' | 'image';
}

export interface PreviewRow {
  platform: string;
  native_id: string;
  state: 'rendering' | 'ready' | 'failed';
  reason: string | null;
  w: number | null;
  h: number | null;
  seconds: number | null;
  file: string | null;
  updated_at: number;
}

export interface TaskListQuery {
  /** undefined: every owner's tasks (admin); null: tasks without an owner. */
  owner?: string | null;
  /** Paging: only tasks with an id below this one (ids are time-ordered). */
  before?: string;
  status?: string;
  source?: string;
  action?: string;
  limit: number;
}

/** Persistence port: SQLite now, Postgres later. Every method is synchronous-fast on the embedded backend. */
export interface Store {
  /** Inserts and returns the row as stored. */
  insertTask(t: NewTask): TaskRow;
  getTask(id: string): TaskRow | undefined;
  /** Resolves once every task inserted so far is durable: an acknowledged task must survive a crash. */
  committed(): Promise<void>;
  /** Newest first, without results. */
  listTasks(q: TaskListQuery): TaskRow[];
  /** queued → running; returns the claimed row, or undefined if another worker won. */
  markRunning(id: string, at: number): TaskRow | undefined;
  /** running → succeeded/failed, only if the run (attempt) is still current; returns the row after. */
  finishTask(id: string, attempt: number, status: 'succeeded' | 'failed', result: string | null, error: ErrorBody | null, at: number, eventSeq: number): TaskRow | undefined;
  /** progressJson: the Progress as JSON text (the same text the progress event carries). */
  setProgress(id: string, progressJson: string, eventSeq: number): void;
  /** queued|running → cancelled; returns the row after. */
  cancelTask(id: string, at: number, eventSeq: number): TaskRow | undefined;
  /** Back to queued with attempts + 1. */
  requeueTask(id: string, eventSeq: number): TaskRow | undefined;
  countByStatus(): Record<string, number>;
  /** Marks the oldest queued task whose account is not in the busy list running, and returns it. */
  claimNext(busyAccounts: string[], at: number): TaskRow | undefined;
  /** Crash recovery: reads left running by a dead process go back to the queue; writes fail as "outcome unknown". */
  requeueOrphans(): number;
  mediaRefsPut(refs: MediaRef[], at: number): void;
  mediaRefGet(urlHash: string): Pick<MediaRef, 'platform' | 'native_id' | 'slot' | 'profile'> | undefined;
  /** The newest known video stream of an item. */
  videoOf(platform: string, nativeId: string): { url: string; profile: string } | undefined;
  mediaSwapPut(urlHash: string, url: string, at: number): void;
  mediaSwapGet(urlHash: string): string | undefined;
  previewGet(platform: string, nativeId: string): PreviewRow | undefined;
  previewPut(row: PreviewRow): void;
  idempotencyGet(owner: string, key: string): { task_id: string; params_hash: string } | undefined;
  insertWriteTask(t: NewTask, owner: string, key: string, paramsHash: string): TaskRow;
  idempotencyPurge(before: number): number;

  /** The entry for key if it has not expired by now. */
  cacheGet(key: string, now: number): CacheEntry | undefined;
  cachePut(key: string, entry: Omit<CacheEntry, 'result_id' | 'expires_at'>, expiresAt: number): CacheEntry;
  cachePurgeExpired(now: number): number;
  tasksPurge(before: number): number;

  tokenInsert(row: TokenRow): void;
  tokenByHash(hash: Buffer): TokenRow | undefined;
  tokenById(id: string): TokenRow | undefined;
  tokenList(): TokenRow[];
  tokenRevoke(id: string, at: number): boolean;

  profileList(): ProfileRow[];
  profileGet(platform: string, name: string): ProfileRow | undefined;
  profileTouch(platform: string, name: string, at: number): void;
  profilePut(p: { platform: string; name: string; cookies: string | null; credentials: string | null }): void;
  profileDelete(platform: string, name: string): boolean;
  /** Replaces only the cookies (cookies a browser context renewed); health stays. */
  profileCookies(platform: string, name: string, cookies: string): void;
  /** Guest sessions (minted cookies) per account, sealed at rest, each bound to one User-Agent. */
  guestJarGet(account: string): { user_agent: string; data: string } | undefined;
  guestJarPut(account: string, userAgent: string, data: string, at: number): void;
  /** Stored logins cooling down until after now (blocked or throttled); the runner holds their work back. */
  profilesCooling(now: number): Array<{ platform: string; name: string; cooling_until: number }>;
  /** A stored login's backoff state, without its secrets; undefined when there is no such login. */
  profileStrikes(platform: string, name: string): { strikes: number; cooling_until: number | null } | undefined;
  profileHealth(h: { platform: string; name: string; health: ProfileRow['health']; checked_at: number; cooling_until: number | null; strikes: number }): void;

  /** Changes whenever another connection (the CLI) commits; lets in-memory caches notice. */
  dataVersion(): number;

  close(): void;
}
