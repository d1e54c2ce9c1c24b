// Pool picks: how long Identities.pick takes with many profiles in a pool and a deep queue, on the embedded
// SQLite store and on Postgres (the pick reads every candidate's outcomes and queued/running tasks).
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../src/accounts/secrets.js';
import { Identities } from '../src/identity/identities.js';
import type { IdentityStore } from '../src/store/identity.js';
import { PgIdentityStore } from '../src/store/pg/identity.js';
import { createPool } from '../src/store/pg/pool.js';
import { PgStore } from '../src/store/pg/store.js';
import { SqliteIdentityStore } from '../src/store/sqlite-identity.js';
import { openDatabase, SqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/types.js';
import { testSchema } from '../test/helpers/postgres.js';

const PROFILES = Number(process.env.BENCH_PROFILES ?? 50);
const QUEUED = Number(process.env.BENCH_QUEUED ?? 5000);
const OUTCOMES = Number(process.env.BENCH_OUTCOMES ?? 20_000);
const PICKS = Number(process.env.BENCH_PICKS ?? 200);

async function run(backend: string, store: Store, ids: IdentityStore): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < PROFILES; i++) {
    await store.profilePut({ platform: 'x', name: `p${i}`, cookies: 'k=v', credentials: null });
    await ids.identityPut('x', `p${i}`, { proxy: null, pool: 'eu' });
  }
  for (let i = 0; i < QUEUED; i++) await store.insertTask({ id: `t${i}`, source: 'x', action: 'search', params: '{}', account: `x:p${i % PROFILES}`, owner: null, createdAt: now });
  for (let i = 0; i < OUTCOMES; i++) await ids.outcomeAdd('x', `p${i % PROFILES}`, i % 7 ? 'ok' : 'blocked', now - (i % 3600) * 1000);
  const identities = new Identities(ids);
  const t = performance.now();
  for (let i = 0; i < PICKS; i++) await identities.pick('x', 'eu');
  const ms = performance.now() - t;
  console.log(`  ${backend.padEnd(10)}${PICKS} picks among ${PROFILES} profiles, ${QUEUED} queued, ${OUTCOMES} outcomes: ${(ms / PICKS).toFixed(2)} ms per pick`);
}

const box = new SecretBox(randomBytes(32));
const sqlite = new SqliteStore(openDatabase(':memory:'), box);
await run('SQLite', sqlite, new SqliteIdentityStore(sqlite.db, box));
await sqlite.close();
const db = await testSchema();
const pg = new PgStore(createPool({ url: db.url, schema: db.schema, max: 4 }), box, db.schema);
try {
  await pg.ready();
  await run('Postgres', pg, new PgIdentityStore(pg.pool, box, () => pg.ready()));
} finally {
  await pg.close();
  await db.drop();
}
