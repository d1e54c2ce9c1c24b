import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat as fileStat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { checkKey, type BlobInfo, type BlobStore, type ByteRange } from './types.js';
import { EMPTY_SHA256, signS3, uriEncode, type Credentials } from './sigv4.js';

export interface S3Options {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slash ('' for none). */
  prefix: string;
  region: string;
  /** An S3-compatible server (Garage, SeaweedFS, Ceph RGW…); addressed path-style. Absent: AWS, virtual-hosted. */
  endpoint?: string;
  credentials: Credentials;
  dispatcher?: Dispatcher;
}

/**
 * Blobs as objects in an S3-compatible bucket, for a fleet whose nodes share no disk. Four plain REST
 * calls (PUT, GET with Range, HEAD, DELETE) signed with SigV4: a full SDK would add a hundred packages
 * for them.
 */
export class S3BlobStore implements BlobStore {
  private readonly base: URL;
  private readonly pathStyle: boolean;

  constructor(private readonly o: S3Options) {
    this.pathStyle = Boolean(o.endpoint);
    this.base = new URL(o.endpoint ?? `https://${o.bucket}.s3.${o.region}.amazonaws.com`);
  }

  private url(key: string): URL {
    const parts = [...(this.o.prefix ? this.o.prefix.split('/') : []), ...checkKey(key)];
    if (this.pathStyle) parts.unshift(this.o.bucket);
    const u = new URL(this.base);
    u.pathname = `${u.pathname.replace(/\/+$/, '')}/${parts.map(uriEncode).join('/')}`;
    return u;
  }

  private async call(method: string, key: string, o: { body?: Buffer | Readable; length?: number; payloadHash?: string; range?: ByteRange } = {}) {
    const url = this.url(key);
    const extra: Record<string, string> = o.range ? { range: `bytes=${o.range.start}-${o.range.end}` } : {};
    const headers = signS3({ method, url, headers: extra, payloadHash: o.payloadHash ?? EMPTY_SHA256, region: this.o.region }, this.o.credentials);
    if (o.length !== undefined) headers['content-length'] = String(o.length);
    return request(url, { method: method as 'GET', headers, body: o.body, dispatcher: this.o.dispatcher });
  }

  async put(key: string, from: Buffer | { file: string }): Promise<BlobInfo> {
    checkKey(key);
    if (Buffer.isBuffer(from)) {
      await expectOk(await this.call('PUT', key, { body: from, length: from.length, payloadHash: sha256(from) }), `put ${key}`);
    } else {
      // The payload hash is signed, so the file is read twice: once to hash it, once to send it.
      const length = (await fileStat(from.file)).size;
      const payloadHash = await sha256File(from.file);
      await expectOk(await this.call('PUT', key, { body: createReadStream(from.file), length, payloadHash }), `put ${key}`);
      // The file backend moves the file in; here the upload is the move.
      await rm(from.file, { force: true });
    }
    const info = await this.stat(key);
    if (!info) throw new Error(`blob store: ${key} is missing right after it was stored`);
    return info;
  }

  async get(key: string): Promise<Buffer | undefined> {
    const res = await this.call('GET', key);
    if (res.statusCode === 404) return drained(res);
    await expectOk(res, `get ${key}`);
    return Buffer.from(await res.body.arrayBuffer());
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    const res = await this.call('HEAD', key);
    if (res.statusCode === 404) return drained(res);
    await expectOk(res, `stat ${key}`);
    await res.body.dump();
    const modified = Date.parse(String(res.headers['last-modified'] ?? ''));
    return { size: Number(res.headers['content-length'] ?? 0), mtime: Number.isFinite(modified) ? modified : 0 };
  }

  async stream(key: string, range?: ByteRange): Promise<Readable | undefined> {
    const res = await this.call('GET', key, { range });
    if (res.statusCode === 404) return drained(res);
    await expectOk(res, `stream ${key}`);
    if (!range) return res.body;
    // A server may answer a Range with the whole object (200) or a wider range: only the asked bytes go out.
    const from = res.statusCode === 206 ? /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(String(res.headers['content-range'] ?? ''))?.[1] : '0';
    if (from === undefined || Number(from) > range.start) {
      await res.body.dump();
      throw new Error(`blob store: stream ${key}: S3 answered ${res.statusCode} with Content-Range ${String(res.headers['content-range'])} for bytes ${range.start}-${range.end}`);
    }
    return slice(res.body, range.start - Number(from), range.end - range.start + 1);
  }

  async delete(key: string): Promise<boolean> {
    // S3 answers 204 to a DELETE whether or not the object was there: a HEAD first tells which.
    if (!(await this.stat(key))) return false;
    await expectOk(await this.call('DELETE', key), `delete ${key}`);
    return true;
  }
}

type Res = Dispatcher.ResponseData;

/** The length bytes after skipping skip bytes; the source is closed once they are out. */
function slice(source: Readable, skip: number, length: number): Readable {
  return Readable.from(
    (async function* () {
      let seen = 0;
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          const start = Math.max(0, skip - seen);
          const end = Math.min(chunk.length, skip + length - seen);
          seen += chunk.length;
          if (start < end) yield chunk.subarray(start, end);
          if (seen >= skip + length) break;
        }
      } finally {
        source.destroy();
      }
    })(),
  );
}

async function drained(res: Res): Promise<undefined> {
  await res.body.dump();
  return undefined;
}

async function expectOk(res: Res, what: string): Promise<void> {
  if (res.statusCode >= 200 && res.statusCode < 300) return;
  const text = await res.body.text().catch(() => '');
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  throw new Error(`blob store: ${what}: S3 answered ${res.statusCode}${code ? ` ${code}` : ''}`);
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}
