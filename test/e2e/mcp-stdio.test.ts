import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Running } from '../helpers/service.js';
import { call } from '../helpers/mcp.js';

// `crawler mcp` as an MCP client launches it: a child process speaking MCP on stdio, forwarding to /mcp.
// Both ways in: the main CLI, and `npx crawler` (bin/crawler.js), which takes a light entry for mcp.
const MAIN = ['--import', 'tsx', resolve('src/main.ts'), 'mcp'];
const CLI = [resolve('bin/crawler.js'), 'mcp'];
// Spawned TypeScript compiles on start: generous on a loaded machine, and still bounded.
const SPAWN_TIMEOUT = 60_000;
const env = () => {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('CRAWLER_')) e[k] = v;
  return e;
};

let s: Running;
beforeAll(async () => {
  s = await startService({ config: { replay: [resolve('sandbox')] } });
});
afterAll(async () => {
  await s?.close();
});

/** Runs the bridge to its exit; for the start-up refusals. */
function runToExit(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...CLI, ...args], { env: { ...env(), ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.stdout.on('data', (c) => (stdout += c));
    child.on('error', fail);
    child.on('exit', (code) => done({ code, stderr, stdout }));
  });
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('crawler mcp (stdio)', () => {
  it('lists the token\'s tools and calls one through the service, with logs on stderr only', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [...MAIN, '--url', s.base], env: { ...env(), CRAWLER_TOKEN: await s.token(['read']) }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c) => (stderr += c));
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['bilibili_search', 'get_task', 'list_sources']));
      expect(names.some((n) => n.endsWith('_post_create'))).toBe(false);
      const r = await call(client, 'bilibili_search', { query: '洛天依', limit: 3 });
      expect(r.isError, r.text).toBe(false);
      expect(r.data.result).toMatchObject({ ok: true, source: 'live', count: 3 });
      const bad = await call(client, 'bilibili_search', { query: 'x', limit: 0 });
      expect(bad.data.error).toMatchObject({ code: 'invalid_request' });
    } finally {
      await client.close();
    }
    expect(stderr).toContain(`forwarding stdio to ${s.base}/mcp`);
  }, SPAWN_TIMEOUT);

  it('--sources narrows the listing', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI, '--url', s.base, '--token', await s.token(['read', 'write']), '--sources', 'mastodon'], env: env(), stderr: 'ignore' });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('mastodon_post_create');
      expect(names.filter((n) => !n.startsWith('mastodon_') && !['get_task', 'cancel_task', 'list_sources'].includes(n))).toEqual([]);
    } finally {
      await client.close();
    }
  }, SPAWN_TIMEOUT);

  it('answers a call with an error, not silence, when the service goes away mid-session', async () => {
    const other = await startService({ config: { replay: [resolve('sandbox')] } });
    const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI, '--url', other.base, '--token', await other.token(['read'])], env: env(), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c) => (stderr += c));
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(3);
      await other.close();
      await expect(client.callTool({ name: 'list_sources', arguments: {} })).rejects.toThrow(/crawler service: /);
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/forwarding tools\/call failed/);
  }, SPAWN_TIMEOUT);

  it('says why and exits non-zero when it cannot start: no token (2), service unreachable (3), token refused (4)', async () => {
    const [noToken, unreachable, refused] = await Promise.all([
      runToExit(['--url', s.base]),
      runToExit(['--url', `http://127.0.0.1:${await closedPort()}`, '--token', 'whatever']),
      runToExit(['--url', s.base], { CRAWLER_TOKEN: 'not-a-token' }),
    ]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/no token: pass --token or set CRAWLER_TOKEN/);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(/cannot reach the crawler service at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/refused the token \(401\): invalid or revoked token/);
    for (const r of [noToken, unreachable, refused]) expect(r.stdout).toBe('');
  }, SPAWN_TIMEOUT);
});
