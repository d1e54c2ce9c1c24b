import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { douyinPost, douyinVideo } from '../helpers/douyin-download.js';
import { downloadMedia, mediaHar, type DownloadMedia } from '../helpers/media-har.js';
import { startService, type Running } from '../helpers/service.js';

/* `crawler download <url>` as a spawned process: submits, follows, saves every file into --out. */
let s: Running;
let m: DownloadMedia;
let env: Record<string, string>;

beforeAll(async () => {
  m = downloadMedia();
  const har = mediaHar([
    ...douyinVideo('7600000000000000001', m),
    ...douyinPost('7600000000000000002', { aweme_type: 68, images: [{ url_list: ['https://p3-sign.douyinpic.com/c/1.jpeg'] }, { url_list: ['https://p3-sign.douyinpic.com/c/2.webp'] }] }),
    { url: 'https://p3-sign.douyinpic.com/c/1.jpeg', body: m.jpeg, mime: 'image/jpeg' },
    { url: 'https://p3-sign.douyinpic.com/c/2.webp', body: m.webp, mime: 'image/webp' },
  ]);
  s = await startService({ config: { replay: [har] } });
  env = { CRAWLER_URL: s.base, CRAWLER_TOKEN: await s.token(['read']) };
});
afterAll(async () => {
  await s?.close();
});

describe('crawler download', () => {
  it('saves the watermark-free video under its readable name, the source taken from the link', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dl-cli-'));
    const r = await cli(['download', 'https://www.douyin.com/video/7600000000000000001', '--out', out, '--quality', 'smallest'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(['traveler_dl_7600000000000000001.mp4']);
    expect(readFileSync(join(out, 'traveler_dl_7600000000000000001.mp4')).equals(m.progressive)).toBe(true);
    expect(r.stdout).toContain('play_addr_no_watermark_normal_540_500kbps');
  });

  it('saves every image of a note; --json lists the files with their paths; a bad --quality is a usage error', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dl-cli-'));
    const r = await cli(['download', '7600000000000000002', '--source', 'douyin', '--out', out, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const files = JSON.parse(r.stdout).files;
    expect(files.map((f: { path: string }) => f.path.split('/').pop())).toEqual(['traveler_dl_7600000000000000002_1.jpg', 'traveler_dl_7600000000000000002_2.webp']);
    expect(readFileSync(files[1].path).equals(m.webp)).toBe(true);
    const bad = await cli(['download', 'https://www.douyin.com/video/1', '--quality', 'huge'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--quality/);
  });
});
