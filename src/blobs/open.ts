import { join, resolve } from 'node:path';
import { FileBlobStore } from './file.js';
import { S3BlobStore } from './s3.js';
import type { BlobStore } from './types.js';

export type BlobTarget = { kind: 'file'; dir: string } | { kind: 's3'; bucket: string; prefix: string; endpoint?: string; region?: string };

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * CRAWLER_BLOB_URL: `file:///abs/dir` or `file://rel/dir` (a directory, perhaps a shared disk), or
 * `s3://bucket/prefix?endpoint=https://host:port&region=xx`. Throws a message naming what is wrong.
 */
export function parseBlobUrl(raw: string): BlobTarget {
  const s = raw.trim();
  if (s.startsWith('file://')) {
    const path = decodeURIComponent(s.slice('file://'.length));
    if (!path) throw new Error('file:// needs a directory, e.g. file:///var/lib/crawler/blobs');
    return { kind: 'file', dir: resolve(path) };
  }
  if (s.startsWith('s3://')) {
    const u = new URL(s);
    if (!BUCKET.test(u.hostname)) throw new Error(`s3://${u.hostname}: not a bucket name (3-63 of a-z 0-9 . -)`);
    for (const k of u.searchParams.keys()) if (k !== 'endpoint' && k !== 'region') throw new Error(`s3:// option ${k}: only endpoint and region are known`);
    const endpoint = u.searchParams.get('endpoint') ?? undefined;
    if (endpoint !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) throw new Error(`endpoint=${endpoint}: expected http(s)://host[:port]`);
    const prefix = decodeURIComponent(u.pathname).replace(/^\/+|\/+$/g, '');
    return { kind: 's3', bucket: u.hostname, prefix, endpoint, region: u.searchParams.get('region') ?? undefined };
  }
  throw new Error('expected file://<dir> or s3://<bucket>/<prefix>?endpoint=…&region=…');
}

/** The blob store the configuration names; without one, the data dir's own directory (embedded mode). */
export function openBlobStore(target: BlobTarget | undefined, dataDir: string, env: NodeJS.ProcessEnv = process.env): BlobStore {
  if (!target) return new FileBlobStore(join(dataDir, 'previews'));
  if (target.kind === 'file') return new FileBlobStore(target.dir);
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (!accessKeyId || !secretAccessKey) throw new Error('CRAWLER_BLOB_URL=s3://… needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  return new S3BlobStore({
    bucket: target.bucket,
    prefix: target.prefix,
    endpoint: target.endpoint,
    region: target.region || env.AWS_REGION?.trim() || 'us-east-1',
    credentials: { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN?.trim() || undefined },
  });
}
