import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ErrorBody } from '../domain/errors.js';
import type { Progress } from '../domain/task.js';
import type { CacheEntry, NewTask, ProfileRow, Store, TaskRow, TokenRow } from './types.js';

const MIGRATIONS: string[] = [
  `CREATE TABLE tasks (
     id TEXT PRIMARY KEY, status TEXT NOT NULL, source TEXT NOT NULL, action TEXT NOT NULL, params TEXT NOT NULL,
     account TEXT NOT NULL, created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER,
     attempts INTEGER NOT NULL DEFAULT 1, progress TEXT, result TEXT, error TEXT, owner TEXT, event_seq INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX tasks_by_status ON tasks(status, created_at);
   CREATE TABLE tokens (
     id TEXT PRIMARY KEY, name TEXT, hash BLOB NOT NULL UNIQUE, scopes TEXT NOT NULL, created_at INTEGER NOT NULL, revoked_at INTEGER
   );
   CREATE TABLE profiles (
     platform TEXT NOT NULL, name TEXT NOT NULL, cookies TEXT, health TEXT NOT NULL DEFAULT 'unknown',
     checked_at INTEGER, used_at INTEGER, PRIMARY KEY (platform, name)
   );
   CREATE TABLE cache (key TEXT PRIMARY KEY, head TEXT NOT NULL, tail TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
   CREATE INDEX cache_by_expiry ON cache(expires_at);`,
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
  constructor(readonly db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insert: p(`INSERT INTO tasks (id, status, source, action, params, account, created_at, started_at, finished_at, attempts, result, owner, event_seq)
                 VALUES (@id, @status, @source, @action, @params, @account, @createdAt, @startedAt, @finishedAt, 1, @result, @owner, @eventSeq)`),
      get: p('SELECT * FROM tasks WHERE id = ?'),
      running: p(`UPDATE tasks SET status = 'running', started_at = ?, event_seq = event_seq + 1 WHERE id = ? AND status = 'queued' RETURNING *`),
      finish: p(`UPDATE tasks SET status = ?, result = ?, error = ?, finished_at = ?, event_seq = ?
                 WHERE id = ? AND status = 'running' AND attempts = ?`),
      progress: p(`UPDATE tasks SET progress = ?, event_seq = ? WHERE id = ? AND status = 'running'`),
      cancel: p(`UPDATE tasks SET status = 'cancelled', finished_at = ?, event_seq = ? WHERE id = ? AND status IN ('queued', 'running') RETURNING *`),
      requeue: p(`UPDATE tasks SET status = 'queued', attempts = attempts + 1, started_at = NULL, finished_at = NULL, result = NULL,
                 error = NULL, progress = NULL, event_seq = ? WHERE id = ? RETURNING *`),
      counts: p('SELECT status, COUNT(*) AS n FROM tasks WHERE status IN (\'queued\', \'running\') GROUP BY status'),
      nextQueued: p(`SELECT id, account FROM tasks WHERE status = 'queued' AND account NOT IN (SELECT value FROM json_each(?))
                    ORDER BY created_at, rowid LIMIT 1`),
      orphans: p(`UPDATE tasks SET status = 'queued', attempts = attempts + 1, started_at = NULL WHERE status = 'running'`),
      cacheGet: p('SELECT head, tail, created_at FROM cache WHERE key = ? AND expires_at > ?'),
      cachePut: p('INSERT OR REPLACE INTO cache (key, head, tail, created_at, expires_at) VALUES (?, ?, ?, ?, ?)'),
      cachePurge: p('DELETE FROM cache WHERE expires_at <= ?'),
      tokenInsert: p('INSERT INTO tokens (id, name, hash, scopes, created_at, revoked_at) VALUES (@id, @name, @hash, @scopes, @created_at, @revoked_at)'),
      tokenByHash: p('SELECT * FROM tokens WHERE hash = ?'),
      tokenById: p('SELECT * FROM tokens WHERE id = ?'),
      tokenList: p('SELECT * FROM tokens ORDER BY created_at'),
      tokenRevoke: p('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      profileList: p('SELECT * FROM profiles ORDER BY platform, name'),
      profileGet: p('SELECT * FROM profiles WHERE platform = ? AND name = ?'),
      profileTouch: p('UPDATE profiles SET used_at = ? WHERE platform = ? AND name = ?'),
    };
  }

  insertTask(t: NewTask): void {
    this.s.insert.run({
      id: t.id,
      status: t.finished ? 'succeeded' : 'queued',
      source: t.source,
      action: t.action,
      params: t.params,
      account: t.account,
      createdAt: t.createdAt,
      startedAt: t.finished ? t.createdAt : null,
      finishedAt: t.finished ? t.createdAt : null,
      result: t.finished?.result ?? null,
      owner: t.owner,
      // Every emitted event id is stored: a queued task has emitted status (1); one born finished owns 1 and 2.
      eventSeq: t.finished ? 2 : 1,
    });
  }
  getTask(id: string): TaskRow | undefined {
    return this.s.get.get(id) as TaskRow | undefined;
  }
  markRunning(id: string, at: number): TaskRow | undefined {
    return this.s.running.get(at, id) as TaskRow | undefined;
  }
  finishTask(id: string, attempt: number, status: 'succeeded' | 'failed', result: string | null, error: ErrorBody | null, at: number, eventSeq: number): boolean {
    return this.s.finish.run(status, result, error ? JSON.stringify(error) : null, at, eventSeq, id, attempt).changes === 1;
  }
  setProgress(id: string, progress: Progress, eventSeq: number): void {
    this.s.progress.run(JSON.stringify(progress), eventSeq, id);
  }
  cancelTask(id: string, at: number, eventSeq: number): TaskRow | undefined {
    return this.s.cancel.get(at, eventSeq, id) as TaskRow | undefined;
  }
  requeueTask(id: string, eventSeq: number): TaskRow | undefined {
    return this.s.requeue.get(eventSeq, id) as TaskRow | undefined;
  }
  countByStatus(): Record<string, number> {
    const out: Record<string, number> = { queued: 0, running: 0 };
    for (const r of this.s.counts.all() as Array<{ status: string; n: number }>) out[r.status] = r.n;
    return out;
  }
  nextQueued(busyAccounts: string[]): Pick<TaskRow, 'id' | 'account'> | undefined {
    return this.s.nextQueued.get(JSON.stringify(busyAccounts)) as Pick<TaskRow, 'id' | 'account'> | undefined;
  }
  requeueOrphans(): number {
    return this.s.orphans.run().changes;
  }
  cacheGet(key: string): CacheEntry | undefined {
    return this.s.cacheGet.get(key, Date.now()) as CacheEntry | undefined;
  }
  cachePut(key: string, e: CacheEntry, expiresAt: number): void {
    this.s.cachePut.run(key, e.head, e.tail, e.created_at, expiresAt);
  }
  cachePurgeExpired(now: number): number {
    return this.s.cachePurge.run(now).changes;
  }
  tokenInsert(row: TokenRow): void {
    this.s.tokenInsert.run(row);
  }
  tokenByHash(hash: Buffer): TokenRow | undefined {
    return this.s.tokenByHash.get(hash) as TokenRow | undefined;
  }
  tokenById(id: string): TokenRow | undefined {
    return this.s.tokenById.get(id) as TokenRow | undefined;
  }
  tokenList(): TokenRow[] {
    return this.s.tokenList.all() as TokenRow[];
  }
  tokenRevoke(id: string, at: number): boolean {
    return this.s.tokenRevoke.run(at, id).changes === 1;
  }
  profileList(): ProfileRow[] {
    return this.s.profileList.all() as ProfileRow[];
  }
  profileGet(platform: string, name: string): ProfileRow | undefined {
    return this.s.profileGet.get(platform, name) as ProfileRow | undefined;
  }
  profileTouch(platform: string, name: string, at: number): void {
    this.s.profileTouch.run(at, platform, name);
  }
  close(): void {
    this.db.close();
  }
}
