import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { playSlots } from '../../src/platforms/toutiao/download.js';
import { SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const sand = (f: string) => resolve(SANDBOX, 'toutiao', f);

describe('toutiao download plans', () => {
  it('video (hand-made page): each video_list definition with its backup; best = 720p', async () => {
    const { plan } = await resolveDownload({ source: 'toutiao', params: { query: 'https://www.toutiao.com/video/7505382061495176511/' }, replay: [sand('detail-video.har'), sand('ttwid-register.har')] });
    const v = plan.slots[0]!;
    expect(v.candidates.map((c) => [c.source_quality, c.w, c.h, c.bytes])).toEqual([
      ['video_list_480p', 854, 480, 18561023],
      ['video_list_480p_backup', 854, 480, 18561023],
      ['video_list_720p', 1280, 720, 36048211],
      ['video_list_720p_backup', 1280, 720, 36048211],
    ]);
    expect(pickBest(v)).toMatchObject({ source_quality: 'video_list_720p', url: plan.draft.media![0]!.url, duration_s: 242.35, watermark: false });
  });

  it('split tracks only (dynamic_video): each video track with the best audio track beside it', () => {
    const [v] = playSlots({
      video_duration: 10,
      dynamic_video: {
        dynamic_video_list: [{ main_url: 'https://v3-default.toutiaovod.com/v1080.mp4', video_meta: { definition: '1080p', vwidth: 1920, vheight: 1080 } }],
        dynamic_audio_list: [
          { main_url: 'https://v3-default.toutiaovod.com/a64.mp4', audio_meta: { bitrate: 64000 } },
          { main_url: 'https://v3-default.toutiaovod.com/a128.mp4', audio_meta: { bitrate: 128000 } },
        ],
      },
    });
    expect(v!.candidates).toEqual([expect.objectContaining({ url: 'https://v3-default.toutiaovod.com/v1080.mp4', audio_url: 'https://v3-default.toutiaovod.com/a128.mp4', source_quality: 'dynamic_video_1080p+audio' })]);
  });

  it('micro-post (hand-made phone page): the pictures detail lists', async () => {
    const { plan } = await resolveDownload({ source: 'toutiao', params: { query: 'https://www.toutiao.com/w/1832590417768457/' }, replay: [sand('detail-micro.har')] });
    expect(plan.slots.map((s) => s.candidates[0]!.url)).toEqual((plan.draft.media ?? []).map((m) => m.url));
  });
});
