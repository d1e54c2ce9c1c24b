import type pg from 'pg';
import type { BatchEntry, BatchRow, BatchStore } from '../batches.js';

/** Batches in the fleet's Postgres (migrations/postgres/006_batches.sql). */
export class PgBatchStore implements BatchStore {
  constructor(
    private readonly pool: pg.Pool,
    /** Resolves once the tables exist (the store's migrations). */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async batchCreate(batch: BatchRow, links: Array<{ idx: number; task_id: string }>): Promise<void> {
    await this.ready();
    // One statement, so one transaction and one round trip for up to 500 links.
    await this.pool.query(
      `WITH b AS (INSERT INTO batches (id, owner, created_at, size) VALUES ($1, $2, $3, $4) RETURNING id)
       INSERT INTO batch_tasks (batch_id, idx, task_id) SELECT b.id, l.idx, l.task_id FROM b, unnest($5::int[], $6::text[]) AS l(idx, task_id)`,
      [batch.id, batch.owner, batch.created_at, batch.size, links.map((l) => l.idx), links.map((l) => l.task_id)],
    );
  }

  async batchGet(id: string): Promise<BatchRow | undefined> {
    await this.ready();
    const r = await this.pool.query<BatchRow>('SELECT id, owner, created_at, size FROM batches WHERE id = $1', [id]);
    return r.rows[0];
  }

  async batchEntries(id: string): Promise<BatchEntry[]> {
    await this.ready();
    const r = await this.pool.query<BatchEntry>(
      `SELECT bt.idx, bt.task_id, t.status, t.error FROM batch_tasks bt LEFT JOIN tasks t ON t.id = bt.task_id
       WHERE bt.batch_id = $1 ORDER BY bt.idx`,
      [id],
    );
    return r.rows;
  }
}
