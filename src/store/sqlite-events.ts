import type Database from 'better-sqlite3';
import type { EventLog } from '../tasks/event-log.js';
import type { TaskEvent, TaskEventType } from '../tasks/events.js';

/** The embedded event log: the task_events table in the service's SQLite file. */
export class SqliteEventLog implements EventLog {
  private readonly s;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // An id stored already is the same event published again (a replayed write): kept once.
      append: p('INSERT OR IGNORE INTO task_events (task_id, id, attempt, type, data, at) VALUES (?, ?, ?, ?, ?, ?)'),
      after: p('SELECT id, type, data FROM task_events WHERE task_id = ? AND attempt = ? AND id > ? ORDER BY id'),
      forget: p('DELETE FROM task_events WHERE task_id = ?'),
      purge: p('DELETE FROM task_events WHERE at < ?'),
    };
  }

  async append(taskId: string, attempt: number, e: TaskEvent): Promise<void> {
    this.s.append.run(taskId, e.id, attempt, e.type, e.data, Date.now());
  }

  async after(taskId: string, attempt: number, afterId: number): Promise<TaskEvent[]> {
    return this.s.after.all(taskId, attempt, afterId) as Array<{ id: number; type: TaskEventType; data: string }>;
  }

  async forget(taskId: string): Promise<void> {
    this.s.forget.run(taskId);
  }

  async purge(before: number): Promise<number> {
    return this.s.purge.run(before).changes;
  }
}
