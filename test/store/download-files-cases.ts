import { expect, it } from 'vitest';
import type { DownloadFileRow } from '../../src/store/download-files.js';
import type { Store } from '../../src/store/types.js';

const file = (id: string, sha: string, over: Partial<DownloadFileRow> = {}): DownloadFileRow => ({
  id,
  sha256: sha,
  blob_key: `downloads/${sha.slice(0, 2)}/${sha}`,
  bytes: 100,
  mime: 'video/mp4',
  kind: 'video',
  w: 160,
  h: 90,
  duration_s: 2.5,
  source_quality: 'play_addr_no_watermark',
  name: 'alice_123_1.mp4',
  platform: 'douyin',
  native_id: '123',
  source_key: `123#0#${id}`,
  created_at: 1000,
  last_access: 1000,
  pinned: false,
  evicted_at: null,
  ...over,
});

/** Store.downloads cases, run inside the Store conformance suite on both backends. */
export function downloadFileCases(start: () => Promise<Store>): void {
  it('downloads: stores a file row and reads every field back; bySource and bySha find live rows', async () => {
    const s = await start();
    const row = file('f1', 'aa11', { w: null, h: null, duration_s: null, kind: 'image', mime: 'image/jpeg' });
    await s.downloads.put(row);
    expect(await s.downloads.get('f1')).toEqual(row);
    expect(await s.downloads.get('nope')).toBeUndefined();
    expect((await s.downloads.bySource('douyin', row.source_key))?.id).toBe('f1');
    expect(await s.downloads.bySource('tiktok', row.source_key)).toBeUndefined();
    expect((await s.downloads.bySha('aa11'))?.id).toBe('f1');
  });

  it('downloads: usage counts a shared blob once; evictable is LRU by blob and spares pinned blobs', async () => {
    const s = await start();
    await s.downloads.put(file('a', 'sha-a', { bytes: 10, last_access: 300 }));
    await s.downloads.put(file('a2', 'sha-a', { bytes: 10, last_access: 100, name: 'other.mp4' }));
    await s.downloads.put(file('b', 'sha-b', { bytes: 20, last_access: 200 }));
    await s.downloads.put(file('c', 'sha-c', { bytes: 40, last_access: 50 }));
    expect(await s.downloads.usage()).toBe(70);
    expect(await s.downloads.pin('c', true)).toBe(true);
    expect(await s.downloads.pin('missing', true)).toBe(false);
    // sha-a's newest access (300) counts for the blob, so b (200) goes first; c is pinned.
    expect((await s.downloads.evictable(10)).map((x) => x.sha256)).toEqual(['sha-b', 'sha-a']);
    await s.downloads.touch('b', 400);
    await s.downloads.touch('b', 10);
    expect((await s.downloads.get('b'))?.last_access).toBe(400);
    expect((await s.downloads.evictable(1)).map((x) => x.sha256)).toEqual(['sha-a']);
  });

  it('downloads: evict marks every row of a blob, never a pinned one, and evicted rows are not live', async () => {
    const s = await start();
    await s.downloads.put(file('a', 'sha-a', { bytes: 10 }));
    await s.downloads.put(file('a2', 'sha-a', { bytes: 10 }));
    await s.downloads.put(file('p', 'sha-p', { bytes: 5, pinned: true }));
    expect(await s.downloads.evict('sha-p', 2000)).toBe(0);
    expect(await s.downloads.evict('sha-a', 2000)).toBe(2);
    expect((await s.downloads.get('a'))?.evicted_at).toBe(2000);
    expect(await s.downloads.bySha('sha-a')).toBeUndefined();
    expect(await s.downloads.bySource('douyin', '123#0#a')).toBeUndefined();
    expect(await s.downloads.pin('a', true)).toBe(false);
    expect(await s.downloads.usage()).toBe(5);
    expect(await s.downloads.pin('p', false)).toBe(true);
    expect((await s.downloads.evictable(5)).map((x) => x.sha256)).toEqual(['sha-p']);
  });
}
