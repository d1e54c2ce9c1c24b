import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyFor } from '../../src/media/guard.js';
import { MediaProxy, singleRange, type MediaRefresher } from '../../src/media/proxy.js';
import { safeAgent } from '../../src/media/safe-agent.js';
import type { PlatformAdapter } from '../../src/platforms/types.js';
import { startFakeCdn, type FakeCdn } from '../helpers/fake-cdn.js';
import { mediaFiles } from '../helpers/media-files.js';

describe('singleRange', () => {
  it('passes one well-formed byte range on, normalised', () => {
    expect(singleRange('bytes=0-1023')).toBe('bytes=0-1023');
    expect(singleRange(' bytes = 5 - ')).toBe('bytes=5-');
    expect(singleRange('bytes=-500')).toBe('bytes=-500');
    expect(singleRange('bytes=-0')).toBe('bytes=-0');
    expect(singleRange('BYTES=1-1')).toBe('bytes=1-1');
  });

  it('drops several ranges, backwards, empty, foreign-unit and oversized ones', () => {
    for (const h of [undefined, '', 'bytes=0-1,5-6', 'bytes=5-1', 'bytes=-', 'items=0-1', 'bytes=a-b', `bytes=0-${'9'.repeat(16)}`, `bytes=${Array.from({ length: 200 }, (_, i) => `${i}-${i}`).join(',')}`]) {
      expect(singleRange(h), String(h)).toBeUndefined();
    }
  });
});

describe('MediaProxy', () => {
  let cdn: FakeCdn;
  let origin: Server;
  let originPort = 0;
  const originHits: string[] = [];
  const adapter = { id: 'fake', mediaHosts: ['cdn.fake.test', 'o.fake.test'] } as unknown as PlatformAdapter;
  const make = (refresher?: MediaRefresher) =>
    new MediaProxy({
      policy: policyFor([adapter], new Set([cdn.port, originPort])),
      dispatcher: safeAgent({ resolve: async () => [{ address: '127.0.0.1', family: 4 }], allowAddress: (a) => a === '127.0.0.1' }),
      refresher,
      maxImageBytes: 1024 * 1024,
      maxVideoBytes: 4 * 1024 * 1024,
      headersTimeoutMs: 2000,
      userAgent: 'test',
    });

  beforeAll(async () => {
    mediaFiles();
    cdn = await startFakeCdn();
    origin = createServer((req, res) => {
      originHits.push(req.url ?? '');
      // A playlist the origin breaks off half-way.
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
      res.write('#EXTM3U\n#EXT-X-VERSION:3\n');
      setTimeout(() => res.destroy(), 30);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originPort = (origin.address() as { port: number }).port;
  });
  afterAll(async () => {
    await cdn?.close();
    origin?.closeAllConnections();
    await new Promise((r) => origin?.close(r));
  });

  it('sends no origin request for a caller that left during the refresh of an expired URL', async () => {
    const client = new AbortController();
    const fresh = `${cdn.base}/v.mp4?fresh=1`;
    const proxy = make({
      current: async () => undefined,
      refresh: async () => {
        client.abort();
        return { url: fresh };
      },
    });
    await expect(proxy.open({ u: cdn.signed('v.mp4', -1000), method: 'GET', video: { platform: 'fake' } }, client.signal)).rejects.toMatchObject({ code: 'upstream_error' });
    expect(cdn.requests.some((r) => r.path.includes('fresh=1'))).toBe(false);
  });

  it('answers upstream_error (not a bare error) when the origin breaks off a playlist', async () => {
    const proxy = make();
    const err = await proxy.open({ u: `http://o.fake.test:${originPort}/live.m3u8`, method: 'GET', video: { platform: 'fake' } }).catch((e) => e);
    expect(originHits).toContain('/live.m3u8');
    expect(err).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(err.message).toMatch(/playlist/);
  });

  it('asks the origin for the whole body when the caller sent several ranges', async () => {
    const proxy = make();
    const answer = await proxy.open({ u: `${cdn.base}/img.jpg`, method: 'GET', range: 'bytes=0-1,5-6' });
    const chunks: Buffer[] = [];
    for await (const c of answer.body!) chunks.push(c as Buffer);
    expect(answer.status).toBe(200);
    expect(Buffer.concat(chunks).equals(mediaFiles().jpg)).toBe(true);
    expect(cdn.requests.at(-1)?.range).toBeUndefined();
  });
});
