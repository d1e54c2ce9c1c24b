import { PgDownloadFiles } from './download-files.js';
import type pg from 'pg';
import type { SecretBox } from '../../accounts/secrets.js';
import type { ErrorBody } from '../../domain/errors.js';
import { WRITE_ACTION_LIST, ORPHAN_WRITE_ERROR, taskRecord } from '../task-record.js';
import type { CacheEntry, MediaRef, NewTask, PreviewClaim, PreviewRow, ProfileRow, Store, TaskListQuery, TaskRow, TokenRow } from '../types.js';
import { migrate } from './migrate.js';

const TASK = 'id, status, source, action, params, account, created_at, started_at, finished_at, attempts, progress, result, error, owner, event_seq, watch_id';
const INSERT_TASK = `INSERT INTO tasks (id, status, source, action, params, account, created_at, started_at, finished_at, attempts, result, owner, event_seq, result_id, result_age, watch_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $11, $12, $13, $14, $15)`;

/**
 * The Postgres Store: the same tables and semantics as the SQLite one, for a fleet of processes. Every
 * change that must not interleave with another process's is one statement (conditional updates, CTEs),
 * so no call holds a transaction open across round trips.
 */
export class PgStore implements Store {
  private migrated?: Promise<void>;

  constructor(
    readonly pool: pg.Pool,
    /** Seals profile cookies and credentials at rest; absent only in tests of the store itself. */
    private readonly box?: SecretBox,
    private readonly schema?: string,
  ) {
    // Awaited by every call; an unobserved failure here must not crash the process before the first one.
    this.ready().catch(() => {});
  }

  /**
   * Migrations run once, before the first query (the constructor stays synchronous for the composition
   * root). A failed run (the server was down at start) is tried again by the next call, so the process
   * recovers once the server is back.
   */
  ready(): Promise<void> {
    if (!this.migrated) {
      const run = migrate(this.pool, this.schema).then(() => undefined);
      this.migrated = run;
      run.catch(() => {
        if (this.migrated === run) this.migrated = undefined;
      });
    }
    return this.migrated;
  }

  private files?: PgDownloadFiles;
  get downloads(): PgDownloadFiles {
    return (this.files ??= new PgDownloadFiles((sql, params) => this.q(sql, params)));
  }

  private async q<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    await this.ready();
    return this.pool.query<R>(sql, params);
  }
  private async one<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R | undefined> {
    return (await this.q<R>(sql, params)).rows[0];
  }

  async insertTask(t: NewTask): Promise<TaskRow> {
    const { row, params: p } = taskRecord(t);
    await this.q(INSERT_TASK, [p.id, p.status, p.source, p.action, p.params, p.account, p.createdAt, p.startedAt, p.finishedAt, p.result, p.owner, p.eventSeq, p.resultId, p.resultAge, p.watchId]);
    return row;
  }
  /** Binds the key to a new task atomically with the task's insert (one statement). */
  async insertWriteTask(t: NewTask, owner: string, key: string, paramsHash: string): Promise<TaskRow> {
    const { row, params: p } = taskRecord(t);
    await this.q(
      `WITH t AS (${INSERT_TASK} RETURNING id) INSERT INTO idempotency (owner, key, task_id, params_hash, created_at) SELECT $16, $17, t.id, $18, $7 FROM t`,
      [p.id, p.status, p.source, p.action, p.params, p.account, p.createdAt, p.startedAt, p.finishedAt, p.result, p.owner, p.eventSeq, p.resultId, p.resultAge, p.watchId, owner, key, paramsHash],
    );
    return row;
  }
  async getTask(id: string): Promise<TaskRow | undefined> {
    const r = await this.one<TaskRow & { result_age: number | null; r_head: string | null; r_tail: string | null }>(
      `SELECT ${TASK.split(', ').map((c) => `t.${c}`).join(', ')}, t.result_age, r.head AS r_head, r.tail AS r_tail
       FROM tasks t LEFT JOIN results r ON r.id = t.result_id WHERE t.id = $1`,
      [id],
    );
    if (!r) return undefined;
    const { result_age, r_head, r_tail, ...row } = r;
    // A cache-hit task stores a reference to the shared result and its age, not a copy.
    if (r_head !== null && r_tail !== null) row.result = `${r_head}${result_age ?? 0}${r_tail}`;
    return row;
  }
  async listTasks(q: TaskListQuery): Promise<TaskRow[]> {
    const r = await this.q<TaskRow>(
      `SELECT ${TASK.replace('result', 'NULL AS result')} FROM tasks
       WHERE ($1 OR owner IS NOT DISTINCT FROM $2) AND ($3::text IS NULL OR id < $3)
       AND ($4::text IS NULL OR status = $4) AND ($5::text IS NULL OR source = $5) AND ($6::text IS NULL OR action = $6)
       ORDER BY id DESC LIMIT $7`,
      [q.owner === undefined, q.owner ?? null, q.before ?? null, q.status ?? null, q.source ?? null, q.action ?? null, q.limit],
    );
    return r.rows;
  }
  async markRunning(id: string, at: number): Promise<TaskRow | undefined> {
    return this.one<TaskRow>(`UPDATE tasks SET status = 'running', started_at = $1, event_seq = event_seq + 1 WHERE id = $2 AND status = 'queued' RETURNING ${TASK}`, [at, id]);
  }
  // Event ids: the statement that ends or changes a task takes its ids from the row itself, above any
  // already stored, so a process that never saw the task's earlier events still numbers them uniquely.
  async finishTask(id: string, attempt: number, status: 'succeeded' | 'failed', result: string | null, error: ErrorBody | null, at: number, eventSeq: number): Promise<TaskRow | undefined> {
    return this.one<TaskRow>(
      `UPDATE tasks SET status = $1, result = $2, error = $3, finished_at = $4, event_seq = GREATEST(event_seq + 2, $5)
       WHERE id = $6 AND status = 'running' AND attempts = $7 RETURNING ${TASK}`,
      [status, result, error ? JSON.stringify(error) : null, at, eventSeq, id, attempt],
    );
  }
  async setProgress(id: string, progressJson: string, eventSeq: number): Promise<void> {
    await this.q(`UPDATE tasks SET progress = $1, event_seq = GREATEST(event_seq, $2) WHERE id = $3 AND status = 'running'`, [progressJson, eventSeq, id]);
  }
  async cancelTask(id: string, at: number, eventSeq: number): Promise<TaskRow | undefined> {
    return this.one<TaskRow>(
      `UPDATE tasks SET status = 'cancelled', finished_at = $1, event_seq = GREATEST(event_seq + 2, $2) WHERE id = $3 AND status IN ('queued', 'running') RETURNING ${TASK}`,
      [at, eventSeq, id],
    );
  }
  async requeueTask(id: string, eventSeq: number): Promise<TaskRow | undefined> {
    return this.one<TaskRow>(
      `UPDATE tasks SET status = 'queued', attempts = attempts + 1, started_at = NULL, finished_at = NULL, result = NULL, error = NULL, progress = NULL,
       result_id = NULL, result_age = NULL, event_seq = GREATEST(event_seq + 1, $1) WHERE id = $2 RETURNING ${TASK}`,
      [eventSeq, id],
    );
  }
  async countByStatus(): Promise<Record<string, number>> {
    const r = await this.q<{ status: string; n: number }>(
      `SELECT 'queued' AS status, COUNT(*) AS n FROM tasks WHERE status = 'queued' UNION ALL SELECT 'running', COUNT(*) FROM tasks WHERE status = 'running'`,
    );
    const out: Record<string, number> = { queued: 0, running: 0 };
    for (const row of r.rows) out[row.status] = row.n;
    return out;
  }
  /** SKIP LOCKED: claimers on other connections pass over a row being claimed instead of queueing behind it. */
  async claimNext(busyAccounts: string[], at: number): Promise<TaskRow | undefined> {
    return this.one<TaskRow>(
      `UPDATE tasks SET status = 'running', started_at = $1, event_seq = event_seq + 1
       WHERE id = (SELECT id FROM tasks WHERE status = 'queued' AND account <> ALL($2::text[]) ORDER BY (watch_id IS NOT NULL), created_at, ord LIMIT 1 FOR UPDATE SKIP LOCKED)
       AND status = 'queued' RETURNING ${TASK}`,
      [at, busyAccounts],
    );
  }
  async requeueOrphans(): Promise<number> {
    // A write that was in flight may or may not have been published: never run it twice.
    await this.q(
      `UPDATE tasks SET status = 'failed', finished_at = $1, error = $2, event_seq = event_seq + 2 WHERE status = 'running' AND action = ANY($3::text[])`,
      [Date.now(), JSON.stringify(ORPHAN_WRITE_ERROR), WRITE_ACTION_LIST],
    );
    const r = await this.q(
      `UPDATE tasks SET status = 'queued', attempts = attempts + 1, started_at = NULL, progress = NULL, event_seq = event_seq + 1
       WHERE status = 'running' AND NOT (action = ANY($1::text[]))`,
      [WRITE_ACTION_LIST],
    );
    return r.rowCount ?? 0;
  }

  async mediaRefsPut(refs: MediaRef[], at: number): Promise<void> {
    if (!refs.length) return;
    // ON CONFLICT may touch a row once per statement: the last ref of a hash wins, as with INSERT OR REPLACE.
    const byHash = new Map(refs.map((r) => [r.url_hash, r]));
    const list = [...byHash.values()];
    const col = <K extends keyof MediaRef>(k: K) => list.map((r) => r[k]);
    await this.q(
      `INSERT INTO media_refs (url_hash, platform, native_id, slot, profile, url, kind, created_at)
       SELECT u.*, $8::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u
       ON CONFLICT (url_hash) DO UPDATE SET platform = excluded.platform, native_id = excluded.native_id, slot = excluded.slot,
         profile = excluded.profile, url = excluded.url, kind = excluded.kind, created_at = excluded.created_at`,
      [col('url_hash'), col('platform'), col('native_id'), col('slot'), col('profile'), col('url'), col('kind'), at],
    );
  }
  async mediaRefGet(urlHash: string): Promise<Pick<MediaRef, 'platform' | 'native_id' | 'slot' | 'profile'> | undefined> {
    return this.one('SELECT platform, native_id, slot, profile FROM media_refs WHERE url_hash = $1', [urlHash]);
  }
  async videoOf(platform: string, nativeId: string): Promise<{ url: string; profile: string } | undefined> {
    return this.one(`SELECT url, profile FROM media_refs WHERE platform = $1 AND native_id = $2 AND kind = 'video' ORDER BY created_at DESC, slot LIMIT 1`, [platform, nativeId]);
  }
  async mediaSwapPut(urlHash: string, url: string, at: number): Promise<void> {
    await this.q('INSERT INTO media_swaps (url_hash, url, created_at) VALUES ($1, $2, $3) ON CONFLICT (url_hash) DO UPDATE SET url = excluded.url, created_at = excluded.created_at', [urlHash, url, at]);
  }
  async mediaSwapGet(urlHash: string): Promise<string | undefined> {
    return (await this.one<{ url: string }>('SELECT url FROM media_swaps WHERE url_hash = $1', [urlHash]))?.url;
  }
  async previewGet(platform: string, nativeId: string): Promise<PreviewRow | undefined> {
    return this.one<PreviewRow>('SELECT * FROM previews WHERE platform = $1 AND native_id = $2', [platform, nativeId]);
  }
  async previewPut(r: PreviewRow): Promise<void> {
    await this.q(
      `INSERT INTO previews (platform, native_id, state, reason, w, h, seconds, file, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (platform, native_id) DO UPDATE SET state = excluded.state, reason = excluded.reason, w = excluded.w, h = excluded.h,
         seconds = excluded.seconds, file = excluded.file, updated_at = excluded.updated_at, owner = NULL, lease_until = NULL`,
      [r.platform, r.native_id, r.state, r.reason, r.w, r.h, r.seconds, r.file, r.updated_at],
    );
  }
  /** One statement: an insert, or an update only of a row whose lease ran out or that is still the stale row named. */
  async previewClaim(c: PreviewClaim): Promise<boolean> {
    const res = await this.q(
      `INSERT INTO previews (platform, native_id, state, reason, w, h, seconds, file, updated_at, owner, lease_until)
       VALUES ($1, $2, 'rendering', NULL, NULL, NULL, NULL, NULL, $3, $4, $5)
       ON CONFLICT (platform, native_id) DO UPDATE SET state = 'rendering', reason = NULL, w = NULL, h = NULL, seconds = NULL,
         file = NULL, updated_at = excluded.updated_at, owner = excluded.owner, lease_until = excluded.lease_until
       WHERE (previews.state = 'rendering' AND COALESCE(previews.lease_until, 0) <= $3)
          OR (previews.state = $6::text AND previews.updated_at = $7::bigint)`,
      [c.platform, c.native_id, c.now, c.owner, c.lease_until, c.stale?.state ?? null, c.stale?.updated_at ?? null],
    );
    return res.rowCount === 1;
  }
  async previewRenew(platform: string, nativeId: string, owner: string, leaseUntil: number): Promise<boolean> {
    const res = await this.q(`UPDATE previews SET lease_until = $4 WHERE platform = $1 AND native_id = $2 AND state = 'rendering' AND owner = $3`, [platform, nativeId, owner, leaseUntil]);
    return res.rowCount === 1;
  }
  async previewRelease(platform: string, nativeId: string, owner: string): Promise<void> {
    await this.q(`DELETE FROM previews WHERE platform = $1 AND native_id = $2 AND state = 'rendering' AND owner = $3`, [platform, nativeId, owner]);
  }
  async idempotencyGet(owner: string, key: string): Promise<{ task_id: string; params_hash: string } | undefined> {
    return this.one('SELECT task_id, params_hash FROM idempotency WHERE owner = $1 AND key = $2', [owner, key]);
  }
  async idempotencyPurge(before: number): Promise<number> {
    return (await this.q('DELETE FROM idempotency WHERE created_at < $1', [before])).rowCount ?? 0;
  }

  async cacheGet(key: string, now: number): Promise<CacheEntry | undefined> {
    return this.one<CacheEntry>(
      `SELECT c.result_id, r.head, r.tail, c.created_at, c.expires_at FROM cache c JOIN results r ON r.id = c.result_id WHERE c.key = $1 AND c.expires_at > $2`,
      [key, now],
    );
  }
  async cachePut(key: string, e: Omit<CacheEntry, 'result_id' | 'expires_at'>, expiresAt: number): Promise<CacheEntry> {
    const r = await this.one<{ result_id: number }>(
      `WITH r AS (INSERT INTO results (head, tail, created_at) VALUES ($1, $2, $3) RETURNING id)
       INSERT INTO cache (key, result_id, created_at, expires_at) SELECT $4, r.id, $3, $5 FROM r
       ON CONFLICT (key) DO UPDATE SET result_id = excluded.result_id, created_at = excluded.created_at, expires_at = excluded.expires_at
       RETURNING result_id`,
      [e.head, e.tail, e.created_at, key, expiresAt],
    );
    return { ...e, result_id: r!.result_id, expires_at: expiresAt };
  }
  async cachePurgeExpired(now: number): Promise<number> {
    const n = (await this.q('DELETE FROM cache WHERE expires_at <= $1', [now])).rowCount ?? 0;
    if (n) await this.resultsPurge();
    return n;
  }
  /** Ended tasks older than the cutoff go, with the shared results no task or cache entry still uses. */
  async tasksPurge(before: number): Promise<number> {
    // A task an idempotency key is still bound to stays: a repeat of the key replays its result.
    const n =
      (
        await this.q(
          `DELETE FROM tasks t WHERE status IN ('succeeded', 'failed', 'cancelled') AND COALESCE(finished_at, created_at) < $1
           AND NOT EXISTS (SELECT 1 FROM idempotency i WHERE i.task_id = t.id)`,
          [before],
        )
      ).rowCount ?? 0;
    if (n) await this.resultsPurge();
    return n;
  }
  private async resultsPurge(): Promise<void> {
    await this.q(`DELETE FROM results r WHERE NOT EXISTS (SELECT 1 FROM cache c WHERE c.result_id = r.id) AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.result_id = r.id)`);
  }

  async tokenInsert(row: TokenRow): Promise<void> {
    await this.q('INSERT INTO tokens (id, name, hash, scopes, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6)', [row.id, row.name, row.hash, row.scopes, row.created_at, row.revoked_at]);
  }
  async tokenByHash(hash: Buffer): Promise<TokenRow | undefined> {
    return this.one<TokenRow>('SELECT * FROM tokens WHERE hash = $1', [hash]);
  }
  async tokenById(id: string): Promise<TokenRow | undefined> {
    return this.one<TokenRow>('SELECT * FROM tokens WHERE id = $1', [id]);
  }
  async tokenList(): Promise<TokenRow[]> {
    return (await this.q<TokenRow>('SELECT * FROM tokens ORDER BY created_at, id')).rows;
  }
  /** The revocation and the version bump commit together: no process can see one without the other. */
  async tokenRevoke(id: string, at: number): Promise<boolean> {
    const r = await this.q(
      `WITH t AS (UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id)
       UPDATE token_version SET version = version + 1 WHERE EXISTS (SELECT 1 FROM t)`,
      [at, id],
    );
    return r.rowCount === 1;
  }
  /**
   * The token version: moves whenever a token is revoked by any process. The token check reads it once
   * per event-loop turn, so a request that arrives after a revocation committed (anywhere) sees it.
   */
  async dataVersion(): Promise<number> {
    return (await this.one<{ version: number }>('SELECT version FROM token_version', []))!.version;
  }

  /** Rows without their secrets: listings never need them. */
  async profileList(): Promise<ProfileRow[]> {
    return (await this.q<ProfileRow>('SELECT * FROM profiles ORDER BY platform, name')).rows.map((r) => ({ ...r, cookies: null, credentials: null }));
  }
  async profileGet(platform: string, name: string): Promise<ProfileRow | undefined> {
    const row = await this.one<ProfileRow>('SELECT * FROM profiles WHERE platform = $1 AND name = $2', [platform, name]);
    if (row && this.box) {
      if (row.cookies !== null) row.cookies = this.box.open(row.cookies);
      if (row.credentials !== null) row.credentials = this.box.open(row.credentials);
    }
    return row;
  }
  async profileTouch(platform: string, name: string, at: number): Promise<void> {
    await this.q('UPDATE profiles SET used_at = $1 WHERE platform = $2 AND name = $3', [at, platform, name]);
  }
  /** A new login replaces the old one: its health is unknown until used, and the old one's cooling goes with it. */
  async profilePut(p: { platform: string; name: string; cookies: string | null; credentials: string | null }): Promise<void> {
    await this.q(
      `INSERT INTO profiles (platform, name, cookies, credentials, health) VALUES ($1, $2, $3, $4, 'unknown')
       ON CONFLICT (platform, name) DO UPDATE SET cookies = excluded.cookies, credentials = excluded.credentials, health = 'unknown', checked_at = NULL,
         cooling_until = NULL, strikes = 0`,
      [p.platform, p.name, this.seal(p.cookies), this.seal(p.credentials)],
    );
  }
  async profileDelete(platform: string, name: string): Promise<boolean> {
    return (await this.q('DELETE FROM profiles WHERE platform = $1 AND name = $2', [platform, name])).rowCount === 1;
  }
  async profileCookies(platform: string, name: string, cookies: string): Promise<void> {
    await this.q('UPDATE profiles SET cookies = $1 WHERE platform = $2 AND name = $3', [this.seal(cookies), platform, name]);
  }
  async profilesCooling(now: number): Promise<Array<{ platform: string; name: string; cooling_until: number }>> {
    return (await this.q<{ platform: string; name: string; cooling_until: number }>('SELECT platform, name, cooling_until FROM profiles WHERE cooling_until > $1', [now])).rows;
  }
  async profileStrikes(platform: string, name: string): Promise<{ strikes: number; cooling_until: number | null } | undefined> {
    return this.one('SELECT strikes, cooling_until FROM profiles WHERE platform = $1 AND name = $2', [platform, name]);
  }
  async profileHealth(h: { platform: string; name: string; health: ProfileRow['health']; checked_at: number; cooling_until: number | null; strikes: number }): Promise<void> {
    await this.q('UPDATE profiles SET health = $1, checked_at = $2, cooling_until = $3, strikes = $4 WHERE platform = $5 AND name = $6', [
      h.health,
      h.checked_at,
      h.cooling_until,
      h.strikes,
      h.platform,
      h.name,
    ]);
  }
  async guestJarGet(account: string): Promise<{ user_agent: string; data: string } | undefined> {
    const row = await this.one<{ user_agent: string; data: string }>('SELECT user_agent, data FROM guest_jars WHERE account = $1', [account]);
    if (row && this.box) row.data = this.box.open(row.data);
    return row;
  }
  async guestJarPut(account: string, userAgent: string, data: string, at: number): Promise<void> {
    await this.q(
      `INSERT INTO guest_jars (account, user_agent, data, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account) DO UPDATE SET user_agent = excluded.user_agent, data = excluded.data, updated_at = excluded.updated_at`,
      [account, userAgent, this.seal(data), at],
    );
  }

  private seal(v: string): string;
  private seal(v: string | null): string | null;
  private seal(v: string | null): string | null {
    return v !== null && this.box ? this.box.seal(v) : v;
  }

  async close(): Promise<void> {
    await this.migrated?.catch(() => {});
    await this.pool.end();
  }
}
