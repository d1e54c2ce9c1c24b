import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TREE_ORDER } from '../helpers/fake-comment-tree.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';

/*
 * Comment-tree walks in distributed mode: two API processes and two workers on one Postgres schema and
 * one Redis prefix. The walk runs on a worker; its resume cursor and its cancel work from either API.
 */
const prefix = testPrefix('ctree');
let schema: Awaited<ReturnType<typeof testSchema>>;
let fake: FakePlatform;
let api: Running;
let api2: Running;
const workers: Running[] = [];
let token: string;

beforeAll(async () => {
  await requireRedis();
  schema = await testSchema();
  fake = await startFakePlatform();
  const config = { databaseUrl: schema.url, databaseSchema: schema.schema, redisUrl: TEST_REDIS_URL, redisPrefix: prefix, secretKey: 'c'.repeat(64) };
  api = await startService({ adapters: [fake.adapter], config, deployment: { mode: 'distributed', role: 'api' } });
  api2 = await startService({ adapters: [fake.adapter], config, deployment: { mode: 'distributed', role: 'api' } });
  for (let i = 0; i < 2; i++) workers.push(await startService({ adapters: [fake.adapter], config, deployment: { mode: 'distributed', role: 'worker' } }));
  token = await api.token(['read', 'write']);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await api2?.close();
  for (const w of workers) await w.close();
  await fake?.close();
  await dropPrefix(prefix);
  await schema?.drop();
});

const submit = (on: Running, params: Record<string, unknown>, wait = 8000) =>
  on.api(`/v1/tasks?wait=${wait}`, { method: 'POST', token, json: { source: 'fake', action: 'comments', params: { query: 'tree', force: true, ...params } } });
const pairs = (items: Array<{ cid: string; parent_id?: string }>) => items.map((c) => ({ cid: c.cid, ...(c.parent_id ? { parent_id: c.parent_id } : {}) }));

describe('comment trees in a fleet (Postgres + Redis, api and worker roles)', () => {
  it('a worker walks the whole tree; the progress reaches the API', async () => {
    const r = await submit(api, { replies: 'all', max_items: -1 });
    expect(r.body.status).toBe('succeeded');
    expect(pairs(r.body.result.items)).toEqual(TREE_ORDER);
    expect(r.body.progress).toEqual({ items: TREE_ORDER.length, pages: 9 });
  });

  it('a walk stopped mid-thread resumes from its cursor through the other API process', async () => {
    fake.treeFaults.set('r2:2', 'fail');
    let first;
    try {
      first = await submit(api, { replies: 'all', max_items: -1 });
    } finally {
      fake.treeFaults.delete('r2:2');
    }
    expect(first.body.result.has_more).toBe(true);
    const rest = await submit(api2, { replies: 'all', max_items: -1, cursor: first.body.result.cursor });
    expect(rest.body.status).toBe('succeeded');
    expect(pairs([...first.body.result.items, ...rest.body.result.items])).toEqual(TREE_ORDER);
  });

  it('a cancel on the other API process stops the worker\'s walk at once', async () => {
    fake.treeFaults.set('r4:1', 'hang');
    try {
      const t = await submit(api, { replies: 'all', max_items: -1 }, 0);
      await until(() => (fake.hanging > 0 ? true : undefined), 15_000);
      const hits = fake.hits.length;
      const cancelled = await api2.api(`/v1/tasks/${t.body.task_id}/cancel`, { method: 'POST', token });
      expect(cancelled.body.status).toBe('cancelled');
      await until(() => (fake.hanging === 0 ? true : undefined), 10_000);
      expect(fake.hits.length).toBe(hits);
    } finally {
      fake.treeFaults.delete('r4:1');
    }
  });
});
