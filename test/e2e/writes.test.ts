import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';
import type { SqliteStore } from '../../src/store/sqlite.js';

let fake: FakePlatform;
let s: Running;
let writer: string;

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter] });
  writer = await s.token(['read', 'write']);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const taskCount = () => ((s.svc.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;
const write = (params: Record<string, unknown>, token = writer, wait = 8000) =>
  s.api(`/v1/tasks?wait=${wait}`, { method: 'POST', json: { source: 'fake', action: 'post.create', params }, token });

describe('write verbs', () => {
  it('are flagged in the catalog and need the write scope', async () => {
    const cat = await s.api('/v1/task-sources');
    expect(cat.body.find((e: any) => e.name === 'fake.post.create')).toMatchObject({ write: true, confirm: true });
    const caps = await s.api('/v1/capabilities');
    expect(caps.body.providers[0].write).toBe(true);
    const r = await write({ text: 'hi', confirm: true }, await s.token(['read']));
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden_scope');
  });

  it('answer the first call without confirm with 409 and the plan, queuing nothing', async () => {
    const before = taskCount();
    const r = await write({ text: 'hello' });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ status: 'needs_confirmation', plan: { action: 'fake.post.create', summary: 'post "hello" as fake', params: { text: 'hello' } } });
    expect(taskCount()).toBe(before);
    expect(fake.posts).not.toContain('hello');
    const bad = await write({ text: 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/params\.text/);
  });

  it('dry_run plans without publishing', async () => {
    const r = await write({ text: 'dry', dry_run: true });
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ ok: true, state: 'planned', source: 'fake' });
    expect(fake.posts).not.toContain('dry');
  });

  it('publish once with confirm; the same key replays the original; other params with it are refused', async () => {
    const first = await write({ text: 'once', confirm: true, idempotency_key: 'k-once' });
    expect(first.body.result).toMatchObject({ ok: true, state: 'published', url: expect.stringMatching(/^https:\/\/fake\.test\/p\/w/) });
    const again = await write({ text: 'once', confirm: true, idempotency_key: 'k-once' });
    expect(again.body.task_id).toBe(first.body.task_id);
    expect(again.body.result).toEqual(first.body.result);
    expect(fake.posts.filter((t) => t === 'once')).toHaveLength(1);
    const other = await write({ text: 'twice', confirm: true, idempotency_key: 'k-once' });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/idempotency_key/);
    const rejected = await write({ text: 'reject', confirm: true });
    expect(rejected.body.result).toMatchObject({ ok: false, state: 'rejected', error: { message: 'text not allowed here' } });
  });

  it('answer duplicate while the first with the same key is in flight, and are never retried', async () => {
    const first = await write({ text: 'slow', confirm: true, idempotency_key: 'k-slow' }, writer, 0);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    await until(() => (fake.hanging > 0 ? true : undefined), 3000).catch(async (e) => {
      throw new Error(`${e.message}: ${JSON.stringify((await s.api(`/v1/tasks/${first.body.task_id}`)).body)}`);
    });
    const dup = await write({ text: 'slow', confirm: true, idempotency_key: 'k-slow' });
    expect(dup.status).toBe(200);
    expect(dup.body.result).toMatchObject({ ok: false, state: 'duplicate', task_id: first.body.task_id, error: { code: 'duplicate' } });
    await s.api(`/v1/tasks/${first.body.task_id}/cancel`, { method: 'POST', token: writer });
    const retry = await s.api(`/v1/tasks/${first.body.task_id}/retry`, { method: 'POST', token: writer });
    expect(retry.status).toBe(409);
    expect(fake.posts.filter((t) => t === 'slow')).toHaveLength(1);
  });
});
