import type Database from 'better-sqlite3';
import type { BatchEntry, BatchRow, BatchStore } from './batches.js';
import { taskRecord } from './task-record.js';
import type { NewTask, TaskRow } from './types.js';

/** Batches in the embedded store (tables from the SQLite migrations). */
export class SqliteBatchStore implements BatchStore {
  private readonly s;
  private readonly purge: (before: number) => number;
  private readonly create: (batch: BatchRow, links: Array<{ idx: number; task_id: string }>, tasks: NewTask[]) => TaskRow[];

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // The same columns as the store's own task insert.
      task: p(`INSERT INTO tasks (id, status, source, action, params, account, created_at, started_at, finished_at, attempts, result, owner, event_seq, result_id, result_age)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`),
      insert: p('INSERT INTO batches (id, owner, created_at, size) VALUES (?, ?, ?, ?)'),
      link: p('INSERT INTO batch_tasks (batch_id, idx, task_id) VALUES (?, ?, ?)'),
      get: p('SELECT id, owner, created_at, size FROM batches WHERE id = ?'),
      entries: p(`SELECT bt.idx, bt.task_id, t.status, t.error FROM batch_tasks bt LEFT JOIN tasks t ON t.id = bt.task_id
                  WHERE bt.batch_id = ? ORDER BY bt.idx`),
      // Links are removed by hand: the embedded store does not turn foreign-key cascades on.
      unlink: p('DELETE FROM batch_tasks WHERE batch_id IN (SELECT id FROM batches WHERE created_at < ?)'),
      purge: p('DELETE FROM batches WHERE created_at < ?'),
    };
    this.purge = db.transaction((before: number) => {
      this.s.unlink.run(before);
      return this.s.purge.run(before).changes;
    });
    this.create = db.transaction((batch: BatchRow, links: Array<{ idx: number; task_id: string }>, tasks: NewTask[]) => {
      const rows = tasks.map((t) => {
        const { row, params: q } = taskRecord(t);
        this.s.task.run(q.id, q.status, q.source, q.action, q.params, q.account, q.createdAt, q.startedAt, q.finishedAt, q.result, q.owner, q.eventSeq, q.resultId, q.resultAge);
        return row;
      });
      this.s.insert.run(batch.id, batch.owner, batch.created_at, batch.size);
      for (const l of links) this.s.link.run(batch.id, l.idx, l.task_id);
      return rows;
    });
  }

  async batchCreate(batch: BatchRow, links: Array<{ idx: number; task_id: string }>, tasks: NewTask[] = []): Promise<TaskRow[]> {
    return this.create(batch, links, tasks);
  }

  async batchGet(id: string): Promise<BatchRow | undefined> {
    return this.s.get.get(id) as BatchRow | undefined;
  }

  async batchEntries(id: string): Promise<BatchEntry[]> {
    return this.s.entries.all(id) as BatchEntry[];
  }

  async batchPurge(before: number): Promise<number> {
    return this.purge(before);
  }
}
