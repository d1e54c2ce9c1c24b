import type pg from 'pg';
import type { WebhookAttempt, WebhookDelivery, WebhookOutbox, WebhookOutcome } from '../webhooks.js';

/** The fleet's webhook outbox: tables in Postgres (migration 005), shared by every process. */
export class PgWebhookOutbox implements WebhookOutbox {
  constructor(
    private readonly pool: pg.Pool,
    /** Resolves once the tables exist (the store's migrations). */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    await this.ready();
    // SKIP LOCKED: processes claiming at once take different rows; the outer conditions are checked
    // again on the row as locked, so a row another process just leased is not taken twice.
    const r = await this.pool.query<WebhookDelivery>(
      `UPDATE webhook_deliveries SET lease_owner = $1, lease_until = $2, tries = tries + 1, first_attempt_at = COALESCE(first_attempt_at, $3)
       WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
                    ORDER BY next_at LIMIT $4 FOR UPDATE SKIP LOCKED)
         AND state = 'pending' AND (lease_until IS NULL OR lease_until < $3)
       RETURNING *`,
      [owner, leaseUntil, now, limit],
    );
    return r.rows;
  }

  async complete(id: string, owner: string, a: WebhookAttempt, o: WebhookOutcome): Promise<boolean> {
    await this.ready();
    const r = await this.pool.query(
      `WITH logged AS (
         INSERT INTO webhook_attempts (delivery_id, n, at, http_status, error, ms) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (delivery_id, n) DO UPDATE SET at = excluded.at, http_status = excluded.http_status, error = excluded.error, ms = excluded.ms
       )
       UPDATE webhook_deliveries SET state = $7, next_at = $8, done_at = $9, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $10 AND state = 'pending'`,
      [id, a.n, a.at, a.http_status, a.error, a.ms, o.state, o.state === 'pending' ? o.next_at : a.at, o.state === 'pending' ? null : a.at, owner],
    );
    return r.rowCount === 1;
  }

  async forTask(taskId: string): Promise<Array<WebhookDelivery & { attempts: WebhookAttempt[] }>> {
    await this.ready();
    const rows = (await this.pool.query<WebhookDelivery>('SELECT * FROM webhook_deliveries WHERE task_id = $1 ORDER BY attempt, created_at', [taskId])).rows;
    if (!rows.length) return [];
    const logs = (
      await this.pool.query<WebhookAttempt & { delivery_id: string }>(
        'SELECT delivery_id, n, at, http_status, error, ms FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY n',
        [rows.map((r) => r.id)],
      )
    ).rows;
    return rows.map((r) => ({ ...r, attempts: logs.filter((l) => l.delivery_id === r.id).map(({ delivery_id: _d, ...a }) => a) }));
  }

  async purge(before: number): Promise<number> {
    await this.ready();
    const r = await this.pool.query(
      `WITH gone AS (DELETE FROM webhook_deliveries WHERE created_at < $1 RETURNING id)
       , logs AS (DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM gone))
       SELECT COUNT(*)::int AS n FROM gone`,
      [before],
    );
    return (r.rows[0] as { n: number }).n;
  }
}
