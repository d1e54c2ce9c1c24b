import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisPacer } from '../../src/crawl/pacer-redis.js';
import { redisClient } from '../../src/redis/connect.js';
import { RedisCancelSignal } from '../../src/tasks/cancel-redis.js';
import { EventBus, type TaskEvent } from '../../src/tasks/events.js';
import { RedisEventRelay } from '../../src/tasks/events-relay.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';

const prefix = testPrefix('pc');
const clients: ReturnType<typeof redisClient>[] = [];
const client = (blocking = false) => {
  const c = redisClient(TEST_REDIS_URL, { blocking });
  clients.push(c);
  return c;
};

/** Resolves when the signal aborts; rejects after ms (a bound, not a timing assertion). */
const aborted = (signal: AbortSignal, ms = 5000) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(() => reject(new Error('not aborted')), ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

describe('Redis pacer, cancel signal and event relay across processes', () => {
  beforeAll(requireRedis);
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await dropPrefix(prefix);
  });

  it('two pacers (separate clients) never reserve one key\'s slots closer than the gap, on Redis\'s clock', async () => {
    const a = new RedisPacer(client(), prefix);
    const b = new RedisPacer(client(), prefix);
    const gap = 40;
    const calls = Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).reserveSlot('platform-x', gap));
    const taken = await Promise.all(calls);
    const slots = taken.map((t) => t.slot).sort((x, y) => x - y);
    for (let i = 1; i < slots.length; i++) expect(slots[i] - slots[i - 1]).toBeGreaterThanOrEqual(gap);
    // Each slot is at or after the moment it was taken, and the delay handed out is the difference.
    for (const t of taken) expect(t.slot).toBeGreaterThanOrEqual(t.now);
    // Another key has its own counter: its first reservation waits for nothing.
    const other = await b.reserveSlot('platform-y', gap);
    expect(other.slot).toBe(other.now);
    expect(await a.reserve('platform-z', 0)).toBe(0);
  });

  it('acquire takes a slot only when it is due: of callers at one moment exactly one goes, the rest are told how long to wait', async () => {
    const a = new RedisPacer(client(), prefix);
    const b = new RedisPacer(client(), prefix);
    const gap = 200;
    const waits = (await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).acquire('platform-q', gap)))).map((x) => x.wait);
    expect(waits.filter((w) => w === 0)).toHaveLength(1);
    for (const w of waits.filter((w) => w !== 0)) {
      expect(w).toBeGreaterThan(0);
      expect(w).toBeLessThanOrEqual(gap);
    }
    // Nothing was taken by the refused callers: once the gap has passed, one of them goes at once.
    await new Promise((r) => setTimeout(r, Math.max(...waits) + 5));
    expect((await a.acquire('platform-q', gap)).wait).toBe(0);
    expect((await b.acquire('platform-q', gap)).wait).toBeGreaterThan(0);
  });

  it('a cancel on one process aborts the run on the other', async () => {
    const worker = new RedisCancelSignal({ pub: client(), sub: client(true), prefix, stillRunning: async () => true, recheckMs: 60_000 });
    const api = new RedisCancelSignal({ pub: client(), sub: client(true), prefix, stillRunning: async () => true, recheckMs: 60_000 });
    await Promise.all([worker.ready, api.ready]);
    try {
      const run = worker.watch('t_remote');
      const bystander = worker.watch('t_other');
      await api.cancel('t_remote');
      await aborted(run.signal);
      expect(bystander.signal.aborted).toBe(false);
      run.release();
      bystander.release();
    } finally {
      worker.close();
      api.close();
    }
  });

  it('a lost cancel message is caught by the re-check of the task row', async () => {
    const rows = new Map([['t_lost', 'running']]);
    const worker = new RedisCancelSignal({ pub: client(), sub: client(true), prefix, stillRunning: async (id) => rows.get(id) === 'running', recheckMs: 60_000 });
    await worker.ready;
    try {
      const run = worker.watch('t_lost');
      await worker.recheck();
      expect(run.signal.aborted).toBe(false);
      // Cancelled on another process whose message never arrived: only the row says so.
      rows.set('t_lost', 'cancelled');
      await worker.recheck();
      expect(run.signal.aborted).toBe(true);
      run.release();
    } finally {
      worker.close();
    }
  });

  it('events a worker publishes reach the streams of an API process, the result restated from the row', async () => {
    const workerBus = new EventBus();
    const apiBus = new EventBus();
    const worker = new RedisEventRelay({ pub: client(), sub: client(true), prefix, bus: workerBus, resultJson: async () => undefined });
    const api = new RedisEventRelay({ pub: client(), sub: client(true), prefix, bus: apiBus, resultJson: async (id) => `{"id":"${id}","status":"succeeded"}` });
    await Promise.all([worker.ready, api.ready]);
    const heard: TaskEvent[] = [];
    const done = apiBus.waitForResult('t_sse', 1, 5000);
    const off = apiBus.subscribe('t_sse', 1, (e) => heard.push(e));
    for (const [type, data] of [['status', '{"status":"running"}'], ['progress', '{"items":3}'], ['result', '{"big":"result"}']] as const) {
      const e = workerBus.emit('t_sse', 1, type, data);
      worker.forward('t_sse', e);
    }
    expect(await done).toBe(true);
    expect(heard).toEqual([
      { id: 2, type: 'status', data: '{"status":"running"}' },
      { id: 3, type: 'progress', data: '{"items":3}' },
      { id: 4, type: 'result', data: '{"id":"t_sse","status":"succeeded"}' },
    ]);
    // A task nobody follows on the API side keeps no channel there.
    worker.forward('t_nobody', { id: 1, type: 'status', data: '{}' });
    off();
    await new Promise((r) => setTimeout(r, 50));
    expect(apiBus.size).toBe(0);
  });
});
