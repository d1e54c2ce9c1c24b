import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { startHttpProxy, type TestProxy } from '../helpers/proxies.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';
import { egressId, parseProxy } from '../../src/identity/proxy-url.js';

/*
 * Identities in distributed mode: two API processes and a worker on one Postgres schema and one Redis
 * prefix. Pool picks read the fleet's queued and running tasks from the store; pacing keys are per
 * platform and egress in Redis; the worker sends a proxied profile's requests through its proxy.
 */
const prefix = testPrefix('ident');
let schema: Awaited<ReturnType<typeof testSchema>>;
let fake: FakePlatform;
let proxy: TestProxy;
let api: Running;
let api2: Running;
let worker: Running;

beforeAll(async () => {
  await requireRedis();
  schema = await testSchema();
  fake = await startFakePlatform();
  proxy = await startHttpProxy({ user: 'fleet', pass: 'FLEETPW' });
  const config = { databaseUrl: schema.url, databaseSchema: schema.schema, redisUrl: TEST_REDIS_URL, redisPrefix: prefix, secretKey: 'b'.repeat(64), minGapMs: 5 };
  const egress = { allowAddress: (a: string) => a === '127.0.0.1' };
  api = await startService({ adapters: [fake.adapter], config, egress, deployment: { mode: 'distributed', role: 'api' } });
  api2 = await startService({ adapters: [fake.adapter], config, egress, deployment: { mode: 'distributed', role: 'api' } });
  worker = await startService({ adapters: [fake.adapter], config, egress, deployment: { mode: 'distributed', role: 'worker' } });
  expect((await api.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'pa', cookies: 'S=a', pool: 'eu', proxy: proxy.url } })).status).toBe(201);
  expect((await api2.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'pb', cookies: 'S=b', pool: 'eu' } })).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await api2?.close();
  await worker?.close();
  await fake?.close();
  await proxy?.close();
  await dropPrefix(prefix);
  await schema?.drop();
});

describe('identities across a fleet (Postgres + Redis)', () => {
  it('pool picks on two API processes see each other\'s work: two pool tasks go to two profiles', async () => {
    const one = await api.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'slow', profile: 'pool:eu', force: true } } });
    const two = await api2.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'slow', profile: 'pool:eu', force: true } } });
    expect(one.status).toBe(202);
    expect(two.status).toBe(202);
    const picks = [(await api2.api(`/v1/tasks/${one.body.task_id}`)).body.profile, (await api.api(`/v1/tasks/${two.body.task_id}`)).body.profile];
    expect(picks.sort()).toEqual(['pa', 'pb']);
    await until(() => fake.hanging >= 2 || undefined, 15_000);
    for (const id of [one.body.task_id, two.body.task_id]) await api.api(`/v1/tasks/${id}/cancel`, { method: 'POST' });
  });

  it('the worker paces per platform and egress in Redis, and sends the proxied profile through its proxy only', async () => {
    const p0 = proxy.seen.length;
    const h0 = fake.hits.length;
    const viaProxy = await api.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'fleet-proxied', profile: 'pa', force: true } } });
    expect(viaProxy.body.status).toBe('succeeded');
    const proxiedHits = fake.hits.length - h0;
    expect(proxiedHits).toBeGreaterThan(0);
    expect(proxy.seen.length - p0).toBe(proxiedHits);
    const p1 = proxy.seen.length;
    const direct = await api2.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'fleet-direct', profile: 'pb', force: true } } });
    expect(direct.body.status).toBe('succeeded');
    expect(proxy.seen.length).toBe(p1);
    const r = new Redis(TEST_REDIS_URL);
    try {
      const keys = (await r.keys(`${prefix}:pace:*`)).sort();
      expect(keys).toEqual([`${prefix}:pace:fake|${egressId(parseProxy(proxy.url))}`, `${prefix}:pace:fake|direct`].sort());
    } finally {
      r.disconnect();
    }
  });

  it('hourly rates are fleet-wide: outcomes the worker recorded show on either API process', async () => {
    const list = await api2.api('/v1/profiles');
    const pa = list.body.profiles.find((p: { name: string }) => p.name === 'pa');
    expect(pa).toMatchObject({ tasks_1h: 1, success_rate_1h: 1, block_rate_1h: 0, pool: 'eu', proxy: `http://***@127.0.0.1:${proxy.port}` });
    expect(list.text).not.toContain('FLEETPW');
  });
});
