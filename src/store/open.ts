import { join } from 'node:path';
import { loadSecretKey, SecretBox } from '../accounts/secrets.js';
import type { Config } from '../config.js';
import type { EventLog } from '../tasks/event-log.js';
import type { BatchStore } from './batches.js';
import { PgBatchStore } from './pg/batches.js';
import { PgEventLog } from './pg/events.js';
import { createPool } from './pg/pool.js';
import { PgStore } from './pg/store.js';
import { SqliteBatchStore } from './sqlite-batches.js';
import { SqliteEventLog } from './sqlite-events.js';
import { openDatabase, SqliteStore } from './sqlite.js';
import type { Store } from './types.js';
import { PgWebhookOutbox } from './pg/webhooks.js';
import { SqliteWebhookOutbox } from './sqlite-webhooks.js';
import type { WebhookOutbox } from './webhooks.js';
import { PgWatchStore } from './pg/watches.js';
import { SqliteWatchStore } from './sqlite-watches.js';
import type { WatchStore } from './watches.js';

type StoreConfig = Pick<Config, 'dataDir' | 'secretKey'> & Partial<Pick<Config, 'groupCommitMs' | 'databaseUrl' | 'databaseSchema'>>;

/**
 * The store the configuration names: Postgres when CRAWLER_DATABASE_URL is set (a fleet), else the
 * embedded SQLite file in the data dir. Profile secrets are sealed by the configured key either way.
 */
export function openStore(config: StoreConfig): Store {
  const box = new SecretBox(loadSecretKey(config.dataDir, config.secretKey));
  if (config.databaseUrl) return new PgStore(createPool({ url: config.databaseUrl, schema: config.databaseSchema }), box, config.databaseSchema);
  return new SqliteStore(openDatabase(join(config.dataDir, 'crawler.sqlite')), box, config.groupCommitMs ?? 0);
}

/** The event log beside the store, in the same database. */
export function openEventLog(store: Store): EventLog {
  if (store instanceof PgStore) return new PgEventLog(store.pool, () => store.ready());
  if (store instanceof SqliteStore) return new SqliteEventLog(store.db);
  throw new Error('no event log for this store');
}

/** The webhook outbox beside the store, in the same database. */
export function openWebhookOutbox(store: Store): WebhookOutbox {
  if (store instanceof PgStore) return new PgWebhookOutbox(store.pool, () => store.ready());
  if (store instanceof SqliteStore) return new SqliteWebhookOutbox(store.db);
  throw new Error('no webhook outbox for this store');
}

/** The watches beside the store, in the same database. */
export function openWatchStore(store: Store, seenMax?: number): WatchStore {
  if (store instanceof PgStore) return new PgWatchStore(store.pool, () => store.ready(), seenMax);
  if (store instanceof SqliteStore) return new SqliteWatchStore(store.db, seenMax);
  throw new Error('no watch store for this store');
}

/** Batches beside the store, in the same database (their counts join its tasks). */
export function openBatchStore(store: Store): BatchStore {
  if (store instanceof PgStore) return new PgBatchStore(store.pool, () => store.ready());
  if (store instanceof SqliteStore) return new SqliteBatchStore(store.db);
  throw new Error('no batch store for this store');
}
