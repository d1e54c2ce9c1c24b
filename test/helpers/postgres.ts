import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ident } from '../../src/store/pg/pool.js';

/** The server the Postgres tests use; .ci/run installs and starts one on the default port. */
export const TEST_DATABASE_URL = process.env.CRAWLER_TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

const HOW = 'start it with `sudo service postgresql start` (Debian package postgresql; .ci/run installs and starts it), or point CRAWLER_TEST_DATABASE_URL at one';

/** Fails (never skips) when the server is missing, with how to start it. */
async function admin(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await c.connect();
  } catch (e) {
    throw new Error(`Postgres is not reachable at ${TEST_DATABASE_URL} (${(e as Error).message}): ${HOW}`);
  }
  return c;
}

/** A fresh schema name for one test; drop() removes it and everything in it. */
export async function testSchema(): Promise<{ url: string; schema: string; drop(): Promise<void> }> {
  const c = await admin();
  await c.end();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    url: TEST_DATABASE_URL,
    schema,
    async drop() {
      const a = await admin();
      try {
        await a.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
      } finally {
        await a.end();
      }
    },
  };
}
