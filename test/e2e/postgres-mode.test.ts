import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgStore } from '../../src/store/pg/store.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { startService, type Running } from '../helpers/service.js';

// Two API processes as far as the store can tell: two services, each with its own pool, on one database.
let fake: FakePlatform;
let db: Awaited<ReturnType<typeof testSchema>>;
let a: Running;
let b: Running;

beforeAll(async () => {
  fake = await startFakePlatform();
  db = await testSchema();
  const config = { databaseUrl: db.url, databaseSchema: db.schema, secretKey: 'ab'.repeat(32) };
  a = await startService({ adapters: [fake.adapter], config });
  b = await startService({ adapters: [fake.adapter], config });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
  await fake?.close();
});

const sources = (s: Running, token: string) => s.api('/v1/task-sources', { token });

describe('the service on Postgres (CRAWLER_DATABASE_URL)', () => {
  it('uses the Postgres store, runs a task, and serves it from either process', async () => {
    expect(a.svc.store).toBeInstanceOf(PgStore);
    const admin = await a.token(['read', 'write', 'admin']);
    const r = await a.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'cats', limit: 3, force: true } }, token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(r.body.result.count).toBe(3);
    const there = await b.api(`/v1/tasks/${r.body.task_id}`, { token: admin });
    expect(there.status).toBe(200);
    expect(there.body).toEqual(r.body);
    // A second identical search is answered from the shared cache, by the other process.
    const cached = await b.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'cats', limit: 3 } }, token: admin });
    expect(cached.body.result.source).toBe('cache');
  });

  it('a token revoked on one API process is refused on the very next request to the other', async () => {
    const admin = await a.token(['admin', 'read']);
    const created = await a.api('/v1/tokens', { method: 'POST', json: { scopes: ['read'] }, token: admin });
    const token = created.body.token as string;
    // B has checked (and cached) the token before the revocation.
    expect((await sources(b, token)).status).toBe(200);
    expect((await sources(b, token)).status).toBe(200);
    expect((await a.api(`/v1/tokens/${created.body.id}`, { method: 'DELETE', token: admin })).status).toBe(200);
    expect((await sources(b, token)).status).toBe(401);
    expect((await sources(a, token)).status).toBe(401);
  });

  it('keeps profile secrets sealed in the shared database and readable by every process with the key', async () => {
    await a.svc.store.profilePut({ platform: 'fake', name: 'main', cookies: 'SESSION=s3cret', credentials: null });
    const raw = (await (a.svc.store as PgStore).pool.query('SELECT cookies FROM profiles')).rows[0].cookies as string;
    expect(raw).not.toContain('s3cret');
    expect((await b.svc.store.profileGet('fake', 'main'))!.cookies).toBe('SESSION=s3cret');
  });
});
