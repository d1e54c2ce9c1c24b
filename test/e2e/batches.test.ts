import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Blocked, ReplayMiss } from '../../src/crawl/errors.js';
import type { ItemDraft, PlatformAdapter } from '../../src/platforms/types.js';
import { schemaChecker } from '../helpers/openapi.js';
import { testSchema } from '../helpers/postgres.js';
import { startService, until, type Running } from '../helpers/service.js';
import type { OpenApiDocument } from '../../src/openapi/types.js';

/** Crawls the test steers: "gate-N" waits until the test opens gate N; the rest answer at once. */
const gates = new Map<string, () => void>();
const gateOpen = new Map<string, Promise<void>>();
function gate(name: string): Promise<void> {
  let p = gateOpen.get(name);
  if (!p) {
    p = new Promise<void>((r) => gates.set(name, r));
    gateOpen.set(name, p);
  }
  return p;
}
const open = (name: string) => (gate(name), gates.get(name)!());

/** How many times each query reached the platform (a retry crawls again; a cache hit does not). */
const crawls = new Map<string, number>();

const bt: PlatformAdapter = {
  id: 'bt',
  name: 'Batch test',
  region: 'global',
  auth: 'none',
  hosts: [],
  mediaHosts: [],
  minGapMs: 0,
  authorUrl: () => undefined,
  actions: {
    search: {
      shape: 'items',
      summary: 'search',
      params: [{ name: 'query', type: 'string', required: true, description: 'q' }],
      async page(_ctx, params) {
        const q = params.query as string;
        crawls.set(q, (crawls.get(q) ?? 0) + 1);
        if (q.startsWith('gate-')) await gate(q);
        // A job error (the task fails, retryable) and a replay miss (fails, permanent).
        if (q.startsWith('crash')) throw new Error('adapter bug');
        if (q.startsWith('miss')) throw new ReplayMiss('GET', 'https://bt.test/missing');
        if (q.startsWith('captcha')) throw new Blocked('captcha');
        return { items: [{ native_id: q, type: 'text', text: q, media: [], stats: {} } as ItemDraft] };
      },
    },
  },
};

let db: Awaited<ReturnType<typeof testSchema>> | undefined;
const modes: Array<[string, () => Promise<[Running, Running]>]> = [
  [
    'embedded',
    async () => {
      const s = await startService({ adapters: [bt] });
      return [s, s];
    },
  ],
  [
    'distributed (two services on one Postgres schema)',
    async () => {
      db = await testSchema();
      const config = { databaseUrl: db.url, databaseSchema: db.schema, secretKey: 'ab'.repeat(32) };
      return [await startService({ adapters: [bt], config }), await startService({ adapters: [bt], config })];
    },
  ],
];

describe.each(modes)('batches, %s', (mode, start) => {
  let a: Running;
  let b: Running;
  let token: string;
  const tag = mode.slice(0, 3);
  const post = (body: unknown, t: string | null = token, s = a) => s.api('/v1/tasks/batch', { method: 'POST', json: body, token: t });
  const batch = async (id: string, s = b) => (await s.api(`/v1/batches/${id}`, { token })).body;
  const search = (query: string, profile?: string) => ({ source: 'bt', action: 'search', params: profile ? { query, profile } : { query } });

  beforeAll(async () => {
    [a, b] = await start();
    token = await a.token(['read', 'write']);
    // One task runs per account at a time: each gated crawl gets an account (stored login) of its own.
    for (const name of ['g1', 'g2']) await a.svc.store.profilePut({ platform: 'bt', name, cookies: 'k=v', credentials: null });
  });
  afterAll(async () => {
    for (const g of gates.keys()) open(g);
    await a?.close();
    if (b !== a) await b?.close();
    await db?.drop();
    db = undefined;
  });

  it('accepts valid entries and refuses the others by index, each saying why; the answer matches the document', async () => {
    const check = schemaChecker((await a.api('/v1/openapi.json', { token: null })).body as OpenApiDocument);
    const r = await post({
      tasks: [
        search(`ok-${tag}-1`),
        { source: 'nowhere', action: 'search', params: { query: 'x' } },
        { source: 'bt', action: 'search', params: { query: 'x', limit: 'many' } },
        { source: 'bt', action: 'search' },
        { source: 'bt', action: 'post.create', params: { text: 'hi', confirm: true } },
        { ...search('x'), priority: 1 },
        { source: 'bt', action: 'trending' },
        search(`ok-${tag}-2`),
      ],
    });
    expect(r.status).toBe(202);
    expect(check.response('POST', '/v1/tasks/batch', 202, r.body)).toEqual([]);
    expect(r.body.accepted).toBe(2);
    expect(r.body.tasks.map((t: { index: number }) => t.index)).toEqual([0, 7]);
    const why = Object.fromEntries(r.body.refused.map((x: { index: number; error: { code: string; message: string } }) => [x.index, `${x.error.code}: ${x.error.message}`]));
    expect(Object.keys(why).map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(why[1]).toMatch(/^unsupported: unknown source "nowhere"/);
    expect(why[2]).toMatch(/^invalid_request: params\.limit: expected an? integer/);
    expect(why[3]).toMatch(/^invalid_request: params\.query: required/);
    expect(why[4]).toMatch(/^invalid_request: post\.create is a write verb/);
    expect(why[5]).toMatch(/^invalid_request: priority: unknown field/);
    expect(why[6]).toMatch(/^unsupported: bt has no action "trending"/);
    // Each accepted entry is a task like any other, readable from the other process too.
    const ids = r.body.tasks.map((t: { task_id: string }) => t.task_id);
    await until(async () => ((await batch(r.body.batch_id)).counts.succeeded === 2 ? true : undefined));
    const task = (await b.api(`/v1/tasks/${ids[1]}`, { token })).body;
    expect(task).toMatchObject({ status: 'succeeded', source: 'bt', action: 'search', params: { query: `ok-${tag}-2` } });
    const got = await b.api(`/v1/batches/${r.body.batch_id}`, { token });
    expect(check.response('GET', '/v1/batches/:id', 200, got.body)).toEqual([]);
    expect(got.body).toMatchObject({ batch_id: r.body.batch_id, total: 2, task_ids: ids, counts: { queued: 0, running: 0, succeeded: 2, failed: 0, cancelled: 0 } });
    // Its rows export from either process.
    const exported = await b.api(`/v1/tasks/${ids[1]}/export`, { token });
    expect(exported.text.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual([`bt:ok-${tag}-2`]);
  });

  it('a batch whose entries were all refused still exists (total 0), so one answer shape covers every case', async () => {
    const r = await post({ tasks: [{ source: 'bt', action: 'search', params: { query: 1 } }, { source: 42, action: 'search' }] });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ accepted: 0, tasks: [] });
    expect(r.body.refused.map((x: { index: number; error: { code: string } }) => [x.index, x.error.code])).toEqual([[0, 'invalid_request'], [1, 'invalid_request']]);
    expect(await batch(r.body.batch_id)).toMatchObject({ total: 0, task_ids: [], counts: { queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 } });
  });

  it('accepts 500 entries (cache hits behave as in POST /v1/tasks) and refuses 501, an empty list and a non-object entry whole', async () => {
    const warm = await a.api('/v1/tasks?wait=8000', { method: 'POST', json: search(`warm-${tag}`), token });
    expect(warm.body.status).toBe('succeeded');
    const before = crawls.get(`warm-${tag}`);
    const r = await post({ tasks: Array.from({ length: 500 }, () => search(`warm-${tag}`)) });
    expect(r.status).toBe(202);
    expect(r.body.accepted).toBe(500);
    expect(r.body.refused).toEqual([]);
    expect(new Set(r.body.tasks.map((t: { task_id: string }) => t.task_id)).size).toBe(500);
    expect(r.body.tasks.every((t: { status: string }) => t.status === 'succeeded')).toBe(true);
    expect(crawls.get(`warm-${tag}`)).toBe(before);
    expect((await batch(r.body.batch_id)).counts).toEqual({ queued: 0, running: 0, succeeded: 500, failed: 0, cancelled: 0 });

    for (const [body, message] of [
      [{ tasks: Array.from({ length: 501 }, () => search('x')) }, /tasks: 501 entries; at most 500/],
      [{ tasks: [] }, /tasks: empty/],
      [{ tasks: [search('x'), 'search'] }, /tasks\[1\]: expected an object/],
      [{ tasks: [search('x'), null] }, /tasks\[1\]: expected an object/],
      [{ task: [search('x')] }, /body\.task: unknown field/],
      [[search('x')], /body: expected a JSON object/],
      [{ tasks: { 0: search('x') } }, /tasks: required, an array/],
    ] as const) {
      const bad = await post(body);
      expect(bad.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(bad.body).toEqual({ ok: false, error: { code: 'invalid_request', message: expect.stringMatching(message), retryable: false } });
    }
    const huge = await post({ tasks: [{ ...search('x'), params: { query: 'y'.repeat(9 * 1024 * 1024) } }] });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ ok: false, error: { code: 'invalid_request', message: 'request body larger than 8 MiB', retryable: false } });
    // A write-only token cannot submit a batch of reads.
    const writer = await a.token(['write']);
    expect((await post({ tasks: [search('x')] }, writer)).status).toBe(403);
  });

  it('counts per status as tasks finish, and retries only retryable failures and blocked results', async () => {
    const g = `gate-${tag}`;
    const r = await post({ tasks: [search(`${g}-a`, 'g1'), search(`crash-${tag}`), search(`miss-${tag}`), search(`captcha-${tag}`), search(`fine-${tag}`), search(`${g}-b`, 'g2')] });
    expect(r.body.accepted).toBe(6);
    const id = r.body.batch_id as string;
    const [gated, crash, miss, captcha, fine, cancelled] = r.body.tasks.map((t: { task_id: string }) => t.task_id);
    await until(async () => {
      const c = (await batch(id)).counts;
      return c.running === 2 && c.failed === 2 && c.succeeded === 2 ? c : undefined;
    });
    await b.api(`/v1/tasks/${cancelled}/cancel`, { method: 'POST', token });
    expect((await batch(id)).counts).toEqual({ queued: 0, running: 1, succeeded: 2, failed: 2, cancelled: 1 });
    open(`${g}-a`);
    await until(async () => ((await batch(id)).counts.succeeded === 3 ? true : undefined));

    const crawled = (q: string) => crawls.get(q) ?? 0;
    const counts = [crawled(`crash-${tag}`), crawled(`miss-${tag}`), crawled(`captcha-${tag}`), crawled(`fine-${tag}`)];
    const retry = await b.api(`/v1/batches/${id}/retry`, { method: 'POST', token });
    expect(retry.status).toBe(200);
    expect(retry.body.retried).toEqual([{ index: 1, task_id: crash }, { index: 3, task_id: captcha }]);
    const skipped = Object.fromEntries(retry.body.skipped.map((s: { index: number; task_id: string; reason: string }) => [s.task_id, s.reason]));
    expect(Object.keys(skipped).sort()).toEqual([gated, miss, fine, cancelled].sort());
    expect(skipped[miss]).toMatch(/^permanent error upstream_error/);
    expect(skipped[fine]).toMatch(/^succeeded \(not blocked\)/);
    expect(skipped[gated]).toMatch(/^succeeded/);
    expect(skipped[cancelled]).toMatch(/^cancelled/);
    // The retried ones crawl again (attempt 2) and fail or block the same way; the skipped ones do not.
    await until(async () => ((await batch(id)).counts.failed === 2 && crawled(`captcha-${tag}`) === counts[2] + 1 ? true : undefined));
    expect([crawled(`crash-${tag}`), crawled(`miss-${tag}`), crawled(`captcha-${tag}`), crawled(`fine-${tag}`)]).toEqual([counts[0] + 1, counts[1], counts[2] + 1, counts[3]]);
    expect((await b.api(`/v1/tasks/${crash}`, { token })).body.attempts).toBe(2);
  });

  it("another token's batch or an unknown id is 404; an admin sees any", async () => {
    const r = await post({ tasks: [search(`mine-${tag}`)] });
    const other = await a.token(['read']);
    for (const path of [`/v1/batches/${r.body.batch_id}`, '/v1/batches/b_nope', `/v1/batches/${'x'.repeat(150)}`]) {
      const got = await b.api(path, { token: other });
      expect(got.status, path).toBe(404);
      expect(got.body.error.code).toBe('not_found');
    }
    const retry = await b.api(`/v1/batches/${r.body.batch_id}/retry`, { method: 'POST', token: other });
    expect(retry.status).toBe(404);
    const admin = await a.token(['admin']);
    expect((await b.api(`/v1/batches/${r.body.batch_id}`, { token: admin })).status).toBe(200);
    expect((await b.api(`/v1/batches/${r.body.batch_id}`, { token: null })).status).toBe(401);
  });
});
