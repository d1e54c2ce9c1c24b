import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/blobs/types.js';

export async function bytes(s: Readable | undefined): Promise<Buffer | undefined> {
  if (!s) return undefined;
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

export const UNSAFE_KEYS = ['../escape', '/etc/passwd', 'a/../../b', '.hidden/x', 'a//b', '', 'a/b\u0000c', 'a/b?c', 'a b', 'x/'.repeat(9) + 'y'];

/** The BlobStore port's contract: every backend runs these same cases. */
export function blobStoreConformance(name: string, open: () => Promise<BlobStore> | BlobStore): void {
  describe(`BlobStore conformance: ${name}`, () => {
    it('puts bytes and reads them back whole, by stat, and as a stream', async () => {
      const blobs = await open();
      const before = Date.now();
      const info = await blobs.put('weibo/abc.mp4', Buffer.from('0123456789'));
      expect(info.size).toBe(10);
      expect((await blobs.get('weibo/abc.mp4'))?.toString()).toBe('0123456789');
      const st = await blobs.stat('weibo/abc.mp4');
      expect(st?.size).toBe(10);
      // S3's Last-Modified has whole seconds.
      expect(st!.mtime).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
      expect((await bytes(await blobs.stream('weibo/abc.mp4')))?.toString()).toBe('0123456789');
    });

    it('streams an inclusive byte range, as HTTP Range asks, byte-exact on binary data', async () => {
      const blobs = await open();
      await blobs.put('x/r.bin', Buffer.from('abcdefghij'));
      expect((await bytes(await blobs.stream('x/r.bin', { start: 2, end: 5 })))?.toString()).toBe('cdef');
      expect((await bytes(await blobs.stream('x/r.bin', { start: 9, end: 9 })))?.toString()).toBe('j');
      expect((await bytes(await blobs.stream('x/r.bin', { start: 0, end: 0 })))?.toString()).toBe('a');
      const big = randomBytes(300_000);
      await blobs.put('x/big.bin', big);
      expect((await blobs.get('x/big.bin'))?.equals(big)).toBe(true);
      expect((await bytes(await blobs.stream('x/big.bin', { start: 123_457, end: 250_000 })))?.equals(big.subarray(123_457, 250_001))).toBe(true);
    });

    it('moves a rendered file in, leaving nothing at the source, and replaces an older blob', async () => {
      const blobs = await open();
      const dir = mkdtempSync(join(tmpdir(), 'blob-src-'));
      const src = join(dir, 'render.tmp');
      writeFileSync(src, 'first, the longer one');
      await blobs.put('p/clip.mp4', { file: src });
      expect(existsSync(src)).toBe(false);
      writeFileSync(src, 'second');
      const info = await blobs.put('p/clip.mp4', { file: src });
      expect(info.size).toBe('second'.length);
      expect((await blobs.stat('p/clip.mp4'))?.size).toBe('second'.length);
      expect((await blobs.get('p/clip.mp4'))?.toString()).toBe('second');
      await blobs.put('p/clip.mp4', Buffer.from('third'));
      expect((await blobs.get('p/clip.mp4'))?.toString()).toBe('third');
    });

    it('keeps keys apart: nested paths, dots, dashes and underscores', async () => {
      const blobs = await open();
      await blobs.put('a/b/c.d-e_f.mp4', Buffer.from('deep'));
      await blobs.put('a/c.d-e_f.mp4', Buffer.from('shallow'));
      await blobs.put('b/c.d-e_f.mp4', Buffer.from('other'));
      expect((await blobs.get('a/b/c.d-e_f.mp4'))?.toString()).toBe('deep');
      expect((await blobs.get('a/c.d-e_f.mp4'))?.toString()).toBe('shallow');
      expect(await blobs.delete('a/c.d-e_f.mp4')).toBe(true);
      expect((await blobs.get('a/b/c.d-e_f.mp4'))?.toString()).toBe('deep');
      expect((await blobs.get('b/c.d-e_f.mp4'))?.toString()).toBe('other');
    });

    it('answers undefined for a missing blob on every read, and delete says whether it removed one', async () => {
      const blobs = await open();
      expect(await blobs.get('none/here.mp4')).toBeUndefined();
      expect(await blobs.stat('none/here.mp4')).toBeUndefined();
      expect(await blobs.stream('none/here.mp4')).toBeUndefined();
      expect(await blobs.stream('none/here.mp4', { start: 0, end: 1 })).toBeUndefined();
      expect(await blobs.delete('none/here.mp4')).toBe(false);
      await blobs.put('some/thing.bin', Buffer.from('x'));
      expect(await blobs.delete('some/thing.bin')).toBe(true);
      expect(await blobs.get('some/thing.bin')).toBeUndefined();
      expect(await blobs.stat('some/thing.bin')).toBeUndefined();
      expect(await blobs.delete('some/thing.bin')).toBe(false);
    });

    it('refuses unsafe keys on every call, and stores nothing for them', async () => {
      const blobs = await open();
      for (const bad of UNSAFE_KEYS) {
        await expect(blobs.put(bad, Buffer.from('x')), bad).rejects.toThrow(/blob key/);
        await expect(blobs.get(bad), bad).rejects.toThrow(/blob key/);
        await expect(blobs.stat(bad), bad).rejects.toThrow(/blob key/);
        await expect(blobs.stream(bad, { start: 0, end: 0 }), bad).rejects.toThrow(/blob key/);
        await expect(blobs.delete(bad), bad).rejects.toThrow(/blob key/);
      }
      expect(await blobs.get('escape')).toBeUndefined();
      expect(await blobs.get('b')).toBeUndefined();
    });
  });
}
