import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const body = (file: string): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries.at(-1).response.content.text);

describe('threads download plans', () => {
  it('text post (real 2023 post page answer): no slots', async () => {
    const { plan } = await resolveDownload({ source: 'threads', params: { query: 'https://www.threads.net/@mosseri/post/CuXRXDdNOtH' }, replay: [resolve(FIXTURES, 'threads/detail-graphql-post-page-3141055616164096839.har')] });
    expect(plan.draft.native_id).toBe('3141055616164096839');
    expect(plan.slots).toEqual([]);
  });

  it('carousel of an image and a video (hand-made 2026 answer): one slot each, every rendition; best = the largest image and the largest video', async () => {
    const file = resolve(SANDBOX, 'threads/detail-post-page-3712000000000000001.har');
    const post = body(file).data.data.edges[0].node.thread_items[0].post;
    const { plan } = await resolveDownload({ source: 'threads', params: { query: `https://www.threads.com/@harbor.lights/post/${post.code}` }, replay: [resolve(SANDBOX, 'threads/session-page.har'), file] });
    expect(plan.slots.map((s) => s.kind)).toEqual(post.carousel_media.map((m: any) => (m.media_type === 2 ? 'video' : 'image')));
    plan.slots.forEach((s, i) => {
      const m = post.carousel_media[i];
      const list = s.kind === 'video' ? m.video_versions : m.image_versions2.candidates;
      expect(s.candidates.map((c) => c.url).sort()).toEqual([...new Set(list.map((v: any) => v.url))].sort());
      const largest = [...list].sort((a: any, b: any) => b.width * b.height - a.width * a.height)[0];
      expect(pickBest(s)).toMatchObject({ url: largest.url, watermark: false });
    });
  });
});
