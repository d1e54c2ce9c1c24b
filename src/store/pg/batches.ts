import type pg from 'pg';
import type { BatchEntry, BatchRow, BatchStore } from '../batches.js';
import { taskRecord } from '../task-record.js';
import type { NewTask, TaskRow } from '../types.js';

/** Batches in the fleet's Postgres (migrations/postgres/005_batches.sql). */
export class PgBatchStore implements BatchStore {
  constructor(
    private readonly pool: pg.Pool,
    /** Resolves once the tables exist (the store's migrations). */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async batchCreate(batch: BatchRow, links: Array<{ idx: number; task_id: string }>, tasks: NewTask[] = []): Promise<TaskRow[]> {
    await this.ready();
    const records = tasks.map(taskRecord);
    const col = (k: string) => records.map((r) => r.params[k]);
    // One statement, so one transaction and one round trip: the tasks (in order, for the queue's ties), the batch, its links.
    await this.pool.query(
      `WITH t AS (
         INSERT INTO tasks (id, status, source, action, params, account, created_at, started_at, finished_at, attempts, result, owner, event_seq, result_id, result_age)
         SELECT id, status, source, action, params, account, created_at, started_at, finished_at, 1, result, owner, event_seq, result_id, result_age
         FROM unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::bigint[], $14::bigint[], $15::bigint[], $16::text[], $17::text[], $18::int[], $19::bigint[], $20::int[])
           WITH ORDINALITY AS x(id, status, source, action, params, account, created_at, started_at, finished_at, result, owner, event_seq, result_id, result_age, n)
         ORDER BY n
         RETURNING 1
       ), b AS (INSERT INTO batches (id, owner, created_at, size) VALUES ($1, $2, $3, $4) RETURNING id)
       INSERT INTO batch_tasks (batch_id, idx, task_id) SELECT b.id, l.idx, l.task_id FROM b, unnest($5::int[], $6::text[]) AS l(idx, task_id)`,
      [
        batch.id, batch.owner, batch.created_at, batch.size, links.map((l) => l.idx), links.map((l) => l.task_id),
        col('id'), col('status'), col('source'), col('action'), col('params'), col('account'), col('createdAt'), col('startedAt'), col('finishedAt'),
        col('result'), col('owner'), col('eventSeq'), col('resultId'), col('resultAge'),
      ],
    );
    return records.map((r) => r.row);
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

  async batchPurge(before: number): Promise<number> {
    await this.ready();
    // The links go with their batch (ON DELETE CASCADE).
    const r = await this.pool.query('DELETE FROM batches WHERE created_at < $1', [before]);
    return r.rowCount ?? 0;
  }
}
