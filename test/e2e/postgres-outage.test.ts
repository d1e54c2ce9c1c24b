import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/accounts/secrets.js';
import { createPool } from '../../src/store/pg/pool.js';
import { PgStore } from '../../src/store/pg/store.js';
import { isStoreUnavailable } from '../../src/store/unavailable.js';
import { Relay, TEST_DATABASE_URL, testSchema } from '../helpers/postgres.js';
import { startService, until, type Running } from '../helpers/service.js';

const target = new URL(TEST_DATABASE_URL);
const relay = new Relay({ host: target.hostname, port: Number(target.port || 5432) });
let fake: FakePlatform;
let db: Awaited<ReturnType<typeof testSchema>>;
let s: Running;

beforeAll(async () => {
  fake = await startFakePlatform();
  db = await testSchema();
  await relay.up();
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = '127.0.0.1';
  url.port = String(relay.port);
  s = await startService({ adapters: [fake.adapter], config: { databaseUrl: url.toString(), databaseSchema: db.schema, secretKey: 'cd'.repeat(32) } });
});
afterAll(async () => {
  await s?.close();
  await relay.down().catch(() => {});
  await db?.drop();
  await fake?.close();
});

describe('a Postgres outage', () => {
  it('answers 503 in the spec\'s error body while the database is down, and recovers when it is back', async () => {
    const token = await s.token(['read', 'write']);
    expect((await s.api('/v1/task-sources', { token })).status).toBe(200);
    await relay.down();
    const down = await s.api('/v1/tasks/t_missing', { token });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ ok: false, error: { code: 'upstream_error', message: expect.stringContaining('database'), retryable: true } });
    expect(down.headers.get('retry-after')).toBe('2');
    await relay.up();
    await until(async () => (await s.api('/v1/tasks/t_missing', { token })).status === 404 || undefined);
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'after', limit: 2, force: true } }, token });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('succeeded');
  });

  it('a store opened while the database is down migrates and serves once it is back', async () => {
    const other = await testSchema();
    const gate = new Relay({ host: target.hostname, port: Number(target.port || 5432) });
    await gate.up();
    await gate.down();
    const url = new URL(TEST_DATABASE_URL);
    url.hostname = '127.0.0.1';
    url.port = String(gate.port);
    const store = new PgStore(createPool({ url: url.toString(), schema: other.schema, max: 2 }), new SecretBox(randomBytes(32)), other.schema);
    try {
      const err = await store.getTask('t_x').catch((e: unknown) => e);
      expect(isStoreUnavailable(err)).toBe(true);
      await gate.up();
      expect(await store.getTask('t_x')).toBeUndefined();
      expect(await store.countByStatus()).toEqual({ queued: 0, running: 0 });
    } finally {
      await store.close();
      await gate.down();
      await other.drop();
    }
  });
});
