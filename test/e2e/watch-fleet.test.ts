import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';

/*
 * Two processes of a fleet (one Postgres schema, one Redis prefix) both fire watches under one fake
 * clock: each period runs once across the fleet, and runs wait behind interactive tasks in BullMQ too.
 */
const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;
let clock = T0;
const prefix = testPrefix('watch');
let schema: Awaited<ReturnType<typeof testSchema>>;
let fake: FakePlatform;
let a: Running;
let b: Running;
let token: string;

beforeAll(async () => {
  await requireRedis();
  schema = await testSchema();
  fake = await startFakePlatform();
  const config = { databaseUrl: schema.url, databaseSchema: schema.schema, redisUrl: TEST_REDIS_URL, redisPrefix: prefix, secretKey: 'b'.repeat(64), watchTickMs: 3_600_000 };
  const opts = { adapters: [fake.adapter], config, deployment: { mode: 'distributed', role: 'all' } as const, watches: { now: () => clock } };
  a = await startService(opts);
  b = await startService(opts);
  token = await a.token(['read']);
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await fake?.close();
  await dropPrefix(prefix);
  await schema?.drop();
});

const watchOn = (svc: Running, id: string) => svc.api(`/v1/watches/${id}`, { token }).then((r) => r.body);
const taskOn = (svc: Running, id: string) => svc.api(`/v1/tasks/${id}`, { token }).then((r) => r.body);

describe('watches in a fleet (Postgres + Redis)', () => {
  it('a due watch fires exactly once per period across two processes ticking at once', async () => {
    const made = await a.api('/v1/watches', { method: 'POST', token, json: { source: 'fake', action: 'posts', params: { query: 'growing' }, every_s: 900 } });
    expect(made.status).toBe(201);
    const id = made.body.watch_id as string;
    for (let period = 1; period <= 3; period++) {
      const fired = await Promise.all([a.svc.watches.scheduler.tick(), b.svc.watches.scheduler.tick()]);
      expect(fired.reduce((x, y) => x + y, 0), `period ${period}`).toBe(1);
      const w = await until(async () => {
        const x = await watchOn(b, id);
        return x.recent_runs.length === period ? x : undefined;
      }, 15_000, 50);
      expect(w.failures).toBe(0);
      // Ticking again within the period fires nothing anywhere.
      expect((await Promise.all([a.svc.watches.scheduler.tick(), b.svc.watches.scheduler.tick()])).reduce((x, y) => x + y, 0)).toBe(0);
      if (period === 1) fake.grow(2);
      clock += 15 * MIN;
    }
    const w = await watchOn(a, id);
    expect(w.recent_runs.map((r: { new_count: number }) => r.new_count)).toEqual([0, 2, 10]);
    // One crawl per period: a page for the first (10 posts), two for each later one (12 posts).
    expect(fake.hits.filter((h) => h.includes('q=growing'))).toHaveLength(1 + 2 + 2);
    await a.api(`/v1/watches/${id}`, { method: 'DELETE', token });
  });

  it('a watch run queued in BullMQ waits for an interactive task queued after it', async () => {
    const slow = await a.api('/v1/tasks', { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query: 'slow' } } });
    await until(() => fake.hanging > 0, 15_000);
    const made = await a.api('/v1/watches', { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query: 'growing' }, every_s: 900 } });
    expect(await a.svc.watches.scheduler.tick()).toBe(1);
    const runId = (await watchOn(a, made.body.watch_id)).last_task_id as string;
    const interactive = await b.api('/v1/tasks', { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query: 'fleet-first', force: true } } });
    expect((await taskOn(a, runId)).status).toBe('queued');
    await a.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST', token });
    const done = (id: string) =>
      until(async () => {
        const x = await taskOn(b, id);
        return x.status === 'succeeded' ? x : undefined;
      }, 15_000, 50);
    const first = await done(interactive.body.task_id);
    const run = await done(runId);
    expect(Date.parse(first.finished_at)).toBeLessThanOrEqual(Date.parse(run.started_at));
  });
});
