import { mkdtempSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/blobs/file.js';

const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'blobs-'));
  return { dir, blobs: new FileBlobStore(join(dir, 'root')) };
};

async function text(s: Readable | undefined): Promise<string | undefined> {
  if (!s) return undefined;
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts).toString();
}

describe('file blob store (embedded BlobStore port)', () => {
  it('puts bytes and reads them back whole, by stat, and as a stream', async () => {
    const { blobs } = fresh();
    const info = await blobs.put('weibo/abc.mp4', Buffer.from('0123456789'));
    expect(info.size).toBe(10);
    expect((await blobs.get('weibo/abc.mp4'))?.toString()).toBe('0123456789');
    expect(await blobs.stat('weibo/abc.mp4')).toMatchObject({ size: 10 });
    expect(await text(await blobs.stream('weibo/abc.mp4'))).toBe('0123456789');
  });

  it('streams an inclusive byte range, as HTTP Range asks', async () => {
    const { blobs } = fresh();
    await blobs.put('x/r.bin', Buffer.from('abcdefghij'));
    expect(await text(await blobs.stream('x/r.bin', { start: 2, end: 5 }))).toBe('cdef');
    expect(await text(await blobs.stream('x/r.bin', { start: 9, end: 9 }))).toBe('j');
    expect(await text(await blobs.stream('x/r.bin', { start: 0, end: 0 }))).toBe('a');
  });

  it('moves a rendered file in, leaving nothing at the source, and replaces an older blob', async () => {
    const { dir, blobs } = fresh();
    const src = join(dir, 'render.tmp');
    writeFileSync(src, 'first');
    await blobs.put('p/clip.mp4', { file: src });
    expect(existsSync(src)).toBe(false);
    writeFileSync(src, 'second, longer');
    const info = await blobs.put('p/clip.mp4', { file: src });
    expect(info.size).toBe('second, longer'.length);
    expect((await blobs.get('p/clip.mp4'))?.toString()).toBe('second, longer');
  });

  it('answers undefined for a missing blob on every read, and delete says whether it removed one', async () => {
    const { blobs } = fresh();
    expect(await blobs.get('none/here.mp4')).toBeUndefined();
    expect(await blobs.stat('none/here.mp4')).toBeUndefined();
    expect(await blobs.stream('none/here.mp4', { start: 0, end: 1 })).toBeUndefined();
    expect(await blobs.delete('none/here.mp4')).toBe(false);
    await blobs.put('some/thing.bin', Buffer.from('x'));
    expect(await blobs.delete('some/thing.bin')).toBe(true);
    expect(await blobs.get('some/thing.bin')).toBeUndefined();
    expect(await blobs.delete('some/thing.bin')).toBe(false);
  });

  it('refuses keys that could leave its directory, and leaves no temporary files behind', async () => {
    const { dir, blobs } = fresh();
    for (const bad of ['../escape', '/etc/passwd', 'a/../../b', '.hidden/x', 'a//b', '', 'a/b\u0000c']) {
      await expect(blobs.put(bad, Buffer.from('x')), bad).rejects.toThrow(/blob key/);
      await expect(blobs.get(bad), bad).rejects.toThrow(/blob key/);
    }
    await blobs.put('ok/one.bin', Buffer.from('1'));
    expect(readdirSync(join(dir, 'root', '.incoming'))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['root']);
  });
});
