import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COOL_BASE_MS, COOL_CAP_MS, coolingDelay, HealthTracker } from '../../src/accounts/health.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';

async function tracker(now: { t: number }) {
  const store = new SqliteStore(openDatabase(join(mkdtempSync(join(tmpdir(), 'health-')), 'db.sqlite')));
  await store.profilePut({ platform: 'x', name: 'main', cookies: 'a=1', credentials: null });
  return { store, h: new HealthTracker(store, { now: () => now.t, random: () => 0.999 }) };
}

describe('account health', () => {
  it('backs off exponentially with full jitter, capped', () => {
    expect(coolingDelay(1, () => 0.999)).toBeLessThanOrEqual(COOL_BASE_MS);
    expect(coolingDelay(3, () => 0.999)).toBeGreaterThan(coolingDelay(2, () => 0.999));
    expect(coolingDelay(30, () => 0.999)).toBeLessThanOrEqual(COOL_CAP_MS);
    expect(coolingDelay(5, () => 0)).toBeGreaterThanOrEqual(1000);
    const seen = new Set(Array.from({ length: 50 }, () => coolingDelay(4)));
    expect(seen.size).toBeGreaterThan(10);
  });

  it('blocked → cooling (work waits) → ok; never session_expired', async () => {
    const now = { t: 1_000_000 };
    const { store, h } = await tracker(now);
    await h.record('x', 'main', 'blocked');
    expect((await store.profileGet('x', 'main'))?.health).toBe('cooling');
    const c = await h.cooling();
    expect(c.accounts).toEqual(['x:main']);
    expect(c.nextEnd).toBeGreaterThan(now.t);
    await h.record('x', 'main', 'blocked');
    expect((await store.profileGet('x', 'main'))?.strikes).toBe(2);
    now.t = c.nextEnd! + COOL_CAP_MS;
    expect((await h.cooling()).accounts).toEqual([]);
    await h.record('x', 'main', 'live');
    expect(await store.profileGet('x', 'main')).toMatchObject({ health: 'ok', strikes: 0 });
  });

  it('expired → session_expired until a new login; other errors leave health alone', async () => {
    const now = { t: 1 };
    const { store, h } = await tracker(now);
    await h.record('x', 'main', 'not_found');
    expect((await store.profileGet('x', 'main'))?.health).toBe('unknown');
    await h.record('x', 'main', 'session_expired');
    expect((await store.profileGet('x', 'main'))?.health).toBe('session_expired');
    await store.profilePut({ platform: 'x', name: 'main', cookies: 'a=2', credentials: null });
    expect((await store.profileGet('x', 'main'))?.health).toBe('unknown');
  });
});
