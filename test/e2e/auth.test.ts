import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, type Running } from '../helpers/service.js';
import type { SqliteStore } from '../../src/store/sqlite.js';

let fake: FakePlatform;
let s: Running;

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter] });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

function cli(args: string[]): string {
  return execFileSync(process.execPath, ['bin/crawler.js', ...args], {
    env: { ...process.env, CRAWLER_DATA_DIR: s.dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const sources = (token: string | null, raw?: string) =>
  raw === undefined ? s.api('/v1/task-sources', { token }) : fetch(`${s.base}/v1/task-sources`, { headers: { authorization: raw } }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('auth', () => {
  it('keeps health public and everything else behind a token', async () => {
    expect((await s.api('/v1/health', { token: null })).status).toBe(200);
    const missing = await sources(null);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ ok: false, error: { code: 'auth_required', message: expect.any(String), retryable: false } });
    for (const path of ['/v1/capabilities', '/v1/categories?source=fake', '/v1/profiles', '/v1/tasks/t_x', '/metrics']) {
      expect((await s.api(path, { token: null })).status, path).toBe(401);
    }
  });

  it('accepts only "Bearer" with a capital B and a valid, live token', async () => {
    const t = await s.token(['read']);
    expect((await sources(null, `Bearer ${t}`)).status).toBe(200);
    expect((await sources(null, `bearer ${t}`)).status).toBe(401);
    expect((await sources(null, `BEARER ${t}`)).status).toBe(401);
    expect((await sources(null, `Bearer  ${t}`)).status).toBe(401);
    expect((await sources(null, `Token ${t}`)).status).toBe(401);
    expect((await sources(null, `Bearer ${t}x`)).status).toBe(401);
    expect((await sources(null, `Bearer crw_${'A'.repeat(43)}`)).status).toBe(401);
  });

  it('answers 403 forbidden_scope when the token lacks the scope', async () => {
    const read = await s.token(['read']);
    const r = await s.api('/v1/tokens', { method: 'POST', json: { scopes: ['read'] }, token: read });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden_scope');
    const del = await s.api('/v1/tokens/tok_0000000000000000', { method: 'DELETE', token: read });
    expect(del.status).toBe(403);
    const writeOnly = await s.token(['write']);
    const task = await s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'x' } }, token: writeOnly });
    expect(task.status).toBe(403);
  });

  it('issues and revokes tokens over the admin routes; revocation holds on the very next request', async () => {
    const created = await s.api('/v1/tokens', { method: 'POST', json: { scopes: ['read'], name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^tok_/), scopes: ['read'], name: 'ci', token: expect.stringMatching(/^crw_/) });
    const token = created.body.token as string;
    expect((await sources(token)).status).toBe(200);
    const revoked = await s.api(`/v1/tokens/${created.body.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect((await sources(token)).status).toBe(401);
    expect((await s.api('/v1/tokens/tok_ffffffffffffffff', { method: 'DELETE' })).status).toBe(404);
    const bad = await s.api('/v1/tokens', { method: 'POST', json: { scopes: ['root'] } });
    expect(bad.status).toBe(400);
    const list = await s.api('/v1/tokens');
    expect(JSON.stringify(list.body)).not.toContain(token);
    // Only hashes are stored.
    const rows = (s.svc.store as SqliteStore).db.prepare('SELECT * FROM tokens').all();
    expect(JSON.stringify(rows)).not.toContain(token.slice(4));
  });

  it('CLI: create prints the token alone; revoke from the CLI takes effect in the running server', async () => {
    const out = cli(['tokens', 'create', '--scopes', 'read,admin', '--name', 'cli']);
    expect(out).toMatch(/^crw_[A-Za-z0-9_-]{43}\n$/);
    const token = out.trim();
    expect((await sources(token)).status).toBe(200);
    const listed = cli(['tokens', 'list']);
    expect(listed).toContain('read,admin');
    expect(listed).not.toContain(token);
    cli(['tokens', 'revoke', token]);
    expect((await sources(token)).status).toBe(401);
    expect(() => cli(['tokens', 'create', '--scopes', 'superuser'])).toThrow();
    // Four CLI processes: compiled on a whole-suite run, through tsx on a run of this file alone.
  }, 90_000);
});
