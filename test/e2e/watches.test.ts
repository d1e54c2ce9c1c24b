import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { schemaChecker } from '../helpers/openapi.js';
import { startService, type Running } from '../helpers/service.js';
import type { OpenApiDocument } from '../../src/openapi/types.js';

/* Watch CRUD over HTTP: validation names the field, ownership hides other tokens' watches. No run fires: the only tick is the one at start. */
let fake: FakePlatform;
let svc: Running;
let reader: string;
const T0 = Date.UTC(2026, 0, 1);

beforeAll(async () => {
  fake = await startFakePlatform();
  // The clock stands still and the next tick is an hour away: watches are created due, and never fired here.
  // callback_url hosts are judged by their resolved addresses: a stand-in DNS answers with a public one.
  svc = await startService({
    adapters: [fake.adapter],
    config: { watchTickMs: 3_600_000, watchMaxPerOwner: 3 },
    watches: { now: () => T0 },
    webhooks: { resolve: async () => [{ address: '93.184.216.34', family: 4 }] },
  });
  reader = await svc.token(['read']);
});
afterAll(async () => {
  await svc?.close();
  await fake?.close();
});

const create = (json: unknown, token = reader) => svc.api('/v1/watches', { method: 'POST', token, json });
const good = { source: 'fake', action: 'posts', params: { query: 'growing' }, every_s: 900 };

describe('watches: create, read, change, delete', () => {
  it('creates a watch due at once and reads it back, with its schedule fields', async () => {
    const r = await create({ ...good, source: 'FAKE', callback_url: 'https://hooks.example.com/w?x=1' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ source: 'fake', action: 'posts', every_s: 900, paused: false, full_page: false, failures: 0, callback_url: 'https://hooks.example.com/w?x=1' });
    expect(r.body.watch_id).toMatch(/^w_[0-9a-z]{9}[0-9a-f]{16}$/);
    expect(r.body.next_run_at).toBe(new Date(T0).toISOString());
    expect(r.body.params).toMatchObject({ query: 'growing', limit: 24 });
    expect(r.body.params).not.toHaveProperty('force');
    const got = await svc.api(`/v1/watches/${r.body.watch_id}`, { token: reader });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ watch_id: r.body.watch_id, recent_runs: [] });
    expect(got.body).not.toHaveProperty('last_error');
    await svc.api(`/v1/watches/${r.body.watch_id}`, { method: 'DELETE', token: reader });
  });

  it('refuses every bad field with 400 naming it, and an unknown source or action as a task would (404 unsupported)', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, every_s: 899 }, /^every_s:/],
      [{ ...good, every_s: 7 * 86_400 + 1 }, /^every_s:/],
      [{ ...good, every_s: 900.5 }, /^every_s:/],
      [{ ...good, every_s: '900' }, /^every_s:/],
      [{ source: 'fake', action: 'posts', params: { query: 'x' } }, /^every_s: required/],
      [{ ...good, source: undefined }, /^source:/],
      [{ ...good, action: '' }, /^action:/],
      [{ ...good, action: 'detail' }, /^action: a watch repeats/],
      [{ ...good, action: 'post.create', params: { text: 'x' } }, /^action: a watch repeats/],
      [{ ...good, params: { query: 'x', cursor: 'abc' } }, /^params\.cursor:/],
      [{ ...good, params: { query: 'x', force: true } }, /^params\.force:/],
      [{ ...good, params: { query: 'x', max_age_s: 5 } }, /^params\.max_age_s:/],
      [{ ...good, params: { query: 'x', limit: 0 } }, /^params\.limit:/],
      [{ ...good, params: { query: 'x', bogus: 1 } }, /^params\.bogus:/],
      [{ ...good, params: {} }, /^params\.query: required/],
      [{ ...good, params: [] }, /^params must be an object/],
      [{ ...good, params: { query: 'x', profile: 'nobody' } }, /^params\.profile:/],
      [{ ...good, params: { query: 'x', callback_url: 'https://hooks.example.com/' } }, /^params\.callback_url:/],
      [{ ...good, callback_url: 'http://hooks.example.com/' }, /^callback_url:/],
      [{ ...good, callback_url: '/relative' }, /^callback_url:/],
      [{ ...good, callback_url: `https://hooks.example.com/${'a'.repeat(2048)}` }, /^callback_url:/],
      [{ ...good, callback_url: 'https://user:pw@hooks.example.com/' }, /^callback_url:/],
      [{ ...good, callback_url: 5 }, /^callback_url:/],
      [{ ...good, full_page: 'yes' }, /^full_page:/],
      [{ ...good, paused: 1 }, /^paused:/],
      [{ ...good, owner: 'someone' }, /^body\.owner: unknown field/],
      [[good], /^body:/],
      ['just text', /^body:/],
    ];
    for (const [body, message] of cases) {
      const r = await create(body);
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(r.body, JSON.stringify(body).slice(0, 120)).toMatchObject({ ok: false, error: { code: 'invalid_request', retryable: false } });
      expect(r.body.error.message, JSON.stringify(body).slice(0, 120)).toMatch(message);
    }
    for (const body of [{ ...good, source: 'nosuch' }, { ...good, action: 'user2' }]) {
      const r = await create(body);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('unsupported');
    }
    const raw = await svc.api('/v1/watches', { method: 'POST', token: reader, body: '{"source":', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
    expect(raw.body.error.code).toBe('invalid_request');
    expect((await svc.api('/v1/watches', { token: reader })).body.watches).toEqual([]);
  });

  it('needs a token with read; a write-only token is refused', async () => {
    expect((await create(good, null as unknown as string)).status).toBe(401);
    const writer = await svc.token(['write']);
    const r = await create(good, writer);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden_scope');
  });

  it("hides another token's watches (404 like an unknown id); admin sees all with all=true", async () => {
    const other = await svc.token(['read']);
    const mine = (await create(good)).body.watch_id as string;
    for (const [method, json] of [['GET', undefined], ['PATCH', { paused: true }], ['DELETE', undefined]] as const) {
      const r = await svc.api(`/v1/watches/${mine}`, { method, token: other, json });
      expect(r.status, method).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    for (const id of ['w_000000000aaaaaaaaaaaaaaaa', 'nonsense', `w_${'z'.repeat(300)}`]) {
      expect((await svc.api(`/v1/watches/${id}`, { token: reader })).status).toBe(404);
    }
    expect((await svc.api('/v1/watches', { token: other })).body.watches).toEqual([]);
    expect((await svc.api('/v1/watches?all=true', { token: other })).status).toBe(403);
    const all = await svc.api('/v1/watches?all=true');
    expect(all.body.watches.map((w: { watch_id: string }) => w.watch_id)).toContain(mine);
    expect((await svc.api(`/v1/watches/${mine}`)).status).toBe(200);
    await svc.api(`/v1/watches/${mine}`, { method: 'DELETE', token: reader });
  });

  it('changes every_s, params, paused, callback_url and full_page, each checked; deletes', async () => {
    const id = (await create({ ...good, callback_url: 'https://hooks.example.com/a' })).body.watch_id as string;
    const patch = (json: unknown) => svc.api(`/v1/watches/${id}`, { method: 'PATCH', token: reader, json });
    const r = await patch({ every_s: 3600, params: { query: 'other', limit: 5 }, paused: true, full_page: true, callback_url: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ every_s: 3600, paused: true, full_page: true, params: { query: 'other', limit: 5 } });
    expect(r.body).not.toHaveProperty('callback_url');
    // Before its first run, a new period counts from now.
    expect(r.body.next_run_at).toBe(new Date(T0 + 3600_000).toISOString());
    for (const [json, field] of [
      [{ every_s: 60 }, 'every_s'],
      [{ params: { query: 'x', cursor: 'c' } }, 'params.cursor'],
      [{ paused: 'no' }, 'paused'],
      [{ callback_url: 'ftp://x' }, 'callback_url'],
      [{ source: 'other' }, 'body.source'],
      [null, 'body'],
    ] as const) {
      const bad = await patch(json);
      expect(bad.status, field).toBe(400);
      expect(bad.body.error.message.startsWith(`${field}`), bad.body.error.message).toBe(true);
    }
    expect((await svc.api(`/v1/watches/${id}`, { token: reader })).body.every_s).toBe(3600);
    const del = await svc.api(`/v1/watches/${id}`, { method: 'DELETE', token: reader });
    expect(del.body).toEqual({ watch_id: id, deleted: true });
    expect((await svc.api(`/v1/watches/${id}`, { token: reader })).status).toBe(404);
    expect((await svc.api(`/v1/watches/${id}`, { method: 'DELETE', token: reader })).status).toBe(404);
  });

  it('answers a wrong method with 405 and Allow, and bad list queries with 400', async () => {
    const put = await svc.api('/v1/watches/w_000000000aaaaaaaaaaaaaaaa', { method: 'PUT', token: reader, json: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toMatch(/PATCH/);
    const del = await svc.api('/v1/watches', { method: 'DELETE', token: reader });
    expect(del.status).toBe(405);
    for (const q of ['limit=0', 'limit=101', 'limit=x', 'cursor=t_1', 'all=maybe', 'sort=new', 'limit=1&limit=2']) {
      const r = await svc.api(`/v1/watches?${q}`, { token: reader });
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
  });

  it('caps the watches one token holds (400 naming the limit), and pages the list newest first', async () => {
    const capped = await svc.token(['read']);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ ...good, params: { query: `q${i}` } }, capped)).body.watch_id);
    const over = await create(good, capped);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/at most 3 watches/);
    const first = await svc.api('/v1/watches?limit=2', { token: capped });
    expect(first.body.watches.map((w: { watch_id: string }) => w.watch_id)).toEqual([ids[2], ids[1]]);
    const second = await svc.api(`/v1/watches?limit=2&cursor=${first.body.next_cursor}`, { token: capped });
    expect(second.body.watches.map((w: { watch_id: string }) => w.watch_id)).toEqual([ids[0]]);
    expect(second.body).not.toHaveProperty('next_cursor');
    // Freed by a delete.
    await svc.api(`/v1/watches/${ids[0]}`, { method: 'DELETE', token: capped });
    expect((await create(good, capped)).status).toBe(201);
  });

  it('answers exactly as the OpenAPI document says, errors included', async () => {
    const check = schemaChecker((await svc.api('/v1/openapi.json', { token: null })).body as OpenApiDocument);
    const answers: Array<[string, string, Awaited<ReturnType<typeof svc.api>>]> = [];
    const call = async (method: string, url: string, json?: unknown) => {
      const r = await svc.api(url, { method, json });
      answers.push([method, url, r]);
      return r;
    };
    const made = await call('POST', '/v1/watches', { ...good, full_page: true, callback_url: 'https://hooks.example.com/' });
    const url = `/v1/watches/${made.body.watch_id}`;
    await call('GET', '/v1/watches?all=true');
    await call('GET', url);
    await call('PATCH', url, { paused: true });
    await call('POST', '/v1/watches', { ...good, every_s: 1 });
    await call('POST', '/v1/watches', { ...good, source: 'nosuch' });
    await call('GET', '/v1/watches/w_000000000aaaaaaaaaaaaaaaa');
    await call('DELETE', url);
    for (const [method, u, r] of answers) expect(check.response(method, u, r.status, r.body), `${method} ${u} ${r.status}`).toEqual([]);
  });
});
