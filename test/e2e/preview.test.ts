import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeCdn, type FakeCdn } from '../helpers/fake-cdn.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { mediaFiles } from '../helpers/media-files.js';
import { startService, until, type Running } from '../helpers/service.js';

let cdn: FakeCdn;
let fake: FakePlatform;
let s: Running;

beforeAll(async () => {
  mediaFiles();
  cdn = await startFakeCdn();
  fake = await startFakePlatform('fake', { base: cdn.base, ttlMs: 600_000 });
  s = await startService({
    adapters: [fake.adapter],
    config: { previewWorkers: 2 },
    media: { resolve: async (host) => (host === 'cdn.fake.test' ? [{ address: '127.0.0.1', family: 4 }] : []), allowAddress: (a) => a === '127.0.0.1', extraPorts: [cdn.port] },
  });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await cdn?.close();
});

const crawl = (params: Record<string, unknown>, action = 'search') => s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action, params: { force: true, ...params } } });
const preview = (id: string, headers: Record<string, string> = {}) => fetch(`${s.base}/v1/preview?platform=fake&id=${encodeURIComponent(id)}`, { headers });

async function ready(id: string): Promise<Buffer> {
  return until(async () => {
    const r = await preview(id);
    if (r.status === 200) return Buffer.from(await r.arrayBuffer());
    await r.arrayBuffer();
    expect(r.status).toBe(202);
    return undefined;
  }, 60_000, 200);
}

function ffprobe(file: string, args: string[]): any {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', ...args, '-of', 'json', file], { encoding: 'utf8' }));
}

describe('preview clips', () => {
  it('attaches a pending preview to items with a playable stream only', async () => {
    const r = await crawl({ query: 'previewable', limit: 6 });
    const items = r.body.result.items;
    const video = items.find((i: any) => i.type === 'video');
    expect(video.preview).toEqual({ url: `/v1/preview?platform=fake&id=${video.id.split(':')[1]}`, w: 426, h: 240, seconds: 6, status: 'pending' });
    for (const i of items.filter((x: any) => x.type !== 'video')) expect(i.preview).toBeUndefined();
  });

  it('goes cold → rendering (202, Retry-After) → ready (200 mp4), sharing one render among concurrent requests', async () => {
    await crawl({ query: 'share-one', limit: 3 });
    const before = s.svc.previews.rendersStarted;
    const id = '1003';
    const first = await Promise.all(Array.from({ length: 6 }, () => preview(id)));
    for (const r of first) {
      expect(r.status).toBe(202);
      expect(r.headers.get('retry-after')).toBe('2');
      expect(await r.json()).toEqual({ status: 'rendering' });
    }
    const clip = await ready(id);
    expect(s.svc.previews.rendersStarted).toBe(before + 1);
    expect(clip.subarray(4, 8).toString()).toBe('ftyp');
    // +faststart: the index comes before the media data.
    expect(clip.indexOf('moov')).toBeGreaterThan(0);
    expect(clip.indexOf('moov')).toBeLessThan(clip.indexOf('mdat'));
    const file = `${mediaFiles().dir}/rendered-${Date.now()}.mp4`;
    writeFileSync(file, clip);
    const info = ffprobe(file, ['-show_entries', 'stream=codec_type,codec_name,width,height:format=duration']);
    expect(info.streams.map((x: any) => x.codec_type)).toEqual(['video']);
    expect(info.streams[0]).toMatchObject({ codec_name: 'h264', height: 240, width: 426 });
    expect(Number(info.format.duration)).toBeGreaterThan(5);
    expect(Number(info.format.duration)).toBeLessThanOrEqual(240);
    const keys = ffprobe(file, ['-select_streams', 'v', '-skip_frame', 'nokey', '-show_entries', 'frame=pts_time']).frames.map((f: any) => Number(f.pts_time));
    for (let i = 1; i < keys.length; i++) expect(keys[i] - keys[i - 1]).toBeLessThanOrEqual(1.05);
    expect(readdirSync(s.svc.previews.tempDir)).toEqual([]);
  });

  it('serves the clip with Range, HEAD and ETag', async () => {
    const full = await ready('1003');
    const part = await preview('1003', { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${full.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(full.subarray(10, 20))).toBe(true);
    const bad = await preview('1003', { range: `bytes=${full.length}-` });
    expect(bad.status).toBe(416);
    const head = await fetch(`${s.base}/v1/preview?platform=fake&id=1003`, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(full.length));
    const etag = head.headers.get('etag')!;
    expect((await preview('1003', { 'if-none-match': etag })).status).toBe(304);
  });

  it('caps the clip at 240 seconds', async () => {
    const r = await crawl({ query: 'longvideo', preview: 'eager' });
    const item = r.body.result.items[0];
    expect(item.duration_s).toBe(250);
    expect(item.preview).toMatchObject({ status: 'rendered', h: 120, w: 160 });
    expect(item.preview.seconds).toBeLessThanOrEqual(240);
    expect(item.preview.seconds).toBeGreaterThan(230);
    const clip = await ready(item.id.split(':')[1]);
    const file = `${mediaFiles().dir}/long-rendered-${Date.now()}.mp4`;
    writeFileSync(file, clip);
    expect(Number(ffprobe(file, ['-show_entries', 'format=duration']).format.duration)).toBeLessThanOrEqual(240.05);
  });

  it('announces on a pending item exactly the frame and length the rendered clip has', async () => {
    // Not as far as 1024: another test needs that post never crawled.
    const r = await crawl({ query: 'truthful-preview', limit: 21 });
    const item = r.body.result.items.filter((i: any) => i.type === 'video' && i.preview?.status === 'pending').at(-1);
    const announced = item.preview;
    expect(announced.status).toBe('pending');
    const clip = await ready(item.id.split(':')[1]);
    const file = `${mediaFiles().dir}/truthful-${Date.now()}.mp4`;
    writeFileSync(file, clip);
    const info = ffprobe(file, ['-show_entries', 'stream=width,height:format=duration', '-select_streams', 'v:0']);
    expect({ w: announced.w, h: announced.h }).toEqual({ w: info.streams[0].width, h: info.streams[0].height });
    expect(Math.abs(announced.seconds - Number(info.format.duration))).toBeLessThan(0.2);
    // Once rendered, the same item reports the clip's own numbers.
    const again = await crawl({ query: 'truthful-preview', limit: 21 });
    const hit = again.body.result.items.find((i: any) => i.id === item.id).preview;
    expect(hit.status).toBe('hit');
    expect({ w: hit.w, h: hit.h }).toEqual({ w: announced.w, h: announced.h });
  });

  it('answers 404 preview_unavailable with a reason on terminal failures', async () => {
    const img = await preview('1001'); // detail gives an image post: nothing to preview
    expect(img.status).toBe(202);
    await img.arrayBuffer();
    const gone = await until(async () => {
      const r = await preview('1001');
      const body = await r.text();
      return r.status === 404 ? JSON.parse(body) : undefined;
    }, 10_000, 200);
    expect(gone).toMatchObject({ code: 'preview_unavailable', reason: 'no_stream' });
    // Never crawled, so the service must ask the platform, which says the post is gone.
    fake.gone.add('1024');
    const missing = await until(async () => {
      const r = await preview('1024');
      const body = await r.text();
      return r.status === 404 ? JSON.parse(body) : undefined;
    }, 10_000, 100);
    expect(missing).toMatchObject({ code: 'preview_unavailable', reason: 'expired' });
    const unknown = await fetch(`${s.base}/v1/preview?platform=myspace&id=1`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'preview_unavailable', reason: 'unsupported' });
    const bad = await fetch(`${s.base}/v1/preview?platform=fake`);
    expect(bad.status).toBe(400);
  });

  it('renders eagerly at crawl time when asked, then reports hits', async () => {
    const r = await crawl({ query: 'eager', limit: 9, preview: 'eager' });
    const videos = r.body.result.items.filter((i: any) => i.type === 'video');
    expect(videos.length).toBeGreaterThan(0);
    for (const v of videos) expect(['rendered', 'hit']).toContain(v.preview.status);
    const again = await crawl({ query: 'eager', limit: 9 });
    for (const v of again.body.result.items.filter((i: any) => i.type === 'video')) expect(v.preview.status).toBe('hit');
    expect(readdirSync(s.svc.previews.tempDir)).toEqual([]);
  });

  it('warms a page of previews with a token and answers each item state at once', async () => {
    expect((await s.api('/v1/preview/warm', { method: 'POST', json: { items: [] }, token: null })).status).toBe(401);
    const r = await s.api('/v1/preview/warm', { method: 'POST', json: { items: [{ platform: 'fake', id: '1003' }, { platform: 'fake', id: '1009' }, { platform: 'nope', id: '1' }] } });
    expect(r.status).toBe(200);
    expect(r.body.items[0]).toMatchObject({ platform: 'fake', id: '1003', status: 'ready', h: 240 });
    expect(['rendering', 'ready']).toContain(r.body.items[1].status);
    expect(r.body.items[2]).toMatchObject({ status: 'unavailable', reason: 'unsupported' });
    expect((await s.api('/v1/preview/warm', { method: 'POST', json: { items: 'x' } })).status).toBe(400);
  });
});
