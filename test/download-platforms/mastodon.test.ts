import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusSlots } from '../../src/platforms/mastodon/download.js';
import { SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

describe('mastodon download plans', () => {
  it('video status (hand-made mastodon.social answer): the original mp4 with its size, length and bitrate; the preview still is not a video candidate', async () => {
    const { plan } = await resolveDownload({ source: 'mastodon', params: { query: 'https://mastodon.social/@harbor/113500000000000300' }, replay: [resolve(SANDBOX, 'mastodon/detail-status-video.har')] });
    expect(plan.slots).toHaveLength(1);
    expect(plan.slots[0]!.candidates).toEqual([
      { kind: 'video', url: 'https://files.mastodon.social/media_attachments/files/113/500/000/000/000/original/113500000000000301.mp4', w: 1920, h: 1080, duration_s: 14.52, bitrate: 1500000, watermark: false, source_quality: 'original' },
    ]);
  });

  it('pictures: the original first, the remote copy, then the small preview; best = the original; audio attachments are skipped; a boost reads the boosted post', () => {
    const got = statusSlots({
      reblog: {
        media_attachments: [
          { type: 'image', url: 'https://files.example/original/1.jpg', remote_url: 'https://origin.example/1.jpg', preview_url: 'https://files.example/small/1.jpg', meta: { original: { width: 2000, height: 1500 }, small: { width: 640, height: 480 } } },
          { type: 'audio', url: 'https://files.example/original/2.mp3' },
          { type: 'gifv', url: 'https://files.example/original/3.mp4', meta: { original: { width: 320, height: 240 } } },
        ],
      },
    });
    expect(got.map((s) => s.kind)).toEqual(['image', 'video']);
    expect(got[0]!.candidates.map((c) => c.source_quality)).toEqual(['original', 'remote_original', 'preview']);
    expect(pickBest(got[0]!).url).toBe('https://files.example/original/1.jpg');
    expect(got[1]!.candidates[0]!.source_quality).toBe('gifv_mp4');
  });
});
