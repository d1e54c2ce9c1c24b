import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { Registry } from '../../src/platforms/registry.js';
import { douyinPost, douyinVideo } from '../helpers/douyin-download.js';
import { downloadMedia, mediaHar, type DownloadMedia } from '../helpers/media-har.js';
import { startService, until, type Running } from '../helpers/service.js';

/*
 * The store side of download: the LRU quota (pinned files spared, evicted files answer 404 saying so), size
 * caps, the CDN allowlist, and a transfer cut short: cancel leaves no partial file, a retry resumes with Range.
 */
let m: DownloadMedia;
let s: Running;
let origin: Server;
const slow = { mode: 'stall' as 'stall' | 'break' | 'whole' | 'no-range', ranges: [] as Array<string | undefined> };
const SLOW_TWO = '7500000000000000010';
const SLOW_ID = '7500000000000000009';
/** A real clip with padding after it (ffprobe reads the clip; the transfer has 500 KB to cut short). */
let big: Buffer;

/** Replay for every host but slow.douyinvod.com, which a loopback origin answers (it stalls or breaks mid-body). */
class SplitDispatcher extends Dispatcher {
  constructor(private readonly replay: Dispatcher, private readonly loop: Agent, private readonly port: number) {
    super();
  }
  dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const host = new URL(String(opts.origin)).hostname;
    if (host === 'slow.douyinvod.com') return this.loop.dispatch({ ...opts, origin: `http://127.0.0.1:${this.port}` }, handler);
    return this.replay.dispatch(opts, handler);
  }
}

function partFiles(): string[] {
  return readdirSync(join(s.dataDir, 'downloads-tmp'));
}

beforeAll(async () => {
  m = downloadMedia();
  big = Buffer.concat([m.progressiveLarge, Buffer.alloc(420 * 1024, 7)]);
  origin = createServer((req, res) => {
    slow.ranges.push(req.headers.range);
    const from = /^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1];
    if (from !== undefined && slow.mode === 'no-range') {
      res.writeHead(416, { 'content-range': `bytes */${big.length}` });
      return res.end();
    }
    if (from !== undefined) {
      res.writeHead(206, { 'content-type': 'video/mp4', 'content-range': `bytes ${from}-${big.length - 1}/${big.length}`, 'content-length': String(big.length - Number(from)) });
      return res.end(big.subarray(Number(from)));
    }
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(big.length), 'accept-ranges': 'bytes' });
    if (slow.mode === 'whole' || slow.mode === 'no-range') return res.end(big);
    res.write(big.subarray(0, 200 * 1024));
    // stall: the rest never comes (the cancel cuts it); break: the connection drops mid-body.
    if (slow.mode === 'break') setTimeout(() => res.destroy(), 50);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  const port = (origin.address() as AddressInfo).port;
  const har = mediaHar([
    ...douyinVideo('7500000000000000001', m),
    ...douyinPost('7500000000000000002', {
      aweme_type: 68,
      images: [{ url_list: ['https://p3-sign.douyinpic.com/q/1.jpeg'] }, { url_list: ['https://p3-sign.douyinpic.com/q/2.png'] }],
    }),
    { url: 'https://p3-sign.douyinpic.com/q/1.jpeg', body: m.jpeg, mime: 'image/jpeg' },
    { url: 'https://p3-sign.douyinpic.com/q/2.png', body: m.png, mime: 'image/png' },
    ...douyinPost('7500000000000000003', { aweme_type: 0, video: { play_addr: { url_list: ['https://evil.example.com/x.mp4'] } } }),
    ...douyinPost('7500000000000000004', { aweme_type: 68, images: [{ url_list: ['https://p3-sign.douyinpic.com/q/huge.jpeg'] }] }),
    { url: 'https://p3-sign.douyinpic.com/q/huge.jpeg', body: Buffer.concat([m.jpeg, Buffer.alloc(4096)]), mime: 'image/jpeg' },
    ...douyinPost(SLOW_ID, { aweme_type: 0, video: { play_addr: { url_list: ['http://slow.douyinvod.com/big.mp4'] } } }),
    ...douyinPost(SLOW_TWO, { aweme_type: 0, video: { play_addr: { url_list: ['http://slow.douyinvod.com/big.mp4?two'] } } }),
  ]);
  const registry = new Registry();
  const replay = new ReplayDispatcher({ recordings: loadRecordings([har]), rulesFor: (h) => registry.forHost(h)?.replay });
  s = await startService({
    config: { replay: [har], downloadMaxBytes: 100_000 },
    dispatcher: new SplitDispatcher(replay, new Agent(), port),
    download: { imageCap: 3000 },
  });
});
afterAll(async () => {
  await s?.close();
  await new Promise((r) => origin?.close(r));
});

async function submit(params: Record<string, unknown>) {
  const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'douyin', action: 'download', params } });
  expect(r.status, r.text.slice(0, 400)).toBe(200);
  return r.body;
}
const result = async (params: Record<string, unknown>) => {
  const body = await submit(params);
  expect(body.result, JSON.stringify(body).slice(0, 600)).toBeDefined();
  return body.result;
};

describe('download storage', () => {
  it('evicts least recently used files beyond the quota, spares pinned ones, and says so on 404', async () => {
    const small = (await result({ query: '7500000000000000001', quality: 'smallest' })).files[0];
    const [jpeg, png] = (await result({ query: '7500000000000000002' })).files;
    expect((await s.api(`/v1/files/${jpeg.id}/pin`, { method: 'POST' })).status).toBe(200);
    // Reading the small video makes it newer than the png.
    expect((await s.api(small.url, { token: null })).status).toBe(200);
    // 39 KB + 2 KB + 80 KB is over 100 KB: the png goes first, then the small video; the pinned jpeg stays.
    const large = (await result({ query: '7500000000000000001' })).files[0];
    expect(large.bytes).toBe(m.progressiveLarge.length);
    const gone = await s.api(png.url, { token: null });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('not_found');
    expect(gone.body.error.message).toMatch(/evicted/);
    expect((await s.api(small.url, { token: null })).status).toBe(404);
    expect((await s.api(jpeg.url, { token: null })).status).toBe(200);
    expect((await s.api(large.url, { token: null })).status).toBe(200);
    expect(await s.svc.store.downloads.usage()).toBeLessThanOrEqual(100_000);
  });

  it('refuses an image over the image cap and a media URL off the platform CDN allowlist', async () => {
    const huge = await result({ query: '7500000000000000004' });
    expect(huge.ok).toBe(false);
    expect(huge.error.message).toMatch(/cap/);
    const evil = await result({ query: '7500000000000000003' });
    expect(evil.ok).toBe(false);
    expect(evil.error.code).toBe('invalid_request');
    expect(evil.error.message).toMatch(/evil\.example\.com is not a known platform CDN host/);
  });

  it('a cancelled download leaves no partial file; a broken one is resumed with Range by the next run', async () => {
    slow.mode = 'stall';
    const task = await s.api('/v1/tasks', { method: 'POST', json: { source: 'douyin', action: 'download', params: { query: SLOW_ID } } });
    const id = task.body.task_id;
    await until(() => partFiles().length > 0 || undefined);
    expect((await s.api(`/v1/tasks/${id}/cancel`, { method: 'POST' })).status).toBeLessThan(300);
    await until(() => partFiles().length === 0 || undefined);

    slow.mode = 'break';
    slow.ranges.length = 0;
    const broken = await result({ query: SLOW_ID });
    expect(broken.ok).toBe(false);
    expect(partFiles()).toHaveLength(1);
    slow.mode = 'whole';
    const resumed = await result({ query: SLOW_ID });
    expect(resumed.ok, JSON.stringify(resumed.error)).toBe(true);
    expect(slow.ranges.at(-1)).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(slow.ranges.at(-1) as string)?.[0])).toBeGreaterThan(0);
    expect(resumed.files[0].sha256).toBe(createHash('sha256').update(big).digest('hex'));
    expect(resumed.files[0].bytes).toBe(big.length);
    expect(partFiles()).toHaveLength(0);
  });

  it('a partial file the origin will not resume (416) is dropped and the stream fetched whole', async () => {
    slow.mode = 'break';
    expect((await result({ query: SLOW_TWO })).ok).toBe(false);
    expect(partFiles()).toHaveLength(1);
    slow.mode = 'no-range';
    slow.ranges.length = 0;
    const again = await result({ query: SLOW_TWO });
    expect(again.ok, JSON.stringify(again.error)).toBe(true);
    expect(slow.ranges).toEqual([expect.stringMatching(/^bytes=\d+-$/), undefined]);
    expect(again.files[0].bytes).toBe(big.length);
    expect(partFiles()).toHaveLength(0);
  });
});
