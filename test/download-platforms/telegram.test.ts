import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageSlots } from '../../src/platforms/telegram/download.js';
import { parseHistory } from '../../src/platforms/telegram/parse.js';
import { FIXTURES } from '../helpers/run-action.js';
import { pickBest, resolveDownload } from '../helpers/resolve-download.js';

const real = (f: string) => resolve(FIXTURES, 'telegram', f);
const html = (file: string): string => JSON.parse(readFileSync(file, 'utf8')).log.entries[0].response.content.text;

describe('telegram download plans', () => {
  it('album of a video and two photos (real t.me/s page): three slots in page order, the video src and the photo backgrounds', async () => {
    const { plan } = await resolveDownload({ source: 'telegram', params: { query: 't.me/s/anna_news/46908' }, replay: [real('detail-message-photo-and-video-anna_news-46908.har')] });
    expect(plan.slots.map((s) => [s.kind, s.candidates.map((c) => c.source_quality)])).toEqual([
      ['video', ['web_preview_video']],
      ['image', ['web_preview_photo']],
      ['image', ['web_preview_photo']],
    ]);
    expect(plan.slots.map((s) => pickBest(s).url)).toEqual(plan.draft.media!.map((m) => m.url));
    expect(pickBest(plan.slots[0]!)).toMatchObject({ duration_s: 5, watermark: false, mime: 'video/mp4' });
  });

  it('a video t.me withholds ("Media is too big", real channel page) is not_found naming the reason, never an empty plan', () => {
    const page = parseHistory(html(real('posts-channel-topwar_official-before-71009.har')));
    const msg = page.messages.find((m) => m.id === 71007)!;
    expect(() => messageSlots(msg)).toThrow(expect.objectContaining({ code: 'not_found', message: expect.stringContaining('Media is too big') }));
  });

  it('a voice message (real page) has no downloadable media: no slots', async () => {
    const { plan, warnings } = await resolveDownload({ source: 'telegram', params: { query: '@oper_goblin/939' }, replay: [real('detail-message-voice-oper_goblin-939.har')] });
    expect(plan.slots).toEqual([]);
    // detail's note on what the item carries is detail's own: download does not repeat it.
    expect(warnings.join(' ')).not.toMatch(/Item media kind/);
  });
});
