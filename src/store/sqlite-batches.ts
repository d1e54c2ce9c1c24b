import type Database from 'better-sqlite3';
import type { BatchEntry, BatchRow, BatchStore } from './batches.js';

/** Batches in the embedded store (tables from the SQLite migrations). */
export class SqliteBatchStore implements BatchStore {
  private readonly s;
  private readonly create: (batch: BatchRow, links: Array<{ idx: number; task_id: string }>) => void;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insert: p('INSERT INTO batches (id, owner, created_at, size) VALUES (?, ?, ?, ?)'),
      link: p('INSERT INTO batch_tasks (batch_id, idx, task_id) VALUES (?, ?, ?)'),
      get: p('SELECT id, owner, created_at, size FROM batches WHERE id = ?'),
      entries: p(`SELECT bt.idx, bt.task_id, t.status, t.error FROM batch_tasks bt LEFT JOIN tasks t ON t.id = bt.task_id
                  WHERE bt.batch_id = ? ORDER BY bt.idx`),
    };
    this.create = db.transaction((batch: BatchRow, links: Array<{ idx: number; task_id: string }>) => {
      this.s.insert.run(batch.id, batch.owner, batch.created_at, batch.size);
      for (const l of links) this.s.link.run(batch.id, l.idx, l.task_id);
    });
  }

  async batchCreate(batch: BatchRow, links: Array<{ idx: number; task_id: string }>): Promise<void> {
    this.create(batch, links);
  }

  async batchGet(id: string): Promise<BatchRow | undefined> {
    return this.s.get.get(id) as BatchRow | undefined;
  }

  async batchEntries(id: string): Promise<BatchEntry[]> {
    return this.s.entries.all(id) as BatchEntry[];
  }
}
