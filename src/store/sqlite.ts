import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ErrorBody } from '../domain/errors.js';
import type { SecretBox } from '../accounts/secrets.js';
import { ORPHAN_WRITE_ERROR, taskRecord } from './task-record.js';
import { SqlitePreviewLeases } from './sqlite-previews.js';
import { SQLITE_WEBHOOKS_MIGRATION } from './sqlite-webhooks.js';
import { WATCH_MIGRATION } from './sqlite-watches.js';
import { SQLITE_DOWNLOAD_FILES_MIGRATION, SqliteDownloadFiles } from './sqlite-download-files.js';
import type { CacheEntry, MediaRef, NewTask, PreviewClaim, PreviewRow, ProfileRow, Store, TaskListQuery, TaskRow, TokenRow } from './types.js';

const MIGRATIONS: string[] = [
  `CREATE TABLE tasks (
     id TEXT PRIMARY KEY, status TEXT NOT NULL, source TEXT NOT NULL, action TEXT NOT NULL, params TEXT NOT NULL,
     account TEXT NOT NULL, created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER,
     attempts INTEGER NOT NULL DEFAULT 1, progress TEXT, result TEXT, error TEXT, owner TEXT, event_seq INTEGER NOT NULL DEFAULT 0,
     result_id INTEGER, result_age INTEGER
   );
   CREATE INDEX tasks_by_status ON tasks(status, created_at);
   CREATE INDEX tasks_by_result ON tasks(result_id) WHERE result_id IS NOT NULL;
   CREATE TABLE results (id INTEGER PRIMARY KEY, head TEXT NOT NULL, tail TEXT NOT NULL, created_at INTEGER NOT NULL);
   CREATE TABLE tokens (
     id TEXT PRIMARY KEY, name TEXT, hash BLOB NOT NULL UNIQUE, scopes TEXT NOT NULL, created_at INTEGER NOT NULL, revoked_at INTEGER
   );
   CREATE TABLE profiles (
     platform TEXT NOT NULL, name TEXT NOT NULL, cookies TEXT, credentials TEXT, health TEXT NOT NULL DEFAULT 'unknown',
     checked_at INTEGER, used_at INTEGER, PRIMARY KEY (platform, name)
   );
   CREATE TABLE cache (key TEXT PRIMARY KEY, result_id INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX cache_by_expiry ON cache(expires_at);
   CREATE TABLE media_refs (url_hash TEXT PRIMARY KEY, platform TEXT NOT NULL, native_id TEXT NOT NULL, slot TEXT NOT NULL,
     profile TEXT NOT NULL, url TEXT NOT NULL, kind TEXT NOT NULL, created_at INTEGER NOT NULL);
   CREATE INDEX media_refs_by_item ON media_refs(platform, native_id);
   CREATE TABLE media_swaps (url_hash TEXT PRIMARY KEY, url TEXT NOT NULL, created_at INTEGER NOT NULL);
   CREATE TABLE previews (platform TEXT NOT NULL, native_id TEXT NOT NULL, state TEXT NOT NULL, reason TEXT, w INTEGER, h INTEGER,
     seconds REAL, file TEXT, updated_at INTEGER NOT NULL, PRIMARY KEY (platform, native_id));
   CREATE TABLE idempotency (owner TEXT NOT NULL, key TEXT NOT NULL, task_id TEXT NOT NULL, params_hash TEXT NOT NULL,
     created_at INTEGER NOT NULL, PRIMARY KEY (owner, key));`,
  `ALTER TABLE profiles ADD COLUMN cooling_until INTEGER;
   ALTER TABLE profiles ADD COLUMN strikes INTEGER NOT NULL DEFAULT 0;`,
  `CREATE TABLE guest_jars (account TEXT PRIMARY KEY, user_agent TEXT NOT NULL, data TEXT NOT NULL, updated_at INTEGER NOT NULL);`,
  // GET /v1/tasks: a caller's own tasks, newest first (ids are time-ordered).
  `CREATE INDEX tasks_by_owner ON tasks(owner, id);`,
  // SSE history of running tasks (status, progress), so Last-Event-ID resumes on any process.
  `CREATE TABLE task_events (task_id TEXT NOT NULL, id INTEGER NOT NULL, attempt INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
     at INTEGER NOT NULL, PRIMARY KEY (task_id, id)) WITHOUT ROWID;
   CREATE INDEX task_events_by_age ON task_events(at);`,
  // Only unfinished tasks are indexed by status: a task answered from cache is born finished and skips it.
  `DROP INDEX tasks_by_status;
   CREATE INDEX tasks_queued ON tasks(created_at) WHERE status = 'queued';
   CREATE INDEX tasks_running ON tasks(account) WHERE status = 'running';`,
  // Render leases, so processes sharing the store never render one clip twice.
  `ALTER TABLE previews ADD COLUMN owner TEXT;
   ALTER TABLE previews ADD COLUMN lease_until INTEGER;`,
  // Watches (src/store/sqlite-watches.ts); their runs queue behind interactive tasks (claim order).
  WATCH_MIGRATION,
  // Webhook outbox: a finished task with a callback_url owes one delivery, written with the finish itself
  // (the trigger reads tasks.watch_id, which the watches migration adds).
  SQLITE_WEBHOOKS_MIGRATION,
  // Batches (POST /v1/tasks/batch): each accepted entry's task by index; the key is what counts read.
  `CREATE TABLE batches (id TEXT PRIMARY KEY, owner TEXT, created_at INTEGER NOT NULL, size INTEGER NOT NULL);
   CREATE TABLE batch_tasks (batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE, idx INTEGER NOT NULL, task_id TEXT NOT NULL,
     PRIMARY KEY (batch_id, idx)) WITHOUT ROWID;`,
  // Files of the download action (IF NOT EXISTS: branches append here in any merge order).
  SQLITE_DOWNLOAD_FILES_MIGRATION,
];

export function openDatabase(file: string): Database.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}

/** The embedded Store: one SQLite file in WAL mode, prepared statements only. */
export class SqliteStore implements Store {
  private readonly s;
  /**
   * Cache-hit tasks are born finished and their caller already holds the whole result, so their rows
   * are written in one transaction per event-loop turn (group commit) instead of one commit each.
   */
  private readonly pending = new Map<string, { row: TaskRow; params: Record<string, unknown> }>();
  private flushScheduled = false;
  private readonly insertBatch: (batch: Array<{ params: Record<string, unknown> }>) => void;
  private batchCommitted: Promise<void> = Promise.resolve();
  constructor(
    readonly db: Database.Database,
    /** Seals profile cookies and credentials at rest; absent only in tests of the store itself. */
    private readonly box?: SecretBox,
    /** Group-commit window for cache-hit tasks; 0 commits on the next turn of the event loop. */
    private readonly groupCommitMs = 0,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // Positional parameters: binding by name costs a property lookup per column on the hot path.
      insert: p(`INSERT INTO tasks (id, status, source, action, params, account, created_at, started_at, finished_at, attempts, result, owner, event_seq, result_id, result_age, watch_id)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`),
      get: p(`SELECT tasks.*, results.head AS r_head, results.tail AS r_tail FROM tasks
              LEFT JOIN results ON results.id = tasks.result_id WHERE tasks.id = ?`),
      running: p(`UPDATE tasks SET status = 'running', started_at = ?, event_seq = event_seq + 1 WHERE id = ? AND status = 'queued' RETURNING *`),
      // Ids of a change come from the row, above any stored, so a process that never saw earlier events numbers them uniquely.
      finish: p(`UPDATE tasks SET status = ?, result = ?, error = ?, finished_at = ?, event_seq = MAX(event_seq + 2, ?)
                 WHERE id = ? AND status = 'running' AND attempts = ? RETURNING *`),
      progress: p(`UPDATE tasks SET progress = ?, event_seq = MAX(event_seq, ?) WHERE id = ? AND status = 'running'`),
      cancel: p(`UPDATE tasks SET status = 'cancelled', finished_at = ?, event_seq = MAX(event_seq + 2, ?) WHERE id = ? AND status IN ('queued', 'running') RETURNING *`),
      requeue: p(`UPDATE tasks SET status = 'queued', attempts = attempts + 1, started_at = NULL, finished_at = NULL, result = NULL,
                 error = NULL, progress = NULL, result_id = NULL, result_age = NULL, event_seq = MAX(event_seq + 1, ?) WHERE id = ? RETURNING *`),
      // Each count reads its own partial index.
      counts: p(`SELECT 'queued' AS status, COUNT(*) AS n FROM tasks WHERE status = 'queued'
                 UNION ALL SELECT 'running', COUNT(*) FROM tasks WHERE status = 'running'`),
      // Pick and mark in one statement: no other connection can take the row in between.
      claimNext: p(`UPDATE tasks SET status = 'running', started_at = ?, event_seq = event_seq + 1
                    WHERE id = (SELECT id FROM tasks WHERE status = 'queued' AND account NOT IN (SELECT value FROM json_each(?))
                                ORDER BY watch_id IS NOT NULL, created_at, rowid LIMIT 1)
                    RETURNING *`),
      // Like a retry: the dead run's progress goes, and the transition owns an event id (status).
      orphans: p(`UPDATE tasks SET status = 'queued', attempts = attempts + 1, started_at = NULL, progress = NULL, event_seq = event_seq + 1
                  WHERE status = 'running' AND action NOT IN ('post.create', 'comment.create', 'delete')`),
      // Like any finish: status and result events, so a stream resuming from the last id still hears the end.
      orphanWrites: p(`UPDATE tasks SET status = 'failed', finished_at = ?, error = ?, event_seq = event_seq + 2
                       WHERE status = 'running' AND action IN ('post.create', 'comment.create', 'delete')`),
      refPut: p('INSERT OR REPLACE INTO media_refs (url_hash, platform, native_id, slot, profile, url, kind, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      refGet: p('SELECT platform, native_id, slot, profile FROM media_refs WHERE url_hash = ?'),
      videoOf: p(`SELECT url, profile FROM media_refs WHERE platform = ? AND native_id = ? AND kind = 'video' ORDER BY created_at DESC, slot LIMIT 1`),
      swapPut: p('INSERT OR REPLACE INTO media_swaps (url_hash, url, created_at) VALUES (?, ?, ?)'),
      swapGet: p('SELECT url FROM media_swaps WHERE url_hash = ?').pluck(),
      previewGet: p('SELECT * FROM previews WHERE platform = ? AND native_id = ?'),
      previewPut: p(`INSERT OR REPLACE INTO previews (platform, native_id, state, reason, w, h, seconds, file, updated_at)
                     VALUES (@platform, @native_id, @state, @reason, @w, @h, @seconds, @file, @updated_at)`),
      idemGet: p('SELECT task_id, params_hash FROM idempotency WHERE owner = ? AND key = ?'),
      idemPut: p('INSERT INTO idempotency (owner, key, task_id, params_hash, created_at) VALUES (?, ?, ?, ?, ?)'),
      idemPurge: p('DELETE FROM idempotency WHERE created_at < ?'),
      cacheGet: p(`SELECT cache.result_id, results.head, results.tail, cache.created_at, cache.expires_at FROM cache
                   JOIN results ON results.id = cache.result_id WHERE key = ? AND expires_at > ?`),
      resultInsert: p('INSERT INTO results (head, tail, created_at) VALUES (?, ?, ?)'),
      cachePut: p('INSERT OR REPLACE INTO cache (key, result_id, created_at, expires_at) VALUES (?, ?, ?, ?)'),
      cachePurge: p('DELETE FROM cache WHERE expires_at <= ?'),
      // A task an idempotency key is still bound to stays: a repeat of the key replays its result.
      tasksPurge: p(`DELETE FROM tasks WHERE status IN ('succeeded', 'failed', 'cancelled') AND COALESCE(finished_at, created_at) < ?
                     AND id NOT IN (SELECT task_id FROM idempotency)`),
      resultsPurge: p(`DELETE FROM results WHERE id NOT IN (SELECT result_id FROM cache)
                       AND id NOT IN (SELECT result_id FROM tasks WHERE result_id IS NOT NULL)`),
      tokenInsert: p('INSERT INTO tokens (id, name, hash, scopes, created_at, revoked_at) VALUES (@id, @name, @hash, @scopes, @created_at, @revoked_at)'),
      tokenByHash: p('SELECT * FROM tokens WHERE hash = ?'),
      tokenById: p('SELECT * FROM tokens WHERE id = ?'),
      tokenList: p('SELECT * FROM tokens ORDER BY created_at'),
      tokenRevoke: p('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      profileList: p('SELECT * FROM profiles ORDER BY platform, name'),
      profileGet: p('SELECT * FROM profiles WHERE platform = ? AND name = ?'),
      profileTouch: p('UPDATE profiles SET used_at = ? WHERE platform = ? AND name = ?'),
      // A new login replaces the old one: its health is unknown until used, and the old one's cooling goes with it.
      profilePut: p(`INSERT INTO profiles (platform, name, cookies, credentials, health) VALUES (@platform, @name, @cookies, @credentials, 'unknown')
                     ON CONFLICT (platform, name) DO UPDATE SET cookies = excluded.cookies, credentials = excluded.credentials, health = 'unknown', checked_at = NULL,
                     cooling_until = NULL, strikes = 0`),
      profilesCooling: p('SELECT platform, name, cooling_until FROM profiles WHERE cooling_until > ?'),
      profileStrikes: p('SELECT strikes, cooling_until FROM profiles WHERE platform = ? AND name = ?'),
      profileDelete: p('DELETE FROM profiles WHERE platform = ? AND name = ?'),
      profileCookies: p('UPDATE profiles SET cookies = ? WHERE platform = ? AND name = ?'),
      jarGet: p('SELECT user_agent, data FROM guest_jars WHERE account = ?'),
      jarPut: p('INSERT OR REPLACE INTO guest_jars (account, user_agent, data, updated_at) VALUES (?, ?, ?, ?)'),
      profileHealth: p(`UPDATE profiles SET health = @health, checked_at = @checked_at, cooling_until = @cooling_until, strikes = @strikes
                        WHERE platform = @platform AND name = @name`),
      dataVersion: p('PRAGMA data_version').pluck(),
      // Without the result: a listing is a table of contents, each task fetched on its own.
      list: p(`SELECT id, status, source, action, params, account, created_at, started_at, finished_at, attempts, progress, NULL AS result, error, owner, event_seq, watch_id
               FROM tasks WHERE (@all = 1 OR owner IS @owner) AND (@before IS NULL OR id < @before)
               AND (@status IS NULL OR status = @status) AND (@source IS NULL OR source = @source) AND (@action IS NULL OR action = @action)
               ORDER BY id DESC LIMIT @limit`),
    };
    this.insertBatch = db.transaction((batch: Array<{ params: Record<string, unknown> }>) => {
      for (const p of batch) this.insertRow(p.params);
    });
  }

  /** Queued tasks commit at once; tasks born finished wait for their group's commit (see pending). */
  async insertTask(t: NewTask): Promise<TaskRow> {
    const { row, params } = taskRecord(t);
    if (!t.finished) {
      this.insertRow(params);
      return row;
    }
    await this.groupCommit(row, params);
    return row;
  }
  private insertRow(p: Record<string, unknown>): void {
    this.s.insert.run(p.id, p.status, p.source, p.action, p.params, p.account, p.createdAt, p.startedAt, p.finishedAt, p.result, p.owner, p.eventSeq, p.resultId, p.resultAge, p.watchId);
  }
  private groupCommit(row: TaskRow, params: Record<string, unknown>): Promise<void> {
    this.pending.set(row.id, { row, params });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.batchCommitted = new Promise<void>((resolve, reject) => {
        const commit = () => {
          try {
            this.flush();
            resolve();
          } catch (e) {
            reject(e);
          }
        };
        if (this.groupCommitMs > 0) setTimeout(commit, this.groupCommitMs);
        else setImmediate(commit);
      });
    }
    return this.batchCommitted;
  }
  /** Writes pending cache-hit tasks now (also called before close). */
  flush(): void {
    this.flushScheduled = false;
    if (!this.pending.size || !this.db.open) return;
    const batch = [...this.pending.values()];
    try {
      this.insertBatch(batch);
    } finally {
      for (const p of batch) this.pending.delete(p.row.id);
    }
  }
  async listTasks(q: TaskListQuery): Promise<TaskRow[]> {
    return this.s.list.all({
      all: q.owner === undefined ? 1 : 0,
      owner: q.owner ?? null,
      before: q.before ?? null,
      status: q.status ?? null,
      source: q.source ?? null,
      action: q.action ?? null,
      limit: q.limit,
    }) as TaskRow[];
  }
  async getTask(id: string): Promise<TaskRow | undefined> {
    const r = this.s.get.get(id) as (TaskRow & { result_id: number | null; result_age: number | null; r_head: string | null; r_tail: string | null }) | undefined;
    if (!r) return undefined;
    // A cache-hit task stores a reference to the shared result and its age, not a copy.
    if (r.result_id !== null && r.r_head !== null && r.r_tail !== null) r.result = `${r.r_head}${r.result_age ?? 0}${r.r_tail}`;
    delete (r as Partial<typeof r>).r_head;
    delete (r as Partial<typeof r>).r_tail;
    return r;
  }
  async markRunning(id: string, at: number): Promise<TaskRow | undefined> {
    return this.s.running.get(at, id) as TaskRow | undefined;
  }
  async finishTask(id: string, attempt: number, status: 'succeeded' | 'failed', result: string | null, error: ErrorBody | null, at: number, eventSeq: number): Promise<TaskRow | undefined> {
    return this.s.finish.get(status, result, error ? JSON.stringify(error) : null, at, eventSeq, id, attempt) as TaskRow | undefined;
  }
  async setProgress(id: string, progressJson: string, eventSeq: number): Promise<void> {
    this.s.progress.run(progressJson, eventSeq, id);
  }
  async cancelTask(id: string, at: number, eventSeq: number): Promise<TaskRow | undefined> {
    return this.s.cancel.get(at, eventSeq, id) as TaskRow | undefined;
  }
  async requeueTask(id: string, eventSeq: number): Promise<TaskRow | undefined> {
    return this.s.requeue.get(eventSeq, id) as TaskRow | undefined;
  }
  async countByStatus(): Promise<Record<string, number>> {
    const out: Record<string, number> = { queued: 0, running: 0 };
    for (const r of this.s.counts.all() as Array<{ status: string; n: number }>) out[r.status] = r.n;
    return out;
  }
  async claimNext(busyAccounts: string[], at: number): Promise<TaskRow | undefined> {
    return this.s.claimNext.get(at, JSON.stringify(busyAccounts)) as TaskRow | undefined;
  }
  async requeueOrphans(): Promise<number> {
    // A write that was in flight may or may not have been published: never run it twice.
    this.s.orphanWrites.run(Date.now(), JSON.stringify(ORPHAN_WRITE_ERROR));
    return this.s.orphans.run().changes;
  }
  async mediaRefsPut(refs: MediaRef[], at: number): Promise<void> {
    if (!refs.length) return;
    this.db.transaction(() => {
      for (const r of refs) this.s.refPut.run(r.url_hash, r.platform, r.native_id, r.slot, r.profile, r.url, r.kind, at);
    })();
  }
  async mediaRefGet(urlHash: string): Promise<Pick<MediaRef, 'platform' | 'native_id' | 'slot' | 'profile'> | undefined> {
    return this.s.refGet.get(urlHash) as Pick<MediaRef, 'platform' | 'native_id' | 'slot' | 'profile'> | undefined;
  }
  async videoOf(platform: string, nativeId: string): Promise<{ url: string; profile: string } | undefined> {
    return this.s.videoOf.get(platform, nativeId) as { url: string; profile: string } | undefined;
  }
  async mediaSwapPut(urlHash: string, url: string, at: number): Promise<void> {
    this.s.swapPut.run(urlHash, url, at);
  }
  async mediaSwapGet(urlHash: string): Promise<string | undefined> {
    return this.s.swapGet.get(urlHash) as string | undefined;
  }
  async previewGet(platform: string, nativeId: string): Promise<PreviewRow | undefined> {
    return this.s.previewGet.get(platform, nativeId) as PreviewRow | undefined;
  }
  async previewPut(row: PreviewRow): Promise<void> {
    this.s.previewPut.run(row);
  }
  private files?: SqliteDownloadFiles;
  get downloads(): SqliteDownloadFiles {
    return (this.files ??= new SqliteDownloadFiles(this.db));
  }
  private leases?: SqlitePreviewLeases;
  private get previewLeases(): SqlitePreviewLeases {
    return (this.leases ??= new SqlitePreviewLeases(this.db));
  }
  async previewClaim(c: PreviewClaim): Promise<boolean> {
    return this.previewLeases.claim(c);
  }
  async previewRenew(platform: string, nativeId: string, owner: string, leaseUntil: number): Promise<boolean> {
    return this.previewLeases.renew(platform, nativeId, owner, leaseUntil);
  }
  async previewRelease(platform: string, nativeId: string, owner: string): Promise<void> {
    this.previewLeases.release(platform, nativeId, owner);
  }
  async idempotencyGet(owner: string, key: string): Promise<{ task_id: string; params_hash: string } | undefined> {
    return this.s.idemGet.get(owner, key) as { task_id: string; params_hash: string } | undefined;
  }
  /** Binds the key to a new task atomically with the task's insert. */
  async insertWriteTask(t: NewTask, owner: string, key: string, paramsHash: string): Promise<TaskRow> {
    const { row, params } = taskRecord(t);
    this.db.transaction(() => {
      this.insertRow(params);
      this.s.idemPut.run(owner, key, t.id, paramsHash, t.createdAt);
    })();
    return row;
  }
  async idempotencyPurge(before: number): Promise<number> {
    return this.s.idemPurge.run(before).changes;
  }
  async cacheGet(key: string, now: number): Promise<CacheEntry | undefined> {
    return this.s.cacheGet.get(key, now) as CacheEntry | undefined;
  }
  async cachePut(key: string, e: Omit<CacheEntry, 'result_id' | 'expires_at'>, expiresAt: number): Promise<CacheEntry> {
    return this.db.transaction(() => {
      const id = Number(this.s.resultInsert.run(e.head, e.tail, e.created_at).lastInsertRowid);
      this.s.cachePut.run(key, id, e.created_at, expiresAt);
      return { ...e, result_id: id, expires_at: expiresAt };
    })();
  }
  /** Ended tasks older than the cutoff go, with the shared results no task or cache entry still uses. */
  async tasksPurge(before: number): Promise<number> {
    const n = this.s.tasksPurge.run(before).changes;
    if (n) this.s.resultsPurge.run();
    return n;
  }
  async cachePurgeExpired(now: number): Promise<number> {
    const n = this.s.cachePurge.run(now).changes;
    if (n) this.s.resultsPurge.run();
    return n;
  }
  async tokenInsert(row: TokenRow): Promise<void> {
    this.s.tokenInsert.run(row);
  }
  async tokenByHash(hash: Buffer): Promise<TokenRow | undefined> {
    return this.s.tokenByHash.get(hash) as TokenRow | undefined;
  }
  async tokenById(id: string): Promise<TokenRow | undefined> {
    return this.s.tokenById.get(id) as TokenRow | undefined;
  }
  async tokenList(): Promise<TokenRow[]> {
    return this.s.tokenList.all() as TokenRow[];
  }
  async tokenRevoke(id: string, at: number): Promise<boolean> {
    return this.s.tokenRevoke.run(at, id).changes === 1;
  }
  /** Rows without their secrets: listings never need them. */
  async profileList(): Promise<ProfileRow[]> {
    return (this.s.profileList.all() as ProfileRow[]).map((r) => ({ ...r, cookies: null, credentials: null }));
  }
  async profileGet(platform: string, name: string): Promise<ProfileRow | undefined> {
    const row = this.s.profileGet.get(platform, name) as ProfileRow | undefined;
    if (row && this.box) {
      if (row.cookies !== null) row.cookies = this.box.open(row.cookies);
      if (row.credentials !== null) row.credentials = this.box.open(row.credentials);
    }
    return row;
  }
  async profilePut(p: { platform: string; name: string; cookies: string | null; credentials: string | null }): Promise<void> {
    const seal = (v: string | null) => (v !== null && this.box ? this.box.seal(v) : v);
    this.s.profilePut.run({ ...p, cookies: seal(p.cookies), credentials: seal(p.credentials) });
  }
  async profilesCooling(now: number): Promise<Array<{ platform: string; name: string; cooling_until: number }>> {
    return this.s.profilesCooling.all(now) as Array<{ platform: string; name: string; cooling_until: number }>;
  }
  async profileStrikes(platform: string, name: string): Promise<{ strikes: number; cooling_until: number | null } | undefined> {
    return this.s.profileStrikes.get(platform, name) as { strikes: number; cooling_until: number | null } | undefined;
  }
  async profileHealth(h: { platform: string; name: string; health: ProfileRow['health']; checked_at: number; cooling_until: number | null; strikes: number }): Promise<void> {
    this.s.profileHealth.run(h);
  }
  async guestJarGet(account: string): Promise<{ user_agent: string; data: string } | undefined> {
    const row = this.s.jarGet.get(account) as { user_agent: string; data: string } | undefined;
    if (row && this.box) row.data = this.box.open(row.data);
    return row;
  }
  async guestJarPut(account: string, userAgent: string, data: string, at: number): Promise<void> {
    this.s.jarPut.run(account, userAgent, this.box ? this.box.seal(data) : data, at);
  }
  async profileCookies(platform: string, name: string, cookies: string): Promise<void> {
    this.s.profileCookies.run(this.box ? this.box.seal(cookies) : cookies, platform, name);
  }
  async profileDelete(platform: string, name: string): Promise<boolean> {
    return this.s.profileDelete.run(platform, name).changes === 1;
  }
  async profileTouch(platform: string, name: string, at: number): Promise<void> {
    this.s.profileTouch.run(at, platform, name);
  }
  async dataVersion(): Promise<number> {
    return this.s.dataVersion.get() as number;
  }
  async close(): Promise<void> {
    this.flush();
    this.db.close();
  }
}
