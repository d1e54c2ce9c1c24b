import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';

/*
 * The fleet topology on one machine: an API process and two worker processes with separate data dirs
 * (nothing shared on disk), one Postgres schema and one Redis prefix, in the roles `crawler serve --role`
 * gives them.
 */
const prefix = testPrefix('fleet');
let schema: Awaited<ReturnType<typeof testSchema>>;
let fake: FakePlatform;
let api: Running;
let api2: Running;
const workers: Running[] = [];

beforeAll(async () => {
  await requireRedis();
  schema = await testSchema();
  fake = await startFakePlatform();
  const config = { databaseUrl: schema.url, databaseSchema: schema.schema, redisUrl: TEST_REDIS_URL, redisPrefix: prefix, secretKey: 'a'.repeat(64) };
  api = await startService({ adapters: [fake.adapter], config, pingMs: 100, deployment: { mode: 'distributed', role: 'api' } });
  api2 = await startService({ adapters: [fake.adapter], config, pingMs: 100, deployment: { mode: 'distributed', role: 'api' } });
  for (let i = 0; i < 2; i++) workers.push(await startService({ adapters: [fake.adapter], config, deployment: { mode: 'distributed', role: 'worker' } }));
}, 60_000);
afterAll(async () => {
  await api?.close();
  await api2?.close();
  for (const w of workers) await w.close();
  await fake?.close();
  await dropPrefix(prefix);
  await schema?.drop();
});

describe('fleet: Postgres store, Redis queue, api and worker roles', () => {
  it('tasks submitted on the API process run on the workers; the API answers ?wait with their results', async () => {
    const token = await api.token(['read', 'write']);
    const answers = await Promise.all(
      ['fleet-a', 'fleet-b', 'fleet-c'].map((q) => api.api('/v1/tasks?wait=8000', { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query: q, force: true } } })),
    );
    for (const a of answers) expect(a.body, JSON.stringify(a.body).slice(0, 300)).toMatchObject({ status: 'succeeded', result: { source: 'live' } });
    for (const q of ['fleet-a', 'fleet-b', 'fleet-c']) expect(fake.hits.some((h) => h.includes(`q=${q}`))).toBe(true);
  });
  it('health says distributed, with the role', async () => {
    const h = await api.api('/v1/health', { token: null });
    expect(h.body).toMatchObject({ ok: true, mode: 'distributed', role: 'api' });
  });
  it('a token made on one API process works on the other; revoked on one, the other refuses it on the next request', async () => {
    const made = await api.svc.tokens.create(['read']);
    expect((await api2.api('/v1/task-sources', { token: made.token })).status).toBe(200);
    expect((await api.api('/v1/task-sources', { token: made.token })).status).toBe(200);
    await api.svc.tokens.revoke(made.info.id);
    expect((await api2.api('/v1/task-sources', { token: made.token })).status).toBe(401);
    expect((await api.api('/v1/task-sources', { token: made.token })).status).toBe(401);
  });
  it('a task submitted on one API process is read, and waited for, on the other', async () => {
    const token = await api.token(['read', 'write']);
    const made = await api.api('/v1/tasks', { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query: 'cross-api', force: true } } });
    expect(made.status).toBe(202);
    const done = await until(async () => {
      const r = await api2.api(`/v1/tasks/${made.body.task_id}`, { token });
      return r.body.status === 'succeeded' ? r.body : undefined;
    }, 15_000, 100);
    expect(done.result).toMatchObject({ source: 'live' });
  });
});
