import type Database from 'better-sqlite3';
import type { WebhookAttempt, WebhookDelivery, WebhookOutbox, WebhookOutcome } from './webhooks.js';

const ENDED = `('succeeded', 'failed', 'cancelled')`;

// The row a finished task owes its callback_url; a cached result's text is its head, an age, and its tail.
const OWE = `
  INSERT OR IGNORE INTO webhook_deliveries (id, task_id, attempt, event, url, owner, status, source, action, finished_at,
    result_source, count, error, watch_id, created_at, next_at)
  SELECT 'wh_' || NEW.id || '_' || NEW.attempts, NEW.id, NEW.attempts, 'task.finished', json_extract(NEW.params, '$.callback_url'), NEW.owner,
    NEW.status, NEW.source, NEW.action, COALESCE(NEW.finished_at, NEW.created_at),
    json_extract(r.doc, '$.source'), COALESCE(json_extract(r.doc, '$.count'), json_array_length(r.doc, '$.items')),
    COALESCE(NEW.error, json_extract(r.doc, '$.error')), NEW.watch_id,
    COALESCE(NEW.finished_at, NEW.created_at), COALESCE(NEW.finished_at, NEW.created_at)
  FROM (SELECT CASE WHEN json_valid(t.doc) THEN t.doc END AS doc FROM (
          SELECT CASE WHEN NEW.result IS NOT NULL THEN NEW.result
                      WHEN NEW.result_id IS NOT NULL THEN (SELECT head || '0' || tail FROM results WHERE id = NEW.result_id) END AS doc) AS t) AS r
  WHERE json_valid(NEW.params) AND json_type(NEW.params, '$.callback_url') = 'text';`;

/** The embedded store's webhook tables and the triggers that fill the outbox (appended to its migrations). */
export const SQLITE_WEBHOOKS_MIGRATION = `
  CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY, task_id TEXT NOT NULL, attempt INTEGER NOT NULL, event TEXT NOT NULL, url TEXT NOT NULL, owner TEXT,
    status TEXT NOT NULL, source TEXT NOT NULL, action TEXT NOT NULL, finished_at INTEGER NOT NULL, result_source TEXT, count INTEGER,
    error TEXT, watch_id TEXT, state TEXT NOT NULL DEFAULT 'pending', created_at INTEGER NOT NULL, next_at INTEGER NOT NULL,
    first_attempt_at INTEGER, tries INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_until INTEGER, done_at INTEGER,
    UNIQUE (task_id, attempt, event)
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_at) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries(created_at);
  CREATE TABLE webhook_attempts (delivery_id TEXT NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL, http_status INTEGER, error TEXT,
    ms INTEGER NOT NULL, PRIMARY KEY (delivery_id, n)) WITHOUT ROWID;
  CREATE TRIGGER webhook_owed_on_end AFTER UPDATE OF status ON tasks
    WHEN NEW.status IN ${ENDED} AND OLD.status NOT IN ${ENDED} AND instr(NEW.params, '"callback_url"') > 0
  BEGIN ${OWE} END;
  CREATE TRIGGER webhook_owed_on_born_ended AFTER INSERT ON tasks
    WHEN NEW.status IN ${ENDED} AND instr(NEW.params, '"callback_url"') > 0
  BEGIN ${OWE} END;`;

/** The embedded webhook outbox: tables in the service's SQLite file. */
export class SqliteWebhookOutbox implements WebhookOutbox {
  private readonly s;
  private readonly claim: (owner: string, now: number, leaseUntil: number, limit: number) => WebhookDelivery[];
  private readonly finish: (id: string, owner: string, a: WebhookAttempt, o: WebhookOutcome) => boolean;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      claim: p(`UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?, tries = tries + 1, first_attempt_at = COALESCE(first_attempt_at, ?)
                WHERE id IN (SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                             ORDER BY next_at LIMIT ?)
                RETURNING *`),
      log: p('INSERT OR REPLACE INTO webhook_attempts (delivery_id, n, at, http_status, error, ms) VALUES (?, ?, ?, ?, ?, ?)'),
      settle: p(`UPDATE webhook_deliveries SET state = ?, next_at = ?, done_at = ?, lease_owner = NULL, lease_until = NULL
                 WHERE id = ? AND lease_owner = ? AND state = 'pending'`),
      forTask: p('SELECT * FROM webhook_deliveries WHERE task_id = ? ORDER BY attempt, created_at'),
      attempts: p('SELECT n, at, http_status, error, ms FROM webhook_attempts WHERE delivery_id = ? ORDER BY n'),
      purgeAttempts: p('DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE created_at < ?)'),
      purge: p('DELETE FROM webhook_deliveries WHERE created_at < ?'),
    };
    this.claim = db.transaction((owner: string, now: number, leaseUntil: number, limit: number) => this.s.claim.all(owner, leaseUntil, now, now, now, limit) as WebhookDelivery[]);
    this.finish = db.transaction((id: string, owner: string, a: WebhookAttempt, o: WebhookOutcome) => {
      this.s.log.run(id, a.n, a.at, a.http_status, a.error, a.ms);
      const nextAt = o.state === 'pending' ? o.next_at : a.at;
      return this.s.settle.run(o.state, nextAt, o.state === 'pending' ? null : a.at, id, owner).changes === 1;
    });
  }

  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]> {
    return this.claim(owner, now, leaseUntil, limit);
  }

  async complete(id: string, owner: string, attempt: WebhookAttempt, outcome: WebhookOutcome): Promise<boolean> {
    return this.finish(id, owner, attempt, outcome);
  }

  async forTask(taskId: string): Promise<Array<WebhookDelivery & { attempts: WebhookAttempt[] }>> {
    const rows = this.s.forTask.all(taskId) as WebhookDelivery[];
    return rows.map((r) => ({ ...r, attempts: this.s.attempts.all(r.id) as WebhookAttempt[] }));
  }

  async purge(before: number): Promise<number> {
    this.s.purgeAttempts.run(before);
    return this.s.purge.run(before).changes;
  }
}
