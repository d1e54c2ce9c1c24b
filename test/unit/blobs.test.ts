import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/blobs/file.js';
import { UNSAFE_KEYS } from '../helpers/blob-conformance.js';

// The port's contract runs in blob-stores.test.ts for every backend; here only what is the file backend's own.
describe('file blob store', () => {
  it('writes through a temporary name and leaves no temporary files or stray paths behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blobs-'));
    const blobs = new FileBlobStore(join(dir, 'root'));
    for (const bad of UNSAFE_KEYS) await expect(blobs.put(bad, Buffer.from('x')), bad).rejects.toThrow(/blob key/);
    await blobs.put('ok/one.bin', Buffer.from('1'));
    expect(readdirSync(join(dir, 'root', '.incoming'))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['root']);
    expect(readdirSync(join(dir, 'root')).sort()).toEqual(['.incoming', 'ok']);
  });
});
