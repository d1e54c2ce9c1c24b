import { describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { useFakeService } from '../helpers/fake-service.js';
import { startService, until, type Running } from '../helpers/service.js';
import type { SqliteStore } from '../../src/store/sqlite.js';

let fake: FakePlatform;
let s: Running;
useFakeService((f, r) => ([fake, s] = [f, r]));

describe('profiles', () => {
  it('stores cookies and credentials through the admin route, never showing values', async () => {
    const r = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'main', cookies: 'SESSION=s3cret; uid=7', credentials: { app_password: 'hunter2' } } });
    expect(r.status).toBe(201);
    const fresh = { egress: 'direct', pool: null, tasks_1h: 0, success_rate_1h: null, block_rate_1h: null };
    expect(r.body).toEqual({ platform: 'fake', name: 'main', health: 'unknown', checked_at: null, used_at: null, cookies: ['SESSION', 'uid'], credentials: ['app_password'], ...fresh });
    const list = await s.api('/v1/profiles', { token: await s.token(['read']) });
    expect(list.body.profiles).toEqual([{ platform: 'fake', name: 'main', health: 'unknown', checked_at: null, used_at: null, ...fresh }]);
    expect(list.text).not.toMatch(/s3cret|hunter2/);
  });

  it('hands the stored cookies to the crawl of that profile, and marks it used', async () => {
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'with-login', profile: 'main' } } });
    expect(r.body.result.ok).toBe(true);
    const list = await s.api('/v1/profiles');
    expect(list.body.profiles[0].used_at).toBeTruthy();
  });

  it('refuses bad input and needs admin', async () => {
    expect((await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'x', cookies: 'a' }, token: await s.token(['read']) })).status).toBe(403);
    for (const body of [{ platform: 'nope', cookies: 'a=1' }, { platform: 'fake', name: '../x', cookies: 'a=1' }, { platform: 'fake', name: 'x' }, { platform: 'fake', name: 'x', cookies: 'a=1\nb' }, { platform: 'fake', name: 'x', credentials: ['x'] }]) {
      const r = await s.api('/v1/profiles', { method: 'POST', json: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await s.api('/v1/profiles/fake/ghost', { method: 'DELETE' })).status).toBe(404);
    expect((await s.api('/v1/profiles/fake/main', { method: 'DELETE' })).status).toBe(200);
    expect((await s.api('/v1/profiles')).body.profiles).toEqual([]);
  });
});

describe('profile secrets at rest', () => {
  it('never appear in the SQLite file bytes, and still reach the crawl', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const { join } = await import('node:path');
    const secret = 'zz9-plural-z-alpha-COOKIEVALUE';
    const r = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'sealed', cookies: `SID=${secret}`, credentials: { app_password: `${secret}-pw` } } });
    expect(r.status).toBe(201);
    (s.svc.store as SqliteStore).db.pragma('wal_checkpoint(TRUNCATE)');
    for (const f of readdirSync(s.dataDir)) {
      const full = join(s.dataDir, f);
      if (statSync(full).isFile()) expect(readFileSync(full).includes(secret), f).toBe(false);
    }
    expect((await s.svc.store.profileGet('fake', 'sealed'))?.cookies).toBe(`SID=${secret}`);
    const key = statSync(join(s.dataDir, 'secret.key'));
    expect(key.mode & 0o777).toBe(0o600);
  });
});

describe('health and scheduling', () => {
  it('blocked → cooling: the account waits while others run; then ok', async () => {
    const fake2 = await startFakePlatform();
    const svc = await startService({ adapters: [fake2.adapter], health: { baseMs: 1500, capMs: 1500, random: () => 1 } });
    try {
      await svc.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'main', cookies: 'SESSION=good' } });
      await svc.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'other', cookies: 'SESSION=good; b=1' } });
      const blocked = await svc.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'captcha', profile: 'main' } } });
      expect(blocked.body.result.source).toBe('blocked');
      const list = await svc.api('/v1/profiles');
      expect(list.body.profiles.find((p: any) => p.name === 'main').health).toBe('cooling');
      const waiting = await svc.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'after-cooling', profile: 'main' } } });
      const other = await svc.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'meanwhile', profile: 'other' } } });
      expect(other.body.status).toBe('succeeded');
      expect((await svc.api(`/v1/tasks/${waiting.body.task_id}`)).body.status).toBe('queued');
      const done = await until(async () => {
        const t = await svc.api(`/v1/tasks/${waiting.body.task_id}`);
        return t.body.status === 'succeeded' ? t.body : undefined;
      }, 10_000, 100);
      expect(done.result.source).toBe('live');
      expect((await svc.api('/v1/profiles')).body.profiles.find((p: any) => p.name === 'main').health).toBe('ok');
      // After a block, the login is probed again when the cooling ends, without waiting for a crawl.
      await svc.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'probed', cookies: 'SESSION=good' } });
      const b = await svc.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'captcha', profile: 'probed', force: true } } });
      expect(b.body.result.source).toBe('blocked');
      expect((await svc.api('/v1/profiles')).body.profiles.find((p: any) => p.name === 'probed').health).toBe('cooling');
      await until(async () => ((await svc.api('/v1/profiles')).body.profiles.find((p: any) => p.name === 'probed').health === 'ok' ? true : undefined), 10_000, 100);
      expect(fake2.hits.some((h) => h.startsWith('GET /whoami'))).toBe(true);
    } finally {
      await svc.close();
      await fake2.close();
    }
  });

  it('rate_limited with the platform\'s Retry-After: the account cools until then, not for the random backoff', async () => {
    const fake2 = await startFakePlatform();
    const svc = await startService({ adapters: [fake2.adapter], health: { baseMs: 1500, capMs: 3_600_000, random: () => 1 } });
    try {
      await svc.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'main', cookies: 'SESSION=good' } });
      const before = Date.now();
      const r = await svc.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'throttled', profile: 'main' } } });
      expect(r.body.result.error.code).toBe('rate_limited');
      const strikes = await svc.svc.store.profileStrikes('fake', 'main');
      expect(strikes?.cooling_until).toBeGreaterThanOrEqual(before + 119_000);
      expect(strikes?.cooling_until).toBeLessThanOrEqual(Date.now() + 121_000);
    } finally {
      await svc.close();
      await fake2.close();
    }
  });

  it('expired → session_expired: later tasks end at once without crawling; a new login clears it', async () => {
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'lapsing', cookies: 'a=1' } });
    const first = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'expired', profile: 'lapsing' } } });
    expect(first.body.result.error.code).toBe('session_expired');
    expect((await s.api('/v1/profiles')).body.profiles.find((p: any) => p.name === 'lapsing').health).toBe('session_expired');
    const hits = fake.hits.length;
    const next = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'fine-now', profile: 'lapsing', force: true } } });
    expect(next.body.result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
    expect(next.body.result.error.message).toMatch(/re-login/);
    expect(fake.hits.length).toBe(hits);
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'lapsing', cookies: 'a=2' } });
    const relogged = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'fine-now', profile: 'lapsing', force: true } } });
    expect(relogged.body.result.source).toBe('live');
  });
});

describe('login probes', () => {
  it('check a stored login with the platform probe: ok, session_expired, or cooling on a block', async () => {
    for (const [name, cookies] of [['good', 'SESSION=good'], ['stale', 'SESSION=old'], ['walled', 'CAPTCHA=1']]) {
      await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name, cookies } });
    }
    const good = await s.api('/v1/profiles/fake/good/check', { method: 'POST' });
    expect(good.body).toMatchObject({ platform: 'fake', name: 'good', health: 'ok', checked_at: expect.any(String) });
    expect((await s.api('/v1/profiles/fake/stale/check', { method: 'POST' })).body.health).toBe('session_expired');
    const walled = await s.api('/v1/profiles/fake/walled/check', { method: 'POST' });
    expect(walled.body).toMatchObject({ health: 'cooling', note: expect.stringMatching(/blocked/) });
    expect((await s.api('/v1/profiles/fake/ghost/check', { method: 'POST' })).status).toBe(404);
    expect((await s.api('/v1/profiles/fake/good/check', { method: 'POST', token: await s.token(['read']) })).status).toBe(403);
    // The scheduled sweep probes every stored login of a platform with a probe (cooling ones wait).
    const probed = await s.svc.checker.sweep();
    expect(probed).toBeGreaterThanOrEqual(2);
  });
});
