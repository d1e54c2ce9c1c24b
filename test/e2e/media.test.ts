import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCdn, type FakeCdn } from '../helpers/fake-cdn.js';
import { urlHash } from '../../src/media/refs.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { mediaFiles } from '../helpers/media-files.js';
import { startService, type Running } from '../helpers/service.js';

/**
 * The media proxy against a real CDN on loopback. cdn.fake.test resolves to 127.0.0.1 (allowed for
 * the test); rebind.fake.test resolves to 127.0.0.2, where a listener counts any connection that
 * should never happen; every other forbidden address is refused before a socket exists.
 */
let cdn: FakeCdn;
let other: FakeCdn;
let fake: FakePlatform;
let s: Running;
let trap: Server;
let trapPort = 0;
let trapConnections = 0;
const refused: string[] = [];
const DNS: Record<string, string[]> = {
  'cdn.fake.test': ['127.0.0.1'],
  'rebind.fake.test': ['127.0.0.2'],
  'meta.fake.test': ['169.254.169.254'],
  'mixed.fake.test': ['93.184.216.34', '10.0.0.1'],
  'v6.fake.test': ['::1'],
  'mapped.fake.test': ['::ffff:127.0.0.1'],
};

beforeAll(async () => {
  mediaFiles();
  cdn = await startFakeCdn();
  other = await startFakeCdn('media.elsewhere.test');
  trap = createServer((sock) => {
    trapConnections++;
    sock.destroy();
  });
  await new Promise<void>((r) => trap.listen(0, '127.0.0.2', r));
  trapPort = (trap.address() as { port: number }).port;
  fake = await startFakePlatform('fake', { base: cdn.base, ttlMs: 60_000 });
  fake.adapter.mediaHosts.push('.fake.test');
  s = await startService({
    adapters: [fake.adapter],
    config: { mediaMaxImageBytes: 1024 * 1024, mediaMaxVideoBytes: 4 * 1024 * 1024 },
    media: {
      resolve: async (host) => (DNS[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      allowAddress: (a) => a === '127.0.0.1',
      extraPorts: [cdn.port, trapPort, other.port],
      headersTimeoutMs: 1500,
      onRefused: (host, address) => refused.push(`${host}=${address}`),
    },
  });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await cdn?.close();
  await other?.close();
  await new Promise((r) => trap?.close(r));
});

const media = (u: string, init: RequestInit & { token?: string | null; extra?: string } = {}) =>
  s.api(`/v1/media?u=${encodeURIComponent(u)}${init.extra ?? ''}`, { token: null, ...init });

async function raw(u: string, headers: Record<string, string> = {}, method = 'GET', extra = '') {
  const res = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(u)}${extra}`, { headers, method });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe('GET /v1/media', () => {
  it('streams an allowlisted image with the CDN headers, the platform Referer and safe headers of its own', async () => {
    const r = await raw(`${cdn.base}/img.jpg`);
    expect(r.status).toBe(200);
    expect(r.body.equals(mediaFiles().jpg)).toBe(true);
    expect(r.headers.get('content-type')).toBe('image/jpeg');
    expect(r.headers.get('content-length')).toBe(String(mediaFiles().jpg.length));
    expect(r.headers.get('etag')).toMatch(/^"v1-/);
    expect(r.headers.get('last-modified')).toBeTruthy();
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(r.headers.get('cache-control')).toMatch(/max-age/);
    expect(cdn.requests.at(-1)?.referer).toBe('https://fake.test/');
  });

  it('passes Range through (206 with Content-Range, 416 when unsatisfiable), HEAD and conditional requests', async () => {
    const part = await raw(`${cdn.base}/img.jpg`, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${mediaFiles().jpg.length}`);
    expect(part.body.equals(mediaFiles().jpg.subarray(100, 200))).toBe(true);
    const bad = await raw(`${cdn.base}/img.jpg`, { range: 'bytes=99999999-' });
    expect(bad.status).toBe(416);
    const head = await raw(`${cdn.base}/img.jpg`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(mediaFiles().jpg.length));
    expect(cdn.requests.at(-1)?.method).toBe('HEAD');
    const etag = head.headers.get('etag')!;
    const notModified = await raw(`${cdn.base}/img.jpg`, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
  });

  it('serves the whole file for a Range it will not pass on (several ranges, backwards), never a 502', async () => {
    for (const range of ['bytes=5-1', 'bytes=0-1,5-6', `bytes=${Array.from({ length: 300 }, (_, i) => `${i}-${i}`).join(',')}`]) {
      const r = await raw(`${cdn.base}/img.jpg`, { range });
      expect(r.status, range).toBe(200);
      expect(r.body.equals(mediaFiles().jpg), range).toBe(true);
      expect(cdn.requests.at(-1)?.range, range).toBeUndefined();
    }
    const suffix = await raw(`${cdn.base}/img.jpg`, { range: 'bytes=-100' });
    expect(suffix.status).toBe(206);
    expect(suffix.body.equals(mediaFiles().jpg.subarray(-100))).toBe(true);
  });

  it('needs a read token for the video variant, and then streams video', async () => {
    const extra = '&kind=video&platform=fake&profile=default';
    expect((await media(`${cdn.base}/v.mp4`, { extra })).status).toBe(401);
    const token = await s.token(['read']);
    const r = await raw(`${cdn.base}/v.mp4`, { authorization: `Bearer ${token}`, range: 'bytes=0-1023' }, 'GET', extra);
    expect(r.status).toBe(206);
    expect(r.headers.get('content-type')).toBe('video/mp4');
    expect(r.body.length).toBe(1024);
    const octet = await raw(`${cdn.base}/octet.bin`, { authorization: `Bearer ${token}` }, 'GET', extra);
    expect(octet.status).toBe(200);
    // The image variant refuses video bytes and octet-streams.
    expect((await media(`${cdn.base}/v.mp4`)).status).toBe(502);
    expect((await media(`${cdn.base}/octet.bin`)).status).toBe(502);
  });

  it('refuses non-media content types, oversize bodies, and slow origins with the right codes', async () => {
    const html = await media(`${cdn.base}/page.html`);
    expect(html.status).toBe(502);
    expect(html.body.error.code).toBe('upstream_error');
    // Bytes labelled only as bytes: a media file name says what they are; other names stay refused.
    const jpg = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(`${cdn.base}/unlabelled.jpg`)}`);
    expect(jpg.status).toBe(200);
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await jpg.arrayBuffer()).equals(mediaFiles().jpg)).toBe(true);
    expect((await media(`${cdn.base}/octet.bin`)).status).toBe(502);
    expect((await media(`${cdn.base}/unlabelled.mp4`)).status).toBe(502);
    const mp4 = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(`${cdn.base}/unlabelled.mp4`)}&kind=video&platform=fake`, { method: 'HEAD', headers: { authorization: `Bearer ${await s.token(['read'])}` } });
    expect(mp4.status).toBe(200);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    const token = await s.token(['read']);
    const extra = '&kind=video&platform=fake';
    const big = await media(`${cdn.base}/big?mb=8`, { token, extra });
    expect(big.status).toBe(502);
    expect(big.body.error.message).toMatch(/cap/);
    // No Content-Length: the cap cuts the stream.
    const chunked = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(`${cdn.base}/chunked?mb=8`)}${extra}`, { headers: { authorization: `Bearer ${token}` } });
    let got = 0;
    await expect(
      (async () => {
        for await (const c of chunked.body as unknown as AsyncIterable<Uint8Array>) got += c.length;
      })(),
    ).rejects.toThrow();
    expect(got).toBeLessThanOrEqual(4 * 1024 * 1024 + 128 * 1024);
    const slow = await media(`${cdn.base}/slow?ms=4000`);
    expect(slow.status).toBe(504);
    expect(slow.body.error.code).toBe('timeout');
  });

  it('follows at most 3 redirects, re-checking each target', async () => {
    const ok = await raw(`${cdn.base}/redirect?hops=3&to=/img.jpg`);
    expect(ok.status).toBe(200);
    const many = await media(`${cdn.base}/redirect?hops=4&to=/img.jpg`);
    expect(many.status).toBe(502);
    expect(many.body.error.message).toMatch(/redirects/);
    const before = trapConnections;
    for (const to of [`http://127.0.0.2:${trapPort}/x`, `http://rebind.fake.test:${trapPort}/x`, 'http://example.com/x.jpg', `http://127.1:${trapPort}/`]) {
      const r = await media(`${cdn.base}/redirect?to=${encodeURIComponent(to)}`);
      expect(r.status, to).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
    expect(trapConnections).toBe(before);
  });
});

describe('SSRF battery', () => {
  const forbidden = () => [
    `http://127.0.0.1:${cdn.port}/img.jpg`,
    `http://127.1:${cdn.port}/img.jpg`,
    `http://2130706433:${cdn.port}/img.jpg`,
    `http://0x7f.1:${cdn.port}/img.jpg`,
    `http://017700000001:${cdn.port}/img.jpg`,
    `http://[::1]:${cdn.port}/img.jpg`,
    `http://[::ffff:127.0.0.1]:${cdn.port}/img.jpg`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/x.jpg',
    'http://100.64.0.1/x.jpg',
    'http://0.0.0.0/x.jpg',
    'http://[fc00::1]/x.jpg',
    `http://localhost:${cdn.port}/img.jpg`,
    `http://user:pass@cdn.fake.test:${cdn.port}/img.jpg`,
    `http://cdn.fake.test:22/img.jpg`,
    'ftp://cdn.fake.test/img.jpg',
    'file:///etc/passwd',
    'gopher://cdn.fake.test/',
    'not a url',
    'https://example.com/img.jpg',
    `http://rebind.fake.test:${trapPort}/img.jpg`,
    'http://meta.fake.test/latest/meta-data/',
    'http://mixed.fake.test/x.jpg',
    'http://v6.fake.test/x.jpg',
    'http://mapped.fake.test/x.jpg',
  ];

  it('refuses every forbidden target with 400 invalid_request and makes no connection', async () => {
    const cdnBefore = cdn.connections;
    const trapBefore = trapConnections;
    for (const u of forbidden()) {
      const r = await media(u);
      expect(r.status, u).toBe(400);
      expect(r.body.error.code, u).toBe('invalid_request');
      expect(r.body.error.retryable, u).toBe(false);
    }
    expect(cdn.connections).toBe(cdnBefore);
    expect(trapConnections).toBe(trapBefore);
    // The DNS-based cases were stopped by the connect-time check, on the address itself.
    expect(refused).toEqual(expect.arrayContaining(['rebind.fake.test=127.0.0.2', 'meta.fake.test=169.254.169.254', 'mixed.fake.test=10.0.0.1', 'v6.fake.test=::1', 'mapped.fake.test=::ffff:127.0.0.1']));
  });

  it('allows only GET and HEAD, and needs u', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const r = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(`${cdn.base}/img.jpg`)}`, { method });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('GET, HEAD');
    }
    expect((await s.api('/v1/media', { token: null })).status).toBe(400);
    expect((await s.api('/v1/media?u=a&u=b', { token: null })).status).toBe(400);
  });
});

describe('expired origin URLs', () => {
  let short: FakePlatform;
  let svc: Running;
  beforeAll(async () => {
    short = await startFakePlatform('fake', { base: cdn.base, ttlMs: 400 });
    svc = await startService({
      adapters: [short.adapter],
      media: { resolve: async (host) => (DNS[host] ?? []).map((address) => ({ address, family: 4 })), allowAddress: (a) => a === '127.0.0.1', extraPorts: [cdn.port] },
    });
  });
  afterAll(async () => {
    await svc?.close();
    await short?.close();
  });

  it('re-resolves the item behind an expired URL and serves the fresh one; the caller URL keeps working', async () => {
    const crawl = await svc.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'expiring', limit: 3 } } });
    const item = crawl.body.result.items.find((i: any) => i.type === 'video');
    expect(item.media[0].url).toMatch(/^\/v1\/media\?u=.*signed.*&kind=video&platform=fake&profile=default&exp=\d+&sig=[\w-]+$/);
    const token = await svc.token(['read']);
    await new Promise((r) => setTimeout(r, 500));
    const detailsBefore = short.hits.filter((h) => h.startsWith('GET /detail')).length;
    const fresh = await fetch(`${svc.base}${item.media[0].url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(fresh.status).toBe(200);
    expect(Buffer.from(await fresh.arrayBuffer()).equals(mediaFiles().mp4)).toBe(true);
    expect(short.hits.filter((h) => h.startsWith('GET /detail')).length).toBe(detailsBefore + 1);
    const signed = cdn.requests.filter((r) => r.path.startsWith('/signed/v.mp4'));
    expect(signed.length).toBeGreaterThanOrEqual(2);
    // The thumb too (a public image URL), through the same item.
    const thumb = await fetch(`${svc.base}${item.thumb}`);
    expect(thumb.status).toBe(200);
  });

  it('says why when the item cannot be re-resolved', async () => {
    const crawl = await svc.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'vanishing', limit: 3 } } });
    const item = crawl.body.result.items.find((i: any) => i.type === 'video');
    short.gone.add(item.id.split(':')[1]);
    await new Promise((r) => setTimeout(r, 500));
    const r = await svc.api(item.media[0].url);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', reason: 'expired' });
    const stranger = await svc.api(`/v1/media?u=${encodeURIComponent(cdn.signed('img.jpg', -1000))}`, { token: null });
    expect(stranger.status).toBe(502);
    expect(stranger.body.error).toMatchObject({ code: 'upstream_error', reason: 'expired' });
  });
});

describe('open-ended CDNs', () => {
  it('allows an undeclared host only for the exact URLs a crawl handed out', async () => {
    DNS['media.elsewhere.test'] = ['127.0.0.1'];
    {
      const url = `${other.base}/img.jpg`;
      expect((await media(url)).status).toBe(400);
      // A crawl hands it out: the service remembers where it came from.
      s.svc.store.mediaRefsPut([{ url_hash: urlHash(url), platform: 'fake', native_id: '1', slot: 'thumb', profile: 'default', url, kind: 'image' }], Date.now());
      const ok = await raw(url);
      expect(ok.status).toBe(200);
      expect((await media(`${other.base}/img.jpg?other=1`)).status).toBe(400);
    }
  });
});

describe('capability URLs for video (spec Authentication §7)', () => {
  const crawlVideo = async () => {
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'capability', limit: 6, force: true } } });
    return r.body.result.items.find((i: any) => i.type === 'video');
  };

  it('media[].url plays with no Authorization header, and carries an expiry at least 24 h away', async () => {
    const item = await crawlVideo();
    const url = new URL(item.media[0].url, s.base);
    expect(Number(url.searchParams.get('exp')) * 1000).toBeGreaterThan(Date.now() + 24 * 3600_000);
    const r = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect(r.status).toBe(206);
    expect((await r.arrayBuffer()).byteLength).toBe(100);
  });

  it('an altered u, platform, profile, exp or sig is 400 invalid_request with no origin connection', async () => {
    const item = await crawlVideo();
    const url = new URL(item.media[0].url, s.base);
    const variants: Array<[string, string]> = [
      ['u', `${cdn.base}/other.mp4`],
      ['platform', 'bilibili'],
      ['profile', 'someone'],
      ['exp', String(Number(url.searchParams.get('exp')) + 3600)],
      ['sig', 'AAAAAAAAAAAAAAAAAAAAAA'],
      ['sig', ''],
    ];
    const before = cdn.connections;
    for (const [name, value] of variants) {
      const altered = new URL(url);
      altered.searchParams.set(name, value);
      const r = await fetch(altered);
      const body = (await r.json()) as any;
      expect(r.status, name).toBe(400);
      expect(body.error.code, name).toBe('invalid_request');
    }
    expect(cdn.connections).toBe(before);
    // Without any signature the variant still needs a bearer token (callers building URLs themselves).
    const bare = new URL(url);
    bare.searchParams.delete('exp');
    bare.searchParams.delete('sig');
    expect((await fetch(bare)).status).toBe(401);
    expect((await fetch(bare, { headers: { authorization: `Bearer ${await s.token(['read'])}`, range: 'bytes=0-9' } })).status).toBe(206);
  });

  it('an expired capability is refused without an origin connection', async () => {
    const { MediaSigner } = await import('../../src/media/capability.js');
    const { serverKeys } = await import('../../src/auth/keys.js');
    const past = new MediaSigner(serverKeys(s.svc.config).media, () => Date.now() - 72 * 3600_000);
    const origin = `${cdn.base}/v.mp4`;
    const { exp, sig } = past.sign(origin, 'fake', 'default');
    const before = cdn.connections;
    const r = await fetch(`${s.base}/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=fake&profile=default&exp=${exp}&sig=${sig}`);
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.message).toMatch(/expired/);
    expect(cdn.connections).toBe(before);
  });

  it('a cache hit hands out URLs that are valid too', async () => {
    await crawlVideo();
    const hit = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'capability', limit: 6 } } });
    expect(hit.body.result.source).toBe('cache');
    const video = hit.body.result.items.find((i: any) => i.type === 'video');
    expect((await fetch(new URL(video.media[0].url, s.base), { headers: { range: 'bytes=0-9' } })).status).toBe(206);
  });
});

describe('refusals reveal no internal facts', () => {
  it('names the rule, never the address an allowlisted host resolved to', async () => {
    for (const host of ['rebind.fake.test', 'meta.fake.test', 'mixed.fake.test', 'v6.fake.test', 'mapped.fake.test']) {
      const r = await media(`http://${host}/x.jpg`);
      expect(r.status, host).toBe(400);
      expect(r.body.error.message, host).toMatch(/private or reserved address/);
      expect(r.body.error.message, host).not.toMatch(/127\.0\.0\.2|169\.254|10\.0\.0\.1|::1|::ffff/);
    }
  });
});
