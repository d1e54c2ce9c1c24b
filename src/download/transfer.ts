import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
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
}

/**
 * Fetches one stream through the media proxy (allowlist, address rules, platform headers, the profile's
 * cookies on its own CDN, expired-URL refresh) into the partial file, hashing as it writes. A partial
 * file from an earlier attempt is resumed with `Range: bytes=N-` when the origin honours it.
 */
export async function transfer(proxy: MediaProxy, r: TransferRequest): Promise<TransferDone> {
  const have = await sizeOf(r.part);
  // Hashed before the request: the proxy's body flows as soon as it exists, so nothing may be awaited between.
  const prior = createHash('sha256');
  if (have > 0) await hashFile(r.part, prior);
  const answer = await proxy.open(
    { u: r.url, method: 'GET', range: have > 0 ? `bytes=${have}-` : undefined, headers: r.headers, video: { platform: r.platform, cookies: r.cookies, profile: r.profile } },
    r.signal,
  );
  if (answer.status === 416 && have > 0) {
    // The partial file is not a prefix the origin recognises (already whole, or the object changed): start over.
    answer.body?.on('error', () => {}).destroy();
    await rm(r.part, { force: true });
    return transfer(proxy, r);
  }
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
  const hash = resumed ? prior : createHash('sha256');
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
  try {
    // 'w' truncates a partial file the origin would not resume.
    await pipeline(body, count, createWriteStream(r.part, { flags: resumed ? 'a' : 'w' }), { signal: r.signal });
  } catch (e) {
    if (r.signal.aborted || e instanceof MediaError) throw e;
    // The origin dropped the connection or stalled: what arrived stays in the partial file for a retry.
    throw new MediaError('upstream_error', `the origin broke off the transfer after ${bytes} bytes: ${(e as Error).message}`);
  }
  return { bytes, sha256: hash.digest('hex'), type: answer.headers['content-type'] };
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await hashFile(file, hash);
  return hash.digest('hex');
}

async function hashFile(file: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
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
