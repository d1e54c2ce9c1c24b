import type { DownloadFileStore } from './download-files.js';
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
  /** The watch this task is a run of (runs queue behind interactive tasks); null for an ordinary task. */
  watch_id?: string | null;
}

export interface NewTask {
  id: string;
  source: string;
  action: string;
  params: string;
  account: string;
  owner: string | null;
  createdAt: number;
  /** A watch's run: queued behind interactive tasks, and its result reduced to the watch's new items. */
  watchId?: string;
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
  /** The process rendering the clip (state rendering); null otherwise. */
  owner?: string | null;
  /** When that process's render lease runs out unless renewed (ms); null otherwise. */
  lease_until?: number | null;
}

/** A process asking to render a clip (previewClaim). */
export interface PreviewClaim {
  platform: string;
  native_id: string;
  owner: string;
  now: number;
  lease_until: number;
  /** The settled row the caller read and judged stale (a failure due for a retry, a ready row whose clip is gone). */
  stale?: { state: 'ready' | 'failed'; updated_at: number };
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

/**
 * Persistence port: SQLite (embedded) now, Postgres later. Every method is async so a networked backend
 * fits; callers await each call and never assume a write is visible before its promise resolved.
 */
export interface Store {
  /** Files the download action stored (sub-port: src/store/download-files.ts). */
  readonly downloads: DownloadFileStore;
  /**
   * Inserts and returns the row as stored, once it is durable: an acknowledged task must survive a crash
   * (the embedded backend commits tasks born finished in groups, so each waits for its group's commit).
   */
  insertTask(t: NewTask): Promise<TaskRow>;
  getTask(id: string): Promise<TaskRow | undefined>;
  /** Newest first, without results. */
  listTasks(q: TaskListQuery): Promise<TaskRow[]>;
  /** queued → running; returns the claimed row, or undefined if another worker won. */
  markRunning(id: string, at: number): Promise<TaskRow | undefined>;
  /** running → succeeded/failed, only if the run (attempt) is still current; returns the row after. */
  finishTask(id: string, attempt: number, status: 'succeeded' | 'failed', result: string | null, error: ErrorBody | null, at: number, eventSeq: number): Promise<TaskRow | undefined>;
  /** progressJson: the Progress as JSON text (the same text the progress event carries). */
  setProgress(id: string, progressJson: string, eventSeq: number): Promise<void>;
  /** queued|running → cancelled; returns the row after. */
  cancelTask(id: string, at: number, eventSeq: number): Promise<TaskRow | undefined>;
  /** Back to queued with attempts + 1. */
  requeueTask(id: string, eventSeq: number): Promise<TaskRow | undefined>;
  countByStatus(): Promise<Record<string, number>>;
  /** Marks the oldest queued task whose account is not in the busy list running, and returns it. */
  claimNext(busyAccounts: string[], at: number): Promise<TaskRow | undefined>;
  /** Crash recovery: reads left running by a dead process go back to the queue; writes fail as "outcome unknown". */
  requeueOrphans(): Promise<number>;
  mediaRefsPut(refs: MediaRef[], at: number): Promise<void>;
  mediaRefGet(urlHash: string): Promise<Pick<MediaRef, 'platform' | 'native_id' | 'slot' | 'profile'> | undefined>;
  /** The newest known video stream of an item. */
  videoOf(platform: string, nativeId: string): Promise<{ url: string; profile: string } | undefined>;
  mediaSwapPut(urlHash: string, url: string, at: number): Promise<void>;
  mediaSwapGet(urlHash: string): Promise<string | undefined>;
  previewGet(platform: string, nativeId: string): Promise<PreviewRow | undefined>;
  /** Writes a settled row (ready or failed), ending any render lease on it. */
  previewPut(row: PreviewRow): Promise<void>;
  /**
   * Takes the render lease of a clip, in one conditional step so that of processes asking at once one
   * wins: when there is no row, when the row is rendering under a lease that ran out by now, or when it is
   * still exactly the stale settled row the caller names. True when this owner holds the lease now.
   */
  previewClaim(c: PreviewClaim): Promise<boolean>;
  /** Extends a lease this owner still holds; false when it lost it (it ran out and another took it). */
  previewRenew(platform: string, nativeId: string, owner: string, leaseUntil: number): Promise<boolean>;
  /** Gives up a lease this owner still holds without a result (render abandoned): another may claim at once. */
  previewRelease(platform: string, nativeId: string, owner: string): Promise<void>;
  idempotencyGet(owner: string, key: string): Promise<{ task_id: string; params_hash: string } | undefined>;
  insertWriteTask(t: NewTask, owner: string, key: string, paramsHash: string): Promise<TaskRow>;
  idempotencyPurge(before: number): Promise<number>;

  /** The entry for key if it has not expired by now. */
  cacheGet(key: string, now: number): Promise<CacheEntry | undefined>;
  cachePut(key: string, entry: Omit<CacheEntry, 'result_id' | 'expires_at'>, expiresAt: number): Promise<CacheEntry>;
  cachePurgeExpired(now: number): Promise<number>;
  tasksPurge(before: number): Promise<number>;

  tokenInsert(row: TokenRow): Promise<void>;
  tokenByHash(hash: Buffer): Promise<TokenRow | undefined>;
  tokenById(id: string): Promise<TokenRow | undefined>;
  tokenList(): Promise<TokenRow[]>;
  tokenRevoke(id: string, at: number): Promise<boolean>;

  profileList(): Promise<ProfileRow[]>;
  profileGet(platform: string, name: string): Promise<ProfileRow | undefined>;
  profileTouch(platform: string, name: string, at: number): Promise<void>;
  profilePut(p: { platform: string; name: string; cookies: string | null; credentials: string | null }): Promise<void>;
  profileDelete(platform: string, name: string): Promise<boolean>;
  /** Replaces only the cookies (cookies a browser context renewed); health stays. */
  profileCookies(platform: string, name: string, cookies: string): Promise<void>;
  /** Guest sessions (minted cookies) per account, sealed at rest, each bound to one User-Agent. */
  guestJarGet(account: string): Promise<{ user_agent: string; data: string } | undefined>;
  guestJarPut(account: string, userAgent: string, data: string, at: number): Promise<void>;
  /** Stored logins cooling down until after now (blocked or throttled); the runner holds their work back. */
  profilesCooling(now: number): Promise<Array<{ platform: string; name: string; cooling_until: number }>>;
  /** A stored login's backoff state, without its secrets; undefined when there is no such login. */
  profileStrikes(platform: string, name: string): Promise<{ strikes: number; cooling_until: number | null } | undefined>;
  profileHealth(h: { platform: string; name: string; health: ProfileRow['health']; checked_at: number; cooling_until: number | null; strikes: number }): Promise<void>;

  /**
   * Changes whenever another connection or process may have written (the CLI revoking a token); lets
   * in-memory caches notice. A backend without a cheap signal returns a new value every call.
   */
  dataVersion(): Promise<number>;

  close(): Promise<void>;
}
