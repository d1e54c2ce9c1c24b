import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/blobs/file.js';
import { openBlobStore, parseBlobUrl } from '../../src/blobs/open.js';
import { S3BlobStore } from '../../src/blobs/s3.js';
import { loadConfig } from '../../src/config.js';
import { blobStoreConformance } from '../helpers/blob-conformance.js';

// s3rver's built-in key pair.
const KEYS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const BUCKET = 'clips';
const dirs: string[] = [];
const tmp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};

let server: S3rver;
let endpoint = '';
let stores = 0;

beforeAll(async () => {
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: tmp('s3rver-'), configureBuckets: [{ name: BUCKET }] });
  const addr = (await server.run()) as AddressInfo;
  endpoint = `http://127.0.0.1:${addr.port}`;
});

afterAll(async () => {
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const s3 = (prefix = `run-${++stores}`) => new S3BlobStore({ bucket: BUCKET, prefix, region: 'eu-west-1', endpoint, credentials: KEYS });

blobStoreConformance('file', () => new FileBlobStore(join(tmp('blobs-'), 'root')));
// Each case gets its own prefix, as each file case gets its own directory.
blobStoreConformance('s3 (s3rver, path-style, SigV4)', () => s3());
blobStoreConformance('s3 opened from CRAWLER_BLOB_URL', () => {
  const url = `s3://${BUCKET}/from-url/${++stores}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`;
  return openBlobStore(loadConfig({ CRAWLER_BLOB_URL: url }).blob, tmp('unused-'), { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' });
});

describe('S3 blob store specifics', () => {
  // s3rver checks the key id but not V4 signatures: sigv4.test.ts checks those against AWS's own examples.
  it('sends its credentials: the server refuses an unknown access key id', async () => {
    const stranger = new S3BlobStore({ bucket: BUCKET, prefix: 'signed', region: 'us-east-1', endpoint, credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'x' } });
    await expect(stranger.put('a/b.bin', Buffer.from('x'))).rejects.toThrow(/403 InvalidAccessKeyId/);
    await expect(stranger.get('a/b.bin')).rejects.toThrow(/get a\/b\.bin: S3 answered 403/);
  });

  it('stores objects under its prefix, apart from other prefixes', async () => {
    const a = s3('tenant/a');
    const b = s3('tenant/b');
    const root = s3('');
    await a.put('k/one.bin', Buffer.from('from a'));
    expect(await b.get('k/one.bin')).toBeUndefined();
    expect((await root.get('tenant/a/k/one.bin'))?.toString()).toBe('from a');
  });

  it('says which call failed when the bucket does not exist', async () => {
    const none = new S3BlobStore({ bucket: 'no-such-bucket', prefix: '', region: 'us-east-1', endpoint, credentials: KEYS });
    await expect(none.put('x/y.bin', Buffer.from('x'))).rejects.toThrow(/put x\/y\.bin: S3 answered 404 NoSuchBucket/);
  });
});

describe('CRAWLER_BLOB_URL', () => {
  it('selects the file backend with file:// and an S3 bucket with s3://', () => {
    expect(parseBlobUrl('file:///var/lib/crawler/blobs')).toEqual({ kind: 'file', dir: '/var/lib/crawler/blobs' });
    expect(parseBlobUrl('s3://my-bucket/previews/v1?endpoint=http://garage:3900&region=garage')).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: 'previews/v1', endpoint: 'http://garage:3900', region: 'garage' });
    expect(parseBlobUrl('s3://my-bucket')).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: '', endpoint: undefined, region: undefined });
    expect(openBlobStore(parseBlobUrl('file:///srv/clips'), '/data')).toBeInstanceOf(FileBlobStore);
    expect(openBlobStore(undefined, '/data')).toBeInstanceOf(FileBlobStore);
  });

  it('refuses malformed URLs at start with a message naming the variable', () => {
    for (const bad of ['http://x/y', 's3://A_B/x', 's3://ok-bucket/x?endpoint=ftp://h', 's3://ok-bucket/x?acl=public', 'file://']) {
      expect(() => loadConfig({ CRAWLER_BLOB_URL: bad }), bad).toThrow(/CRAWLER_BLOB_URL/);
    }
  });

  it('needs the standard AWS credential variables for s3://', () => {
    expect(() => openBlobStore(parseBlobUrl('s3://ok-bucket/x'), '/data', {})).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(openBlobStore(parseBlobUrl('s3://ok-bucket/x'), '/data', { AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })).toBeInstanceOf(S3BlobStore);
  });
});
