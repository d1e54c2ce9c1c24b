import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const DID = 'did:plc:kvwvcn5iqfooopmyzvb4qzba';

describe('bluesky download plans', () => {
  it('pictures next to a quote (real getPostThread, recordWithMedia): each fullsize first, then its thumb; the quoted post\'s media is not taken', async () => {
    const file = resolve(FIXTURES, 'bluesky/detail-post-thread-3kaheyt6vpc22.har');
    const post = JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[0].response.content.text).thread.post;
    const images = post.embed.media.images;
    const { plan } = await resolveDownload({ source: 'bluesky', params: { query: `at://${DID}/app.bsky.feed.post/3kaheyt6vpc22` }, replay: [file] });
    expect(plan.slots).toHaveLength(images.length);
    plan.slots.forEach((s, i) => {
      expect(s.candidates.map((c) => [c.source_quality, c.url])).toEqual([['fullsize', images[i].fullsize], ['thumb', images[i].thumb]]);
      expect(pickBest(s)).toMatchObject({ source_quality: 'fullsize', watermark: false });
    });
  });

  it('a video post (hand-made thread): the AppView offers only its HLS playlist, so download answers upstream_error naming it', async () => {
    await expect(
      resolveDownload({ source: 'bluesky', params: { query: 'https://bsky.app/profile/bsky.app/post/3lbaafjknk22b' }, replay: [resolve(FIXTURES, 'bluesky/resolve-handle-bsky.app.har'), resolve(SANDBOX, 'bluesky/detail-post-thread-bsky.app-3lbaafjknk22b.har')] }),
    ).rejects.toMatchObject({ code: 'upstream_error', message: expect.stringMatching(/only as a streaming playlist \(Bluesky video 1 \(HLS https:\/\/video\.bsky\.app\/.+\.m3u8\)\)/) });
  });
});
