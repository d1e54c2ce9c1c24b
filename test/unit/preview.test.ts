import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { clipArgs, run } from '../../src/media/preview/ffmpeg.js';
import { PREVIEW_QUEUE_MAX, PreviewService } from '../../src/media/preview/service.js';
import { FileBlobStore } from '../../src/blobs/file.js';
import { mediaUrlBuilder } from '../../src/media/urls.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import { until } from '../helpers/service.js';

function service(ffmpeg: boolean, selfUrl?: string, detail: () => Promise<{ items: [] }> = async () => ({ items: [] })) {
  const dir = mkdtempSync(join(tmpdir(), 'preview-unit-'));
  const store = new SqliteStore(openDatabase(join(dir, 'db.sqlite')));
  const previews = new PreviewService({
    store,
    blobs: new FileBlobStore(join(dir, 'previews')),
    media: { open: async () => ({ status: 206, headers: {}, origin: 'x' }) } as never,
    detail,
    hasDetail: () => true,
    urls: mediaUrlBuilder(),
    dataDir: dir,
    workers: 1,
    ffmpeg,
    internalToken: 'crw_x',
    selfUrl: () => selfUrl,
    log: pino({ level: 'silent' }),
    renderTimeoutMs: 3000,
  });
  return { previews, store, dir };
}

describe('preview service', () => {
  it('answers unsupported without ffmpeg instead of failing obscurely', async () => {
    const { previews } = service(false);
    expect(await previews.request('x', '1')).toEqual({ status: 'unavailable', reason: 'unsupported', message: 'ffmpeg is not installed on this server' });
  });

  it('says no_stream when the item has no video, and remembers it', async () => {
    const { previews } = service(true, 'http://127.0.0.1:1');
    expect(await previews.render('x', '1')).toMatchObject({ status: 'unavailable', reason: 'no_stream' });
    expect(await previews.state('x', '1')).toMatchObject({ status: 'unavailable', reason: 'no_stream' });
  });

  it('serves clips recorded before the blob store (rows holding an absolute path under the previews dir)', async () => {
    const { previews, store, dir } = service(true);
    mkdirSync(join(dir, 'previews', 'x'), { recursive: true });
    writeFileSync(join(dir, 'previews', 'x', 'old.mp4'), 'clip');
    await store.previewPut({ platform: 'x', native_id: 'old', state: 'ready', reason: null, w: 2, h: 2, seconds: 1, file: join(dir, 'previews', 'x', 'old.mp4'), updated_at: Date.now() });
    expect(await previews.state('x', 'old')).toMatchObject({ status: 'ready', key: 'x/old.mp4', size: 4 });
    await store.previewPut({ platform: 'x', native_id: 'elsewhere', state: 'ready', reason: null, w: 2, h: 2, seconds: 1, file: '/somewhere/else.mp4', updated_at: Date.now() });
    expect(await previews.state('x', 'elsewhere')).toBeUndefined();
  });

  it('leaves no temp file when ffmpeg fails', async () => {
    const { previews, store } = service(true, 'http://127.0.0.1:9');
    await store.mediaRefsPut([{ url_hash: 'h', platform: 'x', native_id: '2', slot: 'media:0', profile: 'default', url: 'https://cdn.x.test/v.mp4', kind: 'video' }], Date.now());
    const st = await previews.render('x', '2');
    expect(st).toMatchObject({ status: 'unavailable', reason: 'no_stream' });
    expect(readdirSync(previews.tempDir)).toEqual([]);
  });

  it('builds a muted, keyframe-every-second, faststart H.264 clip of at most 240 s from the proxy only', () => {
    const a = clipArgs('http://127.0.0.1:8080/v1/media?u=x', '/tmp/o.mp4', 'Authorization: Bearer t\r\n');
    const at = (flag: string) => a[a.indexOf(flag) + 1];
    expect(at('-protocol_whitelist')).toBe('http,tcp');
    expect(at('-t')).toBe('240');
    expect(a).toContain('-an');
    expect(at('-c:v')).toBe('libx264');
    expect(at('-force_key_frames')).toBe('expr:gte(t,n_forced*1)');
    expect(at('-movflags')).toBe('+faststart');
  });

  it('kills a process that outlives its timeout', async () => {
    const t = Date.now();
    await expect(run('sleep', ['10'], 200)).rejects.toThrow(/timed out/);
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it('keeps failures of ids it never handed out in memory only (a public route must not grow the database)', async () => {
    const { previews, store } = service(true, 'http://127.0.0.1:1');
    expect(await previews.render('x', 'made-up')).toMatchObject({ status: 'unavailable', reason: 'no_stream' });
    expect(await store.previewGet('x', 'made-up')).toBeUndefined();
    expect(await previews.request('x', 'made-up')).toMatchObject({ status: 'unavailable', reason: 'no_stream' });
  });

  it('turns requests away once the render queue is full instead of queueing without bound', async () => {
    const { previews } = service(true, 'http://127.0.0.1:1', () => new Promise(() => {}));
    const states: string[] = [];
    for (let i = 0; i < PREVIEW_QUEUE_MAX + 5; i++) states.push((await previews.request('x', `id-${i}`)).status);
    expect(states.filter((st) => st === 'rendering')).toHaveLength(PREVIEW_QUEUE_MAX + 1);
    expect(states.slice(-3)).toEqual(['busy', 'busy', 'busy']);
  });

  it('a render cut short by a shutdown gives its lease back and records no failure', async () => {
    // ffmpeg's input: a server that accepts and never answers, so the render is in flight when the service closes.
    const sockets: Socket[] = [];
    const silent = createServer((c) => sockets.push(c));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const { previews, store } = service(true, `http://127.0.0.1:${(silent.address() as { port: number }).port}`);
      await store.mediaRefsPut([{ url_hash: 'h3', platform: 'x', native_id: '3', slot: 'media:0', profile: 'default', url: 'https://cdn.x.test/v3.mp4', kind: 'video' }], Date.now());
      const job = previews.render('x', '3');
      const held = await until(async () => {
        const row = await store.previewGet('x', '3');
        return row?.state === 'rendering' && sockets.length > 0 ? row : undefined;
      });
      expect(held.owner).toEqual(expect.any(String));
      expect(held.lease_until).toBeGreaterThan(Date.now());
      previews.close();
      expect(await job).toEqual({ status: 'rendering' });
      expect(await store.previewGet('x', '3')).toBeUndefined();
    } finally {
      for (const c of sockets) c.destroy();
      silent.close();
    }
  });
});
