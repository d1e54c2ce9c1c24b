import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBlobUrl } from '../../src/blobs/open.js';
import { S3BlobStore } from '../../src/blobs/s3.js';
import { startService, until, type Running } from '../helpers/service.js';

// The demo's preview, rendered by the service into an S3 bucket (s3rver in process) and served from it.
const ID = '4645748019299849';
let server: S3rver;
let s: Running;
let endpoint = '';
const dir = mkdtempSync(join(tmpdir(), 'preview-s3-'));
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

beforeAll(async () => {
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'clips' }] });
  endpoint = `http://127.0.0.1:${((await server.run()) as AddressInfo).port}`;
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  s = await startService({ dataDir: join(dir, 'data'), config: { replay: [resolve(process.cwd(), 'sandbox')], blob: parseBlobUrl(`s3://clips/fleet?endpoint=${endpoint}&region=us-east-1`) } });
});

afterAll(async () => {
  await s?.close();
  await server?.close();
  process.env.AWS_ACCESS_KEY_ID = saved.id;
  process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  rmSync(dir, { recursive: true, force: true });
});

describe('previews on an S3-compatible blob store (CRAWLER_BLOB_URL=s3://…)', () => {
  it('renders the clip into the bucket, serves it whole and by Range, and keeps no copy on local disk', async () => {
    const url = `${s.base}/v1/preview?platform=weibo&id=${ID}`;
    const clip = await until(async () => {
      const r = await fetch(url);
      const body = Buffer.from(await r.arrayBuffer());
      if (r.status === 404) throw new Error(body.toString());
      return r.status === 200 ? body : undefined;
    }, 60_000, 250);
    expect(clip.subarray(4, 8).toString()).toBe('ftyp');

    const part = await fetch(url, { headers: { range: 'bytes=4-7' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-7/${clip.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('ftyp');
    const tail = await fetch(url, { headers: { range: `bytes=${clip.length - 100}-` } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(clip.subarray(clip.length - 100))).toBe(true);

    // The bucket holds the clip under the URL's prefix; the data dir's previews directory has no clip.
    const bucket = new S3BlobStore({ bucket: 'clips', prefix: '', region: 'us-east-1', endpoint, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    // s3rver keeps an object as <name>._S3rver_object under the bucket's directory.
    const keys = readdirSync(join(dir, 's3', 'clips', 'fleet', 'weibo')).filter((f) => f.endsWith('.mp4._S3rver_object')).map((f) => f.replace('._S3rver_object', ''));
    expect(keys).toHaveLength(1);
    expect((await bucket.get(`fleet/weibo/${keys[0]}`))?.equals(clip)).toBe(true);
    const local = join(dir, 'data', 'previews');
    expect(existsSync(local) ? readdirSync(local, { recursive: true }).filter((f) => String(f).endsWith('.mp4')) : []).toEqual([]);
  }, 90_000);
});
