import { createPool } from '../../src/store/pg/pool.js';
import { PgEventLog } from '../../src/store/pg/events.js';
import { migrate } from '../../src/store/pg/migrate.js';
import type pg from 'pg';
import { testSchema } from '../helpers/postgres.js';
import { eventLogConformance } from './event-log-conformance.js';

eventLogConformance('Postgres', async () => {
  const db = await testSchema();
  const pools: pg.Pool[] = [createPool({ url: db.url, schema: db.schema, max: 4 })];
  await migrate(pools[0], db.schema);
  return {
    log: new PgEventLog(pools[0]),
    async other() {
      pools.push(createPool({ url: db.url, schema: db.schema, max: 4 }));
      return new PgEventLog(pools[pools.length - 1]);
    },
    async close() {
      for (const p of pools) await p.end();
      await db.drop();
    },
  };
});
