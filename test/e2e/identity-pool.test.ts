import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';

/** Profile pools against the real service: the pick at submit, what it skips, how it spreads, what it answers. */
let fake: FakePlatform;
let s: Running;

const put = (name: string, pool?: string) => s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name, cookies: `SESSION=${name}`, ...(pool ? { pool } : {}) } });
const setHealth = (name: string, health: 'ok' | 'cooling' | 'session_expired', coolingUntil: number | null = null) =>
  s.svc.store.profileHealth({ platform: 'fake', name, health, checked_at: Date.now(), cooling_until: coolingUntil, strikes: coolingUntil ? 1 : 0 });
const submit = (params: Record<string, unknown>, wait = 0) => s.api(`/v1/tasks?wait=${wait}`, { method: 'POST', json: { source: 'fake', action: 'search', params } });

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter] });
  for (const n of ['a', 'b', 'c', 'd']) expect((await put(n, 'eu')).status).toBe(201);
  expect((await put('e')).status).toBe(201);
  await setHealth('c', 'cooling', Date.now() + 600_000);
  await setHealth('d', 'session_expired');
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

async function cancelAll(ids: string[]) {
  for (const id of ids) await s.api(`/v1/tasks/${id}/cancel`, { method: 'POST' });
}

describe('profile pools', () => {
  it('picks only free profiles of the named pool, spreads queued work across them, and says which one ran', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await submit({ query: 'slow', profile: 'pool:eu', force: true });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      ids.push(r.body.task_id);
    }
    const tasks = await Promise.all(ids.map(async (id) => (await s.api(`/v1/tasks/${id}`)).body));
    const picked = tasks.map((t) => t.profile).sort();
    expect(picked).toEqual(['a', 'a', 'b', 'b']);
    for (const t of tasks) expect(t.params.profile).toBe('pool:eu');
    await until(() => fake.hanging >= 2 || undefined);
    await cancelAll(ids);
  });

  it('"pool" alone serves from every profile of the platform (pooled or not)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await submit({ query: 'slow', profile: 'pool', force: true })).body.task_id);
    const picked = (await Promise.all(ids.map(async (id) => (await s.api(`/v1/tasks/${id}`)).body.profile))).sort();
    expect(picked).toEqual(['a', 'b', 'e']);
    await cancelAll(ids);
  });

  it('runs the task as the picked profile and caches the result whichever profile it was', async () => {
    const first = await submit({ query: 'pooled-cache', profile: 'pool:eu' }, 8000);
    expect(first.body.status).toBe('succeeded');
    expect(['a', 'b']).toContain(first.body.profile);
    // The result says so too, and a cache hit serves the result of the crawl that profile ran.
    expect(first.body.result.profile).toBe(first.body.profile);
    const used = (await s.api('/v1/profiles')).body.profiles.find((p: { name: string }) => p.name === first.body.profile);
    expect(used.used_at).toBeTruthy();
    expect(used.tasks_1h).toBe(1);
    expect(used.success_rate_1h).toBe(1);
    const hits = fake.hits.length;
    const again = await submit({ query: 'pooled-cache', profile: 'pool:eu' }, 8000);
    expect(again.body.status).toBe('succeeded');
    expect(fake.hits.length).toBe(hits);
    // Answered from cache: nobody was picked, so the task names no profile.
    expect(again.body.profile).toBeUndefined();
    expect(again.body.result).toMatchObject({ source: 'cache', profile: first.body.profile });
    const ids = (t: { result: { items: Array<{ id: string }> } }) => t.result.items.map((i) => i.id);
    expect(ids(again.body)).toEqual(ids(first.body));
  });

  it('prefers the profile with the better recent success rate', async () => {
    // b was blocked lately: a wins even with more work queued.
    const captcha = await submit({ query: 'captcha', profile: 'b', force: true }, 8000);
    expect(captcha.body.result.source).toBe('blocked');
    await setHealth('b', 'ok');
    const ids = [(await submit({ query: 'slow', profile: 'a', force: true })).body.task_id];
    const r = await submit({ query: 'slow', profile: 'pool:eu', force: true });
    ids.push(r.body.task_id);
    expect((await s.api(`/v1/tasks/${r.body.task_id}`)).body.profile).toBe('a');
    const b = (await s.api('/v1/profiles')).body.profiles.find((p: { name: string }) => p.name === 'b');
    expect(b).toMatchObject({ block_rate_1h: 1, success_rate_1h: 0 });
    await cancelAll(ids);
  });

  it('answers 429 rate_limited with Retry-After when every usable profile cools, 503 session_expired when all need a re-login', async () => {
    await setHealth('a', 'cooling', Date.now() + 90_000);
    await setHealth('b', 'cooling', Date.now() + 120_000);
    // The cache still answers what it holds: no profile is needed for that.
    const cached = await submit({ query: 'pooled-cache', profile: 'pool:eu' }, 8000);
    expect(cached.status).toBe(200);
    expect(cached.body.status).toBe('succeeded');
    const cooling = await submit({ query: 'q', profile: 'pool:eu' });
    expect(cooling.status).toBe(429);
    expect(cooling.body).toEqual({ ok: false, error: { code: 'rate_limited', message: expect.stringMatching(/cooling/), retryable: true } });
    const ra = Number(cooling.headers.get('retry-after'));
    expect(ra).toBeGreaterThan(80);
    expect(ra).toBeLessThanOrEqual(90);
    for (const n of ['a', 'b', 'c']) await setHealth(n, 'session_expired');
    const expired = await submit({ query: 'q', profile: 'pool:eu' });
    expect(expired.status).toBe(503);
    expect(expired.body.error.code).toBe('session_expired');
    for (const n of ['a', 'b', 'c']) await setHealth(n, 'ok');
  });

  it('accepts a pool on a watch (each run picks afresh); an unknown plain profile is still refused', async () => {
    const ok = await s.api('/v1/watches', { method: 'POST', json: { source: 'fake', action: 'posts', params: { query: 'growing', profile: 'pool:eu' }, every_s: 900, paused: true } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.params.profile).toBe('pool:eu');
    const bad = await s.api('/v1/watches', { method: 'POST', json: { source: 'fake', action: 'posts', params: { query: 'growing', profile: 'ghost' }, every_s: 900 } });
    expect(bad.status).toBe(400);
  });

  it('reserves the profile name "pool"', async () => {
    const r = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'pool', cookies: 'a=1' } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/reserved/);
  });

  it('refuses unknown and malformed pools with 400', async () => {
    const none = await submit({ query: 'q', profile: 'pool:nowhere' });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('"nowhere"') });
    for (const profile of ['pool:', 'pool:bad name', 'pool:a:b', `pool:${'x'.repeat(65)}`, 'pool;drop']) {
      const r = await submit({ query: 'q', profile });
      expect(r.status, profile).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
  });
});
