import { afterEach, describe, expect, it } from 'vitest';
import { openWatchStore } from '../../src/store/open.js';
import type { WatchRow, WatchStore } from '../../src/store/watches.js';
import type { StoreHarness } from './store-conformance.js';

const watch = (id: string, over: Partial<WatchRow> = {}): WatchRow => ({
  id,
  owner: 'tok_a',
  source: 'x',
  action: 'posts',
  params: '{"query":"q"}',
  every_s: 900,
  callback_url: null,
  paused: false,
  full_page: false,
  next_run_at: 1000,
  failures: 0,
  last_run_at: null,
  last_task_id: null,
  last_error: null,
  last_error_at: null,
  last_new_count: null,
  created_at: 500,
  ...over,
});

/** The watch sub-port on each backend: the same calls, the same answers (seen ids trimmed at 5 here). */
export function watchConformance(backend: string, open: () => Promise<StoreHarness>): void {
  describe(`Watch store conformance: ${backend}`, () => {
    let h: StoreHarness;
    let w: WatchStore;
    const start = async () => {
      h = await open();
      w = openWatchStore(h.store, 5);
    };
    afterEach(async () => {
      await h?.close();
    });

    it('inserts under a per-owner cap, reads, lists newest first by owner, patches and deletes', async () => {
      await start();
      expect(await w.insert(watch('w1', { callback_url: 'https://h.example/x', full_page: true }), 2)).toBe(true);
      expect(await w.insert(watch('w2'), 2)).toBe(true);
      expect(await w.insert(watch('w3'), 2)).toBe(false);
      expect(await w.insert(watch('w3', { owner: 'tok_b' }), 2)).toBe(true);
      expect(await w.get('w1')).toEqual(watch('w1', { callback_url: 'https://h.example/x', full_page: true }));
      expect(await w.get('nope')).toBeUndefined();
      expect((await w.list({ owner: 'tok_a', limit: 10 })).map((x) => x.id)).toEqual(['w2', 'w1']);
      expect((await w.list({ limit: 10 })).map((x) => x.id)).toEqual(['w3', 'w2', 'w1']);
      expect((await w.list({ owner: 'tok_a', before: 'w2', limit: 10 })).map((x) => x.id)).toEqual(['w1']);
      const patched = await w.update('w1', { every_s: 3600, paused: true, callback_url: null, params: '{"query":"r"}', next_run_at: 9000, full_page: undefined });
      expect(patched).toMatchObject({ every_s: 3600, paused: true, callback_url: null, params: '{"query":"r"}', next_run_at: 9000, full_page: true });
      expect(await w.delete('w1')).toBe(true);
      expect(await w.delete('w1')).toBe(false);
      expect(await w.get('w1')).toBeUndefined();
    });

    it('lists due unpaused watches soonest first; a claim is a compare-and-set only one of many connections wins', async () => {
      await start();
      await w.insert(watch('a', { next_run_at: 300 }), 10);
      await w.insert(watch('b', { next_run_at: 100 }), 10);
      await w.insert(watch('c', { next_run_at: 100, paused: true }), 10);
      await w.insert(watch('d', { next_run_at: 5000 }), 10);
      expect((await w.due(1000, 10)).map((x) => x.id)).toEqual(['b', 'a']);
      expect((await w.due(1000, 1)).map((x) => x.id)).toEqual(['b']);
      const others = await Promise.all([h.other(), h.other()]);
      const stores = [w, ...others.map((o) => openWatchStore(o, 5))];
      const wins = await Promise.all(stores.flatMap((s) => [s.claim('b', 100, 1900, 1000), s.claim('b', 100, 1900, 1000)]));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await w.get('b')).toMatchObject({ next_run_at: 1900, last_run_at: 1000, last_task_id: null });
      expect(await w.claim('c', 100, 1900, 1000)).toBe(false);
      expect((await w.due(1000, 10)).map((x) => x.id)).toEqual(['a']);
      await w.started('b', 't_run1');
      expect((await w.get('b'))?.last_task_id).toBe('t_run1');
    });

    it("records a run's end with its seen ids, history and schedule; only the latest run moves the schedule", async () => {
      await start();
      await w.insert(watch('a'), 10);
      await w.claim('a', 1000, 1900, 1000);
      await w.started('a', 't1');
      expect(await w.seen('a', ['i1', 'i2'])).toEqual(new Set());
      await w.finish({ watchId: 'a', taskId: 't1', at: 1010, ids: ['i1', 'i2', 'i2'], newCount: 2, error: null, failures: 0, nextRunAt: 1900 });
      expect(await w.seen('a', ['i1', 'i2', 'i3'])).toEqual(new Set(['i1', 'i2']));
      expect(await w.seen('other', ['i1'])).toEqual(new Set());
      expect(await w.get('a')).toMatchObject({ last_new_count: 2, failures: 0, last_error: null, next_run_at: 1900 });

      await w.claim('a', 1900, 2800, 1900);
      await w.started('a', 't2');
      const err = '{"code":"blocked","message":"captcha","retryable":true}';
      await w.finish({ watchId: 'a', taskId: 't2', at: 1920, ids: [], newCount: null, error: err, failures: 1, nextRunAt: 3700 });
      expect(await w.get('a')).toMatchObject({ last_new_count: 2, failures: 1, last_error: err, last_error_at: 1920, next_run_at: 3700 });
      // A late finish of an older run adds its history but leaves the schedule alone.
      await w.finish({ watchId: 'a', taskId: 't0', at: 1930, ids: ['i9'], newCount: 1, error: null, failures: 0, nextRunAt: 1 });
      expect(await w.get('a')).toMatchObject({ failures: 1, next_run_at: 3700 });
      // A run that could not be submitted has no task: it fails the watch without a history row.
      await w.claim('a', 3700, 5500, 3700);
      await w.finish({ watchId: 'a', taskId: null, at: 3700, ids: [], newCount: null, error: err, failures: 2, nextRunAt: 7300 });
      expect(await w.get('a')).toMatchObject({ failures: 2, next_run_at: 7300, last_error_at: 3700 });

      expect(await w.runs('a', { limit: 10 })).toEqual([
        { task_id: 't1', watch_id: 'a', new_count: 2, error: null, finished_at: 1010 },
        { task_id: 't2', watch_id: 'a', new_count: null, error: err, finished_at: 1920 },
        { task_id: 't0', watch_id: 'a', new_count: 1, error: null, finished_at: 1930 },
      ]);
      expect((await w.runs('a', { limit: 2, after: [1010, 't1'] })).map((r) => r.task_id)).toEqual(['t2', 't0']);
      expect((await w.runs('a', { limit: 2, newest: true })).map((r) => r.task_id)).toEqual(['t0', 't2']);
      expect(await w.purgeRuns(1920)).toBe(1);
      expect((await w.runs('a', { limit: 10 })).map((r) => r.task_id)).toEqual(['t2', 't0']);
      // A retried run (same task id) that now succeeded replaces its failed attempt's row: its new items count.
      await w.finish({ watchId: 'a', taskId: 't2', at: 4000, ids: ['i5'], newCount: 1, error: null, failures: 0, nextRunAt: 4900 });
      expect((await w.runs('a', { limit: 10 })).find((r) => r.task_id === 't2')).toEqual({ task_id: 't2', watch_id: 'a', new_count: 1, error: null, finished_at: 4000 });
      expect(await w.delete('a')).toBe(true);
      expect(await w.seen('a', ['i1'])).toEqual(new Set());
      expect(await w.runs('a', { limit: 10 })).toEqual([]);
    });

    it('keeps the newest seen ids only (5 here); ids seen again are refreshed and outlive the trim', async () => {
      await start();
      await w.insert(watch('a'), 10);
      const end = (at: number, ids: string[]) => ({ watchId: 'a', taskId: `t${at}`, at, ids, newCount: ids.length, error: null, failures: 0, nextRunAt: at });
      await w.finish(end(1, ['old1', 'old2', 'keep']));
      await w.finish(end(2, ['n1', 'n2', 'keep']));
      await w.finish(end(3, ['n3', 'n4']));
      expect(await w.seen('a', ['old1', 'old2', 'keep', 'n1', 'n2', 'n3', 'n4'])).toEqual(new Set(['keep', 'n1', 'n2', 'n3', 'n4']));
    });
  });
}
