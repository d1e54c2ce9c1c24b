import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformAdapter } from '../../src/platforms/types.js';
import { watchNewItems } from '../../src/watches/new-items.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { schemaChecker } from '../helpers/openapi.js';
import { startService, until, type Running } from '../helpers/service.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import type { OpenApiDocument } from '../../src/openapi/types.js';

/*
 * Watch runs against the real service and a fake platform on loopback, under a clock moved by hand:
 * the scheduler ticks only when a test says so.
 */
const T0 = Date.UTC(2026, 0, 1);
const MIN = 60_000;
let clock = T0;
let fake: FakePlatform;
let svc: Running;
let token: string;

beforeAll(async () => {
  fake = await startFakePlatform();
  // Blocked crawls cool the account for a millisecond only: the next run is not held back in real time.
  svc = await startService({ adapters: [fake.adapter], config: { watchTickMs: 3_600_000 }, watches: { now: () => clock }, health: { baseMs: 1, capMs: 1, random: () => 1 } });
  token = await svc.token(['read']);
});
afterAll(async () => {
  await svc?.close();
  await fake?.close();
});

type Api = Running['api'];
const watchOf = (api: Api, id: string, t = token) => api(`/v1/watches/${id}`, { token: t }).then((r) => r.body);
/** The watch once n runs have finished (runs are recorded after their task's result). */
const afterRuns = (api: Api, id: string, n: number, t = token) =>
  until(async () => {
    const w = await watchOf(api, id, t);
    return w.recent_runs.length >= n ? w : undefined;
  });
const task = (api: Api, id: string, t = token) => api(`/v1/tasks/${id}`, { token: t }).then((r) => r.body);
const create = async (api: Api, json: Record<string, unknown>, t = token) => {
  const r = await api('/v1/watches', { method: 'POST', token: t, json: { every_s: 900, ...json } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.watch_id as string;
};
const ids = (items: Array<{ id?: string; cid?: string; word?: string }>) => items.map((i) => i.id ?? i.cid ?? i.word);

describe('watch runs', () => {
  it("keeps only new items across runs; the cache still serves interactive reads the whole page; the export lists every new item once", async () => {
    const id = await create(svc.api, { source: 'fake', action: 'posts', params: { query: 'growing' } });
    expect(await svc.svc.watches.scheduler.tick()).toBe(1);
    let w = await afterRuns(svc.api, id, 1);
    const first = await task(svc.api, w.last_task_id);
    expect(first.params).toMatchObject({ query: 'growing', force: true });
    expect(first.result).toMatchObject({ source: 'live', count: 10, watch: { watch_id: id, new_count: 10, seen_count: 0 } });
    const check = schemaChecker((await svc.api('/v1/openapi.json', { token: null })).body as OpenApiDocument);
    expect(check.component('Task', first)).toEqual([]);
    expect(w).toMatchObject({ last_new_count: 10, failures: 0, last_run_at: new Date(clock).toISOString(), next_run_at: new Date(clock + 15 * MIN).toISOString() });

    // Not due yet: nothing fires.
    clock += 14 * MIN;
    expect(await svc.svc.watches.scheduler.tick()).toBe(0);

    fake.grow(3);
    clock += MIN;
    expect(await svc.svc.watches.scheduler.tick()).toBe(1);
    w = await afterRuns(svc.api, id, 2);
    const second = await task(svc.api, w.last_task_id);
    expect(ids(second.result.items)).toEqual(['fake:1013', 'fake:1012', 'fake:1011']);
    // The run walks both pages of the feed (limit 24): 13 items, 10 of them seen.
    expect(second.result).toMatchObject({ count: 3, watch: { new_count: 3, seen_count: 10 } });
    expect(second.result.watch).not.toHaveProperty('new_ids');

    clock += 15 * MIN;
    expect(await svc.svc.watches.scheduler.tick()).toBe(1);
    w = await afterRuns(svc.api, id, 3);
    const third = await task(svc.api, w.last_task_id);
    expect(third.result).toMatchObject({ ok: true, count: 0, items: [], watch: { new_count: 0, seen_count: 13 } });
    expect(w.last_new_count).toBe(0);
    expect(w.recent_runs.map((r: { new_count: number }) => r.new_count)).toEqual([0, 3, 10]);

    // An ordinary read of the same feed is answered from the cache the runs filled: the whole page, no watch object.
    const plain = await svc.api('/v1/tasks?wait=8000', { method: 'POST', token, json: { source: 'fake', action: 'posts', params: { query: 'growing' } } });
    expect(plain.body.result).toMatchObject({ source: 'cache', count: 13 });
    expect(plain.body.result).not.toHaveProperty('watch');

    const collected: string[] = [];
    for await (const item of watchNewItems(svc.svc.store, id)) collected.push((item as { id: string }).id);
    expect(collected).toHaveLength(13);
    expect(new Set(collected).size).toBe(13);
    expect(collected.slice(10)).toEqual(['fake:1013', 'fake:1012', 'fake:1011']);
  });

  it('full_page keeps the whole page and names the new items; comments and trending key on cid and word', async () => {
    const page = await create(svc.api, { source: 'fake', action: 'search', params: { query: 'growing', limit: 5 }, full_page: true });
    const comments = await create(svc.api, { source: 'fake', action: 'comments', params: { query: 'p1' } });
    const trends = await create(svc.api, { source: 'fake', action: 'trending' });
    expect(await svc.svc.watches.scheduler.tick()).toBe(3);
    for (const id of [page, comments, trends]) await afterRuns(svc.api, id, 1);
    fake.grow(1);
    clock += 15 * MIN;
    expect(await svc.svc.watches.scheduler.tick()).toBeGreaterThanOrEqual(3);
    const [p, c, t] = await Promise.all([page, comments, trends].map((id) => afterRuns(svc.api, id, 2)));

    const pageRun = await task(svc.api, p.last_task_id);
    expect(pageRun.result.items).toHaveLength(5);
    expect(pageRun.result.watch).toEqual({ watch_id: page, new_count: 1, seen_count: 4, new_ids: ['fake:1014'] });
    // The export of a full_page watch yields only the items its runs named new.
    const exported: string[] = [];
    for await (const item of watchNewItems(svc.svc.store, page)) exported.push((item as { id: string }).id);
    expect(exported).toEqual(['fake:1013', 'fake:1012', 'fake:1011', 'fake:1010', 'fake:1009', 'fake:1014']);

    const firstComments = await task(svc.api, c.recent_runs[1].task_id);
    expect(ids(firstComments.result.items).sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
    const againComments = await task(svc.api, c.last_task_id);
    expect(againComments.result).toMatchObject({ items: [], watch: { new_count: 0, seen_count: 4 } });

    const firstTrends = await task(svc.api, t.recent_runs[1].task_id);
    expect(ids(firstTrends.result.data.trends)).toEqual(['alpha', 'beta']);
    const againTrends = await task(svc.api, t.last_task_id);
    expect(againTrends.result).toMatchObject({ data: { trends: [] }, watch: { new_count: 0, seen_count: 2 } });
    for (const id of [page, comments, trends]) await svc.api(`/v1/watches/${id}`, { method: 'DELETE', token });
  });

  it('failed runs double the period up to 8 h and show last_error; a success resets the failures', async () => {
    await svc.api('/v1/watches?all=true').then(async (r) => {
      for (const w of r.body.watches) await svc.api(`/v1/watches/${w.watch_id}`, { method: 'DELETE' });
    });
    const id = await create(svc.api, { source: 'fake', action: 'posts', params: { query: 'growing', limit: 3 } });
    fake.failing = true;
    const periods: number[] = [];
    for (let k = 1; k <= 7; k++) {
      expect(await svc.svc.watches.scheduler.tick()).toBe(1);
      const w = await until(async () => {
        const x = await watchOf(svc.api, id);
        return x.failures === k ? x : undefined;
      });
      expect(w.last_error).toMatchObject({ code: 'blocked', retryable: true });
      expect(w.last_error_at).toBe(new Date(clock).toISOString());
      const next = Date.parse(w.next_run_at);
      periods.push((next - Date.parse(w.last_run_at)) / 1000);
      // Just before it is due nothing fires; at the time it does.
      clock = next - 1;
      expect(await svc.svc.watches.scheduler.tick()).toBe(0);
      clock = next;
    }
    expect(periods).toEqual([1800, 3600, 7200, 14400, 28800, 28800, 28800]);

    fake.failing = false;
    expect(await svc.svc.watches.scheduler.tick()).toBe(1);
    const healed = await until(async () => {
      const x = await watchOf(svc.api, id);
      return x.failures === 0 ? x : undefined;
    });
    expect(healed.last_new_count).toBe(3);
    expect(Date.parse(healed.next_run_at) - Date.parse(healed.last_run_at)).toBe(15 * MIN);
    // The error stays visible, dated, after the recovery.
    expect(healed.last_error).toMatchObject({ code: 'blocked' });
    const failedRun = healed.recent_runs.find((r: { error?: unknown }) => r.error);
    expect(failedRun).toMatchObject({ error: { code: 'blocked' } });
    expect(failedRun).not.toHaveProperty('new_count');
    await svc.api(`/v1/watches/${id}`, { method: 'DELETE', token });
  });

  it('a paused watch does not run; a run that cannot be submitted is a failure with its error', async () => {
    const id = await create(svc.api, { source: 'fake', action: 'posts', params: { query: 'growing' }, paused: true });
    expect(await svc.svc.watches.scheduler.tick()).toBe(0);
    expect((await watchOf(svc.api, id)).last_run_at).toBeUndefined();
    // The owner's token is revoked: the run is refused, the watch says why and backs off.
    const doomed = await svc.svc.tokens.create(['read']);
    const orphan = await create(svc.api, { source: 'fake', action: 'posts', params: { query: 'growing' } }, doomed.token);
    await svc.svc.tokens.revoke(doomed.info.id);
    expect(await svc.svc.watches.scheduler.tick()).toBe(0);
    const w = (await svc.api(`/v1/watches/${orphan}`)).body;
    expect(w).toMatchObject({ failures: 1, last_error: { code: 'auth_required' }, last_run_at: new Date(clock).toISOString(), recent_runs: [] });
    expect(Date.parse(w.next_run_at) - clock).toBe(30 * MIN);
    await svc.api(`/v1/watches/${orphan}`, { method: 'DELETE' });
    await svc.api(`/v1/watches/${id}`, { method: 'DELETE', token });
  });

  it('an interactive task submitted after a watch run runs first when the worker slot frees', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'watch-priority-'));
    const one = await startService({ adapters: [fake.adapter], dataDir, config: { workers: 1, watchTickMs: 3_600_000 }, watches: { now: () => clock } });
    try {
      const t = await one.token(['read']);
      const slow = await one.api('/v1/tasks', { method: 'POST', token: t, json: { source: 'fake', action: 'search', params: { query: 'slow' } } });
      await until(() => fake.hanging > 0);
      const id = await create(one.api, { source: 'fake', action: 'posts', params: { query: 'growing' } }, t);
      expect(await one.svc.watches.scheduler.tick()).toBe(1);
      const runId = (await watchOf(one.api, id, t)).last_task_id as string;
      expect((await task(one.api, runId, t)).status).toBe('queued');
      const interactive = await one.api('/v1/tasks', { method: 'POST', token: t, json: { source: 'fake', action: 'search', params: { query: 'after-the-watch', force: true } } });
      await one.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST', token: t });
      const done = async (taskId: string) => until(async () => {
        const x = await task(one.api, taskId, t);
        return x.status === 'succeeded' ? x : undefined;
      });
      const [first, run] = [await done(interactive.body.task_id), await done(runId)];
      expect(Date.parse(first.finished_at)).toBeLessThanOrEqual(Date.parse(run.started_at));
    } finally {
      await one.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('survives a restart: a watch due while the service was down runs once at start, not once per missed period', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'watch-restart-'));
    const opts = { adapters: [fake.adapter], dataDir, config: { watchTickMs: 3_600_000 }, watches: { now: () => clock } };
    let a = await startService(opts);
    try {
      const t = await a.token(['read']);
      const id = await create(a.api, { source: 'fake', action: 'posts', params: { query: 'growing' } }, t);
      expect(await a.svc.watches.scheduler.tick()).toBe(1);
      await afterRuns(a.api, id, 1, t);
      await a.close({ keepData: true });
      clock += 5 * 15 * MIN + 7 * MIN;
      // The tick at start fires the missed run.
      a = await startService(opts);
      const w = await afterRuns(a.api, id, 2, t);
      expect(w.last_run_at).toBe(new Date(clock).toISOString());
      expect(w.next_run_at).toBe(new Date(clock + 15 * MIN).toISOString());
      expect(await a.svc.watches.scheduler.tick()).toBe(0);
      expect((await watchOf(a.api, id, t)).recent_runs).toHaveLength(2);
    } finally {
      await a.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('callback_url', () => {
  it('is judged like a task\'s, copied into each run, and each run notifies with the watch id', async () => {
    const receiver = await startReceiver();
    const hooked = await startService({
      adapters: [fake.adapter],
      config: { watchTickMs: 3_600_000, webhookAllowHttp: true },
      watches: { now: () => clock },
      webhooks: { allowAddress: (a) => a === '127.0.0.1', pollMs: 20 },
    });
    try {
      const t = await hooked.token(['read']);
      const refused = await hooked.api('/v1/watches', { method: 'POST', token: t, json: { source: 'fake', action: 'posts', params: { query: 'growing' }, every_s: 900, callback_url: 'https://10.1.2.3/hook' } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^callback_url: /);
      const url = receiver.url('/watch?k=1');
      const id = await create(hooked.api, { source: 'fake', action: 'posts', params: { query: 'growing' }, callback_url: url }, t);
      expect(await hooked.svc.watches.scheduler.tick()).toBe(1);
      const w = await afterRuns(hooked.api, id, 1, t);
      expect(w.callback_url).toBe(url);
      expect((await task(hooked.api, w.last_task_id, t)).params.callback_url).toBe(url);
      const [note] = await receiver.count('/watch?k=1', 1);
      expect(note.body).toMatchObject({ event: 'task.finished', task_id: w.last_task_id, status: 'succeeded', watch_id: id });
    } finally {
      await hooked.close();
      await receiver.close();
    }
  });
});
