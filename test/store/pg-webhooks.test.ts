import { createPool } from '../../src/store/pg/pool.js';
import { PgStore } from '../../src/store/pg/store.js';
import { PgWebhookOutbox } from '../../src/store/pg/webhooks.js';
import { testSchema } from '../helpers/postgres.js';
import { webhookOutboxConformance } from './webhook-outbox-conformance.js';

webhookOutboxConformance('Postgres', async () => {
  const db = await testSchema();
  const open = () => new PgStore(createPool({ url: db.url, schema: db.schema, max: 4 }), undefined, db.schema);
  const store = open();
  await store.ready();
  const others: PgStore[] = [];
  return {
    store,
    outbox: new PgWebhookOutbox(store.pool, () => store.ready()),
    async other() {
      const o = open();
      others.push(o);
      return new PgWebhookOutbox(o.pool, () => o.ready());
    },
    async close() {
      for (const o of others) await o.close();
      await store.close();
      await db.drop();
    },
  };
});
