import { describe, expect, it } from 'vitest';
import { rewritePlaylist } from '../../src/media/hls.js';

describe('HLS playlist rewriting', () => {
  it('sends every variant, segment and key URI through the proxy, resolved against the playlist URL', () => {
    const text = ['#EXTM3U', '#EXT-X-KEY:METHOD=AES-128,URI="key.bin"', '#EXT-X-STREAM-INF:BANDWIDTH=1', '360p/video.m3u8', '', '#EXTINF:4,', 'https://video.cdn.test/abs/seg1.ts', '/root/seg2.ts'].join('\n');
    const out = rewritePlaylist(text, 'https://video.cdn.test/watch/did/cid/playlist.m3u8', (u) => `P(${u})`);
    expect(out.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-KEY:METHOD=AES-128,URI="P(https://video.cdn.test/watch/did/cid/key.bin)"',
      '#EXT-X-STREAM-INF:BANDWIDTH=1',
      'P(https://video.cdn.test/watch/did/cid/360p/video.m3u8)',
      '',
      '#EXTINF:4,',
      'P(https://video.cdn.test/abs/seg1.ts)',
      'P(https://video.cdn.test/root/seg2.ts)',
    ]);
  });
});
