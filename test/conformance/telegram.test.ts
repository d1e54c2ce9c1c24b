import { readFileSync, readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CreatorResult, Envelope } from '../../src/domain/results.js';
import { encodeCursor } from '../../src/tasks/cursor.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every telegram recording, replayed through the real catalog validation, adapter and runner
 * normalization; expected values are read from the recorded HTML with plain regexes, not the adapter's
 * parser. Hand-made sandbox recordings (sandbox/telegram) cover what no real recording does.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/telegram');
const SANDBOX = resolve(process.cwd(), 'sandbox/telegram');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));

const POSTS = 'posts-channel-topwar_official-before-71009.har';
const LINK_PREVIEW_VIDEO = 'detail-message-link-preview-video-fighter_bomber-11226.har';
const ALBUM = 'detail-message-photo-and-video-anna_news-46908.har';
const VOICE = 'detail-message-voice-oper_goblin-939.har';

const run = (action: string, params: Record<string, unknown>, replay: string[]) => runAction({ source: 'telegram', action, params, replay });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=telegram&profile=default`;

const html = (file: string, i = 0): string => JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text;
/** The raw markup of one message widget: from its data-post up to the next one. */
function widget(body: string, post: string): string {
  const start = body.indexOf(`data-post="${post}"`);
  if (start < 0) throw new Error(`no ${post} in the recording`);
  const next = body.indexOf('data-post="', start + 10);
  return body.slice(start, next < 0 ? undefined : next);
}
const first = (re: RegExp, s: string): string => {
  const m = re.exec(s);
  if (!m) throw new Error(`${re} not found in the recording`);
  return m[1];
};
const all = (re: RegExp, s: string): string[] => [...s.matchAll(re)].map((m) => m[1]);
const tsOf = (w: string): number => Date.parse(first(/datetime="([^"]+)"/, w)) / 1000;
const viewsOf = (w: string): string => first(/tgme_widget_message_views">([^<]+)</, w);
const videoSrc = (w: string): string => first(/<video[^>]+src="([^"]+)"/, w);
const backgrounds = (w: string): string[] => all(/background-image:\s*url\((?:'|&quot;)([^'&]+)(?:'|&quot;)\)/g, w).filter((u) => !u.startsWith('//telegram.org/'));

describe('telegram.posts (real recording: t.me/s/topwar_official, newest page)', () => {
  const body = html(real(POSTS));
  const ids = all(/data-post="topwar_official\/(\d+)"/g, body);

  it('reads the page newest first, field by field, and pages on before the smallest id', async () => {
    const { result, requests } = await run('posts', { query: 'topwar_official', limit: 12 }, [real(POSTS)]);
    expect(requests).toEqual(['GET https://t.me/s/topwar_official']);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 12 });
    expect(env.items.map((i) => i.id)).toEqual([...ids].reverse().map((id) => `telegram:topwar_official/${id}`));
    expect(ids).toHaveLength(12);
    // The page's own "load older" link names the smallest id on it.
    expect(first(/data-before="(\d+)"/, body)).toBe('70989');
    expect(env.next_cursor).toBe(encodeCursor({ c: '70989', s: 0 }));

    for (const item of env.items) {
      const id = item.id.split('/')[1];
      const w = widget(body, `topwar_official/${id}`);
      expect(item).toMatchObject({
        provider: 'telegram',
        author: 'Военное обозрение',
        author_id: 'topwar_official',
        author_handle: 'topwar_official',
        author_url: 'https://t.me/topwar_official',
        url: `https://t.me/topwar_official/${id}`,
        ts: tsOf(w),
        provenance: 'live',
      });
      expect(item.title).toBeUndefined();
      expect(item.stats.views).toBeGreaterThan(0);
      // Re-indentation whitespace collapses; <br> line breaks survive.
      expect(item.text).not.toMatch(/Forwarded from|[ \t]{2,}| \n|\n |^\s|\s$/);
      for (const m of item.media) expect(m.url.startsWith('/v1/media?u=https%3A%2F%2Fcdn4.telegram-cdn.org%2F')).toBe(true);
    }
    expect(env.items.map((i) => [i.id.split('/')[1], i.stats.views])).toEqual([
      ['71008', 14_900],
      ['71007', 16_800],
      ['71006', 17_200],
      ['71000', 28_700],
      ['70999', 28_700],
      ['70998', 29_000],
      ['70997', 30_300],
      ['70996', 32_900],
      ['70995', 33_600],
      ['70992', 33_800],
      ['70990', 34_500],
      ['70989', 37_200],
    ]);
    expect(ids.map((id) => viewsOf(widget(body, `topwar_official/${id}`)))).toEqual(['37.2K', '34.5K', '33.8K', '33.6K', '32.9K', '30.3K', '29.0K', '28.7K', '28.7K', '17.2K', '16.8K', '14.9K']);
    expect(env.items.map((i) => i.type)).toEqual(['video', 'video', 'video', 'image', 'text', 'image', 'text', 'text', 'text', 'video', 'text', 'image']);
  });

  it('single photo: its size is the wrap width and the padding-top ratio', async () => {
    const env = (await run('posts', { query: 'topwar_official', limit: 12 }, [real(POSTS)])).result as Envelope;
    const w = widget(body, 'topwar_official/70989');
    const photo = env.items.find((i) => i.id === 'telegram:topwar_official/70989')!;
    const [url] = backgrounds(w);
    expect(first(/style="width:(\d+)px;background-image/, w)).toBe('800');
    expect(first(/padding-top:([\d.]+)%/, w)).toBe('58.625');
    expect(photo.media).toEqual([{ kind: 'image', url: image(url), w: 800, h: 469 }]);
    expect(photo.thumb).toBe(image(url));
    expect(photo.aspect).toEqual({ width: 800, height: 469 });
    const bold = env.items.find((i) => i.id === 'telegram:topwar_official/70998')!;
    expect(bold.text!.startsWith('Новые ракетные корабли ВМФ РФ с Калибрами вышли на учения в Балтийское море\n\nМалые ракетные корабли')).toBe(true);
    expect(photo.text).toBe(
      'В Санкт-Петербурге в небо над городом подняли истребители из-за неизвестного объекта в воздухе, аэропорт Пулково не принимает самолеты, сообщает Baza.\n' +
        'Судя по сервису Flightradar, гражданские самолеты не приближаются к Санкт-Петербургу.',
    );
  });

  it('single video with a stream: mp4, size, duration, cover', async () => {
    const env = (await run('posts', { query: 'topwar_official', limit: 1 }, [real(POSTS)])).result as Envelope;
    const w = widget(body, 'topwar_official/71008');
    const item = env.items[0];
    expect(item.id).toBe('telegram:topwar_official/71008');
    expect(first(/message_video_duration js-message_video_duration">([^<]+)</, w)).toBe('0:17');
    expect(item.media).toEqual([{ kind: 'video', url: video(videoSrc(w)), w: 1024, h: 592, duration_s: 17 }]);
    expect(item).toMatchObject({ type: 'video', duration_s: 17, aspect: { width: 1024, height: 592 }, thumb: image(backgrounds(w)[0]) });
    expect(item.text).toBe('Подземные тоннели для укрытия и скрытого перемещения иранских средств ПВО были продемонстрированы в ходе начавшихся учений иранской ПВО Modafean-e-Aseman-e-Velayat 1401.');
  });

  it('videos t.me withholds ("Media is too big") stay videos with cover and duration, without a stream', async () => {
    const env = (await run('posts', { query: 'topwar_official', limit: 3 }, [real(POSTS)])).result as Envelope;
    for (const [id, duration] of [['71007', 101], ['71006', 177]] as const) {
      const w = widget(body, `topwar_official/${id}`);
      expect(w).toContain('Media is too big');
      expect(w).not.toContain('<video');
      const item = env.items.find((i) => i.id === `telegram:topwar_official/${id}`)!;
      expect(item).toMatchObject({ type: 'video', duration_s: duration, media: [], thumb: image(backgrounds(w)[0]) });
    }
  });

  it('albums: every member in page order, layout sizes not reported as media sizes', async () => {
    const env = (await run('posts', { query: 'topwar_official', limit: 12 }, [real(POSTS)])).result as Envelope;
    const mixed = env.items.find((i) => i.id === 'telegram:topwar_official/70992')!;
    const w = widget(body, 'topwar_official/70992');
    const bg = backgrounds(w);
    expect(mixed.media).toEqual([
      { kind: 'image', url: image(bg[0]) },
      { kind: 'image', url: image(bg[1]) },
      { kind: 'video', url: video(videoSrc(w)), duration_s: 16 },
    ]);
    expect(mixed).toMatchObject({ type: 'video', duration_s: 16, thumb: image(bg[2]) });
    expect(mixed.aspect).toBeUndefined();
    expect(mixed.text).toBe('Сегодня ночью в Республике Адыгея упал неизвестный летательный аппарат, обломки реактивного двигателя от которого опубликовал глава региона. Предположительно, обломки принадлежат украинскому БПЛА Ту-141 или Ту-143.');

    const photos = env.items.find((i) => i.id === 'telegram:topwar_official/71000')!;
    const pbg = backgrounds(widget(body, 'topwar_official/71000'));
    expect(pbg).toHaveLength(6);
    expect(photos).toMatchObject({ type: 'image', thumb: image(pbg[0]) });
    expect(photos.media).toEqual(pbg.map((u) => ({ kind: 'image', url: image(u) })));
  });

  it('forwarded messages stay the channel\'s; a link preview image is the cover of a text post', async () => {
    const env = (await run('posts', { query: 'topwar_official', limit: 12 }, [real(POSTS)])).result as Envelope;
    const fwd = env.items.find((i) => i.id === 'telegram:topwar_official/70996')!;
    const w = widget(body, 'topwar_official/70996');
    expect(first(/forwarded_from_name"\s+href="([^"]+)"/, w)).toBe('https://t.me/yaremshooter/1066');
    expect(fwd).toMatchObject({ type: 'text', author: 'Военное обозрение', author_handle: 'topwar_official', media: [], thumb: image(backgrounds(w)[0]) });
    expect(fwd.text!.startsWith('Информация о том, что подразделения ЧВК «Вагнер» подошли к самолетику в Бахмуте на расстояние 180 метров, пока')).toBe(true);
    expect(fwd.text!.endsWith('стелы с МиГ-17.\n\n@yaremshooter')).toBe(true);
    const plain = env.items.find((i) => i.id === 'telegram:topwar_official/70995')!;
    expect(plain).toMatchObject({ type: 'text', media: [], text: 'План "Ковер" отменен, небо над Санкт-Петербургом открывают, сообщает источник РЕН ТВ.' });
    expect(plain.thumb).toBeUndefined();
  });

  it('a walk keeps the recorded page and says where the recordings end, with the cursor to resume', async () => {
    const { result, requests } = await run('posts', { query: 'https://t.me/topwar_official', max_items: 50 }, [real(POSTS)]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 12 });
    // The next page (?before=70989) was not recorded: the one recording of this path is refused for it.
    expect(requests).toEqual([
      'GET https://t.me/s/topwar_official',
      'GET https://t.me/s/topwar_official?before=70989',
      'GET https://t.me/s/topwar_official?before=70989',
    ]);
    expect(env.warnings?.join('\n')).toMatch(/stopped after 1 page\(s\).*before 70989/);
    expect(env.next_cursor).toBe(encodeCursor({ c: '70989', s: 0 }));
  });

  it('in replay mode, a recording of another slice ends the walk as a replay miss, asked once', async () => {
    const { result, requests } = await runAction({ source: 'telegram', action: 'posts', params: { query: 'https://t.me/topwar_official', max_items: 50 }, replay: [real(POSTS)], replayMode: true });
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 12 });
    expect(requests).toEqual(['GET https://t.me/s/topwar_official', 'GET https://t.me/s/topwar_official?before=70989']);
    expect(env.warnings?.join('\n')).toMatch(/stopped after 1 page\(s\): replay: no recording matches GET https:\/\/t\.me\/s\/topwar_official\?before=70989 \(the recording holds another page: asked for messages before 70989/);
    expect(env.next_cursor).toBe(encodeCursor({ c: '70989', s: 0 }));
  });

  it('starts where the recorded URL does: a native cursor, or a t.me/s URL with ?before=', async () => {
    const byCursor = await run('posts', { query: '@topwar_official', cursor: '71009', limit: 2 }, [real(POSTS)]);
    expect(byCursor.requests).toEqual(['GET https://t.me/s/topwar_official?before=71009']);
    expect((byCursor.result as Envelope).items.map((i) => i.id)).toEqual(['telegram:topwar_official/71008', 'telegram:topwar_official/71007']);
    const byUrl = await run('posts', { query: 'https://t.me/s/topwar_official?before=71009', limit: 2 }, [real(POSTS)]);
    expect(byUrl.requests).toEqual(['GET https://t.me/s/topwar_official?before=71009']);
    expect((byUrl.result as Envelope).items).toEqual((byCursor.result as Envelope).items);
  });

  it('the history recording is never served for a search of that channel', async () => {
    await expect(run('search', { query: 'Пулково', channel: 'topwar_official' }, [real(POSTS)])).rejects.toThrow(/replay: no recording matches GET https:\/\/t\.me\/s\/topwar_official\?q=/);
  });
});

describe('telegram.user (real recording: the t.me/s/topwar_official header)', () => {
  it('reads title, description, subscribers and avatar from .tgme_channel_info', async () => {
    const body = html(real(POSTS));
    const { result, requests } = await run('user', { query: 'https://t.me/topwar_official' }, [real(POSTS)]);
    expect(requests).toEqual(['GET https://t.me/s/topwar_official']);
    const info = body.slice(body.indexOf('tgme_channel_info_header'));
    expect(first(/counter_value">([^<]+)<\/span>\s*<span\s+class="counter_type">subscribers/, body)).toBe('109K');
    expect(result as CreatorResult).toEqual({
      ok: true,
      source: 'live',
      items: [],
      ms: expect.any(Number),
      data: {
        platform: 'telegram',
        author: {
          id: 'topwar_official',
          source: 'telegram',
          handle: 'topwar_official',
          name: 'Военное обозрение',
          bio: 'Официальный канал сайта topwar.ru\n\nДля обратной связи: @topwar_feedlback_bot\n\nПо рекламе - писать @effective100',
          avatar: image(first(/<img\s+src="([^"]+)"/, info)),
          url: 'https://t.me/topwar_official',
          followers: 109_000,
          verified: false,
        },
      },
    });
  });
});

describe('telegram.detail (real recordings: t.me/s/<channel>/<id>, trimmed to the message)', () => {
  it('link preview video: the previewed clip is the playable video', async () => {
    const body = html(real(LINK_PREVIEW_VIDEO));
    const { result, requests, warnings } = await run('detail', { query: 'https://t.me/fighter_bomber/11226' }, [real(LINK_PREVIEW_VIDEO)]);
    expect(requests).toEqual(['GET https://t.me/s/fighter_bomber/11226']);
    expect(warnings).toEqual([]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 1 });
    expect(first(/message_video_duration js-message_video_duration">([^<]+)</, body)).toBe('0:11');
    expect(env.items[0]).toEqual({
      id: 'telegram:fighter_bomber/11226',
      type: 'video',
      provider: 'telegram',
      text: 'Жениться вам, барин, пора! 😁\n\nhttps://t.me/shalnyak/5410',
      author: 'Fighterbomber',
      author_id: 'fighter_bomber',
      author_handle: 'fighter_bomber',
      author_url: 'https://t.me/fighter_bomber',
      url: 'https://t.me/fighter_bomber/11226',
      thumb: image(first(/link_preview_video_thumb"\s+style="background-image:url\('([^']+)'\)/, body)),
      media: [{ kind: 'video', url: video(videoSrc(body)), duration_s: 11 }],
      ts: tsOf(body),
      duration_s: 11,
      stats: { views: 69_400 },
      provenance: 'live',
    });
    expect(viewsOf(body)).toBe('69.4K');
    // The service re-resolves expired media URLs by running detail on the item's native id.
    const again = await run('detail', { query: 'fighter_bomber/11226' }, [real(LINK_PREVIEW_VIDEO)]);
    expect((again.result as Envelope).items).toEqual(env.items);
    expect(tsOf(body)).toBe(Date.parse('2023-03-01T07:37:02+00:00') / 1000);
  });

  it('album of a video and two photos: the widget with this data-post, all three members', async () => {
    const body = html(real(ALBUM));
    const { result, requests } = await run('detail', { query: 't.me/s/anna_news/46908' }, [real(ALBUM)]);
    expect(requests).toEqual(['GET https://t.me/s/anna_news/46908']);
    const item = (result as Envelope).items[0];
    const bg = backgrounds(body);
    expect(bg).toHaveLength(3);
    expect(item).toMatchObject({
      id: 'telegram:anna_news/46908',
      type: 'video',
      author: 'ANNA-NEWS',
      author_handle: 'anna_news',
      author_url: 'https://t.me/anna_news',
      url: 'https://t.me/anna_news/46908',
      ts: Date.parse('2023-02-28T06:48:36+00:00') / 1000,
      duration_s: 5,
      thumb: image(bg[0]),
      stats: { views: 59_500 },
    });
    expect(item.media).toEqual([
      { kind: 'video', url: video(videoSrc(body)), duration_s: 5 },
      { kind: 'image', url: image(bg[1]) },
      { kind: 'image', url: image(bg[2]) },
    ]);
    expect(item.text).toBe('Ночью над Белгородом сбили 3 беспилотника\n\nОни упали на улицы города.\n\nСообщается, что на себе БПЛА несли взрывчатку из пластида.\n\n#Белгород #Беспилотники\n\n@anna_news');
  });

  it('voice message: audio only, so no video stream and no media; said in a warning', async () => {
    const body = html(real(VOICE));
    const { result, requests, warnings } = await run('detail', { query: '@oper_goblin/939' }, [real(VOICE)]);
    expect(requests).toEqual(['GET https://t.me/s/oper_goblin/939']);
    expect(first(/<audio[^>]+src="(https:\/\/[^"]+\.ogg[^"]*)"/, body)).toContain('cdn4.telegram-cdn.org');
    expect(first(/voice_duration js-message_voice_duration">([^<]+)</, body)).toBe('27:40');
    const item = (result as Envelope).items[0];
    expect(item).toEqual({
      id: 'telegram:oper_goblin/939',
      type: 'text',
      provider: 'telegram',
      text: 'Обсудили:\n\n- Сталина не забыть\n- Плохие фильмы\n- Смешные переводы\nможно, матерные - нет\n\nСлушайте: @kakberadio\nПишите нам: @kakberadiobot',
      author: 'Tynu40k Goblina (oper.ru)',
      author_id: 'oper_goblin',
      author_handle: 'oper_goblin',
      author_url: 'https://t.me/oper_goblin',
      url: 'https://t.me/oper_goblin/939',
      media: [],
      ts: Date.parse('2018-04-24T15:28:46+00:00') / 1000,
      stats: { views: 746 },
      provenance: 'live',
    });
    expect(warnings).toEqual(['telegram oper_goblin/939 is a voice message (audio only, 1660 s): audio is not an Item media kind, so the item carries its text only']);
    // Forwarded from another channel: the author stays the channel that posted it.
    expect(body).toContain('Forwarded from');
  });
});

describe('telegram sandbox (hand-made recordings)', () => {
  const HW = 'posts-channel-harborweather-1-newest.har';
  const HW2 = 'posts-channel-harborweather-2-before-201.har';

  it('posts walks two pages: newest, then ?before=<smallest id>, which starts at "Channel created"', async () => {
    const { result, requests } = await run('posts', { query: 'harborweather', max_items: 100 }, [sand(HW), sand(HW2)]);
    expect(requests).toEqual(['GET https://t.me/s/harborweather', 'GET https://t.me/s/harborweather?before=201']);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id.split('/')[1])).toEqual(['208', '207', '206', '205', '203', '202', '201', '199', '180', '150']);
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.map((i) => i.type)).toEqual(['text', 'video', 'text', 'video', 'video', 'text', 'image', 'text', 'text', 'image']);
    const body = html(sand(HW));
    const v = env.items[3];
    expect(v).toMatchObject({ duration_s: 42, aspect: { width: 720, height: 405 }, stats: { views: 9_700 } });
    expect(v.media).toEqual([{ kind: 'video', url: video(videoSrc(widget(body, 'harborweather/205'))), w: 720, h: 405, duration_s: 42 }]);
    expect(env.items[1]).toMatchObject({ media: [], duration_s: 185, stats: { views: 1_300_000 } });
    expect(env.items[4].media.map((m) => m.url.split('%2F')[2])).toEqual(['cdn4.telegram-cdn.org', 'cdn5.cdn-telegram.org']);
    expect(env.items[5].text).toBe('Gale warning for the outer harbour from 18:00 tonight.\n\nGusts to 45 knots, small craft should stay in port. Details: example.org/harbor/gale');
    expect(env.items[9]).toMatchObject({ media: [{ kind: 'image', w: 800, h: 1066 }] });
  });

  it('the older page is never taken for the newest one', async () => {
    const { result, requests } = await run('posts', { query: 'harborweather', limit: 3 }, [sand(HW2), sand(HW)]);
    // Listed first, the older page (recorded with ?before=) still loses to the bare newest one: one request.
    expect(requests).toEqual(['GET https://t.me/s/harborweather']);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['telegram:harborweather/208', 'telegram:harborweather/207', 'telegram:harborweather/206']);
  });

  it('user: verified flag and K-rounded subscribers from the header', async () => {
    const { result } = await run('user', { query: '@harborweather' }, [sand(HW)]);
    expect((result as CreatorResult).data!.author).toMatchObject({ id: 'harborweather', name: 'Harbor Weather Watch', followers: 12_300, verified: true, bio: 'Tide tables, storm warnings and harbour webcams.\n\nTips: @harborweather_bot' });
  });

  it('user of a channel without public preview: the t.me/<channel> card, exact subscriber count', async () => {
    const { result, requests } = await run('user', { query: 'https://telegram.me/quietharbor' }, [sand('user-channel-quietharbor-no-preview.har')]);
    expect(requests).toEqual(['GET https://t.me/s/quietharbor', 'GET https://t.me/quietharbor']);
    expect((result as CreatorResult).data!.author).toEqual({
      id: 'quietharbor',
      source: 'telegram',
      handle: 'quietharbor',
      name: 'Quiet Harbor',
      bio: 'Marina news for berth holders.\nPreview disabled.',
      avatar: image('https://cdn1.telesco.pe/file/Qh0AvatarZ1x2C3v4B5n6M7q8W9e0R1t2Y3u4I5o6P7a8S9d0.jpg'),
      url: 'https://t.me/quietharbor',
      followers: 1234,
      verified: false,
    });
  });

  it('posts of a channel without public preview is not_found, not empty', async () => {
    const { result, requests } = await run('posts', { query: 'quietharbor' }, [sand('user-channel-quietharbor-no-preview.har')]);
    expect(requests).toEqual(['GET https://t.me/s/quietharbor']);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'not_found', retryable: false } });
  });

  it('a username nobody holds: not_found for posts and user', async () => {
    const file = sand('error-channel-nosuchharbor-not-found.har');
    expect((await run('posts', { query: 'nosuchharbor' }, [file])).result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const user = await run('user', { query: 'nosuchharbor' }, [file]);
    expect(user.requests).toEqual(['GET https://t.me/s/nosuchharbor', 'GET https://t.me/nosuchharbor']);
    expect(user.result).toMatchObject({ ok: false, source: 'live', error: { code: 'not_found' } });
  });

  it('HTTP 429 is rate_limited', async () => {
    const { result } = await run('posts', { query: 'busyharbor' }, [sand('error-posts-busyharbor-429.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'rate_limited', retryable: true } });
  });

  it('"No posts found" on a channel history is throttling (rate_limited), not an empty channel', async () => {
    const file = sand('error-posts-stormdesk-no-posts-found-throttle.har');
    expect((await run('posts', { query: 'stormdesk' }, [file])).result).toMatchObject({ ok: false, source: 'live', error: { code: 'rate_limited' } });
    // The header is still there for the user action.
    expect(((await run('user', { query: 'stormdesk' }, [file])).result as CreatorResult).data!.author).toMatchObject({ name: 'Storm Desk', followers: 845 });
  });

  it('search within a channel: params.channel, "@channel keyword", or a t.me/s URL with ?q=', async () => {
    const file = sand('search-harborweather-storm.har');
    for (const params of [{ query: 'storm', channel: 'harborweather' }, { query: '@harborweather storm' }, { query: 'https://t.me/s/harborweather?q=storm' }]) {
      const { result, requests } = await run('search', params, [file, sand(HW)]);
      expect(requests).toEqual(['GET https://t.me/s/harborweather?q=storm']);
      expect(result).toMatchObject({ ok: true, source: 'live', count: 2 });
      expect((result as Envelope).items.map((i) => i.id)).toEqual(['telegram:harborweather/205', 'telegram:harborweather/202']);
      expect((result as Envelope).next_cursor).toBeUndefined();
    }
  });

  it('search with "No posts found" is an honest empty', async () => {
    const { result, requests } = await run('search', { query: 'tsunami', channel: 't.me/harborweather' }, [sand('search-harborweather-tsunami-empty.har'), sand(HW)]);
    expect(requests).toEqual(['GET https://t.me/s/harborweather?q=tsunami']);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });
  });

  it('search without a channel is an invalid request naming params.channel', async () => {
    const { result } = await run('search', { query: 'storm' }, [sand('search-harborweather-storm.har')]);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect((result as Envelope).error!.message).toMatch(/params\.channel/);
  });

  it('detail from the page around the message', async () => {
    const { result, requests } = await run('detail', { query: 'harborweather/205' }, [sand('detail-message-harborweather-205.har')]);
    expect(requests).toEqual(['GET https://t.me/s/harborweather/205']);
    expect((result as Envelope).items[0]).toMatchObject({ id: 'telegram:harborweather/205', type: 'video', duration_s: 42, author: 'Harbor Weather Watch' });
  });

  it('detail of a channel without preview falls back to the ?embed=1 widget', async () => {
    const { result, requests } = await run('detail', { query: 'https://t.me/quietharbor/7' }, [sand('detail-message-quietharbor-7-embed.har')]);
    expect(requests).toEqual(['GET https://t.me/s/quietharbor/7', 'GET https://t.me/quietharbor/7?embed=1']);
    expect((result as Envelope).items[0]).toMatchObject({
      id: 'telegram:quietharbor/7',
      type: 'image',
      author: 'Quiet Harbor',
      media: [{ kind: 'image', url: image('https://cdn1.telesco.pe/file/Qh7MarinaIceP9o8I7u6Y5t4R3e2W1q.jpg'), w: 800, h: 533 }],
      stats: { views: 611 },
    });
  });

  it('detail of a message that is not there: the widget says "Post not found" → not_found', async () => {
    const { result, requests } = await run('detail', { query: 't.me/harborweather/999' }, [sand('error-detail-harborweather-999-post-not-found.har')]);
    expect(requests).toEqual(['GET https://t.me/s/harborweather/999', 'GET https://t.me/harborweather/999?embed=1']);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'not_found', retryable: false } });
    expect((result as Envelope).error!.message).toContain('Post not found');
  });
});

describe('telegram recordings', () => {
  // Runs last (vitest keeps file order): every recording must have been replayed above.
  it('every recording in ../shared/fixtures/telegram was replayed', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(files).toHaveLength(4);
    expect(files.filter((f) => !used.has(basename(f)))).toEqual([]);
  });

  it('every sandbox/telegram recording was replayed, and each is marked hand-made', () => {
    const files = readdirSync(SANDBOX).filter((f) => f.endsWith('.har'));
    expect(files.filter((f) => !usedSandbox.has(f))).toEqual([]);
    for (const f of files) {
      for (const e of JSON.parse(readFileSync(resolve(SANDBOX, f), 'utf8')).log.entries) expect(e.comment).toMatch(/^hand-made sandbox recording: /);
    }
  });
});
