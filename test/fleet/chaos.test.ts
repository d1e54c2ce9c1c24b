import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { TokenService } from '../../src/auth/tokens.js';
import { openStore } from '../../src/store/open.js';
import { call, ProcFleet, waitFor, type Proc } from '../helpers/fleet-procs.js';
import { PrivatePostgres, PrivateRedis } from '../helpers/private-servers.js';

/*
 * Chaos on a fleet of processes (1 API, 2 workers) with a Redis and a Postgres of its own, so they can be
 * killed and restarted: a worker killed mid-read and mid-write, Redis restarted with and without its data,
 * Postgres restarted. Queue timings are short (locks 2 s, stalled checks 1 s, reconcile 1 s) so a dead
 * worker's job comes back within seconds.
 */
const SLOW_MS = 2500;
const dir = mkdtempSync(join(tmpdir(), 'chaos-'));
const redis = new PrivateRedis(join(dir, 'redis'));
const pg = new PrivatePostgres(mkdtempSync(join(tmpdir(), 'chaos-pg-')));
let fleet: ProcFleet;
let api: Proc;
const workers: Proc[] = [];
let token: string;
let admin: string;

const READ = (profile: string) => ({ source: 'twitter', action: 'detail', params: { query: 'https://x.com/harborweather/status/2045936718443446274', force: true, profile } });
const FAST = (profile: string) => ({ source: 'telegram', action: 'posts', params: { query: 'harborweather', limit: 5, force: true, profile } });
const WRITE = { source: 'bluesky', action: 'post.create', params: { text: 'Hello from the crawler sandbox', confirm: true, profile: 'writer' } };

beforeAll(async () => {
  await redis.start();
  await pg.start();
  fleet = new ProcFleet({
    CRAWLER_DATABASE_URL: pg.url,
    CRAWLER_REDIS_URL: redis.url,
    CRAWLER_REDIS_PREFIX: 'chaos',
    CRAWLER_SECRET_KEY: 'c'.repeat(64),
    CRAWLER_REPLAY: 'sandbox',
    CRAWLER_MIN_GAP_MS: '0',
    CRAWLER_REPLAY_DELAY_MS: `2,x.com=${SLOW_MS},bsky.social=${SLOW_MS}`,
    CRAWLER_WORKERS: '4',
    CRAWLER_QUEUE_LOCK_MS: '2000',
    CRAWLER_QUEUE_STALLED_MS: '1000',
    CRAWLER_QUEUE_RECONCILE_MS: '1000',
    CRAWLER_CANCEL_RECHECK_MS: '1000',
    CRAWLER_REDIS_WATCHDOG_MS: '3000',
  });
  api = await fleet.start('api');
  workers.push(...(await Promise.all([fleet.start('worker'), fleet.start('worker')])));
  const store = openStore(loadConfig({ CRAWLER_DATABASE_URL: pg.url, CRAWLER_SECRET_KEY: 'c'.repeat(64), CRAWLER_DATA_DIR: fleet.dir }));
  const tokens = new TokenService(store);
  token = (await tokens.create(['read', 'write'])).token;
  admin = (await tokens.create(['read', 'write', 'admin'])).token;
  await store.close();
  const profiles = [
    ...Array.from({ length: 6 }, (_, i) => ({ platform: 'twitter', name: `r${i}`, cookies: 'lang=en' })),
    ...Array.from({ length: 6 }, (_, i) => ({ platform: 'telegram', name: `f${i}`, cookies: 'lang=en' })),
    { platform: 'bluesky', name: 'writer', credentials: { identifier: 'crawler-demo.bsky.social', app_password: 'xxxx-xxxx-xxxx-xxxx' } },
  ];
  for (const p of profiles) {
    const r = await call(api.url, '/v1/profiles', { token: admin, json: p });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
}, 240_000);

afterAll(async () => {
  await fleet?.close();
  await redis.stop();
  await pg.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const submit = async (task: object) => {
  const r = await call(api.url, '/v1/tasks', { token, json: task });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.task_id as string;
};
const get = async (id: string) => (await call(api.url, `/v1/tasks/${id}`, { token })).body;
const endAll = (ids: string[], ms: number) =>
  waitFor(
    async () => {
      const rows = await Promise.all(ids.map(get));
      return rows.every((r) => ['succeeded', 'failed', 'cancelled'].includes(r.status)) ? rows : undefined;
    },
    ms,
    250,
    `${ids.length} tasks to end`,
  );
/** The process (pid-tag) that sent a request of the task, from the request log. */
const sender = (task: string) => fleet.requests().find((l) => l.task === task && l.phase === 'send')?.id.split('-').slice(0, 2).join('-');
const pidOf = (p: Proc) => String(p.child.pid);

describe('chaos: workers killed, Redis and Postgres restarted', () => {
  it('kill -9 a worker during reads: every task ends, once, with its result; none is lost or doubled', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(READ(`r${i}`))));
    // Both workers are crawling; one of them dies with its reads in flight.
    const running = await waitFor(async () => {
      const senders = new Set(ids.map(sender).filter(Boolean));
      return senders.size >= 2 ? senders : undefined;
    }, 30_000, 100, 'both workers to be crawling');
    const victim = workers.find((w) => [...running].some((s) => s?.startsWith(`${pidOf(w)}-`)))!;
    const victimTasks = ids.filter((id) => sender(id)?.startsWith(`${pidOf(victim)}-`));
    expect(victimTasks.length).toBeGreaterThan(0);
    await victim.kill();
    workers.splice(workers.indexOf(victim), 1);
    const rows = await endAll(ids, 60_000);
    for (const r of rows) {
      expect(r.status, JSON.stringify(r.error)).toBe('succeeded');
      expect(r.result.source).toBe('live');
      const itemIds = r.result.items.map((i: { id: string }) => i.id);
      expect(new Set(itemIds).size).toBe(itemIds.length);
    }
    // The dead worker's reads ran again on the survivor.
    const survivor = pidOf(workers[0]);
    for (const id of victimTasks) expect(fleet.requests().some((l) => l.task === id && l.id.startsWith(`${survivor}-`) && l.phase === 'done' && l.status === 200)).toBe(true);
    // A replacement joins for what follows.
    workers.push(await fleet.start('worker'));
  });

  it('kill -9 the worker running a write: the platform gets exactly one request, and the task ends "outcome unknown"', async () => {
    const id = await submit(WRITE);
    const sent = await waitFor(async () => fleet.requests().find((l) => l.task === id && l.phase === 'send' && l.path.endsWith('createRecord')), 30_000, 50, 'the write to be sent');
    const victim = workers.find((w) => sent.id.startsWith(`${pidOf(w)}-`))!;
    await victim.kill();
    workers.splice(workers.indexOf(victim), 1);
    const [row] = await endAll([id], 60_000);
    expect(row.status).toBe('failed');
    expect(row.error).toMatchObject({ code: 'upstream_error', retryable: false });
    expect(row.error.message).toContain('outcome unknown');
    expect(fleet.requests().filter((l) => l.task === id && l.phase === 'send' && l.path.endsWith('createRecord'))).toHaveLength(1);
    workers.push(await fleet.start('worker'));
  });

  it('Redis restarted (with its data, then without): the workers go on by themselves and no queued task is lost', async () => {
    for (const wipe of [false, true]) {
      const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => submit(i % 2 ? FAST(`f${i}`) : READ(`r${i}`))));
      await waitFor(async () => (ids.some((id) => sender(id)) ? true : undefined), 30_000, 50, 'a crawl to start');
      if (wipe) await redis.crashAndWipe();
      else await redis.stop();
      await new Promise((r) => setTimeout(r, 1500));
      await redis.start();
      const rows = await endAll(ids, 90_000);
      expect(rows.map((r) => `${r.status}${r.error ? ` ${JSON.stringify(r.error)}` : ''}`)).toEqual(rows.map(() => 'succeeded'));
      // And the fleet keeps taking new work afterwards.
      const after = await submit(FAST('f0'));
      const [done] = await endAll([after], 30_000);
      expect(done.status).toBe('succeeded');
    }
  });

  it('Postgres restarted: the API answers 503 with the error body while it is down, then everything recovers, nothing doubled', async () => {
    const before = await submit(FAST('f1'));
    await endAll([before], 30_000);
    await pg.stop();
    const down = await waitFor(async () => {
      const r = await call(api.url, '/v1/tasks', { token, json: FAST('f2') });
      return r.status === 503 ? r : undefined;
    }, 20_000, 200, 'a 503 while Postgres is down');
    expect(down.body).toMatchObject({ ok: false, error: { code: expect.any(String), retryable: true } });
    await pg.start();
    const id = await waitFor(async () => {
      const r = await call(api.url, '/v1/tasks', { token, json: FAST('f3') });
      return r.status === 202 ? (r.body.task_id as string) : undefined;
    }, 30_000, 250, 'the API to accept tasks again');
    const [row] = await endAll([id], 60_000);
    expect(row.status).toBe('succeeded');
    // Every task submitted in this file is stored once.
    const list = await call(api.url, '/v1/tasks?limit=100', { token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const seen = list.body.tasks.map((t: { task_id: string }) => t.task_id);
    expect(new Set(seen).size).toBe(seen.length);
  });
});
