import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';

let fake: FakePlatform;
let s: Running;
let alice: string;
let bob: string;
let admin: string;

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter] });
  alice = await s.token(['read', 'write']);
  bob = await s.token(['read', 'write']);
  admin = await s.token(['admin']);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const submit = (token: string, params: Record<string, unknown>, action = 'search', wait?: number) =>
  s.api(`/v1/tasks${wait === undefined ? '' : `?wait=${wait}`}`, { method: 'POST', json: { source: 'fake', action, params }, token });
const finished = (token: string, id: string) =>
  until(async () => {
    const r = await s.api(`/v1/tasks/${id}`, { token });
    return ['succeeded', 'failed', 'cancelled'].includes(r.body.status) ? r.body : undefined;
  });

describe('POST /v1/tasks acknowledges with the state at acceptance', () => {
  it('answers 202 {task_id, status: queued} exactly, for a live crawl and for a cache hit', async () => {
    const live = await submit(alice, { query: 'ack', force: true });
    expect(live.status).toBe(202);
    expect(live.body).toEqual({ task_id: expect.stringMatching(/^t_/), status: 'queued' });
    await finished(alice, live.body.task_id);
    const hit = await submit(alice, { query: 'ack' });
    expect(hit.status).toBe(202);
    expect(hit.body).toEqual({ task_id: expect.stringMatching(/^t_/), status: 'queued' });
    // The hit really was born finished: the ack still says queued.
    expect((await s.api(`/v1/tasks/${hit.body.task_id}`, { token: alice })).body.result.source).toBe('cache');
  });

  it('says queued for a replayed write key too, and 200 with the original when waiting', async () => {
    const first = await submit(alice, { text: 'once only', confirm: true, idempotency_key: 'ack-key' }, 'post.create', 8000);
    expect(first.status).toBe(200);
    const again = await submit(alice, { text: 'once only', confirm: true, idempotency_key: 'ack-key' }, 'post.create');
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ task_id: first.body.task_id, status: 'queued' });
    const waited = await submit(alice, { text: 'once only', confirm: true, idempotency_key: 'ack-key' }, 'post.create', 8000);
    expect(waited.status).toBe(200);
    expect(waited.body.result.state).toBe('published');
  });
});

describe('tasks belong to the token that submitted them', () => {
  it('answers 404 not_found to any other token on GET, stream, cancel, DELETE and retry; admin sees all', async () => {
    const mine = await submit(alice, { query: 'private', force: true }, 'search', 8000);
    const id = mine.body.task_id;
    const unknown = await s.api('/v1/tasks/t_000000000ffffffffffffffff', { token: bob });
    for (const [method, path] of [
      ['GET', `/v1/tasks/${id}`],
      ['GET', `/v1/tasks/${id}/stream`],
      ['POST', `/v1/tasks/${id}/cancel`],
      ['DELETE', `/v1/tasks/${id}`],
      ['POST', `/v1/tasks/${id}/retry`],
    ]) {
      const r = await s.api(path, { method, token: bob });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error.code).toBe('not_found');
      // Indistinguishable from an id that does not exist, apart from the id itself.
      expect(r.body.error.message.replace(id, 'X')).toBe(unknown.body.error.message.replace('t_000000000ffffffffffffffff', 'X'));
    }
    expect((await s.api(`/v1/tasks/${id}`, { token: alice })).body.status).toBe('succeeded');
    expect((await s.api(`/v1/tasks/${id}`, { token: admin })).body.status).toBe('succeeded');
    // Served from the in-memory copy of finished tasks: still refused to another token.
    expect((await s.api(`/v1/tasks/${id}`, { token: bob })).status).toBe(404);
  });

  it('a cancel by another token changes nothing; the owner can cancel', async () => {
    const r = await submit(alice, { query: 'slow', force: true });
    const id = r.body.task_id;
    expect((await s.api(`/v1/tasks/${id}/cancel`, { method: 'POST', token: bob })).status).toBe(404);
    expect((await s.api(`/v1/tasks/${id}`, { method: 'DELETE', token: bob })).status).toBe(404);
    expect(['queued', 'running']).toContain((await s.api(`/v1/tasks/${id}`, { token: alice })).body.status);
    const cancelled = await s.api(`/v1/tasks/${id}/cancel`, { method: 'POST', token: alice });
    expect(cancelled.body.status).toBe('cancelled');
  });
});

describe('GET /v1/tasks', () => {
  it("lists the caller's own tasks newest first, without results, filtered and paged", async () => {
    const carol = await s.token(['read']);
    const ids: string[] = [];
    for (const q of ['l1', 'l2', 'l3']) ids.push((await submit(carol, { query: q, force: true }, 'search', 8000)).body.task_id);
    ids.push((await submit(carol, { query: 'fakeuser' }, 'user', 8000)).body.task_id);
    await submit(bob, { query: 'not-carols', force: true }, 'search', 8000);

    const all = await s.api('/v1/tasks', { token: carol });
    expect(all.status).toBe(200);
    expect(all.body.tasks.map((t: any) => t.task_id)).toEqual([...ids].reverse());
    for (const t of all.body.tasks) {
      expect(t.result).toBeUndefined();
      if (t.status === 'succeeded') expect(t.result_url).toBe(`/v1/tasks/${t.task_id}`);
    }
    expect(all.body.next_cursor).toBeUndefined();

    const searches = await s.api('/v1/tasks?action=search&source=fake&status=succeeded', { token: carol });
    expect(searches.body.tasks.map((t: any) => t.task_id)).toEqual(ids.slice(0, 3).reverse());

    const page1 = await s.api('/v1/tasks?limit=3', { token: carol });
    expect(page1.body.tasks).toHaveLength(3);
    expect(typeof page1.body.next_cursor).toBe('string');
    const page2 = await s.api(`/v1/tasks?limit=3&cursor=${page1.body.next_cursor}`, { token: carol });
    expect(page2.body.tasks.map((t: any) => t.task_id)).toEqual([ids[0]]);
    expect(page2.body.next_cursor).toBeUndefined();

    const everyone = await s.api('/v1/tasks?all=true&limit=100', { token: admin });
    expect(everyone.body.tasks.some((t: any) => t.params.query === 'not-carols')).toBe(true);
    const refused = await s.api('/v1/tasks?all=true', { token: carol });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden_scope');
  });

  it('refuses bad filters with 400 naming the parameter', async () => {
    for (const [q, name] of [
      ['status=done', 'status'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['cursor=zzz', 'cursor'],
      ['all=yes', 'all'],
      ['sort=asc', 'sort'],
      ['status=queued&status=running', 'status'],
    ]) {
      const r = await s.api(`/v1/tasks?${q}`, { token: alice });
      expect(r.status, q).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.message.startsWith(name)).toBe(true);
    }
    expect((await s.api('/v1/tasks', { token: await s.token(['write']) })).status).toBe(403);
  });
});

describe('scopes per action', () => {
  it('a write-only token publishes and polls its write, but cannot crawl; a read-only token cannot publish', async () => {
    const writeOnly = await s.token(['write']);
    const w = await submit(writeOnly, { text: 'from a write-only token', confirm: true }, 'post.create', 8000);
    expect(w.status).toBe(200);
    expect(w.body.result.state).toBe('published');
    expect((await s.api(`/v1/tasks/${w.body.task_id}`, { token: writeOnly })).body.status).toBe('succeeded');
    const read = await submit(writeOnly, { query: 'x' });
    expect(read.status).toBe(403);
    expect(read.body.error.code).toBe('forbidden_scope');
    const readOnly = await s.token(['read']);
    expect((await submit(readOnly, { text: 'nope', confirm: true }, 'post.create')).status).toBe(403);
    expect((await submit(admin, { text: 'admin may', confirm: true }, 'post.create', 8000)).body.result.state).toBe('published');
    expect((await submit(admin, { query: 'admin reads' }, 'search', 8000)).status).toBe(200);
  });
});

describe('cursors are bound to what made them', () => {
  it('continues with its own next_cursor and refuses one from another query, action, a tampered one or a made-up one', async () => {
    const first = await submit(alice, { query: 'bound', limit: 5, force: true }, 'search', 8000);
    const cursor = first.body.result.next_cursor as string;
    expect(typeof cursor).toBe('string');
    const next = await submit(alice, { query: 'bound', limit: 5, cursor }, 'search', 8000);
    expect(next.status).toBe(200);
    expect(next.body.result.ok).toBe(true);
    expect(next.body.result.items[0].id).not.toBe(first.body.result.items[0].id);

    const tampered = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    for (const [params, action] of [
      [{ query: 'other', cursor }, 'search'],
      [{ query: 'bound', cursor }, 'posts'],
      [{ query: 'bound', cursor: tampered }, 'search'],
      [{ query: 'bound', cursor: '20' }, 'search'],
      [{ query: 'bound', cursor: 'c1.eyJjIjoiMjAifQ' }, 'search'],
    ] as const) {
      const before = fake.hits.length;
      const r = await submit(alice, params, action);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.message).toMatch(/^params\.cursor/);
      expect(fake.hits.length).toBe(before);
    }
  });

  it('binds the comments cursor too', async () => {
    const first = await submit(alice, { query: 'p1', limit: 1, force: true }, 'comments', 8000);
    const cursor = first.body.result.cursor as string | undefined;
    expect(typeof cursor).toBe('string');
    expect((await submit(alice, { query: 'p1', limit: 1, cursor }, 'comments', 8000)).status).toBe(200);
    expect((await submit(alice, { query: 'p2', limit: 1, cursor }, 'comments')).status).toBe(400);
  });
});

describe('profiles named in params', () => {
  it('refuses a profile that is not stored for the platform; default still means anonymous', async () => {
    const r = await submit(alice, { query: 'who', profile: 'ghost' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', message: 'params.profile: no stored profile fake/ghost; see GET /v1/profiles' });
    expect((await submit(alice, { query: 'who', profile: 'default', force: true }, 'search', 8000)).body.result.ok).toBe(true);
  });

  it('marks a stored profile ok with checked_at after a successful crawl and after a successful write', async () => {
    expect((await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'reader', cookies: 'SESSION=good' }, token: admin })).status).toBeLessThan(300);
    expect((await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'writer', cookies: 'SESSION=good' }, token: admin })).status).toBeLessThan(300);
    const health = async (name: string) => (await s.api('/v1/profiles', { token: admin })).body.profiles.find((p: any) => p.name === name);
    expect(await health('reader')).toMatchObject({ health: 'unknown', checked_at: null });
    expect((await submit(alice, { query: 'as reader', profile: 'reader', force: true }, 'search', 8000)).body.result.source).toBe('live');
    expect(await health('reader')).toMatchObject({ health: 'ok', checked_at: expect.any(String) });
    expect((await submit(alice, { text: 'as writer', profile: 'writer', confirm: true }, 'post.create', 8000)).body.result.state).toBe('published');
    expect(await health('writer')).toMatchObject({ health: 'ok', checked_at: expect.any(String) });
  });
});
