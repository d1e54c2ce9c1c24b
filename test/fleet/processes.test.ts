import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { TokenService } from '../../src/auth/tokens.js';
import { openStore } from '../../src/store/open.js';
import { testSchema } from '../helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { call, minGaps, overlaps, ProcFleet, readEvents, spans, waitFor, type Proc } from '../helpers/fleet-procs.js';

/*
 * The fleet as an operator runs it: 2 API and 3 worker processes (`crawler serve --role api|worker`) on
 * loopback, one Postgres schema, one Redis prefix, replay mode. Platform requests are logged by every
 * worker into one file (CRAWLER_REQUEST_LOG): the invariants are checked from that log.
 */
const GAP_MS = 15;
// x.com answers slowly (a long crawl to cancel or stream); the rest answer in a few ms.
const SLOW_HOST = 'x.com';
const SLOW_MS = 4000;
const prefix = testPrefix('procs');
let schema: Awaited<ReturnType<typeof testSchema>>;
let fleet: ProcFleet;
const apis: Proc[] = [];
const workers: Proc[] = [];
let token: string;
let admin: string;

const TASKS = [
  { source: 'telegram', action: 'posts', params: { query: 'harborweather', limit: 5 } },
  { source: 'mastodon', action: 'trending', params: {} },
  { source: 'bluesky', action: 'posts', params: { query: '@bsky.app', limit: 5 } },
  { source: 'toutiao', action: 'hot', params: { limit: 5 } },
];
const SLOW = { source: 'twitter', action: 'detail', params: { query: 'https://x.com/harborweather/status/2045936718443446274' } };

beforeAll(async () => {
  await requireRedis();
  schema = await testSchema();
  fleet = new ProcFleet({
    CRAWLER_DATABASE_URL: schema.url,
    CRAWLER_DATABASE_SCHEMA: schema.schema,
    CRAWLER_REDIS_URL: TEST_REDIS_URL,
    CRAWLER_REDIS_PREFIX: prefix,
    CRAWLER_SECRET_KEY: 'b'.repeat(64),
    CRAWLER_REPLAY: 'sandbox',
    CRAWLER_MIN_GAP_MS: String(GAP_MS),
    CRAWLER_REPLAY_DELAY_MS: `2,${SLOW_HOST}=${SLOW_MS}`,
    CRAWLER_WORKERS: '4',
  });
  // The first API process creates the schema; the rest start together.
  apis.push(await fleet.start('api'));
  const rest = await Promise.all([fleet.start('api'), fleet.start('worker'), fleet.start('worker'), fleet.start('worker')]);
  apis.push(rest[0]);
  workers.push(...rest.slice(1));
  const store = openStore(loadConfig({ CRAWLER_DATABASE_URL: schema.url, CRAWLER_DATABASE_SCHEMA: schema.schema, CRAWLER_SECRET_KEY: 'b'.repeat(64), CRAWLER_DATA_DIR: fleet.dir }));
  const tokens = new TokenService(store);
  token = (await tokens.create(['read', 'write'])).token;
  admin = (await tokens.create(['read', 'write', 'admin'])).token;
  await store.close();
  // A profile names an account; these hold a harmless cookie only (the sandbox crawls are anonymous).
  const named = [...TASKS.flatMap((t) => [0, 1, 2, 3, 4].map((i) => ({ platform: t.source, name: `p${i}` }))), ...['sse', 'cx', 'ck'].map((name) => ({ platform: SLOW.source, name }))];
  for (const p of named) {
    const r = await call(apis[0].url, '/v1/profiles', { token: admin, json: { ...p, cookies: 'lang=en' } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
}, 180_000);

afterAll(async () => {
  await fleet?.close();
  await dropPrefix(prefix);
  await schema?.drop();
});

const status = async (api: Proc, id: string) => (await call(api.url, `/v1/tasks/${id}`, { token })).body;

describe('a fleet of processes: 2 API, 3 workers, one Postgres, one Redis', () => {
  it('health on an API process says distributed', async () => {
    const h = await call(apis[1].url, '/v1/health');
    expect(h.body).toMatchObject({ ok: true, mode: 'distributed', role: 'api' });
  });

  it('runs 500 tasks over 20 accounts: every one ends once, no account runs two at a time, the platform gap holds fleet-wide', async () => {
    const before = fleet.requests().length;
    const ids: string[] = [];
    const jobs = Array.from({ length: 500 }, (_, i) => ({ ...TASKS[i % TASKS.length], params: { ...TASKS[i % TASKS.length].params, profile: `p${Math.floor(i / TASKS.length) % 5}`, force: true } }));
    // Submitted through both API processes, 25 at a time.
    for (let i = 0; i < jobs.length; i += 25) {
      const answers = await Promise.all(jobs.slice(i, i + 25).map((j, k) => call(apis[(i + k) % 2].url, '/v1/tasks', { token, json: j })));
      for (const a of answers) {
        expect(a.status, JSON.stringify(a.body)).toBe(202);
        ids.push(a.body.task_id);
      }
    }
    // Polled as two counts (nothing queued, nothing running), then each task read once.
    await waitFor(
      async () => {
        const [q, r] = await Promise.all(['queued', 'running'].map((st) => call(apis[0].url, `/v1/tasks?status=${st}&limit=1`, { token })));
        return q.body.tasks?.length === 0 && r.body.tasks?.length === 0 ? true : undefined;
      },
      200_000,
      500,
      '500 tasks to end',
    );
    const ended: any[] = [];
    for (let i = 0; i < ids.length; i += 50) ended.push(...(await Promise.all(ids.slice(i, i + 50).map((id) => status(apis[0], id)))));
    const failed = ended.filter((r) => r.status !== 'succeeded');
    expect(failed.map((r) => `${r.source}.${r.action} ${r.status} ${JSON.stringify(r.error)}`)).toEqual([]);
    for (const r of ended) expect(r.result.source, r.id).toBe('live');

    const lines = fleet.requests().slice(before).filter((l) => ids.includes(l.task ?? ''));
    // Each task crawled under exactly one attempt, by one process.
    const byTask = new Map<string, Set<string>>();
    for (const l of lines) (byTask.get(l.task!) ?? byTask.set(l.task!, new Set()).get(l.task!)!).add(`${l.attempt}:${l.id.split('-').slice(0, 2).join('-')}`);
    expect(byTask.size).toBe(500);
    expect([...byTask.values()].filter((s) => s.size !== 1)).toEqual([]);
    // The work spread over the three workers.
    const procsUsed = new Set(lines.map((l) => l.id.split('-').slice(0, 2).join('-')));
    expect(procsUsed.size).toBe(3);
    expect(overlaps(lines)).toEqual([]);
    const accounts = new Set([...spans(lines).values()].map((s) => s.account));
    expect(accounts.size).toBe(20);
    // The pacer's slots, on Redis's clock, are never closer than the gap across the fleet, and no request
    // leaves before its slot. (How close two sends come besides depends on how late a busy process gets
    // to them: printed, not asserted.)
    for (const [platform, { gap, count, pair }] of minGaps(lines, 'slot')) {
      expect(count, platform).toBeGreaterThan(100);
      expect(gap, `${platform}: smallest gap between two slots across the fleet: ${JSON.stringify(pair)}`).toBeGreaterThanOrEqual(GAP_MS);
    }
    const early = lines.filter((l) => l.phase === 'send' && (l.slot === undefined || l.t < l.slot - 1));
    expect(early, 'requests sent before their slot (or unpaced)').toEqual([]);
    for (const [platform, { gap, count, under }] of minGaps(lines, 't')) {
      console.log(`fleet gap ${platform}: ${count} requests, smallest send gap ${gap} ms, ${under(GAP_MS - 5)} of ${count - 1} gaps under ${GAP_MS - 5} ms (process scheduling)`);
    }
  }, 240_000);

  it('an SSE stream opened on one API process resumes on the other with Last-Event-ID, nothing missing or repeated', async () => {
    const made = await call(apis[0].url, '/v1/tasks', { token, json: { ...SLOW, params: { ...SLOW.params, force: true, profile: 'sse' } } });
    expect(made.status).toBe(202);
    const id = made.body.task_id as string;
    const url = (api: Proc) => `${api.url}/v1/tasks/${id}/stream`;
    const first = await readEvents(url(apis[0]), token, { stop: (e) => e.event === 'status' && JSON.parse(e.data).status === 'running', timeoutMs: 20_000 });
    const last = first[first.length - 1];
    expect(JSON.parse(last.data).status).toBe('running');
    const rest = await readEvents(url(apis[1]), token, { lastEventId: last.id, stop: (e) => e.event === 'result', timeoutMs: 30_000 });
    const all = [...first, ...rest];
    const ids = all.map((e) => Number(e.id));
    // Strictly increasing across the two processes: nothing repeated; the result is there: nothing lost.
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    expect(rest[0] && Number(rest[0].id)).toBe(Number(last.id) + 1);
    const end = JSON.parse(rest[rest.length - 1].data);
    expect(end, JSON.stringify(end).slice(0, 600)).toMatchObject({ task_id: id, status: 'succeeded' });
  }, 60_000);

  it('cancel asked on one API process aborts the crawl on whichever worker runs it within a second, and frees the account', async () => {
    const made = await call(apis[0].url, '/v1/tasks', { token, json: { ...SLOW, params: { ...SLOW.params, force: true, profile: 'cx' } } });
    const id = made.body.task_id as string;
    await waitFor(async () => (fleet.requests().some((l) => l.task === id && l.phase === 'send') ? true : undefined), 20_000, 50, 'the slow crawl to send its request');
    const asked = Date.now();
    const c = await call(apis[1].url, `/v1/tasks/${id}/cancel`, { token, method: 'POST' });
    expect(c.status, JSON.stringify(c.body)).toBeLessThan(300);
    // The request in flight on the worker ends, aborted, within a second of the cancel.
    const aborted = await waitFor(async () => fleet.requests().find((l) => l.task === id && l.phase === 'done' && l.t >= asked), 3_000, 20, 'the in-flight request to be aborted');
    expect(aborted.error, JSON.stringify(fleet.requests().filter((l) => l.task === id))).toBe('cancelled');
    expect(aborted.t - asked).toBeLessThan(1000);
    expect((await status(apis[0], id)).status).toBe('cancelled');
    // The account's next task starts at once: long before the aborted request would have ended.
    const next = await call(apis[0].url, '/v1/tasks', { token, json: { ...SLOW, params: { ...SLOW.params, force: true, profile: 'cx' } } });
    const started = await waitFor(async () => fleet.requests().find((l) => l.task === next.body.task_id && l.phase === 'send'), 5_000, 20, 'the account\'s next task to start');
    expect(started.t - asked).toBeLessThan(SLOW_MS - 1000);
    await call(apis[0].url, `/v1/tasks/${next.body.task_id}/cancel`, { token, method: 'POST' });
  }, 60_000);

  it('a token revoked on one API process is refused on the very next request on the other', async () => {
    const made = await call(apis[0].url, '/v1/tokens', { token: admin, json: { scopes: ['read'], name: 'short-lived' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const t = made.body.token as string;
    expect((await call(apis[1].url, '/v1/task-sources', { token: t })).status).toBe(200);
    const revoked = await call(apis[0].url, `/v1/tokens/${made.body.id}`, { token: admin, method: 'DELETE' });
    expect(revoked.status).toBeLessThan(300);
    const after = await call(apis[1].url, '/v1/task-sources', { token: t });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: { code: 'auth_required' } });
  });
});
