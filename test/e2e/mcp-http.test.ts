import { resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Running } from '../helpers/service.js';
import { call, mcpClient } from '../helpers/mcp.js';
import type { SqliteStore } from '../../src/store/sqlite.js';

// The real catalog over streamable HTTP, crawling the project's sandbox recordings.
let s: Running;
let reader: Client;
let readToken: string;
let catalog: Array<{ name: string; write?: boolean }>;

beforeAll(async () => {
  s = await startService({ config: { replay: [resolve('sandbox')], corsOrigins: ['https://agent.example'] } });
  readToken = await s.token(['read']);
  reader = await mcpClient(s.base, readToken);
  catalog = (await s.api('/v1/task-sources')).body;
});
afterAll(async () => {
  await reader?.close();
  await s?.close();
});

const WRITE_TOOL = /_(post_create|comment_create|delete)$/;
const taskCount = () => ((s.svc.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;

describe('MCP tools over streamable HTTP', () => {
  it('are generated from the catalog, and the token scopes decide which are listed', async () => {
    const { tools } = await reader.listTools();
    const names = tools.map((t) => t.name);
    const reads = catalog.filter((e) => !e.write);
    expect(names.filter((n) => !['get_task', 'cancel_task', 'list_sources'].includes(n)).sort()).toEqual(reads.map((e) => e.name.replace(/\./g, '_')).sort());
    expect(names).toEqual(expect.arrayContaining(['get_task', 'cancel_task', 'list_sources']));
    expect(names.filter((n) => WRITE_TOOL.test(n))).toEqual([]);
    for (const t of tools) expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);

    const search = tools.find((t) => t.name === 'bilibili_search')!;
    expect(search.description).toContain('next_cursor');
    expect(search.annotations).toMatchObject({ readOnlyHint: true });
    expect(search.inputSchema).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
    expect(search.inputSchema.properties!.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 24 });
    expect(search.inputSchema.properties!.media).toMatchObject({ type: 'string', enum: ['video', 'image', 'any'] });

    const writer = await mcpClient(s.base, await s.token(['write']));
    try {
      const writeOnly = (await writer.listTools()).tools;
      const writes = catalog.filter((e) => e.write).map((e) => e.name.replace(/\./g, '_'));
      expect(writes.length).toBeGreaterThan(0);
      expect(writeOnly.map((t) => t.name).sort()).toEqual([...writes, 'cancel_task', 'get_task', 'list_sources'].sort());
      for (const t of writeOnly.filter((x) => WRITE_TOOL.test(x.name))) {
        const confirm = t.inputSchema.properties!.confirm as { type: string; description: string };
        expect(confirm.type).toBe('boolean');
        expect(confirm.description).toMatch(/plan/);
        expect(t.inputSchema.properties).toHaveProperty('idempotency_key');
        expect(t.annotations).toMatchObject({ readOnlyHint: false });
      }
      expect(writeOnly.find((t) => t.name === 'mastodon_delete')!.annotations).toMatchObject({ destructiveHint: true });
    } finally {
      await writer.close();
    }

    const admin = await mcpClient(s.base, await s.token(['admin']));
    try {
      expect((await admin.listTools()).tools).toHaveLength(catalog.length + 3);
    } finally {
      await admin.close();
    }
  });

  it('a search answers the normalized result with its provenance: live, then cache', async () => {
    const args = { query: '洛天依', limit: 5 };
    const first = await call(reader, 'bilibili_search', args);
    expect(first.isError, first.text).toBe(false);
    expect(first.data).toMatchObject({ status: 'succeeded', source: 'bilibili', action: 'search', result: { ok: true, source: 'live', count: 5 } });
    expect(first.data.task_id).toMatch(/^t_/);
    expect(first.data.result.items).toHaveLength(5);
    expect(first.data.result.items[0]).toMatchObject({ id: expect.stringMatching(/^bilibili:/), provider: 'bilibili', provenance: 'live' });
    expect(first.text).toContain('source live');
    expect(first.text).toContain(first.data.result.items[0].id);

    const again = await call(reader, 'bilibili_search', args);
    expect(again.data.result.source).toBe('cache');
    expect(again.data.task_id).not.toBe(first.data.task_id);
    expect(again.data.result.items.map((i: { id: string }) => i.id)).toEqual(first.data.result.items.map((i: { id: string }) => i.id));
    expect(again.text).toMatch(/source cache \(cached \d+ s ago\)/);

    const polled = await call(reader, 'get_task', { task_id: first.data.task_id });
    expect(polled.data).toEqual(first.data);
  });

  it('other shapes come through whole: comments (B), trending (D)', async () => {
    const comments = await call(reader, 'reddit_comments', { query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/' });
    expect(comments.isError, comments.text).toBe(false);
    expect(comments.data.result).toMatchObject({ source: 'live', has_more: expect.any(Boolean) });
    expect(comments.data.result.items.length).toBeGreaterThan(0);
    expect(comments.text).toMatch(/comments of \d+/);
    const trends = await call(reader, 'mastodon_trending');
    expect(trends.data.result).toMatchObject({ ok: true, source: 'live', data: { trends: expect.any(Array) } });
    expect(trends.text).toContain(`${trends.data.result.data.trends[0].rank}. `);
  });

  it('bad params, unknown tools and missing scopes are tool errors with the spec codes, queuing nothing', async () => {
    const before = taskCount();
    const tooMany = await call(reader, 'bilibili_search', { query: 'x', limit: 500 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.data).toEqual({ ok: false, error: { code: 'invalid_request', message: expect.stringContaining('params.limit'), retryable: false } });
    const unknownParam = await call(reader, 'bilibili_search', { query: 'x', colour: 'red' });
    expect(unknownParam.data.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('params.colour') });
    const missing = await call(reader, 'bilibili_search', {});
    expect(missing.data.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('params.query') });
    const unknownTool = await call(reader, 'myspace_search', { query: 'x' });
    expect(unknownTool).toMatchObject({ isError: true, data: { error: { code: 'unsupported' } } });
    const hiddenWrite = await call(reader, 'mastodon_post_create', { text: 'hi', confirm: true });
    expect(hiddenWrite).toMatchObject({ isError: true, data: { error: { code: 'forbidden_scope' } } });
    const badWait = await call(reader, 'get_task', { task_id: 't_x', wait_s: 9999 });
    expect(badWait.data.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('wait_s') });
    expect(taskCount()).toBe(before);
  });

  it('tasks belong to their token: another token gets not_found', async () => {
    const mine = await call(reader, 'weibo_detail', { query: '5152381730717912' });
    expect(mine.data.status).toBe('succeeded');
    const other = await mcpClient(s.base, await s.token(['read']));
    try {
      expect((await call(other, 'get_task', { task_id: mine.data.task_id })).data.error).toMatchObject({ code: 'not_found' });
      expect((await call(other, 'cancel_task', { task_id: mine.data.task_id })).data.error).toMatchObject({ code: 'not_found' });
    } finally {
      await other.close();
    }
  });

  it('list_sources says which tools exist for the token, for one source or all', async () => {
    const one = await call(reader, 'list_sources', { source: 'x' });
    expect(one.data.sources).toHaveLength(1);
    expect(one.data.sources[0].source).toBe('twitter');
    expect(one.data.sources[0].tools.map((t: { tool: string }) => t.tool)).toContain('twitter_detail');
    const all = await call(reader, 'list_sources');
    expect(all.data.sources.length).toBe((await s.api('/v1/capabilities')).body.providers.length);
    expect(JSON.stringify(all.data)).not.toMatch(/post_create/);
    expect((await call(reader, 'list_sources', { source: 'myspace' })).data.error).toMatchObject({ code: 'unsupported' });
  });

  it('a sandbox write goes through plan, then confirm, on a real adapter', async () => {
    const stored = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'mastodon', name: 'default', credentials: { access_token: 'sandbox-token' } } });
    expect(stored.status, stored.text).toBeLessThan(300);
    const writer = await mcpClient(s.base, await s.token(['read', 'write']));
    try {
      const args = { text: 'Hello from the crawler sandbox', visibility: 'public' };
      const before = taskCount();
      const plan = await call(writer, 'mastodon_post_create', args);
      expect(plan.isError).toBe(false);
      expect(plan.data).toMatchObject({ status: 'needs_confirmation', plan: { action: 'mastodon.post.create', summary: expect.stringContaining('mastodon.social') } });
      expect(plan.text).toMatch(/^Nothing was posted/);
      expect(taskCount()).toBe(before);
      const done = await call(writer, 'mastodon_post_create', plan.data.confirm_with);
      expect(done.isError, done.text).toBe(false);
      expect(done.data.result).toMatchObject({ ok: true, state: 'published', url: expect.stringMatching(/^https:\/\/mastodon\.social\//) });
      expect(done.text).toContain('write published');
    } finally {
      await writer.close();
    }
  });
});

describe('the /mcp endpoint over plain HTTP', () => {
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const accept = { accept: 'application/json, text/event-stream' };

  it('refuses a missing, malformed or unknown token with 401 auth_required in the spec body', async () => {
    for (const headers of [accept, { ...accept, authorization: `bearer ${readToken}` }, { ...accept, authorization: 'Bearer not-a-token' }]) {
      const r = await s.api('/mcp', { method: 'POST', json: ping, token: null, headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ ok: false, error: { code: 'auth_required', message: expect.any(String), retryable: false } });
    }
    const ok = await s.api('/mcp', { method: 'POST', json: ping, token: readToken, headers: accept });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('"result":{}');
  });

  it('answers what is not MCP over streamable HTTP in the spec error body, not JSON-RPC\'s', async () => {
    const refusals = [
      { headers: {}, json: ping, status: 406, message: /Accept/ },
      { headers: accept, json: { hello: 'world' }, status: 400, message: /JSON-RPC/ },
      { headers: accept, json: [], status: 400, message: /JSON-RPC/ },
      { headers: { ...accept, 'mcp-protocol-version': '1999-01-01' }, json: ping, status: 400, message: /protocol version/ },
    ];
    for (const r of refusals) {
      const res = await s.api('/mcp', { method: 'POST', json: r.json, token: readToken, headers: r.headers });
      expect(res.status, res.text).toBe(r.status);
      expect(res.body).toEqual({ ok: false, error: { code: 'invalid_request', message: expect.stringMatching(r.message), retryable: false } });
    }
    const plain = await s.api('/mcp', { method: 'POST', body: JSON.stringify(ping), token: readToken, headers: { ...accept, 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(plain.body.ok).toBe(false);
  });

  it('is stateless: GET and DELETE answer 405 with Allow, and no session id is handed out', async () => {
    const get = await s.api('/mcp', { token: readToken, headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.body.error.code).toBe('invalid_request');
    expect((await s.api('/mcp', { method: 'DELETE', token: readToken })).status).toBe(405);
    const ok = await s.api('/mcp', { method: 'POST', json: ping, token: readToken, headers: accept });
    expect(ok.headers.get('mcp-session-id')).toBeNull();
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('lets a browser MCP client on an allowed origin through CORS', async () => {
    const origin = { origin: 'https://agent.example' };
    const preflight = await s.api('/mcp', { method: 'OPTIONS', token: null, headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    const ok = await s.api('/mcp', { method: 'POST', json: ping, token: readToken, headers: { ...accept, ...origin } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://agent.example');
  });

  it('?sources= narrows the listing; an unknown source is 400 invalid_request', async () => {
    const narrow = await mcpClient(s.base, readToken, '?sources=weibo,x');
    try {
      const names = (await narrow.listTools()).tools.map((t) => t.name);
      expect(names.length).toBeGreaterThan(3);
      expect(names.every((n) => /^(weibo|twitter)_/.test(n) || ['get_task', 'cancel_task', 'list_sources'].includes(n))).toBe(true);
      expect(names).toContain('twitter_detail');
    } finally {
      await narrow.close();
    }
    const bad = await s.api('/mcp?sources=weibo,myspace', { method: 'POST', json: ping, token: readToken, headers: accept });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('myspace') });
  });
});
