import type Database from 'better-sqlite3';
import { SEEN_MAX, type WatchPatch, type WatchRow, type WatchRunEnd, type WatchRunRow, type WatchStore } from './watches.js';

/** SQLite migration of the watches (one entry of MIGRATIONS in sqlite.ts). */
export const WATCH_MIGRATION = `ALTER TABLE tasks ADD COLUMN watch_id TEXT;
   DROP INDEX tasks_queued;
   CREATE INDEX tasks_queued ON tasks(watch_id IS NOT NULL, created_at) WHERE status = 'queued';
   CREATE TABLE watches (
     id TEXT PRIMARY KEY, owner TEXT, source TEXT NOT NULL, action TEXT NOT NULL, params TEXT NOT NULL, every_s INTEGER NOT NULL,
     callback_url TEXT, paused INTEGER NOT NULL DEFAULT 0, full_page INTEGER NOT NULL DEFAULT 0, next_run_at INTEGER NOT NULL,
     failures INTEGER NOT NULL DEFAULT 0, last_run_at INTEGER, last_task_id TEXT, last_error TEXT, last_error_at INTEGER,
     last_new_count INTEGER, created_at INTEGER NOT NULL
   );
   CREATE INDEX watches_due ON watches(next_run_at) WHERE paused = 0;
   CREATE INDEX watches_by_owner ON watches(owner, id);
   CREATE TABLE watch_seen (watch_id TEXT NOT NULL, item_id TEXT NOT NULL, seen_at INTEGER NOT NULL, PRIMARY KEY (watch_id, item_id)) WITHOUT ROWID;
   CREATE INDEX watch_seen_by_age ON watch_seen(watch_id, seen_at);
   CREATE TABLE watch_runs (task_id TEXT PRIMARY KEY, watch_id TEXT NOT NULL, new_count INTEGER, error TEXT, finished_at INTEGER NOT NULL);
   CREATE INDEX watch_runs_by_watch ON watch_runs(watch_id, finished_at);`;

/** Column names of an update come from this list only. */
const PATCHABLE = new Set(['params', 'every_s', 'callback_url', 'paused', 'full_page', 'next_run_at']);

type Raw = Omit<WatchRow, 'paused' | 'full_page'> & { paused: number; full_page: number };
const row = (r: Raw | undefined): WatchRow | undefined => (r ? { ...r, paused: r.paused === 1, full_page: r.full_page === 1 } : undefined);

export class SqliteWatchStore implements WatchStore {
  private readonly s;
  private readonly finishTx: (end: WatchRunEnd) => void;

  constructor(
    private readonly db: Database.Database,
    private readonly seenMax = SEEN_MAX,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insert: p(`INSERT INTO watches (id, owner, source, action, params, every_s, callback_url, paused, full_page, next_run_at, failures, last_run_at,
                   last_task_id, last_error, last_error_at, last_new_count, created_at)
                 SELECT @id, @owner, @source, @action, @params, @every_s, @callback_url, @paused, @full_page, @next_run_at, @failures, @last_run_at,
                   @last_task_id, @last_error, @last_error_at, @last_new_count, @created_at
                 WHERE (SELECT COUNT(*) FROM watches WHERE owner IS @owner) < @max`),
      get: p('SELECT * FROM watches WHERE id = ?'),
      list: p(`SELECT * FROM watches WHERE (@all = 1 OR owner IS @owner) AND (@before IS NULL OR id < @before) ORDER BY id DESC LIMIT @limit`),
      delete: p('DELETE FROM watches WHERE id = ?'),
      deleteSeen: p('DELETE FROM watch_seen WHERE watch_id = ?'),
      deleteRuns: p('DELETE FROM watch_runs WHERE watch_id = ?'),
      due: p('SELECT * FROM watches WHERE paused = 0 AND next_run_at <= ? ORDER BY next_run_at, id LIMIT ?'),
      claim: p(`UPDATE watches SET next_run_at = ?, last_run_at = ?, last_task_id = NULL WHERE id = ? AND next_run_at = ? AND paused = 0`),
      started: p('UPDATE watches SET last_task_id = ? WHERE id = ?'),
      seen: p('SELECT item_id FROM watch_seen WHERE watch_id = ? AND item_id IN (SELECT value FROM json_each(?))').pluck(),
      seenPut: p('INSERT INTO watch_seen (watch_id, item_id, seen_at) VALUES (?, ?, ?) ON CONFLICT (watch_id, item_id) DO UPDATE SET seen_at = excluded.seen_at'),
      // A retried run (same task id) replaces its earlier attempt's row: its new items must reach the export.
      runPut: p(`INSERT INTO watch_runs (task_id, watch_id, new_count, error, finished_at) VALUES (?, ?, ?, ?, ?)
                 ON CONFLICT (task_id) DO UPDATE SET new_count = excluded.new_count, error = excluded.error, finished_at = excluded.finished_at`),
      // Only the watch's latest run moves its schedule: a late finish of an older run must not.
      ended: p(`UPDATE watches SET failures = @failures,
                  last_error = CASE WHEN @error IS NULL THEN last_error ELSE @error END,
                  last_error_at = CASE WHEN @error IS NULL THEN last_error_at ELSE @at END,
                  last_new_count = CASE WHEN @error IS NULL THEN @new_count ELSE last_new_count END,
                  next_run_at = @next_run_at
                WHERE id = @id AND last_task_id IS @task_id`),
      seenCount: p('SELECT COUNT(*) FROM watch_seen WHERE watch_id = ?').pluck(),
      trim: p(`DELETE FROM watch_seen WHERE watch_id = ? AND item_id IN (
                 SELECT item_id FROM watch_seen WHERE watch_id = ? ORDER BY seen_at DESC, item_id LIMIT -1 OFFSET ?)`),
      runsAfter: p(`SELECT * FROM watch_runs WHERE watch_id = ? AND (finished_at > ? OR (finished_at = ? AND task_id > ?)) ORDER BY finished_at, task_id LIMIT ?`),
      purgeRuns: p('DELETE FROM watch_runs WHERE finished_at < ?'),
      runsNewest: p('SELECT * FROM watch_runs WHERE watch_id = ? ORDER BY finished_at DESC, task_id DESC LIMIT ?'),
    };
    this.finishTx = db.transaction((e: WatchRunEnd) => {
      for (const id of e.ids) this.s.seenPut.run(e.watchId, id, e.at);
      if (e.taskId !== null) this.s.runPut.run(e.taskId, e.watchId, e.newCount, e.error, e.at);
      this.s.ended.run({ id: e.watchId, task_id: e.taskId, failures: e.failures, error: e.error, at: e.at, new_count: e.newCount, next_run_at: e.nextRunAt });
    });
  }

  async insert(w: WatchRow, maxPerOwner: number): Promise<boolean> {
    return this.s.insert.run({ ...w, paused: w.paused ? 1 : 0, full_page: w.full_page ? 1 : 0, max: maxPerOwner }).changes === 1;
  }
  async get(id: string): Promise<WatchRow | undefined> {
    return row(this.s.get.get(id) as Raw | undefined);
  }
  async list(q: { owner?: string | null; before?: string; limit: number }): Promise<WatchRow[]> {
    const rows = this.s.list.all({ all: q.owner === undefined ? 1 : 0, owner: q.owner ?? null, before: q.before ?? null, limit: q.limit }) as Raw[];
    return rows.map((r) => row(r)!);
  }
  async update(id: string, patch: WatchPatch): Promise<WatchRow | undefined> {
    const cols = Object.keys(patch).filter((k) => PATCHABLE.has(k) && (patch as Record<string, unknown>)[k] !== undefined);
    if (cols.length) {
      const values = cols.map((k) => {
        const v = (patch as Record<string, unknown>)[k];
        return typeof v === 'boolean' ? (v ? 1 : 0) : v;
      });
      this.db.prepare(`UPDATE watches SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...values, id);
    }
    return this.get(id);
  }
  async delete(id: string): Promise<boolean> {
    return this.db.transaction(() => {
      this.s.deleteSeen.run(id);
      this.s.deleteRuns.run(id);
      return this.s.delete.run(id).changes === 1;
    })();
  }
  async due(now: number, limit: number): Promise<WatchRow[]> {
    return (this.s.due.all(now, limit) as Raw[]).map((r) => row(r)!);
  }
  async claim(id: string, seenNextRunAt: number, nextRunAt: number, now: number): Promise<boolean> {
    return this.s.claim.run(nextRunAt, now, id, seenNextRunAt).changes === 1;
  }
  async started(id: string, taskId: string): Promise<void> {
    this.s.started.run(taskId, id);
  }
  async seen(watchId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    return new Set(this.s.seen.all(watchId, JSON.stringify(ids)) as string[]);
  }
  async finish(end: WatchRunEnd): Promise<void> {
    this.finishTx(end);
    if (end.ids.length && (this.s.seenCount.get(end.watchId) as number) > this.seenMax) this.s.trim.run(end.watchId, end.watchId, this.seenMax);
  }
  async runs(watchId: string, q: { after?: [number, string]; limit: number; newest?: boolean }): Promise<WatchRunRow[]> {
    if (q.newest) return this.s.runsNewest.all(watchId, q.limit) as WatchRunRow[];
    const [at, task] = q.after ?? [-1, ''];
    return this.s.runsAfter.all(watchId, at, at, task, q.limit) as WatchRunRow[];
  }
  async purgeRuns(before: number): Promise<number> {
    return this.s.purgeRuns.run(before).changes;
  }
}
