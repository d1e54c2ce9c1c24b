import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, truncate } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaProxy } from '../media/proxy.js';
import { MediaError } from '../media/errors.js';

export interface TransferRequest {
  url: string;
  platform: string;
  profile: string;
  cookies?: string;
  headers?: Record<string, string>;
  /** Bytes allowed for this file (2 GiB for video, 32 MiB for images unless configured lower). */
  cap: number;
  /** The partial file: appended to with a Range request when it already holds bytes (a retry). */
  part: string;
  signal: AbortSignal;
  onBytes(n: number): void;
}

export interface TransferDone {
  bytes: number;
  sha256: string;
  /** The origin's content type (may be a generic one). */
  type?: string;
  resumedFrom: number;
}

/**
 * Fetches one stream through the media proxy (allowlist, address rules, platform headers, the profile's
 * cookies on its own CDN, expired-URL refresh) into the partial file, hashing as it writes. A partial
 * file from an earlier attempt is resumed with `Range: bytes=N-` when the origin honours it.
 */
export async function transfer(proxy: MediaProxy, r: TransferRequest): Promise<TransferDone> {
  const have = await sizeOf(r.part);
  const answer = await proxy.open(
    { u: r.url, method: 'GET', range: have > 0 ? `bytes=${have}-` : undefined, headers: r.headers, video: { platform: r.platform, cookies: r.cookies, profile: r.profile } },
    r.signal,
  );
  const body = answer.body;
  if (!body) throw new MediaError('upstream_error', `the origin answered HTTP ${answer.status} without a body`);
  body.on('error', () => {});
  const resumed = have > 0 && answer.status === 206 && new RegExp(`^bytes ${have}-`).test(answer.headers['content-range'] ?? '');
  if (answer.status !== 200 && !resumed) {
    body.destroy();
    throw new MediaError('upstream_error', `the origin answered HTTP ${answer.status}`);
  }
  const start = resumed ? have : 0;
  const declared = Number(answer.headers['content-length']);
  if (Number.isFinite(declared) && start + declared > r.cap) {
    body.destroy();
    throw capError(start + declared, r.cap);
  }
  if (!resumed && have > 0) await truncate(r.part, 0);
  const hash = createHash('sha256');
  if (resumed) await hashFile(r.part, hash);
  let bytes = start;
  const count = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > r.cap) return cb(capError(bytes, r.cap));
      hash.update(chunk);
      r.onBytes(chunk.length);
      cb(null, chunk);
    },
  });
  await pipeline(body, count, createWriteStream(r.part, { flags: resumed ? 'a' : 'w' }), { signal: r.signal });
  return { bytes, sha256: hash.digest('hex'), type: answer.headers['content-type'], resumedFrom: start };
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await hashFile(file, hash);
  return hash.digest('hex');
}

function hashFile(file: string, hash: Hash): Promise<void> {
  return pipeline(createReadStream(file), async function* (src) {
    for await (const chunk of src) hash.update(chunk as Buffer);
  });
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

function capError(bytes: number, cap: number): MediaError {
  const e = new MediaError('upstream_error', `the stream is larger than the ${cap}-byte cap for this kind of file (${bytes}+ bytes)`);
  e.retryable = false;
  return e;
}
