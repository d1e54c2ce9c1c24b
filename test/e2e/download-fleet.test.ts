import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBlobUrl } from '../../src/blobs/open.js';
import { douyinVideo } from '../helpers/douyin-download.js';
import { downloadMedia, mediaHar, type DownloadMedia } from '../helpers/media-har.js';
import { testSchema } from '../helpers/postgres.js';
import { startService, type Running } from '../helpers/service.js';

/*
 * The fleet: two processes on one Postgres schema and one S3 bucket (s3rver in process). A file one
 * process stored is served by the other; identical content stored by both is one object in the bucket.
 */
const dir = mkdtempSync(join(tmpdir(), 'dl-fleet-'));
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
let server: S3rver;
let db: Awaited<ReturnType<typeof testSchema>>;
let a: Running;
let b: Running;
let m: DownloadMedia;

beforeAll(async () => {
  m = downloadMedia();
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: 'files' }] });
  const endpoint = `http://127.0.0.1:${((await server.run()) as AddressInfo).port}`;
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  db = await testSchema();
  const har = mediaHar([...douyinVideo('7700000000000000001', m), ...douyinVideo('7700000000000000002', m)]);
  const config = { databaseUrl: db.url, databaseSchema: db.schema, secretKey: 'cd'.repeat(32), replay: [har], blob: parseBlobUrl(`s3://files/fleet?endpoint=${endpoint}&region=us-east-1`) };
  a = await startService({ dataDir: join(dir, 'a'), config });
  b = await startService({ dataDir: join(dir, 'b'), config });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
  await server?.close();
  process.env.AWS_ACCESS_KEY_ID = saved.id;
  process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  rmSync(dir, { recursive: true, force: true });
});

async function download(s: Running, query: string) {
  const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'douyin', action: 'download', params: { query } } });
  expect(r.body.result?.ok, r.text.slice(0, 500)).toBe(true);
  return r.body.result.files[0];
}

describe('download in a fleet (shared Postgres + S3 blob store)', () => {
  it('a file stored by one process is served by the other, and identical content is one object', async () => {
    const f = await download(a, '7700000000000000001');
    const res = await fetch(b.base + f.url, { headers: { range: 'bytes=0-99' } });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(m.progressiveLarge.subarray(0, 100))).toBe(true);
    const pinned = await b.api(`/v1/files/${f.id}/pin`, { method: 'POST' });
    expect(pinned.body.pinned).toBe(true);
    expect((await a.api(`/v1/files/${f.id}/meta`)).body.pinned).toBe(true);
    const twin = await download(b, '7700000000000000002');
    expect(twin.sha256).toBe(f.sha256);
    const objects = readdirSync(join(dir, 's3', 'files', 'fleet', 'downloads', f.sha256.slice(0, 2))).filter((n) => n.endsWith('._S3rver_object'));
    expect(objects).toEqual([`${f.sha256}._S3rver_object`]);
    // Nothing stays on either process's local disk but the (empty) partial-transfer directory.
    expect(readdirSync(join(dir, 'a', 'downloads-tmp'))).toEqual([]);
    expect(readdirSync(join(dir, 'b', 'downloads-tmp'))).toEqual([]);
  });
});
