import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { HealthTracker } from '../../src/accounts/health.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import { EventBus } from '../../src/tasks/events.js';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'runner-store-')), 'db.sqlite');
const task = (id: string, action = 'search') => ({ id, source: 'x', action, params: '{}', account: 'x:default', owner: 'o', createdAt: 1000 });

describe('event bus', () => {
  it('keeps no channel for a stream that came and went on a task it never carried events for', () => {
    const bus = new EventBus();
    const off = bus.subscribe('t_old', 2, () => {});
    off();
    expect(bus.size).toBe(0);
    // A running task's channel keeps counting its ids after a listener leaves, and goes with the result.
    bus.emit('t_live', 0, 'status', '{}');
    bus.subscribe('t_live', 1, () => {})();
    expect(bus.size).toBe(1);
    expect(bus.nextId('t_live', 0)).toBe(2);
    bus.emit('t_live', 0, 'result', '{}');
    expect(bus.size).toBe(0);
    bus.close();
  });

  it('a throwing listener neither fails the emitter nor starves the others', () => {
    const bus = new EventBus();
    const heard: number[] = [];
    bus.subscribe('t', 0, () => {
      throw new Error('socket gone');
    });
    bus.subscribe('t', 0, (e) => heard.push(e.id));
    expect(() => bus.emit('t', 0, 'status', '{}')).not.toThrow();
    bus.emit('t', 0, 'result', '{}');
    expect(heard).toEqual([1, 2]);
    bus.close();
  });
});

describe('store', () => {
  it('crash recovery: a failed orphan write owns status and result event ids; a re-queued read drops the dead run\'s progress', async () => {
    const store = new SqliteStore(openDatabase(dbFile()));
    await store.insertTask(task('read'));
    await store.insertTask(task('write', 'post.create'));
    const read = (await store.markRunning('read', 2000))!;
    await store.setProgress('read', '{"items":5,"pages":1}', read.event_seq + 1);
    const write = (await store.markRunning('write', 2000))!;
    await store.requeueOrphans();
    const w = (await store.getTask('write'))!;
    expect(w.status).toBe('failed');
    // A stream that saw the running status resumes after it and must still hear the end (ids seq-1, seq).
    expect(w.event_seq).toBe(write.event_seq + 2);
    const r = (await store.getTask('read'))!;
    expect(r).toMatchObject({ status: 'queued', attempts: 2, progress: null });
    expect(r.event_seq).toBeGreaterThan(read.event_seq + 1);
    await store.close();
  });

  it('purging old tasks keeps the one an idempotency key still replays', async () => {
    const store = new SqliteStore(openDatabase(dbFile()));
    await store.insertWriteTask(task('bound', 'post.create'), 'o', 'key-1', 'hash');
    await store.insertTask(task('free', 'post.create'));
    for (const id of ['bound', 'free']) {
      const row = (await store.markRunning(id, 1000))!;
      expect((await store.finishTask(id, 1, 'succeeded', '{"ok":true,"state":"published"}', null, 1000, row.event_seq + 2))?.status).toBe('succeeded');
    }
    expect(await store.tasksPurge(5000)).toBe(1);
    expect(await store.getTask('free')).toBeUndefined();
    expect((await store.getTask('bound'))?.result).toContain('published');
    await store.idempotencyPurge(5000);
    expect(await store.tasksPurge(5000)).toBe(1);
    await store.close();
  });
});

describe('account health lives in the store', () => {
  it('a new login ends the old one\'s cooling, and a restarted process still sees a cooling account', async () => {
    const file = dbFile();
    const now = { t: 1_000_000 };
    const store = new SqliteStore(openDatabase(file));
    await store.profilePut({ platform: 'x', name: 'main', cookies: 'a=1', credentials: null });
    await store.profilePut({ platform: 'x', name: 'other', cookies: 'a=1', credentials: null });
    const h = new HealthTracker(store, { now: () => now.t, random: () => 0.999 });
    await h.record('x', 'main', 'blocked');
    await h.record('x', 'other', 'blocked');
    await h.record('x', 'other', 'blocked');
    expect((await h.cooling()).accounts.sort()).toEqual(['x:main', 'x:other']);
    await store.close();

    const again = new SqliteStore(openDatabase(file));
    const h2 = new HealthTracker(again, { now: () => now.t, random: () => 0.999 });
    expect((await h2.cooling()).accounts.sort()).toEqual(['x:main', 'x:other']);
    expect(await h2.coolingUntil('x', 'other')).toBeGreaterThan(now.t);
    // The human logs in again: work for the account is no longer held back, and its strikes start over.
    await again.profilePut({ platform: 'x', name: 'other', cookies: 'a=2', credentials: null });
    expect((await h2.cooling()).accounts).toEqual(['x:main']);
    expect(await again.profileGet('x', 'other')).toMatchObject({ health: 'unknown', strikes: 0, cooling_until: null });
    await h2.record('x', 'other', 'blocked');
    expect((await again.profileGet('x', 'other'))?.strikes).toBe(1);
    await again.close();
  });
});

describe('replay dispatcher', () => {
  it('keeps only the latest misses', async () => {
    const d = new ReplayDispatcher({ recordings: [] });
    for (let i = 0; i < 130; i++) await request(`https://api.example.com/nothing?i=${i}`, { dispatcher: d }).catch(() => {});
    expect(d.misses).toHaveLength(100);
    expect(d.misses.at(-1)?.url).toContain('i=129');
  });
});
