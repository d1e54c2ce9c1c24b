import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postSlots } from '../../src/platforms/instagram/download.js';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const SESSION = { cookies: 'sessionid=52418700001%3AsbxSession%3A12; csrftoken=SbxWriterCsrf0001; ds_user_id=52418700001' };
const body = (file: string): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[0].response.content.text);

describe('instagram download plans', () => {
  it('carousel (real ?__a=1 answer, login): one slot per item, every image_versions2 candidate largest first; best = the largest', async () => {
    const file = resolve(FIXTURES, 'instagram/detail-media-a1-CAnqPB-Jzcj.har');
    const item = body(file).items[0];
    const { plan } = await resolveDownload({ source: 'instagram', params: { query: 'https://www.instagram.com/jlo/p/CAnqPB-Jzcj/' }, replay: [file], session: SESSION });
    expect(plan.slots).toHaveLength(item.carousel_media.length);
    plan.slots.forEach((s, i) => {
      const cands = item.carousel_media[i].image_versions2.candidates;
      const largest = [...cands].sort((a: any, b: any) => b.width * b.height - a.width * a.height)[0];
      expect(s.kind).toBe('image');
      expect(s.candidates).toHaveLength(new Set(cands.map((c: any) => c.url)).size);
      expect(pickBest(s)).toMatchObject({ url: largest.url, w: largest.width, h: largest.height, source_quality: 'image_versions2_largest', watermark: false });
    });
  });

  it('video node (real GraphQL timeline answer): every DASH video representation with the best audio beside it, then video_url; best = 720w DASH + audio', () => {
    const node = body(resolve(FIXTURES, 'instagram/posts-graphql-owner-timeline-robertdowneyjr.har')).data.user.edge_owner_to_timeline_media.edges[0].node;
    const [v] = postSlots(node);
    expect(v!.kind).toBe('video');
    const dash = v!.candidates.filter((c) => c.audio_url);
    expect(dash.length).toBeGreaterThan(1);
    expect(new Set(dash.map((c) => c.audio_url)).size).toBe(1);
    expect(dash[0]!.audio_url).toMatch(/^https:\/\/scontent-frt3-1\.cdninstagram\.com\/.+\.mp4\?/);
    expect(dash[0]!.url).not.toContain('&amp;');
    expect(v!.candidates.at(-1)).toMatchObject({ url: node.video_url, source_quality: 'video_url' });
    const best = pickBest(v!);
    expect(best).toMatchObject({ w: 720, h: 406, bitrate: 1141201, watermark: false });
    expect(best.source_quality).toMatch(/^dash_406p_1141k\+audio_\d+k$/);
  });

  it('reel (hand-made logged-out polaris answer): the video slot carries the video_versions', async () => {
    const { plan } = await resolveDownload({ source: 'instagram', params: { query: 'DH1xO0naABl' }, replay: [resolve(SANDBOX, 'instagram/site-pages.har'), resolve(SANDBOX, 'instagram/detail-polaris-DH1xO0naABl.har')] });
    expect(plan.slots.length).toBeGreaterThan(0);
    const v = plan.slots.find((s) => s.kind === 'video')!;
    expect(v.candidates.every((c) => c.source_quality.startsWith('progressive_') || c.source_quality.startsWith('dash_'))).toBe(true);
    expect(plan.draft.media?.find((m) => m.kind === 'video')?.url).toBe(pickBest(v).url);
  });
});
