import { describe, expect, it } from 'vitest';
import { previewSeconds, previewSize } from '../../src/media/preview/ffmpeg.js';

describe('preview frame and length', () => {
  it('follows the renderer: at most 240 px high, even sides, aspect kept; whole video up to 240 s', () => {
    expect(previewSize(640, 360)).toEqual({ w: 426, h: 240 });
    expect(previewSize(320, 180)).toEqual({ w: 320, h: 180 });
    expect(previewSize(1080, 1920)).toEqual({ w: 136, h: 240 });
    expect(previewSize(161, 121)).toEqual({ w: 160, h: 120 });
    expect(previewSeconds(103.456)).toBe(103.46);
    expect(previewSeconds(250)).toBe(240);
    expect(previewSeconds(4)).toBe(4);
  });
});
