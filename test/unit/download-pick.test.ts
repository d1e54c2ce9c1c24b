import { describe, expect, it } from 'vitest';
import { rankCandidates, slotsFor } from '../../src/download/pick.js';
import { contentDisposition, fileName } from '../../src/download/names.js';
import type { StreamCandidate } from '../../src/download/types.js';

const c = (source_quality: string, over: Partial<StreamCandidate> = {}): StreamCandidate => ({ kind: 'video', url: `https://cdn.example/${source_quality}`, watermark: false, source_quality, ...over });

describe('download stream picking', () => {
  const list = [
    c('wm_1080', { watermark: true, w: 1920, h: 1080, bitrate: 9e6 }),
    c('clean_720', { w: 1280, h: 720, bitrate: 2e6 }),
    c('clean_1080_low', { w: 1920, h: 1080, bitrate: 3e6 }),
    c('clean_1080_high', { w: 1920, h: 1080, bitrate: 5e6 }),
    c('clean_unknown'),
  ];
  it('best: watermark-free first, then the largest frame, then bit rate; unknown sizes after known ones', () => {
    expect(rankCandidates(list, 'best').map((x) => x.source_quality)).toEqual(['clean_1080_high', 'clean_1080_low', 'clean_720', 'clean_unknown', 'wm_1080']);
  });
  it('smallest: watermark-free first, then the smallest frame; a watermarked stream is never preferred', () => {
    expect(rankCandidates(list, 'smallest').map((x) => x.source_quality)).toEqual(['clean_720', 'clean_1080_low', 'clean_1080_high', 'clean_unknown', 'wm_1080']);
  });
  it('the media filter keeps the slots of the kind asked for', () => {
    const slots = [{ kind: 'image' as const, candidates: [] }, { kind: 'video' as const, candidates: [] }];
    expect(slotsFor(slots, 'image')).toHaveLength(1);
    expect(slotsFor(slots, 'any')).toHaveLength(2);
  });
  it('file names are readable and safe; Content-Disposition carries the exact name in filename*', () => {
    expect(fileName('a/b:c "d"', '123', 1, 3, 'image/webp')).toBe('a_b_c _d__123_2.webp');
    expect(fileName(undefined, '../x', 0, 1, 'video/mp4')).toBe('post_.._x.mp4');
    expect(contentDisposition('旅行的人_1.mp4')).toBe(`attachment; filename="_____1.mp4"; filename*=UTF-8''${encodeURIComponent('旅行的人_1.mp4')}`);
  });
});
