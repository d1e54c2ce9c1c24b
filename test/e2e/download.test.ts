import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { douyinPost, douyinVideo } from '../helpers/douyin-download.js';
import { downloadMedia, mediaHar, type DownloadMedia } from '../helpers/media-har.js';
import { startService, type Running } from '../helpers/service.js';
import { schemaChecker } from '../helpers/openapi.js';
import type { OpenApiDocument } from '../../src/openapi/types.js';

/*
 * The download core through the real server in replay: douyin posts (hand-made share pages, media made
 * with ffmpeg) picked, fetched, stored, served with Range/HEAD, deduplicated, evicted, pinned.
 */
let m: DownloadMedia;
let s: Running;
const ID = '7400000000000000001';
const TWIN = '7400000000000000002';
const NOTE = '7400000000000000003';
const TEXT = '7400000000000000004';
const BOTH = '7400000000000000005';

function ffprobe(buf: Buffer): { streams: string[]; duration: number; w?: number } {
  const dir = mkdtempSync(join(tmpdir(), 'dl-probe-'));
  const f = join(dir, 'f');
  writeFileSync(f, buf);
  const j = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,width:format=duration', '-of', 'json', f]).toString());
  return { streams: j.streams.map((x: { codec_type: string }) => x.codec_type).sort(), duration: Number(j.format.duration), w: j.streams.find((x: { width?: number }) => x.width)?.width };
}

async function download(params: Record<string, unknown>, source = 'douyin') {
  const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source, action: 'download', params } });
  expect(r.status, r.text.slice(0, 500)).toBe(200);
  expect(r.body.status, r.text.slice(0, 500)).toBe('succeeded');
  return r.body.result;
}

const fetchUrl = async (url: string, init: RequestInit = {}) => fetch(s.base + url, init);

beforeAll(async () => {
  m = downloadMedia();
  const har = mediaHar([
    ...douyinVideo(ID, m),
    // Another post whose best stream is byte for byte the first one's.
    ...douyinVideo(TWIN, m),
    ...douyinPost(NOTE, {
      aweme_type: 68,
      images: [
        { url_list: ['https://p3-sign.douyinpic.com/note/1.heic', 'https://p3-sign.douyinpic.com/note/1.jpeg'], width: 64, height: 48, video: { duration: 2000, play_addr: { url_list: ['https://v26-web.douyinvod.com/live/1.mp4'], width: 160, height: 90 } } },
        { url_list: ['https://p3-sign.douyinpic.com/note/2.png'], width: 64, height: 48 },
      ],
    }),
    { url: 'https://p3-sign.douyinpic.com/note/1.jpeg', body: m.jpeg, mime: 'image/jpeg' },
    { url: 'https://p3-sign.douyinpic.com/note/2.png', body: m.png, mime: 'image/png' },
    { url: 'https://v26-web.douyinvod.com/live/1.mp4', body: m.progressive, mime: 'video/mp4' },
    ...douyinPost(TEXT, { aweme_type: 0, video: {} }),
    ...douyinVideo(BOTH, m, { large: m.videoOnly }),
  ]);
  s = await startService({ config: { replay: [har] } });
});
afterAll(async () => {
  await s?.close();
});

describe('download (douyin, replay)', () => {
  it('stores the highest-bit-rate watermark-free stream and serves it at a signed URL', async () => {
    const r = await download({ query: ID });
    expect(r.ok).toBe(true);
    expect(r.source).toBe('live');
    expect(r.items).toHaveLength(1);
    expect(r.items[0].id).toBe(`douyin:${ID}`);
    expect(r.files).toHaveLength(1);
    const f = r.files[0];
    expect(f).toMatchObject({ kind: 'video', mime: 'video/mp4', bytes: m.progressiveLarge.length, w: 320, h: 180, source_quality: 'play_addr_no_watermark_normal_1080_2000kbps' });
    expect(f.url).toMatch(/^\/v1\/files\/f_[A-Za-z0-9_-]+\?exp=\d+&sig=/);
    const res = await fetchUrl(f.url);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(m.progressiveLarge)).toBe(true);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="traveler_dl_${ID}.mp4"; filename*=UTF-8''traveler_dl_${ID}.mp4`);
    const probe = ffprobe(body);
    expect(probe.streams).toEqual(['audio', 'video']);
    expect(probe.duration).toBeCloseTo(3, 0);
  });

  it('a second run reuses the stored file, and the task reports bytes and files as progress', async () => {
    const first = (await download({ query: ID })).files[0];
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'douyin', action: 'download', params: { query: ID } } });
    expect(r.body.result.files[0].id).toBe(first.id);
    expect(r.body.progress).toMatchObject({ files: 1, files_total: 1 });
    const fresh = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'douyin', action: 'download', params: { query: NOTE } } });
    expect(fresh.body.progress).toMatchObject({ files: 3, files_total: 3, bytes: m.jpeg.length + m.png.length + m.progressive.length });
  });

  it('quality=smallest takes the smallest clean rendition, never the watermarked copy', async () => {
    const r = await download({ query: ID, quality: 'smallest' });
    expect(r.files[0]).toMatchObject({ w: 160, h: 90, source_quality: 'play_addr_no_watermark_normal_540_500kbps', bytes: m.progressive.length });
  });

  it('Range, HEAD, ETag, 416, a tampered signature, a bearer instead of the signature', async () => {
    const f = (await download({ query: ID })).files[0];
    const ranged = await fetchUrl(f.url, { headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 10-19/${f.bytes}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(m.progressiveLarge.subarray(10, 20))).toBe(true);
    const head = await fetchUrl(f.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(f.bytes));
    expect(head.headers.get('accept-ranges')).toBe('bytes');
    const etag = head.headers.get('etag') as string;
    expect((await fetchUrl(f.url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const beyond = await fetchUrl(f.url, { headers: { range: `bytes=${f.bytes + 5}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${f.bytes}`);
    const tampered = await s.api(f.url.replace(/sig=(.)/, (_a: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`), { token: null });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error.code).toBe('invalid_request');
    const bare = `/v1/files/${f.id}`;
    expect((await s.api(bare, { token: null })).status).toBe(401);
    const withToken = await s.api(bare, { token: await s.token(['read']) });
    expect(withToken.status).toBe(200);
    expect((await s.api('/v1/files/f_doesnotexist', { token: null })).body.error.code).toBe('auth_required');
    expect((await s.api('/v1/files/f_doesnotexist')).body.error.code).toBe('not_found');
  });

  it('identical content from two posts is stored once (one blob, two files)', async () => {
    const a = (await download({ query: ID })).files[0];
    const b = (await download({ query: TWIN })).files[0];
    expect(b.sha256).toBe(a.sha256);
    expect(b.id).not.toBe(a.id);
    expect(b.name).toContain(TWIN);
    const blobs = readdirSync(join(s.dataDir, 'downloads', a.sha256.slice(0, 2)));
    expect(blobs.filter((n) => n === a.sha256)).toHaveLength(1);
  });

  it('an image post stores every image, and a live photo both its still and its clip', async () => {
    const r = await download({ query: NOTE });
    expect(r.files.map((f: { kind: string; mime: string; source_quality: string }) => [f.kind, f.mime])).toEqual([
      ['image', 'image/jpeg'],
      ['video', 'video/mp4'],
      ['image', 'image/png'],
    ]);
    expect(r.files[0]).toMatchObject({ w: 64, h: 48, bytes: m.jpeg.length, source_quality: 'original', name: `traveler_dl_${NOTE}_1.jpg` });
    const only = await download({ query: NOTE, media: 'image' });
    expect(only.files.map((f: { kind: string }) => f.kind)).toEqual(['image', 'image']);
  });

  it('two downloads of one post at once take turns on its partial file and end with one file', async () => {
    const [a, b] = await Promise.all([download({ query: BOTH }), download({ query: BOTH })]);
    expect(a.files[0].id).toBe(b.files[0].id);
    expect(a.files[0].bytes).toBe(m.videoOnly.length);
    expect(readdirSync(join(s.dataDir, 'downloads-tmp'))).toEqual([]);
  });

  it('a post without media is empty, with the item', async () => {
    const r = await download({ query: TEXT });
    expect(r).toMatchObject({ ok: true, source: 'empty', count: 1, files: [] });
  });

  it('pin and unpin need a write token and answer the record', async () => {
    const f = (await download({ query: ID })).files[0];
    expect((await s.api(`/v1/files/${f.id}/pin`, { method: 'POST', token: await s.token(['read']) })).status).toBe(403);
    const pinned = await s.api(`/v1/files/${f.id}/pin`, { method: 'POST' });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ id: f.id, pinned: true, platform: 'douyin', native_id: ID });
    const meta = await s.api(`/v1/files/${f.id}/meta`);
    expect(meta.body.pinned).toBe(true);
    const unpinned = await s.api(`/v1/files/${f.id}/pin`, { method: 'DELETE' });
    expect(unpinned.body.pinned).toBe(false);
    expect((await s.api('/v1/files/f_nope/pin', { method: 'POST' })).status).toBe(404);
  });

  it('the task, the file record, the pin answers and a 404 match the OpenAPI document', async () => {
    const check = schemaChecker((await s.api('/v1/openapi.json', { token: null })).body as OpenApiDocument);
    const task = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'douyin', action: 'download', params: { query: NOTE } } });
    expect(check.response('POST', '/v1/tasks', task.status, task.body)).toEqual([]);
    const id = task.body.result.files[0].id;
    // The checker is not vacuous: a record missing its fields fails it.
    expect(check.response('GET', `/v1/files/${id}/meta`, 200, { id })).not.toEqual([]);
    for (const [method, path] of [['GET', `/v1/files/${id}/meta`], ['POST', `/v1/files/${id}/pin`], ['DELETE', `/v1/files/${id}/pin`], ['GET', '/v1/files/f_missing/meta']]) {
      const r = await s.api(path, { method });
      expect(check.response(method, path, r.status, r.body), `${method} ${path} ${r.status} ${r.text.slice(0, 300)}`).toEqual([]);
    }
  });
});
