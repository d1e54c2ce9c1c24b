import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import type { NewTask, TaskRow } from '../../src/store/types.js';
import { bullQueue } from '../helpers/bull-queue.js';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis.js';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'bull-queue-')), 'db.sqlite');
let n = 0;
const task = (account: string, action = 'search'): NewTask => ({ id: `t_b${(++n).toString().padStart(6, '0')}`, source: account.split(':')[0], action, params: '{}', account, owner: 'o', createdAt: 1000 + n });

/** Polls until f returns a value (bounded: a stalled job comes back after a lock and a stalled interval). */
async function eventually<T>(f: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('BullMQ queue across processes (two queue instances, separate Redis clients)', () => {
  const prefix = testPrefix('bq');
  beforeAll(requireRedis);
  afterAll(() => dropPrefix(prefix));

  it('runs one task per account at a time across the fleet, and the next once the first is done', async () => {
    const store = new SqliteStore(openDatabase(dbFile()));
    const a = await bullQueue(store, prefix);
    const b = await bullQueue(store, prefix);
    try {
      const t1 = await store.insertTask(task('acct:one'));
      const t2 = await store.insertTask(task('acct:one'));
      const other = await store.insertTask(task('acct:two'));
      await a.add(t1);
      await b.add(t2);
      await b.add(other);
      const first = (await a.claim([], 2000))!;
      expect(first.id).toBe(t1.id);
      // B sees the busy account as full fleet-wide and takes the other account's task instead.
      expect((await b.claim([], 2000))?.id).toBe(other.id);
      expect(await b.claim([], 2000)).toBeUndefined();
      await store.finishTask(first.id, first.attempts, 'succeeded', '{}', null, 2100, first.event_seq + 2);
      await a.done(first);
      expect((await b.claim([], 2200))?.id).toBe(t2.id);
    } finally {
      await a.shutdown();
      await b.shutdown();
      await store.close();
    }
  });

  it('enqueueing is idempotent: the task id is the job id, from any process', async () => {
    const store = new SqliteStore(openDatabase(dbFile()));
    const a = await bullQueue(store, prefix);
    const b = await bullQueue(store, prefix);
    try {
      const row = await store.insertTask(task('idem:one'));
      await Promise.all([a.add(row), b.add(row), a.add(row)]);
      expect((await a.depths())['idem:one']).toBe(1);
      expect((await b.claim([], 2000))?.id).toBe(row.id);
      expect(await a.claim([], 2000)).toBeUndefined();
    } finally {
      await a.shutdown();
      await b.shutdown();
      await store.close();
    }
  });

  it('a write redelivered after its worker died is refused: it ends upstream_error "outcome unknown", never runs again', async () => {
    const store = new SqliteStore(openDatabase(dbFile()));
    const a = await bullQueue(store, prefix, { lockMs: 500, stalledMs: 250 });
    const b = await bullQueue(store, prefix, { lockMs: 500, stalledMs: 250 });
    const settled: TaskRow[] = [];
    b.onSettled = (row) => settled.push(row);
    try {
      const row = await store.insertTask(task('w:one', 'post.create'));
      await a.add(row);
      expect((await a.claim([], 2000))?.id).toBe(row.id);
      // A is killed mid-write: its lock is no longer renewed and the job is never completed.
      await a.shutdown();
      const handedOut: string[] = [];
      const ended = await eventually(async () => {
        const got = await b.claim([], Date.now());
        if (got) handedOut.push(got.id);
        const now = await store.getTask(row.id);
        return now?.status === 'failed' ? now : undefined;
      });
      expect(handedOut).toEqual([]);
      expect(JSON.parse(ended.error!)).toMatchObject({ code: 'upstream_error', retryable: false });
      expect(JSON.parse(ended.error!).message).toMatch(/^outcome unknown/);
      expect(settled.map((r) => r.id)).toEqual([row.id]);
      // The account is free again: its next task is handed out.
      const next = await store.insertTask(task('w:one'));
      await b.add(next);
      expect((await eventually(() => b.claim([], Date.now())))?.id).toBe(next.id);
    } finally {
      await b.shutdown();
      await store.close();
    }
  });

  it('a read redelivered after its worker died runs again on another worker, under the same attempt', async () => {
    const store = new SqliteStore(openDatabase(dbFile()));
    const a = await bullQueue(store, prefix, { lockMs: 500, stalledMs: 250 });
    const b = await bullQueue(store, prefix, { lockMs: 500, stalledMs: 250 });
    try {
      const row = await store.insertTask(task('r:one'));
      await a.add(row);
      const first = (await a.claim([], 2000))!;
      await a.shutdown();
      const again = await eventually(() => b.claim([], Date.now()));
      expect(again).toMatchObject({ id: row.id, status: 'running', attempts: first.attempts });
      // The first finish of that attempt wins; the task ends once.
      expect(await store.finishTask(row.id, again.attempts, 'succeeded', '{}', null, 3000, again.event_seq + 2)).toBeDefined();
      expect(await store.finishTask(row.id, again.attempts, 'succeeded', '{}', null, 3001, again.event_seq + 2)).toBeUndefined();
      await b.done(again);
    } finally {
      await b.shutdown();
      await store.close();
    }
  });

  it('a live worker keeps its job: renewed locks are not taken for stalled', async () => {
    const store = new SqliteStore(openDatabase(dbFile()));
    // Renewal every 750 ms leaves a loaded machine 750 ms of slack before the lock would lapse.
    const a = await bullQueue(store, prefix, { lockMs: 1500, stalledMs: 200 });
    const b = await bullQueue(store, prefix, { lockMs: 1500, stalledMs: 200 });
    try {
      const row = await store.insertTask(task('live:one'));
      await a.add(row);
      expect((await a.claim([], 2000))?.id).toBe(row.id);
      // Several lock lifetimes pass; B's stalled checks run meanwhile and must find nothing to move.
      for (let i = 0; i < 12; i++) {
        await new Promise((r) => setTimeout(r, 250));
        expect(await b.claim([], Date.now())).toBeUndefined();
      }
    } finally {
      await a.shutdown();
      await b.shutdown();
      await store.close();
    }
  });

  it('the reconciler re-adds queued tasks Redis lost, with the account limit', async () => {
    const lost = testPrefix('lost');
    const store = new SqliteStore(openDatabase(dbFile()));
    const q = await bullQueue(store, lost);
    try {
      const t1 = await store.insertTask(task('rec:one'));
      const t2 = await store.insertTask(task('rec:one'));
      await q.add(t1);
      await q.add(t2);
      await dropPrefix(lost);
      expect(await q.claim([], 2000)).toBeUndefined();
      expect(await q.reconcile()).toBe(2);
      expect((await q.claim([], 2000))?.id).toBe(t1.id);
      expect(await q.claim([], 2000)).toBeUndefined();
      // Rows no longer queued are not re-added.
      expect(await q.reconcile()).toBe(1);
      expect((await q.depths())['rec:one']).toBe(2);
    } finally {
      await q.shutdown();
      await store.close();
      await dropPrefix(lost);
    }
  });
});
