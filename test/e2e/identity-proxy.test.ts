import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCdn, type FakeCdn } from '../helpers/fake-cdn.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { deadPort, startHttpProxy, startSocks5Proxy, type TestProxy } from '../helpers/proxies.js';
import { startService, type Running } from '../helpers/service.js';
import type { PlatformAdapter } from '../../src/platforms/types.js';

/**
 * Identities against the real service (live mode, loopback): a fake platform, a fake CDN, an HTTP proxy
 * with Basic auth and a SOCKS5 server with username/password, each counting what passed through it.
 */
const HTTP_PASS = 'pw-Http-71x';
const SOCKS_PASS = 'pw-Socks-93q';
const DNS: Record<string, string[]> = { 'cdn.fake.test': ['127.0.0.1'], 'intranet.fake.test': ['10.20.30.40'], 'router.fake.test': ['192.168.1.1'] };

let fake: FakePlatform;
let cdn: FakeCdn;
let httpProxy: TestProxy;
let socks: TestProxy;
let s: Running;
const logLines: string[] = [];

/** A platform whose requests name hosts (not loopback literals) and which mints a guest token first. */
function namedHostAdapter(port: number): PlatformAdapter {
  return {
    id: 'named',
    name: 'Named',
    region: 'global',
    auth: 'none',
    hosts: ['.fake.test'],
    mediaHosts: [],
    minGapMs: 0,
    authorUrl: () => undefined,
    actions: {
      search: {
        shape: 'items',
        summary: 'search a named host',
        params: [{ name: 'query', type: 'string', required: true, description: 'host to crawl' }],
        async page(ctx, params) {
          const res = await ctx.http.request({ url: `http://${params.query as string}:${port}/search`, query: { q: 'x' } });
          return { items: [], next_cursor: res.status === 200 ? undefined : undefined };
        },
      },
    },
  };
}

/** A platform that mints a guest token (a request of its own) before each crawl. */
function guestAdapter(base: string): PlatformAdapter {
  return {
    id: 'guesty',
    name: 'Guesty',
    region: 'global',
    auth: 'none',
    hosts: ['127.0.0.1'],
    mediaHosts: [],
    minGapMs: 0,
    authorUrl: () => undefined,
    actions: {
      search: {
        shape: 'items',
        summary: 'search with a minted guest token',
        params: [{ name: 'query', type: 'string', required: true, description: 'keyword' }],
        async page(ctx, params) {
          if (!ctx.guest.get('token')) {
            await ctx.http.request({ url: `${base}/trends`, query: { mint: 'guest' } });
            ctx.guest.set('token', 'minted');
          }
          await ctx.http.request({ url: `${base}/search`, query: { q: params.query as string } });
          return { items: [] };
        },
      },
    },
  };
}

beforeAll(async () => {
  cdn = await startFakeCdn();
  fake = await startFakePlatform('fake', { base: cdn.base, ttlMs: 60_000 });
  httpProxy = await startHttpProxy({ user: 'crawler', pass: HTTP_PASS }, { 'cdn.fake.test': '127.0.0.1' });
  socks = await startSocks5Proxy({ user: 'sox', pass: SOCKS_PASS });
  const { default: pino } = await import('pino');
  s = await startService({
    adapters: [fake.adapter, namedHostAdapter(Number(new URL(fake.url).port)), guestAdapter(fake.url)],
    media: {
      resolve: async (host) => (DNS[host] ?? []).map((address) => ({ address, family: 4 })),
      allowAddress: (a) => a === '127.0.0.1',
      extraPorts: [cdn.port],
    },
    egress: {
      resolve: async (host) => (DNS[host] ?? []).map((address) => ({ address, family: 4 })),
      allowAddress: (a) => a === '127.0.0.1',
      connectTimeoutMs: 2000,
    },
    logger: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }),
  });
  for (const [name, proxy] of [
    ['viahttp', httpProxy.url],
    ['viasocks', socks.url],
  ] as const) {
    const r = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name, cookies: `SESSION=${name}`, proxy } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  expect((await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'direct', cookies: 'SESSION=direct' } })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await cdn?.close();
  await httpProxy?.close();
  await socks?.close();
});

const crawl = async (params: Record<string, unknown>, source = 'fake') => (await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source, action: 'search', params } })).body;

/** Requests of one crawl, as the platform saw them and as each proxy saw them. */
async function through(params: Record<string, unknown>) {
  const [h0, p0, s0] = [fake.hits.length, httpProxy.seen.length, socks.seen.length];
  const task = await crawl(params);
  expect(task.status, JSON.stringify(task)).toBe('succeeded');
  const origin = new URL(fake.url).host;
  const norm = (l: string) => l.replace(`http://${origin}`, '');
  return { task, platform: fake.hits.slice(h0), http: httpProxy.seen.slice(p0).map(norm), socks: socks.seen.slice(s0).map(norm) };
}

describe('a profile bound to a proxy', () => {
  it('sends every request of an http-proxied profile through its proxy, and none through the other', async () => {
    const r = await through({ query: 'one', profile: 'viahttp', limit: 20, force: true });
    expect(r.task.result.ok).toBe(true);
    expect(r.platform.length).toBeGreaterThanOrEqual(2);
    expect(r.http).toEqual(r.platform);
    expect(r.socks).toEqual([]);
  });

  it('sends every request of a socks5 profile (username/password) through the SOCKS server only', async () => {
    const r = await through({ query: 'two', profile: 'viasocks', limit: 20, force: true });
    expect(r.task.result.ok).toBe(true);
    expect(r.platform.length).toBeGreaterThanOrEqual(2);
    expect(r.socks).toEqual(r.platform);
    expect(r.http).toEqual([]);
  });

  it('sends a direct profile straight to the platform', async () => {
    const r = await through({ query: 'three', profile: 'direct', force: true });
    expect(r.platform.length).toBeGreaterThanOrEqual(1);
    expect(r.http).toEqual([]);
    expect(r.socks).toEqual([]);
  });

  it('mints guest state through the same proxy', async () => {
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'guesty', name: 'g1', proxy: socks.url } });
    const s0 = socks.seen.length;
    const task = await crawl({ query: 'guest', profile: 'g1', force: true }, 'guesty');
    expect(task.status).toBe('succeeded');
    const seen = socks.seen.slice(s0).map((l) => new URL(l.split(' ')[1]).pathname);
    expect(seen).toEqual(['/trends', '/search']);
  });

  it('fetches the media of a proxied profile (images by the crawl that found them, videos by their profile) through its proxy', async () => {
    const r = await through({ query: 'media', profile: 'viahttp', force: true });
    const item = r.task.result.items.find((i: { media: Array<{ kind: string }> }) => i.media[0].kind === 'image');
    const image = item.media[0].url as string;
    const proxied = image.startsWith('/') ? image : new URL(image).pathname + new URL(image).search;
    const p0 = httpProxy.seen.length;
    const c0 = cdn.requests.length;
    const img = await fetch(`${s.base}${proxied}`);
    expect(img.status).toBe(200);
    await img.arrayBuffer();
    expect(cdn.requests.length).toBe(c0 + 1);
    expect(httpProxy.seen.slice(p0)).toEqual([`GET ${cdn.base}${cdn.requests[c0].path}`]);
    const v0 = httpProxy.seen.length;
    const video = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(`${cdn.base}/v.mp4`)}&kind=video&platform=fake&profile=viahttp`, { headers: { authorization: `Bearer ${await s.token(['read'])}` } });
    expect(video.status).toBe(200);
    await video.arrayBuffer();
    expect(httpProxy.seen.slice(v0)).toEqual([`GET ${cdn.base}/v.mp4`]);
    const d0 = httpProxy.seen.length;
    const direct = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(`${cdn.base}/v.mp4`)}&kind=video&platform=fake&profile=direct`, { headers: { authorization: `Bearer ${await s.token(['read'])}` } });
    expect(direct.status).toBe(200);
    await direct.arrayBuffer();
    expect(httpProxy.seen.length).toBe(d0);
  });

  it('lists proxies masked, egress ids and rates; never a credential, in answers or logs', async () => {
    const list = await s.api('/v1/profiles');
    const by = Object.fromEntries(list.body.profiles.map((p: { name: string }) => [p.name, p]));
    expect(by.viahttp).toMatchObject({ proxy: `http://***@127.0.0.1:${httpProxy.port}`, egress: expect.stringMatching(/^px-[0-9a-f]{12}$/), pool: null });
    expect(by.viasocks).toMatchObject({ proxy: `socks5://***@127.0.0.1:${socks.port}`, egress: expect.stringMatching(/^px-/) });
    expect(by.direct).toMatchObject({ egress: 'direct' });
    expect(by.direct.proxy).toBeUndefined();
    expect(by.viahttp.egress).not.toBe(by.viasocks.egress);
    expect(by.viahttp.tasks_1h).toBeGreaterThanOrEqual(2);
    expect(by.viahttp.success_rate_1h).toBe(1);
    expect(by.viahttp.block_rate_1h).toBe(0);
    expect(list.text).not.toContain(HTTP_PASS);
    expect(list.text).not.toContain(SOCKS_PASS);
  });

  it('keeps the login when only the proxy changes, and removes the proxy with null', async () => {
    const r = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'direct', proxy: httpProxy.url } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ cookies: ['SESSION'], proxy: `http://***@127.0.0.1:${httpProxy.port}` });
    expect(r.text).not.toContain(HTTP_PASS);
    const off = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'direct', proxy: null } });
    expect(off.body).toMatchObject({ cookies: ['SESSION'], egress: 'direct' });
    expect(off.body.proxy).toBeUndefined();
  });

  it('refuses bad proxy values with 400 and a message that never repeats them', async () => {
    const bad: unknown[] = [
      'ftp://u:LEAKME@127.0.0.1:21',
      'socks4://u:LEAKME@127.0.0.1:1080',
      'http://u:LEAKME@127.0.0.1',
      'http://u:LEAKME@127.0.0.1:0',
      'http://u:LEAKME@127.0.0.1:70000',
      'http://u:LEAKME@127.0.0.1:8080/path',
      'http://u:LEAKME@127.0.0.1:8080/?x=1',
      'http://:LEAKME@127.0.0.1:8080',
      'not a url LEAKME',
      'http://bad_host!:80',
      '',
      42,
      { url: 'http://127.0.0.1:1' },
      ['http://127.0.0.1:1'],
      `http://${'a'.repeat(3000)}:1`,
    ];
    for (const proxy of bad) {
      const r = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'badproxy', cookies: 'a=1', proxy } });
      expect(r.status, JSON.stringify(proxy)).toBe(400);
      expect(r.body.ok).toBe(false);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.message).toMatch(/proxy/);
      expect(r.text).not.toContain('LEAKME');
    }
    for (const pool of ['', 'has space', 'x'.repeat(65), 7]) {
      const r = await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'badpool', cookies: 'a=1', pool } });
      expect(r.status, JSON.stringify(pool)).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
    expect((await s.api('/v1/profiles')).body.profiles.map((p: { name: string }) => p.name)).not.toContain('badproxy');
  });

  it('a dead proxy fails the task as a retryable upstream_error naming the proxy, and cools the profile', async () => {
    const port = await deadPort();
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'deadend', cookies: 'SESSION=d', proxy: `socks5://who:DEADPASS@127.0.0.1:${port}` } });
    const h0 = fake.hits.length;
    const task = await crawl({ query: 'dead', profile: 'deadend', force: true });
    expect(task.result.ok).toBe(false);
    expect(task.result.error).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(task.result.error.message).toContain(`proxy socks5://***@127.0.0.1:${port}`);
    expect(task.result.error.message).toMatch(/refused/);
    expect(JSON.stringify(task)).not.toContain('DEADPASS');
    expect(fake.hits.length).toBe(h0);
    const p = (await s.api('/v1/profiles')).body.profiles.find((x: { name: string }) => x.name === 'deadend');
    expect(p.health).toBe('cooling');
    expect(p.block_rate_1h).toBe(1);
  });

  it('a proxy that refuses the credentials is a proxy failure too', async () => {
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'wrongpw', cookies: 'SESSION=w', proxy: `http://crawler:NOTIT@127.0.0.1:${httpProxy.port}` } });
    const refused = httpProxy.refused;
    const task = await crawl({ query: 'wrongpw', profile: 'wrongpw', force: true });
    expect(task.result.error).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(task.result.error.message).toMatch(/proxy http:\/\/\*\*\*@127\.0\.0\.1:\d+: .*(credentials|407)/);
    expect(httpProxy.refused).toBeGreaterThan(refused);
    expect((await s.api('/v1/profiles')).body.profiles.find((x: { name: string }) => x.name === 'wrongpw').health).toBe('cooling');
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'wrongsocks', cookies: 'SESSION=w', proxy: `socks5://sox:NOTIT@127.0.0.1:${socks.port}` } });
    const socksRefused = socks.refused;
    const viaSocks = await crawl({ query: 'wrongsocks', profile: 'wrongsocks', force: true });
    expect(viaSocks.result.error).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(viaSocks.result.error.message).toContain(`proxy socks5://***@127.0.0.1:${socks.port}: `);
    expect(viaSocks.result.error.message).toMatch(/refused its credentials/);
    expect(socks.refused).toBeGreaterThan(socksRefused);
    expect((await s.api('/v1/profiles')).body.profiles.find((x: { name: string }) => x.name === 'wrongsocks').health).toBe('cooling');
  });

  it('judges the final target through a proxy: private addresses (by name or literal) are refused before anything is sent', async () => {
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'named', name: 'px', proxy: httpProxy.url } });
    for (const host of ['intranet.fake.test', 'router.fake.test', '10.9.8.7', 'nowhere.fake.test']) {
      const p0 = httpProxy.seen.length;
      const task = await crawl({ query: host, profile: 'px', force: true }, 'named');
      expect(task.result.ok, host).toBe(false);
      expect(task.result.error.code).toBe('upstream_error');
      expect(task.result.error.message).toMatch(/private or reserved|does not resolve/);
      expect(httpProxy.seen.length, host).toBe(p0);
    }
    // Refused targets are the caller's doing, not the proxy's: the profile does not cool.
    expect((await s.api('/v1/profiles')).body.profiles.find((x: { name: string }) => x.name === 'px').health).not.toBe('cooling');
  });

  it('never wrote a proxy credential to a log line (debug level, after every case above)', () => {
    expect(logLines.length).toBeGreaterThan(0);
    const all = logLines.join('\n');
    for (const secret of [HTTP_PASS, SOCKS_PASS, 'DEADPASS', 'NOTIT', 'LEAKME']) expect(all).not.toContain(secret);
  });
});
