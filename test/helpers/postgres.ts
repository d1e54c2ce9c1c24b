import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
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

/** A loopback TCP relay to the test server: closing it is a Postgres outage, as clients see one. */
export class Relay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** New connections are refused and live ones drop, as when the server stops. */
  async down(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

