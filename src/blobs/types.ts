import type { Readable } from 'node:stream';

export interface BlobInfo {
  size: number;
  /** Last change, ms since the epoch (ETags are built from it). */
  mtime: number;
}

/** Inclusive byte offsets, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where rendered files (preview clips) live: a directory for the embedded service or a shared disk,
 * an S3-compatible bucket for a fleet. Keys are relative paths of `[A-Za-z0-9._-]` segments.
 */
export interface BlobStore {
  /** Stores the bytes under key, replacing what was there; a file is moved in when the backend can. */
  put(key: string, from: Buffer | { file: string }): Promise<BlobInfo>;
  get(key: string): Promise<Buffer | undefined>;
  stat(key: string): Promise<BlobInfo | undefined>;
  /** The blob's bytes (only range's, when given); undefined when there is no such blob. */
  stream(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** True when a blob was removed. */
  delete(key: string): Promise<boolean>;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Keys are checked before any backend sees them: no absolute paths, no `..`, no hidden names. */
export function checkKey(key: string): string[] {
  const parts = key.split('/');
  if (!key || parts.length > 8 || !parts.every((p) => SEGMENT.test(p))) throw new Error(`blob key ${JSON.stringify(key.slice(0, 80))}: relative path of [A-Za-z0-9._-] segments`);
  return parts;
}
