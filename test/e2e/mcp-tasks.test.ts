import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';
import { call, mcpClient } from '../helpers/mcp.js';
import type { SqliteStore } from '../../src/store/sqlite.js';

// The loopback platform counts what it receives, so "posted once" is checked where it happens.
let fake: FakePlatform;
let s: Running;
let reader: Client;
let writer: Client;

const WAIT_MS = 3000;

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter], config: { mcpWaitMs: WAIT_MS } });
  reader = await mcpClient(s.base, await s.token(['read']));
  writer = await mcpClient(s.base, await s.token(['read', 'write']));
});
afterAll(async () => {
  await reader?.close();
  await writer?.close();
  await s?.close();
  await fake?.close();
});

const taskCount = () => ((s.svc.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;

describe('MCP write tools', () => {
  it('are listed only for a write token, with confirm in the schema', async () => {
    expect((await reader.listTools()).tools.map((t) => t.name)).not.toContain('fake_post_create');
    const tool = (await writer.listTools()).tools.find((t) => t.name === 'fake_post_create')!;
    expect(tool.inputSchema.required).toEqual(['text']);
    expect(Object.keys(tool.inputSchema.properties!)).toEqual(expect.arrayContaining(['text', 'confirm', 'dry_run', 'idempotency_key']));
    expect(tool.description).toMatch(/without confirm it returns the plan and posts nothing/);
  });

  it('answer the plan without confirm and post nothing; confirm posts once; the same key replays', async () => {
    const before = taskCount();
    const plan = await call(writer, 'fake_post_create', { text: 'hello mcp' });
    expect(plan.isError).toBe(false);
    expect(plan.data).toMatchObject({ status: 'needs_confirmation', plan: { action: 'fake.post.create', summary: 'post "hello mcp" as fake' } });
    const key = plan.data.confirm_with.idempotency_key;
    expect(plan.data.confirm_with).toEqual({ text: 'hello mcp', confirm: true, idempotency_key: expect.stringMatching(/^mcp-/) });
    expect(plan.text).toContain(`idempotency_key "${key}"`);
    expect(fake.posts).not.toContain('hello mcp');
    expect(taskCount()).toBe(before);

    const posted = await call(writer, 'fake_post_create', plan.data.confirm_with);
    expect(posted.isError, posted.text).toBe(false);
    expect(posted.data).toMatchObject({ status: 'succeeded', result: { ok: true, state: 'published', url: expect.stringMatching(/^https:\/\/fake\.test\/p\/w/) } });
    const again = await call(writer, 'fake_post_create', plan.data.confirm_with);
    expect(again.data.task_id).toBe(posted.data.task_id);
    expect(fake.posts.filter((t) => t === 'hello mcp')).toHaveLength(1);
  });

  it('keep the caller\'s own idempotency_key in the plan; dry_run plans as a task; a refusal is a tool error', async () => {
    const plan = await call(writer, 'fake_post_create', { text: 'keyed', idempotency_key: 'my-key-1' });
    expect(plan.data.confirm_with.idempotency_key).toBe('my-key-1');
    const dry = await call(writer, 'fake_post_create', { text: 'dry', dry_run: true });
    expect(dry.data.result).toMatchObject({ ok: true, state: 'planned' });
    expect(fake.posts).not.toContain('dry');
    const rejected = await call(writer, 'fake_post_create', { text: 'reject', confirm: true });
    expect(rejected.isError).toBe(true);
    expect(rejected.data.result).toMatchObject({ ok: false, state: 'rejected' });
    expect(rejected.text).toContain('write rejected');
    const tooLong = await call(writer, 'fake_post_create', { text: 'x'.repeat(300) });
    expect(tooLong).toMatchObject({ isError: true, data: { ok: false, error: { code: 'invalid_request' } } });
  });
});

describe('MCP task tools', () => {
  it('a crawl still running after the inline wait answers its task id; get_task follows it, cancel_task stops it', async () => {
    const started = await call(reader, 'fake_search', { query: 'slow' });
    expect(started.isError).toBe(false);
    expect(['queued', 'running']).toContain(started.data.status);
    expect(started.text).toMatch(/still (queued|running) after \d+ s/);
    expect(started.text).toContain(`get_task with task_id "${started.data.task_id}"`);
    await until(() => (fake.hanging > 0 ? true : undefined), 3000);

    const polled = await call(reader, 'get_task', { task_id: started.data.task_id, wait_s: 1 });
    expect(polled.data.status).toBe('running');
    const cancelled = await call(reader, 'cancel_task', { task_id: started.data.task_id });
    expect(cancelled).toMatchObject({ isError: false, data: { status: 'cancelled' } });
    expect(cancelled.text).toContain('was cancelled');
    await until(() => (fake.hanging === 0 ? true : undefined), 3000);
    expect((await call(reader, 'get_task', { task_id: started.data.task_id })).data.status).toBe('cancelled');
  });

  it('a caller that hangs up stops the inline wait (the task keeps running until cancelled)', async () => {
    // Counts the bus listeners the wait holds, by watching the real bus's subscribe.
    const bus = s.svc.bus;
    let listening = 0;
    const subscribe = bus.subscribe.bind(bus);
    bus.subscribe = (taskId, seq, listener) => {
      listening++;
      const off = subscribe(taskId, seq, listener);
      return () => {
        listening--;
        off();
      };
    };
    try {
      const before = fake.hanging;
      const token = await s.token(['read']);
      const hangUp = new AbortController();
      const res = await fetch(`${s.base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'fake_search', arguments: { query: 'slow', limit: 3 } } }),
        signal: hangUp.signal,
      });
      expect(res.status).toBe(200);
      await until(() => (fake.hanging > before && listening === 1 ? true : undefined), 3000);
      hangUp.abort();
      // Well inside the inline wait: only the hang-up can have ended it.
      await until(() => (listening === 0 ? true : undefined), WAIT_MS / 2);
      const running = await s.api('/v1/tasks?status=running', { token });
      expect(running.body.tasks).toHaveLength(1);
      await s.api(`/v1/tasks/${running.body.tasks[0].task_id}/cancel`, { method: 'POST', token });
    } finally {
      delete (bus as { subscribe?: unknown }).subscribe;
    }
  });

  it('a blocked crawl is a tool error carrying the code and retryable flag; an honest empty is not', async () => {
    const blocked = await call(reader, 'fake_search', { query: 'captcha' });
    expect(blocked.isError).toBe(true);
    expect(blocked.data).toMatchObject({ status: 'succeeded', result: { ok: false, source: 'blocked', error: { code: 'blocked', retryable: true } } });
    expect(blocked.text).toMatch(/source blocked, blocked: .*\(retryable: true\)/);
    const empty = await call(reader, 'fake_search', { query: 'nothing' });
    expect(empty).toMatchObject({ isError: false, data: { result: { ok: true, source: 'empty', count: 0 } } });
  });

  it('the text shows the first items and says where the rest are; structuredContent has them all', async () => {
    const r = await call(reader, 'fake_search', { query: 'many', limit: 25 });
    expect(r.data.result.items).toHaveLength(25);
    const lines = r.text.split('\n').filter((l) => /^\d+\. /.test(l));
    expect(lines).toHaveLength(10);
    expect(r.text).toContain('(15 more in structuredContent)');
    const paged = await call(reader, 'fake_search', { query: 'many', limit: 5 });
    expect(paged.text).toContain(`pass cursor "${paged.data.result.next_cursor}"`);
    const next = await call(reader, 'fake_search', { query: 'many', limit: 5, cursor: paged.data.result.next_cursor });
    expect(next.data.result.items[0].id).not.toBe(paged.data.result.items[0].id);
  });

  it('creator and comments results read back as text', async () => {
    const user = await call(reader, 'fake_user', { query: 'fake' });
    expect(user.text).toContain('Fake Creator @fake');
    expect(user.text).toContain('followers 1234');
    const comments = await call(reader, 'fake_comments', { query: '1001' });
    expect(comments.text).toMatch(/↳ @v: reply/);
  });
});
