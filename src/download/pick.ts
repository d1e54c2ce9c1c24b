import type { MediaSlot, StreamCandidate } from './types.js';

export type MediaFilter = 'video' | 'image' | 'any';
export type Quality = 'best' | 'smallest';

/** The slots the caller asked for (media filter), in the plan's order. */
export function slotsFor(slots: MediaSlot[], media: MediaFilter): MediaSlot[] {
  return media === 'any' ? slots : slots.filter((s) => s.kind === media);
}

/**
 * A slot's candidates in the order they are tried: watermark-free first, then by size. best: largest
 * w×h, then bitrate, then bytes; smallest: the reverse. Unknown numbers sort after known ones either way,
 * so a stream the platform describes wins over one it does not.
 */
export function rankCandidates(candidates: StreamCandidate[], quality: Quality): StreamCandidate[] {
  const dir = quality === 'best' ? -1 : 1;
  const by = (v: number | undefined) => (v === undefined || !(v > 0) ? undefined : v);
  const cmp = (a: number | undefined, b: number | undefined) => (a === b ? 0 : a === undefined ? 1 : b === undefined ? -1 : dir * (a - b));
  return candidates
    .map((c, i) => ({ c, i }))
    .sort(
      (x, y) =>
        Number(x.c.watermark) - Number(y.c.watermark) ||
        cmp(x.c.w && x.c.h ? by(x.c.w * x.c.h) : undefined, y.c.w && y.c.h ? by(y.c.w * y.c.h) : undefined) ||
        cmp(by(x.c.bitrate), by(y.c.bitrate)) ||
        cmp(by(x.c.bytes), by(y.c.bytes)) ||
        x.i - y.i,
    )
    .map((x) => x.c);
}
