import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/accounts/secrets.js';
import { createPool } from '../../src/store/pg/pool.js';
import { PgStore } from '../../src/store/pg/store.js';
import type { Store } from '../../src/store/types.js';
import { testSchema } from '../helpers/postgres.js';
import { storeConformance } from './store-conformance.js';

storeConformance('Postgres', async () => {
  const db = await testSchema();
  const box = new SecretBox(randomBytes(32));
  const open = () => new PgStore(createPool({ url: db.url, schema: db.schema, max: 4 }), box, db.schema);
  const store = open();
  await store.ready();
  const others: Store[] = [];
  return {
    store,
    async other() {
      const o = open();
      others.push(o);
      return o;
    },
    async rawCookies(platform, name) {
      return (await store.pool.query<{ cookies: string | null }>('SELECT cookies FROM profiles WHERE platform = $1 AND name = $2', [platform, name])).rows[0].cookies;
    },
    async close() {
      for (const o of others) await o.close();
      await store.close();
      await db.drop();
    },
  };
});
