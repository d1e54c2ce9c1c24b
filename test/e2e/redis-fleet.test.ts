import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';

// Two services on one store and one Redis, as an API process and a worker process: the API one runs no tasks.
const prefix = testPrefix('e2e');
let fake: FakePlatform;
let worker: Running;
let api: Running;
let token: string;

beforeAll(async () => {
  await requireRedis();
  fake = await startFakePlatform();
  const dataDir = mkdtempSync(join(tmpdir(), 'crawler-fleet-'));
  const config = { redisUrl: TEST_REDIS_URL, redisPrefix: prefix };
  worker = await startService({ adapters: [fake.adapter], dataDir, config });
  api = await startService({ adapters: [fake.adapter], dataDir, config, pingMs: 100 });
  await api.svc.runner.stop();
  token = await api.token(['read', 'write']);
});
afterAll(async () => {
  await api?.close();
  await worker?.close();
  await fake?.close();
  await dropPrefix(prefix);
});

const submit = (query: string, wait = 0) => api.api(`/v1/tasks?wait=${wait}`, { method: 'POST', token, json: { source: 'fake', action: 'search', params: { query, force: true } } });

describe('distributed mode (CRAWLER_REDIS_URL): API and worker processes', () => {
  it('a task submitted on the API process runs on the worker, and ?wait hears its result there', async () => {
    const t = await submit('fleet-one', 8000);
    expect(t.body).toMatchObject({ status: 'succeeded', result: { source: 'live' } });
    expect(fake.hits.some((h) => h.includes('q=fleet-one'))).toBe(true);
  });

  it('a cancel on the API process aborts the worker\'s crawl, and the API streams the events the worker publishes next', async () => {
    const slow = await submit('slow');
    await until(() => (fake.hanging > 0 ? true : undefined));
    // Queued behind the slow one (one task per account): its stream on the API process starts from the queued state.
    const behind = await submit('after-slow');
    const res = await fetch(`${api.base}/v1/tasks/${behind.body.task_id}/stream`, { headers: { authorization: `Bearer ${token}` } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    const read = async (until: (t: string) => boolean) => {
      while (!until(text)) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    };
    await read((t) => t.includes('"status":"queued"'));
    const cancelled = await api.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST', token });
    expect(cancelled.body.status).toBe('cancelled');
    await until(() => (fake.hanging === 0 ? true : undefined));
    // Everything after the queued state happens on the worker: only the relay brings it to this stream.
    await read(() => false);
    expect(text).toMatch(/event: status\ndata: \{[^\n]*"status":"running"/);
    expect(text).toMatch(/event: result\ndata: \{[^\n]*"status":"succeeded"/);
  });

  it('health and the queue agree: nothing is left queued or running', async () => {
    const counts = await worker.svc.store.countByStatus();
    expect(counts.queued).toBe(0);
    expect(counts.running).toBe(0);
  });
});
