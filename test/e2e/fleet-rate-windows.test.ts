import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { Registry } from '../../src/platforms/registry.js';
import { twitter } from '../../src/platforms/twitter/index.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { testSchema } from '../helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';

/*
 * X's per-account window, announced to one worker process, holds on the other: an API process and two
 * workers (one crawl slot each) on one Postgres schema and one Redis. Which worker runs a task is steered
 * by keeping the other busy with a crawl that hangs (the fake platform's q=slow, each on its own account).
 */
const prefix = testPrefix('windows');
const dir = mkdtempSync(join(tmpdir(), 'fleet-windows-'));
const LOGIN = 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface';
const OP = '/UserByScreenName';
/** When the recorded window reopens (set as the services start): long enough to see the refusal, short enough to wait out. */
let RESET_S = 0;

/**
 * Replays X's recordings and keeps what each process asked, so a test can tell which one sent a request;
 * the fake platform on loopback is really asked (its slow crawl must hang).
 */
class CountingReplay extends ReplayDispatcher {
  readonly asked: string[] = [];
  readonly loopback = new Agent();
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (String(options.origin).startsWith(fake.url)) return this.loopback.dispatch(options, handler);
    this.asked.push(`${options.method} ${options.origin}${options.path}`);
    return super.dispatch(options, handler);
  }
}

/** The project's recording of a spent window (remaining 0), with a reset in the near future, and a calm twin for another user. */
function recordings(): string {
  const har = JSON.parse(readFileSync(resolve(process.cwd(), 'sandbox/twitter/error-window-spent.har'), 'utf8'));
  const [spent] = har.log.entries;
  RESET_S = Math.floor(Date.now() / 1000) + 10;
  const header = (e: any, name: string, value: string) => (e.response.headers.find((h: any) => h.name === name).value = value);
  header(spent, 'x-rate-limit-reset', String(RESET_S));
  const calm = JSON.parse(JSON.stringify(spent));
  const vars = JSON.stringify({ screen_name: 'calmharbor', withSafetyModeUserFields: true });
  calm.request.url = `https://x.com/i/api/graphql/Gb-d6r0vxPOADdG62OEBpQ/UserByScreenName?variables=${encodeURIComponent(vars)}`;
  calm.request.queryString = [{ name: 'variables', value: vars }];
  header(calm, 'x-rate-limit-remaining', '80');
  har.log.entries = [spent, calm];
  const file = join(dir, 'windows.har');
  writeFileSync(file, JSON.stringify(har));
  return file;
}

let schema: Awaited<ReturnType<typeof testSchema>>;
let fake: FakePlatform;
let api: Running;
const workers: Array<{ s: Running; replay: CountingReplay }> = [];

beforeAll(async () => {
  await requireRedis();
  schema = await testSchema();
  fake = await startFakePlatform();
  const file = recordings();
  const registry = new Registry([fake.adapter, twitter]);
  const config = { databaseUrl: schema.url, databaseSchema: schema.schema, redisUrl: TEST_REDIS_URL, redisPrefix: prefix, secretKey: 'd'.repeat(64), workers: 1 };
  // A refusal cools the login a moment only (the default backoff may be half a minute).
  const health = { baseMs: 300, capMs: 300 };
  api = await startService({ adapters: [fake.adapter, twitter], config, health, deployment: { mode: 'distributed', role: 'api' } });
  for (let i = 0; i < 2; i++) {
    const replay = new CountingReplay({ recordings: loadRecordings([file]), rulesFor: (h) => registry.forHost(h)?.replay });
    workers.push({ s: await startService({ adapters: [fake.adapter, twitter], config, health, dispatcher: replay, deployment: { mode: 'distributed', role: 'worker' } }), replay });
  }
  await api.svc.store.profilePut({ platform: 'twitter', name: 'default', cookies: LOGIN, credentials: null });
  for (const p of ['p1', 'p2', 'p3']) await api.svc.store.profilePut({ platform: 'fake', name: p, cookies: null, credentials: null });
}, 60_000);
afterAll(async () => {
  await api?.close();
  for (const w of workers) {
    await w.s.close();
    await w.replay.loopback.close();
  }
  await fake?.close();
  await dropPrefix(prefix);
  await schema?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const submit = async (source: string, action: string, params: Record<string, unknown>) => {
  const r = await api.api('/v1/tasks', { method: 'POST', json: { source, action, params: { force: true, ...params } } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body.task_id as string;
};
const finished = (id: string) =>
  until(async () => {
    const t = (await api.api(`/v1/tasks/${id}`)).body;
    return t.status === 'succeeded' || t.status === 'failed' ? t : undefined;
  }, 20_000, 50);
/** Occupies one worker's only slot; resolves with that worker once it runs the crawl. */
async function occupy(profile: string, busy: Array<{ s: Running; replay: CountingReplay }> = []) {
  const others = workers.filter((x) => !busy.includes(x));
  // A finished task's run lets go of its slot a moment after its row says so.
  await until(() => (others.every((x) => x.s.svc.runner.active === 0) ? true : undefined), 10_000, 20);
  const id = await submit('fake', 'search', { query: 'slow', profile });
  const w = await until(() => others.find((x) => x.s.svc.runner.active === 1), 10_000, 20);
  return { id, w, free: () => api.api(`/v1/tasks/${id}/cancel`, { method: 'POST' }) };
}
const sent = (w: { replay: CountingReplay }) => w.replay.asked.filter((r) => r.includes(OP)).length;

describe('per-account rate windows shared across the fleet', () => {
  it('a window spent on one worker refuses the account\'s next call on the other before any request; after the reset it goes out', async () => {
    // Worker Y runs the account first and keeps its state cached; worker X is busy.
    const a = await occupy('p1');
    const [x, y] = [a.w, workers.find((w) => w !== a.w)!];
    const calm = await finished(await submit('twitter', 'user', { query: 'calmharbor' }));
    expect(calm.result).toMatchObject({ ok: true });
    expect([sent(x), sent(y)]).toEqual([0, 1]);

    // Now X runs the account: X's answer says the window is spent (the answer itself stands).
    const b = await occupy('p2', [x]);
    expect(b.w).toBe(y);
    await a.free();
    const spent = await finished(await submit('twitter', 'user', { query: 'lighthousekeep' }));
    expect(spent.result).toMatchObject({ ok: true });
    expect([sent(x), sent(y)]).toEqual([1, 1]);

    // Y runs the account next: it reads the account's state afresh and refuses without a request.
    const c = await occupy('p3', [y]);
    expect(c.w).toBe(x);
    await b.free();
    const refused = await finished(await submit('twitter', 'user', { query: 'calmharbor' }));
    expect(refused.result).toMatchObject({ ok: false, error: { code: 'rate_limited', retryable: true } });
    expect(refused.result.error.message).toContain(`reopens at ${new Date(RESET_S * 1000).toISOString()}`);
    expect([sent(x), sent(y)]).toEqual([1, 1]);

    // Once the window reopens the account's calls go out again (on Y: X is still busy).
    await until(() => (Date.now() / 1000 > RESET_S ? true : undefined), 15_000, 100);
    const again = await finished(await submit('twitter', 'user', { query: 'calmharbor' }));
    expect(again.result).toMatchObject({ ok: true });
    expect([sent(x), sent(y)]).toEqual([1, 2]);
    await c.free();
  }, 60_000);
});
