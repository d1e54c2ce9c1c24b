import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';

/*
 * /v1/health of an API process reports the fleet: worker processes alive by their heartbeats (a short
 * period here, so a silent one drops out within a second), their slots and runs, and the shared queue.
 */
const prefix = testPrefix('health');
const beat = { heartbeatMs: 100, heartbeatTtlMs: 400 };
let schema: Awaited<ReturnType<typeof testSchema>>;
let fake: FakePlatform;
let api: Running;
let config: Record<string, unknown>;
const workers: Running[] = [];

const startWorker = async () => {
  const w = await startService({ adapters: [fake.adapter], config: { ...config, workers: 3 }, fleet: beat, deployment: { mode: 'distributed', role: 'worker' } });
  workers.push(w);
  return w;
};
const health = async (token: string | null = null) => (await api.api('/v1/health', { token })).body;

beforeAll(async () => {
  await requireRedis();
  schema = await testSchema();
  fake = await startFakePlatform();
  config = { databaseUrl: schema.url, databaseSchema: schema.schema, redisUrl: TEST_REDIS_URL, redisPrefix: prefix, secretKey: 'b'.repeat(64) };
  api = await startService({ adapters: [fake.adapter], config, fleet: beat, deployment: { mode: 'distributed', role: 'api' } });
}, 60_000);
afterAll(async () => {
  await api?.close();
  for (const w of workers) await w.close();
  await fake?.close();
  await dropPrefix(prefix);
  await schema?.drop();
});

describe('health across the fleet', () => {
  it('counts the live worker processes (not the API process), their slots and their runs', async () => {
    expect(await health()).toMatchObject({ mode: 'distributed', role: 'api', workers: 0, worker_slots: 0, running: 0, queue_depth: 0 });
    await startWorker();
    await startWorker();
    expect(await health()).toMatchObject({ workers: 2, worker_slots: 6, running: 0 });

    const token = await api.token(['read', 'write']);
    const slow = await api.api('/v1/tasks', { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query: 'slow', force: true } } });
    const busy = await until(async () => {
      const h = await health();
      return h.running === 1 ? h : undefined;
    }, 10_000, 50);
    // The run holds its job: it counts in the queue until it ends.
    expect(busy).toMatchObject({ workers: 2, queue_depth: 1, queues: { fake: 1 } });
    await api.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST', token });
    await until(async () => ((await health()).running === 0 && (await health()).queue_depth === 0 ? true : undefined), 10_000, 50);
  });

  it('a process whose heartbeat stops drops out once its key expires; one that closes drops out at once', async () => {
    const [silent, closing] = workers;
    silent.svc.heartbeat!.pause();
    await until(async () => ((await health()).workers === 1 ? true : undefined), 5_000, 50);
    expect(await health()).toMatchObject({ workers: 1, worker_slots: 3 });
    await closing.close();
    expect(await health()).toMatchObject({ workers: 0, worker_slots: 0 });
    await silent.close();
    workers.length = 0;
  });

  it('queue depths show tasks waiting while no worker runs, per platform publicly and per account to an admin', async () => {
    const token = await api.token(['read', 'write']);
    const ids: string[] = [];
    await api.svc.store.profilePut({ platform: 'fake', name: 'second', cookies: null, credentials: null });
    for (const [q, profile] of [['wait-a', 'default'], ['wait-b', 'default'], ['wait-c', 'second']]) {
      const r = await api.api('/v1/tasks', { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query: q, profile, force: true } } });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      ids.push(r.body.task_id);
    }
    const open = await health();
    expect(open).toMatchObject({ workers: 0, queue_depth: 3, queues: { fake: 3 }, queue: { queued: 3 } });
    // Account names are account data: the public answer has none.
    expect(open.accounts).toBeUndefined();
    expect(JSON.stringify(open)).not.toContain('second');
    expect((await health(await api.token(['admin']))).accounts).toEqual({ 'fake:default': 2, 'fake:second': 1 });
    expect((await health(await api.token(['read']))).accounts).toBeUndefined();

    // A worker arrives: it is counted, runs the backlog, and the depths fall to zero.
    await startWorker();
    await until(async () => {
      const h = await health();
      return h.workers === 1 && h.queue_depth === 0 ? true : undefined;
    }, 15_000, 50);
    for (const id of ids) expect((await api.api(`/v1/tasks/${id}`, { token })).body.status).toBe('succeeded');
  });
});
