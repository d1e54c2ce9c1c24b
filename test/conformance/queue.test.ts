import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedQueue } from '../../src/queue/embedded.js';
import type { TaskQueue } from '../../src/queue/types.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import type { NewTask, Store } from '../../src/store/types.js';
import { bullQueue } from '../helpers/bull-queue.js';
import { dropPrefix, requireRedis, testPrefix } from '../helpers/redis.js';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'queue-conf-')), 'db.sqlite');
let n = 0;
const task = (account = 'x:default', action = 'search'): NewTask => ({ id: `t_q${(++n).toString().padStart(6, '0')}`, source: account.split(':')[0], action, params: '{}', account, owner: 'o', createdAt: 1000 + n });

interface Backend {
  name: string;
  setup?: () => Promise<void>;
  teardown?: () => Promise<void>;
  make: (store: Store) => Promise<{ queue: TaskQueue; close(): Promise<void> }>;
}

const prefix = testPrefix('conf');
const backends: Backend[] = [
  { name: 'embedded (SQLite task table)', make: async (store) => ({ queue: new EmbeddedQueue(store), close: async () => {} }) },
  {
    name: 'BullMQ (Redis)',
    setup: requireRedis,
    teardown: () => dropPrefix(prefix),
    make: async (store) => {
      const q = await bullQueue(store, prefix);
      return { queue: q, close: () => q.shutdown() };
    },
  },
];

/** Behaviour every TaskQueue backend owes the runner. */
describe.each(backends)('TaskQueue conformance: $name', (b) => {
  beforeAll(async () => b.setup?.());
  afterAll(async () => b.teardown?.());

  async function withQueue(f: (store: Store, queue: TaskQueue) => Promise<void>): Promise<void> {
    const store = new SqliteStore(openDatabase(dbFile()));
    const { queue, close } = await b.make(store);
    try {
      await f(store, queue);
    } finally {
      await close();
      await store.close();
    }
  }

  const submit = async (store: Store, queue: TaskQueue, t: NewTask) => {
    const row = await store.insertTask(t);
    await queue.add(row);
    return row;
  };

  it('hands an added task out once, marked running', () =>
    withQueue(async (store, queue) => {
      const row = await submit(store, queue, task());
      const got = await queue.claim([], 2000);
      expect(got).toMatchObject({ id: row.id, status: 'running', attempts: row.attempts });
      expect((await store.getTask(row.id))?.status).toBe('running');
      expect(await queue.claim([], 2000)).toBeUndefined();
    }));

  it('adding a task twice queues it once', () =>
    withQueue(async (store, queue) => {
      const row = await submit(store, queue, task('y:default'));
      await queue.add(row);
      expect((await queue.claim([], 2000))?.id).toBe(row.id);
      expect(await queue.claim([], 2000)).toBeUndefined();
    }));

  it('skips busy accounts and hands out another account\'s task', () =>
    withQueue(async (store, queue) => {
      await submit(store, queue, task('a:one'));
      const b2 = await submit(store, queue, task('b:two'));
      expect((await queue.claim(['a:one'], 2000))?.id).toBe(b2.id);
      expect(await queue.claim(['a:one'], 2000)).toBeUndefined();
    }));

  it('never hands out a task cancelled while queued', () =>
    withQueue(async (store, queue) => {
      const row = await submit(store, queue, task('c:one'));
      await store.cancelTask(row.id, 1500, row.event_seq + 2);
      expect(await queue.claim([], 2000)).toBeUndefined();
      expect((await store.getTask(row.id))?.status).toBe('cancelled');
    }));

  it('hands out an account\'s tasks oldest first, the next once the run before ended', () =>
    withQueue(async (store, queue) => {
      const first = await submit(store, queue, task('d:one'));
      const second = await submit(store, queue, task('d:one'));
      const got = (await queue.claim([], 2000))!;
      expect(got.id).toBe(first.id);
      await store.finishTask(got.id, got.attempts, 'succeeded', '{}', null, 2100, got.event_seq + 2);
      await queue.done(got);
      expect((await queue.claim([], 2200))?.id).toBe(second.id);
    }));

  it('hands a retried task out again, as its next attempt', () =>
    withQueue(async (store, queue) => {
      const row = await submit(store, queue, task('e:one'));
      const got = (await queue.claim([], 2000))!;
      await store.finishTask(got.id, got.attempts, 'failed', null, null, 2100, got.event_seq + 2);
      await queue.done(got);
      const requeued = (await store.requeueTask(row.id, got.event_seq + 3))!;
      await queue.add(requeued);
      expect(await queue.claim([], 2200)).toMatchObject({ id: row.id, status: 'running', attempts: row.attempts + 1 });
    }));
});
