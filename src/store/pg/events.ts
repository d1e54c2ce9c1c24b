import type pg from 'pg';
import type { EventLog } from '../../tasks/event-log.js';
import type { TaskEvent, TaskEventType } from '../../tasks/events.js';

/** The fleet's event log: task_events in Postgres, readable by every API process. */
export class PgEventLog implements EventLog {
  /**
   * Each task's writes, chained: a pool runs queries on several connections at once, and a forget
   * overtaking an append would leave history behind (or an append land after its task's forget).
   */
  private readonly tails = new Map<string, Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    /** Resolves once the tables exist (the store's migrations). */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
  ) {}

  private inOrder(taskId: string, write: () => Promise<unknown>): Promise<void> {
    const prev = this.tails.get(taskId) ?? this.ready();
    const next = prev.catch(() => {}).then(write).then(() => undefined);
    this.tails.set(taskId, next);
    const done = () => {
      if (this.tails.get(taskId) === next) this.tails.delete(taskId);
    };
    next.then(done, done);
    return next;
  }

  append(taskId: string, attempt: number, e: TaskEvent): Promise<void> {
    // An id stored already is the same event published again (a replayed write): kept once.
    return this.inOrder(taskId, () =>
      this.pool.query('INSERT INTO task_events (task_id, id, attempt, type, data, at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (task_id, id) DO NOTHING', [
        taskId,
        e.id,
        attempt,
        e.type,
        e.data,
        Date.now(),
      ]),
    );
  }

  async after(taskId: string, attempt: number, afterId: number): Promise<TaskEvent[]> {
    await this.ready();
    const r = await this.pool.query<{ id: number; type: TaskEventType; data: string }>(
      'SELECT id, type, data FROM task_events WHERE task_id = $1 AND attempt = $2 AND id > $3 ORDER BY id',
      [taskId, attempt, afterId],
    );
    return r.rows;
  }

  forget(taskId: string): Promise<void> {
    return this.inOrder(taskId, () => this.pool.query('DELETE FROM task_events WHERE task_id = $1', [taskId]));
  }

  async purge(before: number): Promise<number> {
    await this.ready();
    return (await this.pool.query('DELETE FROM task_events WHERE at < $1', [before])).rowCount ?? 0;
  }
}
