import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookNotificationSchema } from '../../src/webhooks/schemas.js';
import { webhookSecret } from '../../src/webhooks/signing.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { cli } from '../helpers/cli.js';
import { schemaChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../../src/openapi/types.js';

/** The verification recipe exactly as README.md documents it (its import line becomes parameters). */
function documentedVerifier(): (secret: string, header: string, raw: Buffer | string, toleranceS?: number) => boolean {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /<!-- webhook-verify[^\n]*\n```js\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md lost its webhook-verify block');
  const code = block[1].replace(/^import .*$/m, '');
  return new Function('createHmac', 'timingSafeEqual', `${code}\nreturn verifyCrawlerWebhook;`)(createHmac, timingSafeEqual);
}

const PUBLIC = '93.184.216.34';
let rebindCalls = 0;
/** The services' resolver hook: a few names, one of which turns to loopback after its first answer. */
async function fakeDns(host: string): Promise<LookupAddress[]> {
  const v4 = (...a: string[]) => a.map((address) => ({ address, family: 4 }));
  switch (host) {
    case 'hooks.example.com':
      return v4(PUBLIC);
    case 'internal.test':
      return v4('10.1.2.3');
    case 'mixed.test':
      return v4(PUBLIC, '127.0.0.1');
    case 'rebind.test':
      return rebindCalls++ === 0 ? v4(PUBLIC) : v4('127.0.0.1');
    default:
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  }
}

let fake: FakePlatform;
let receiver: Receiver;
/** Defaults: https only, the real address rules. */
let strict: Running;
/** CRAWLER_WEBHOOK_ALLOW_HTTP and the loopback receiver allowed; its webhook clock can be moved ahead. */
let lab: Running;
let ahead = 0;

beforeAll(async () => {
  fake = await startFakePlatform();
  receiver = await startReceiver((path, n) => {
    if (path.startsWith('/flaky')) return n < 2 ? 500 : 200;
    if (path.startsWith('/down')) return 503;
    if (path.startsWith('/moved')) return { status: 302, headers: { location: receiver.url('/elsewhere') } };
    return 200;
  });
  strict = await startService({ adapters: [fake.adapter], webhooks: { resolve: fakeDns, pollMs: 20 } });
  lab = await startService({
    adapters: [fake.adapter],
    config: { webhookAllowHttp: true },
    webhooks: { resolve: fakeDns, allowAddress: (a) => a === '127.0.0.1', pollMs: 20, now: () => Date.now() + ahead },
  });
});
afterAll(async () => {
  await strict?.close();
  await lab?.close();
  await receiver?.close();
  await fake?.close();
});

const submit = (s: Running, params: Record<string, unknown>, o: { wait?: boolean; action?: string; token?: string } = {}) =>
  s.api(`/v1/tasks${o.wait === false ? '' : '?wait=8000'}`, { method: 'POST', json: { source: 'fake', action: o.action ?? 'search', params }, token: o.token });
const log = async (s: Running, id: string, token?: string) => (await s.api(`/v1/tasks/${id}/webhooks`, { token })).body;
const settled = (s: Running, id: string, n = 1) =>
  until(async () => {
    const l = await log(s, id);
    return l.deliveries?.length >= n && l.deliveries.every((d: { state: string }) => d.state !== 'pending') ? l : undefined;
  });

describe('callback_url is judged at submit', () => {
  const refused = async (s: Running, url: unknown, why: RegExp) => {
    const r = await submit(s, { query: 'cats', callback_url: url }, { wait: false });
    expect(r.status, String(url)).toBe(400);
    expect(r.body).toMatchObject({ ok: false, error: { code: 'invalid_request', retryable: false } });
    expect(r.body.error.message).toMatch(/^params\.callback_url: /);
    expect(r.body.error.message).toMatch(why);
    // A refusal never maps an internal network.
    expect(r.body.error.message).not.toMatch(/10\.1\.2\.3|127\.0\.0\.1/);
  };

  it('https only by default; http with CRAWLER_WEBHOOK_ALLOW_HTTP', async () => {
    await refused(strict, 'http://hooks.example.com/in', /must be an https URL/);
    await refused(strict, 'ftp://hooks.example.com/in', /https/);
    await refused(lab, 'ftp://hooks.example.com/in', /http or https/);
    // Accepted URLs are shown by a write's first call: past validation, it answers 409 and queues nothing
    // (so nothing is ever sent to the public address the test resolver gave).
    for (const [s, url] of [
      [strict, 'https://hooks.example.com/in'],
      [lab, 'http://hooks.example.com/in'],
      [strict, `https://${PUBLIC}:8443/in`],
    ] as const) {
      const r = await submit(s, { text: 'hi', callback_url: url }, { action: 'post.create', wait: false });
      expect(r.status, url).toBe(409);
      expect(r.body.status).toBe('needs_confirmation');
    }
  });

  it('refuses private, loopback, link-local and reserved IP literals, in any notation, and user info', async () => {
    for (const url of [
      'https://127.0.0.1/in',
      'https://2130706433/in',
      'https://0x7f.1/in',
      'https://[::1]/in',
      'https://[::ffff:192.168.0.1]/in',
      'https://10.0.0.5/in',
      'https://172.16.3.4/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[fe80::1]/in',
      'https://[fd00::1]/in',
      'https://0.0.0.0/in',
      'https://100.64.0.1/in',
    ]) {
      await refused(strict, url, /private, loopback or link-local/);
    }
    await refused(strict, 'https://user:pw@hooks.example.com/in', /user name or password/);
    await refused(strict, 'https://user@hooks.example.com/in', /user name or password/);
  });

  it('resolves the host name: any forbidden address, no address, or a bare name is refused', async () => {
    await refused(strict, 'https://internal.test/in', /resolves to a private/);
    await refused(strict, 'https://mixed.test/in', /resolves to a private/);
    await refused(strict, 'https://nowhere.test/in', /does not resolve/);
    await refused(strict, 'https://localhost/in', /fully qualified/);
  });

  it('refuses what is not a short absolute URL string, and the other params still count', async () => {
    await refused(strict, 'not a url', /absolute URL/);
    await refused(strict, '/relative/path', /absolute URL/);
    await refused(strict, `https://hooks.example.com/${'a'.repeat(2100)}`, /longer than 2048/);
    await refused(strict, 42, /expected a string/);
    await refused(strict, ['https://hooks.example.com/in'], /expected a string/);
    const r = await submit(strict, { query: 'cats', limit: 0, callback_url: 'https://hooks.example.com/in' }, { wait: false });
    expect(r.body.error.message).toMatch(/^params\.limit/);
  });

  it('a host that resolves to loopback at delivery is refused at connect time; nothing reaches it', async () => {
    const r = await submit(strict, { query: 'rebind', limit: 2, callback_url: `https://rebind.test:${receiver.port}/rebind` });
    expect(r.body.status).toBe('succeeded');
    const l = await until(async () => {
      const b = await log(strict, r.body.task_id);
      return b.deliveries[0]?.attempts.length ? b : undefined;
    });
    expect(l.deliveries[0]).toMatchObject({ state: 'pending', attempts: [{ n: 1, error: 'refused: the host resolves to a private, loopback or link-local address' }] });
    expect(l.deliveries[0].attempts[0].http_status).toBeUndefined();
    expect(receiver.at('/rebind')).toEqual([]);
  });
});

describe('delivery', () => {
  it('POSTs a small signed notification that the documented recipe verifies, without the items', async () => {
    const r = await submit(lab, { query: 'dogs', limit: 5, callback_url: receiver.url('/hook?team=a') });
    expect(r.body.result.count).toBe(5);
    const [got] = await receiver.count('/hook?team=a', 1);
    const id = r.body.task_id;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-crawler-event']).toBe('task.finished');
    expect(got.headers['x-crawler-delivery']).toBe(`wh_${id}_1`);
    expect(got.body).toEqual({ event: 'task.finished', task_id: id, status: 'succeeded', source: 'fake', action: 'search', attempts: 1, finished_at: r.body.finished_at, result_source: 'live', count: 5 });
    expect(WebhookNotificationSchema.safeParse(got.body).success).toBe(true);
    expect(got.raw.length).toBeLessThan(400);
    expect(got.raw.toString()).not.toContain('items');

    const secret = (await lab.api('/v1/webhooks/secret')).body;
    expect(secret).toMatchObject({ source: 'derived' });
    expect(secret.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const verify = documentedVerifier();
    const header = got.headers['x-crawler-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(secret.secret, header, got.raw)).toBe(true);
    // A changed byte, another secret, or a stale timestamp fails the recipe.
    expect(verify(secret.secret, header, Buffer.from(got.raw.toString().replace('"count":5', '"count":6')))).toBe(false);
    expect(verify('whsec_other', header, got.raw)).toBe(false);
    const t = Number(/t=(\d+)/.exec(header)![1]);
    const old = `t=${t - 600},v1=${createHmac('sha256', secret.secret).update(`${t - 600}.`).update(got.raw).digest('hex')}`;
    expect(verify(secret.secret, old, got.raw)).toBe(false);

    const l = await settled(lab, id);
    expect(l).toMatchObject({ task_id: id, deliveries: [{ delivery_id: `wh_${id}_1`, event: 'task.finished', attempt: 1, url: receiver.url('/hook?team=a'), state: 'delivered' }] });
    expect(l.deliveries[0].attempts).toEqual([{ n: 1, at: expect.any(String), http_status: 200, ms: expect.any(Number) }]);
    expect(JSON.stringify(l)).not.toContain(secret.secret);
  });

  it('answers, log and notification match the OpenAPI document; the CLI prints the same secret', async () => {
    const doc = (await lab.api('/v1/openapi.json', { token: null })).body as OpenApiDocument;
    const check = schemaChecker(doc);
    const r = await submit(lab, { query: 'documented', limit: 2, callback_url: receiver.url('/documented') });
    const [got] = await receiver.count('/documented', 1);
    expect(check.component('WebhookNotification', got.body)).toEqual([]);
    const l = await settled(lab, r.body.task_id);
    expect(check.response('GET', `/v1/tasks/${r.body.task_id}/webhooks`, 200, l)).toEqual([]);
    const secret = await lab.api('/v1/webhooks/secret');
    expect(check.response('GET', '/v1/webhooks/secret', 200, secret.body)).toEqual([]);
    expect(secret.headers.get('cache-control')).toBe('no-store');
    expect(doc.webhooks?.['task.finished']?.post?.requestBody?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WebhookNotification' });
    const printed = await cli(['webhooks', 'secret'], { CRAWLER_DATA_DIR: lab.dataDir });
    expect(printed.code).toBe(0);
    expect(printed.stdout.trim()).toBe(secret.body.secret);
    expect(webhookSecret({ dataDir: lab.dataDir, webhookSecret: 'a-receiver-chosen-secret' })).toBe('a-receiver-chosen-secret');
  });

  it('the secret is for admins only, and the delivery log for the task owner (or an admin)', async () => {
    const reader = await lab.token(['read']);
    expect((await lab.api('/v1/webhooks/secret', { token: reader })).status).toBe(403);
    const mine = await submit(lab, { query: 'owned', limit: 1, callback_url: receiver.url('/owned') }, { token: reader });
    await receiver.count('/owned', 1);
    expect((await lab.api(`/v1/tasks/${mine.body.task_id}/webhooks`, { token: reader })).status).toBe(200);
    const other = await lab.token(['read']);
    const theirs = await lab.api(`/v1/tasks/${mine.body.task_id}/webhooks`, { token: other });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await lab.api(`/v1/tasks/${mine.body.task_id}/webhooks`)).status).toBe(200);
    expect((await lab.api('/v1/tasks/nope/webhooks')).status).toBe(404);
    expect((await lab.api(`/v1/tasks/${'x'.repeat(5000)}/webhooks`)).status).toBe(404);
    expect((await lab.api(`/v1/tasks/${mine.body.task_id}/webhooks`, { token: null })).status).toBe(401);
    // A task without a callback_url has an empty log.
    const plain = await submit(lab, { query: 'plain', limit: 1 });
    expect(await log(lab, plain.body.task_id)).toEqual({ task_id: plain.body.task_id, deliveries: [] });
  });

  it('a task answered from the cache notifies, and callback_url is not part of the cache key', async () => {
    const first = await submit(lab, { query: 'cached', limit: 3 });
    const hit = await submit(lab, { query: 'cached', limit: 3, callback_url: receiver.url('/cached') });
    expect(first.body.result.source).toBe('live');
    expect(hit.body.result.source).toBe('cache');
    const [got] = await receiver.count('/cached', 1);
    expect(got.body).toMatchObject({ task_id: hit.body.task_id, status: 'succeeded', result_source: 'cache', count: 3, attempts: 1 });
  });

  it('a cancelled task notifies, and its retry notifies again for the new attempt', async () => {
    const r = await submit(lab, { query: 'slow', callback_url: receiver.url('/cancelled') }, { wait: false });
    const id = r.body.task_id;
    await until(() => fake.hanging > 0);
    expect((await lab.api(`/v1/tasks/${id}/cancel`, { method: 'POST' })).body.status).toBe('cancelled');
    const [first] = await receiver.count('/cancelled', 1);
    expect(first.body).toEqual({ event: 'task.finished', task_id: id, status: 'cancelled', source: 'fake', action: 'search', attempts: 1, finished_at: expect.any(String) });
    await until(() => fake.hanging === 0);
    expect((await lab.api(`/v1/tasks/${id}/retry`, { method: 'POST' })).body.attempts).toBe(2);
    await until(() => fake.hanging > 0);
    await lab.api(`/v1/tasks/${id}`, { method: 'DELETE' });
    const both = await receiver.count('/cancelled', 2);
    expect(both[1].body).toMatchObject({ task_id: id, status: 'cancelled', attempts: 2 });
    expect(both[1].headers['x-crawler-delivery']).toBe(`wh_${id}_2`);
    expect((await settled(lab, id, 2)).deliveries.map((d: { attempt: number; state: string }) => [d.attempt, d.state])).toEqual([
      [1, 'delivered'],
      [2, 'delivered'],
    ]);
  });

  it('a failed crawl and a write notify too', async () => {
    const failed = await submit(lab, { query: 'boom', callback_url: receiver.url('/boom') });
    const [got] = await receiver.count('/boom', 1);
    expect(got.body.task_id).toBe(failed.body.task_id);
    expect(got.body.error).toEqual(failed.body.status === 'failed' ? failed.body.error : failed.body.result.error);
    const write = await submit(lab, { text: 'hello', dry_run: true, callback_url: receiver.url('/write') }, { action: 'post.create' });
    expect(write.body.status).toBe('succeeded');
    const [w] = await receiver.count('/write', 1);
    expect(w.body).toMatchObject({ task_id: write.body.task_id, action: 'post.create', status: 'succeeded' });
  });

  it('a redirect is never followed: the 3xx is a failed attempt, retried later', async () => {
    const r = await submit(lab, { query: 'moved', limit: 1, callback_url: receiver.url('/moved') });
    await receiver.count('/moved', 1);
    const l = await until(async () => {
      const b = await log(lab, r.body.task_id);
      return b.deliveries[0]?.attempts.length ? b : undefined;
    });
    expect(l.deliveries[0]).toMatchObject({ state: 'pending', attempts: [{ n: 1, http_status: 302, error: 'a redirect is never followed: give the final URL' }] });
    expect(receiver.at('/elsewhere')).toEqual([]);
  });

  it('retries with backoff until a 2xx (500, 500, then 200), at least once, same delivery id', async () => {
    const r = await submit(lab, { query: 'flaky', limit: 1, callback_url: receiver.url('/flaky') });
    const id = r.body.task_id;
    await receiver.count('/flaky', 1);
    const pending = await until(async () => {
      const b = await log(lab, id);
      return b.deliveries[0]?.attempts.length === 1 ? b.deliveries[0] : undefined;
    });
    const firstAt = Date.parse(pending.attempts[0].at);
    // The first retry waits 10 s ± 20 %: nothing more is sent until the clock gets there.
    expect(Date.parse(pending.next_at) - firstAt).toBeGreaterThanOrEqual(8000);
    expect(Date.parse(pending.next_at) - firstAt).toBeLessThanOrEqual(12_000);
    ahead += 12_500;
    await receiver.count('/flaky', 2);
    const second = await until(async () => {
      const d = (await log(lab, id)).deliveries[0];
      return d.attempts.length === 2 ? d : undefined;
    });
    // Then 30 s ± 20 %.
    const gap = Date.parse(second.next_at) - Date.parse(second.attempts[1].at);
    expect(gap).toBeGreaterThanOrEqual(24_000);
    expect(gap).toBeLessThanOrEqual(36_000);
    ahead += 36_500;
    const all = await receiver.count('/flaky', 3);
    expect(new Set(all.map((x) => x.headers['x-crawler-delivery']))).toEqual(new Set([`wh_${id}_1`]));
    const done = (await settled(lab, id)).deliveries[0];
    expect(done.state).toBe('delivered');
    expect(done.attempts.map((a: { n: number; http_status: number }) => [a.n, a.http_status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('gives up 24 h after the first attempt, and /metrics counts every outcome', async () => {
    const r = await submit(lab, { query: 'down', limit: 1, callback_url: receiver.url('/down') });
    await receiver.count('/down', 1);
    ahead += 25 * 3600_000;
    const l = await settled(lab, r.body.task_id);
    expect(l.deliveries[0].state).toBe('given_up');
    expect(l.deliveries[0].attempts.map((a: { http_status: number }) => a.http_status)).toEqual([503, 503]);
    expect(l.deliveries[0].done_at).toBeDefined();
    const metrics = (await lab.api('/metrics')).text;
    const count = (outcome: string) => Number(new RegExp(`crawler_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
    expect(count('ok')).toBeGreaterThanOrEqual(6);
    expect(count('failed')).toBeGreaterThanOrEqual(4);
    expect(count('given_up')).toBeGreaterThanOrEqual(1);
  });
});
