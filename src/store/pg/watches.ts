import type pg from 'pg';
import { SEEN_MAX, type WatchPatch, type WatchRow, type WatchRunEnd, type WatchRunRow, type WatchStore } from '../watches.js';

const COLUMNS = [
  'id', 'owner', 'source', 'action', 'params', 'every_s', 'callback_url', 'paused', 'full_page', 'next_run_at', 'failures',
  'last_run_at', 'last_task_id', 'last_error', 'last_error_at', 'last_new_count', 'created_at',
] as const;
const PATCHABLE = new Set(['params', 'every_s', 'callback_url', 'paused', 'full_page', 'next_run_at']);

/** BIGINT columns come back as strings from pg: times are numbers everywhere else. */
function row(r: Record<string, unknown> | undefined): WatchRow | undefined {
  if (!r) return undefined;
  const n = (v: unknown) => (v === null ? null : Number(v));
  return { ...(r as unknown as WatchRow), next_run_at: Number(r.next_run_at), last_run_at: n(r.last_run_at), last_error_at: n(r.last_error_at), created_at: Number(r.created_at) };
}

/** The fleet's watches: every change another process may race is one statement (CAS, data-modifying CTEs). */
export class PgWatchStore implements WatchStore {
  constructor(
    private readonly pool: pg.Pool,
    /** Resolves once the tables exist (the store's migrations). */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
    private readonly seenMax = SEEN_MAX,
  ) {}

  private async q<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    await this.ready();
    return this.pool.query<R>(sql, params);
  }

  async insert(w: WatchRow, maxPerOwner: number): Promise<boolean> {
    // A per-owner advisory lock around the count and the insert: two creations at once cannot both pass the cap.
    await this.ready();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtext('crawler-watches:' || COALESCE($1::text, '')))", [w.owner]);
      const r = await client.query(
        `INSERT INTO watches (${COLUMNS.join(', ')}) SELECT ${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}
         WHERE (SELECT COUNT(*) FROM watches WHERE owner IS NOT DISTINCT FROM $2) < $18`,
        [...COLUMNS.map((c) => w[c]), maxPerOwner],
      );
      await client.query('COMMIT');
      return r.rowCount === 1;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }
  async get(id: string): Promise<WatchRow | undefined> {
    return row((await this.q('SELECT * FROM watches WHERE id = $1', [id])).rows[0]);
  }
  async list(q: { owner?: string | null; before?: string; limit: number }): Promise<WatchRow[]> {
    const r = await this.q(
      `SELECT * FROM watches WHERE ($1 OR owner IS NOT DISTINCT FROM $2) AND ($3::text IS NULL OR id < $3) ORDER BY id DESC LIMIT $4`,
      [q.owner === undefined, q.owner ?? null, q.before ?? null, q.limit],
    );
    return r.rows.map((x) => row(x)!);
  }
  async update(id: string, patch: WatchPatch): Promise<WatchRow | undefined> {
    const cols = Object.keys(patch).filter((k) => PATCHABLE.has(k) && (patch as Record<string, unknown>)[k] !== undefined);
    if (!cols.length) return this.get(id);
    const r = await this.q(`UPDATE watches SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING *`, [
      id,
      ...cols.map((c) => (patch as Record<string, unknown>)[c]),
    ]);
    return row(r.rows[0]);
  }
  async delete(id: string): Promise<boolean> {
    const r = await this.q(
      `WITH s AS (DELETE FROM watch_seen WHERE watch_id = $1), r AS (DELETE FROM watch_runs WHERE watch_id = $1)
       DELETE FROM watches WHERE id = $1`,
      [id],
    );
    return r.rowCount === 1;
  }
  async due(now: number, limit: number): Promise<WatchRow[]> {
    const r = await this.q('SELECT * FROM watches WHERE NOT paused AND next_run_at <= $1 ORDER BY next_run_at, id LIMIT $2', [now, limit]);
    return r.rows.map((x) => row(x)!);
  }
  async claim(id: string, seenNextRunAt: number, nextRunAt: number, now: number): Promise<boolean> {
    const r = await this.q(`UPDATE watches SET next_run_at = $1, last_run_at = $2, last_task_id = NULL WHERE id = $3 AND next_run_at = $4 AND NOT paused`, [
      nextRunAt,
      now,
      id,
      seenNextRunAt,
    ]);
    return r.rowCount === 1;
  }
  async started(id: string, taskId: string): Promise<void> {
    await this.q('UPDATE watches SET last_task_id = $1 WHERE id = $2', [taskId, id]);
  }
  async seen(watchId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const r = await this.q<{ item_id: string }>('SELECT item_id FROM watch_seen WHERE watch_id = $1 AND item_id = ANY($2::text[])', [watchId, ids]);
    return new Set(r.rows.map((x) => x.item_id));
  }
  async finish(e: WatchRunEnd): Promise<void> {
    // One statement: the seen ids, the run's history row and the schedule land together or not at all.
    // Only the watch's latest run moves its schedule: a late finish of an older run must not.
    await this.q(
      `WITH seen AS (
         INSERT INTO watch_seen (watch_id, item_id, seen_at) SELECT $1, u, $3 FROM unnest($4::text[]) AS u
         ON CONFLICT (watch_id, item_id) DO UPDATE SET seen_at = excluded.seen_at
       ), run AS (
         INSERT INTO watch_runs (task_id, watch_id, new_count, error, finished_at) SELECT $2, $1, $5, $6, $3 WHERE $2::text IS NOT NULL
         ON CONFLICT (task_id) DO UPDATE SET new_count = excluded.new_count, error = excluded.error, finished_at = excluded.finished_at
       )
       UPDATE watches SET failures = $7,
         last_error = COALESCE($6, last_error),
         last_error_at = CASE WHEN $6::text IS NULL THEN last_error_at ELSE $3 END,
         last_new_count = CASE WHEN $6::text IS NULL THEN $5 ELSE last_new_count END,
         next_run_at = $8
       WHERE id = $1 AND last_task_id IS NOT DISTINCT FROM $2`,
      [e.watchId, e.taskId, e.at, [...new Set(e.ids)], e.newCount, e.error, e.failures, e.nextRunAt],
    );
    if (!e.ids.length) return;
    const n = Number((await this.q<{ n: string }>('SELECT COUNT(*) AS n FROM watch_seen WHERE watch_id = $1', [e.watchId])).rows[0].n);
    if (n > this.seenMax) {
      await this.q(
        `DELETE FROM watch_seen WHERE watch_id = $1 AND item_id IN (
           SELECT item_id FROM watch_seen WHERE watch_id = $1 ORDER BY seen_at DESC, item_id OFFSET $2)`,
        [e.watchId, this.seenMax],
      );
    }
  }
  async runs(watchId: string, q: { after?: [number, string]; limit: number; newest?: boolean }): Promise<WatchRunRow[]> {
    const r = q.newest
      ? await this.q('SELECT * FROM watch_runs WHERE watch_id = $1 ORDER BY finished_at DESC, task_id DESC LIMIT $2', [watchId, q.limit])
      : await this.q('SELECT * FROM watch_runs WHERE watch_id = $1 AND (finished_at, task_id) > ($2, $3) ORDER BY finished_at, task_id LIMIT $4', [
          watchId,
          q.after?.[0] ?? -1,
          q.after?.[1] ?? '',
          q.limit,
        ]);
    return r.rows.map((x) => ({ ...(x as unknown as WatchRunRow), finished_at: Number(x.finished_at) }));
  }
  async purgeRuns(before: number): Promise<number> {
    return (await this.q('DELETE FROM watch_runs WHERE finished_at < $1', [before])).rowCount ?? 0;
  }
}
