import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { checkKey, type BlobInfo, type BlobStore, type ByteRange } from './types.js';

/**
 * Blobs as files under one directory (the data dir, or a disk every node mounts). Writes land in a
 * temporary name and are renamed into place, so a reader never sees half a file.
 */
export class FileBlobStore implements BlobStore {
  private readonly incoming: string;

  constructor(private readonly root: string) {
    this.incoming = join(root, '.incoming');
  }

  /** The file a key names (for legacy rows that stored a path). */
  pathOf(key: string): string {
    return join(this.root, ...checkKey(key));
  }

  async put(key: string, from: Buffer | { file: string }): Promise<BlobInfo> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    if (Buffer.isBuffer(from)) {
      await mkdir(this.incoming, { recursive: true });
      const tmp = join(this.incoming, randomBytes(8).toString('hex'));
      try {
        await writeFile(tmp, from);
        await rename(tmp, target);
      } finally {
        await rm(tmp, { force: true });
      }
    } else {
      await moveInto(from.file, target, dirname(target));
    }
    return (await this.stat(key)) as BlobInfo;
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (e) {
      return missing(e);
    }
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    try {
      const st = await stat(this.pathOf(key));
      return st.isFile() ? { size: st.size, mtime: st.mtimeMs } : undefined;
    } catch (e) {
      return missing(e);
    }
  }

  async stream(key: string, range?: ByteRange): Promise<Readable | undefined> {
    // Opened first: a missing blob is an answer, not a stream error, and a replaced one is read whole.
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (e) {
      return missing(e);
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<boolean> {
    try {
      await unlink(this.pathOf(key));
      return true;
    } catch (e) {
      return missing(e) ?? false;
    }
  }
}

/** Rename when source and target share a filesystem; otherwise copy beside the target, then rename. */
async function moveInto(source: string, target: string, dir: string): Promise<void> {
  try {
    await rename(source, target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    const tmp = join(dir, `.${randomBytes(8).toString('hex')}`);
    try {
      await copyFile(source, tmp);
      await rename(tmp, target);
      await rm(source, { force: true });
    } finally {
      await rm(tmp, { force: true });
    }
  }
}

function missing(e: unknown): undefined {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  throw e;
}
