import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { startService, until, type Running } from '../helpers/service.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import type { ServiceOptions } from '../../src/service.js';

// Processes of a fleet as far as webhooks can tell: services with their own pools and deliverers on one Postgres schema.
let fake: FakePlatform;
let receiver: Receiver;
const schemas: Array<Awaited<ReturnType<typeof testSchema>>> = [];
const running: Running[] = [];
const prefixes: string[] = [];

const loopback = (a: string) => a === '127.0.0.1';
async function fleetProcess(db: Awaited<ReturnType<typeof testSchema>>, leaseMs?: number, redis?: { prefix: string; role: 'api' | 'worker' }): Promise<Running> {
  const deployment: ServiceOptions['deployment'] = redis ? { mode: 'distributed', role: redis.role } : undefined;
  const s = await startService({
    adapters: [fake.adapter],
    config: {
      databaseUrl: db.url,
      databaseSchema: db.schema,
      secretKey: 'cd'.repeat(32),
      webhookAllowHttp: true,
      accountSlots: 8,
      ...(redis ? { redisUrl: TEST_REDIS_URL, redisPrefix: redis.prefix } : {}),
    },
    webhooks: { allowAddress: loopback, pollMs: 10, leaseMs },
    deployment,
  });
  running.push(s);
  return s;
}

beforeAll(async () => {
  fake = await startFakePlatform();
  receiver = await startReceiver((path, n) => (path === '/stall' && n === 0 ? 'hang' : 200));
});
afterAll(async () => {
  for (const s of running) await s.close().catch(() => {});
  for (const db of schemas) await db.drop();
  for (const p of prefixes) await dropPrefix(p);
  await receiver?.close();
  await fake?.close();
});

const delivered = (s: Running, id: string) =>
  until(async () => {
    const l = (await s.api(`/v1/tasks/${id}/webhooks`)).body;
    return l.deliveries?.[0]?.state === 'delivered' ? l.deliveries[0] : undefined;
  });

describe('webhooks in a fleet (two processes, one Postgres)', () => {
  it('each task finished on either process is delivered exactly once, signed with the one fleet secret', async () => {
    const db = await testSchema();
    schemas.push(db);
    const a = await fleetProcess(db);
    const b = await fleetProcess(db);
    const secret = (await a.api('/v1/webhooks/secret')).body.secret as string;
    expect((await b.api('/v1/webhooks/secret')).body.secret).toBe(secret);
    const ids = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const s = i % 2 ? b : a;
        // No inline wait: without Redis a process does not hear of a task the other one ran (it polls the row).
        const r = await s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: `fleet${i}`, limit: 2, callback_url: receiver.url(`/fleet/${i}`) } } });
        expect(r.status).toBe(202);
        return r.body.task_id as string;
      }),
    );
    for (const [i, id] of ids.entries()) {
      const d = await delivered(i % 2 ? a : b, id);
      expect(d.attempts).toHaveLength(1);
    }
    // Both deliverers keep polling the shared outbox every 10 ms; give them a few dozen more polls.
    await new Promise((r) => setTimeout(r, 300));
    for (const [i, id] of ids.entries()) {
      const got = receiver.at(`/fleet/${i}`);
      expect(got, `task ${i}`).toHaveLength(1);
      expect(got[0].body.task_id).toBe(id);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(got[0].headers['x-crawler-signature'] as string)!;
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.`).update(got[0].raw).digest('hex'));
    }
  });

  it('a delivery claimed by a process that dies is delivered by another once its lease runs out', async () => {
    const db = await testSchema();
    schemas.push(db);
    const doomed = await fleetProcess(db, 800);
    const r = await doomed.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'orphan', limit: 1, callback_url: receiver.url('/stall') } } });
    expect(r.body.status).toBe('succeeded');
    // The first attempt reaches the receiver, which holds it; the process stops before any answer.
    await receiver.count('/stall', 1);
    await doomed.close();
    const heir = await fleetProcess(db);
    const d = await delivered(heir, r.body.task_id);
    const got = receiver.at('/stall');
    expect(got).toHaveLength(2);
    expect(got.map((g) => g.answered)).toEqual([undefined, 200]);
    expect(got[1].headers['x-crawler-delivery']).toBe(got[0].headers['x-crawler-delivery']);
    // The dead process's attempt was never recorded; the heir's is the lease's second claim.
    expect(d.attempts).toEqual([{ n: 2, at: expect.any(String), http_status: 200, ms: expect.any(Number) }]);
    expect(Date.parse(d.attempts[0].at) - Date.parse(d.created_at)).toBeGreaterThanOrEqual(700);
  });

  it('with Redis, an API process and a worker: a task run on the worker and one cancelled on the API are each delivered once', async () => {
    await requireRedis();
    const db = await testSchema();
    schemas.push(db);
    const prefix = testPrefix('webhooks');
    prefixes.push(prefix);
    const api = await fleetProcess(db, undefined, { prefix, role: 'api' });
    await fleetProcess(db, undefined, { prefix, role: 'worker' });
    const ran = await api.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'roles', limit: 2, callback_url: receiver.url('/roles/ran') } } });
    expect(ran.body.status).toBe('succeeded');
    const slow = await api.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'slow', callback_url: receiver.url('/roles/cancelled') } } });
    await until(() => fake.hanging > 0);
    expect((await api.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST' })).body.status).toBe('cancelled');
    await delivered(api, ran.body.task_id);
    await delivered(api, slow.body.task_id);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.at('/roles/ran').map((g) => g.body)).toMatchObject([{ task_id: ran.body.task_id, status: 'succeeded', count: 2 }]);
    expect(receiver.at('/roles/cancelled').map((g) => g.body)).toMatchObject([{ task_id: slow.body.task_id, status: 'cancelled' }]);
  });
});
