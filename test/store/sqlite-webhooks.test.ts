import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteWebhookOutbox } from '../../src/store/sqlite-webhooks.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';
import { webhookOutboxConformance } from './webhook-outbox-conformance.js';

webhookOutboxConformance('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-sqlite-'));
  const file = join(dir, 'crawler.sqlite');
  const store = new SqliteStore(openDatabase(file));
  const others: Store[] = [];
  return {
    store,
    outbox: new SqliteWebhookOutbox(store.db),
    async other() {
      const o = new SqliteStore(openDatabase(file));
      others.push(o);
      return new SqliteWebhookOutbox(o.db);
    },
    async close() {
      for (const o of others) await o.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
