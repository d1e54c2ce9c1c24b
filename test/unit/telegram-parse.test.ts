import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from 'cheerio';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backgroundUrl,
  channelInfoToAuthor,
  messageToDraft,
  parseCount,
  parseDuration,
  parseHistory,
  parseTmePage,
  plainText,
  tmePageToAuthor,
} from '../../src/platforms/telegram/parse.js';
import { pickMessage } from '../../src/platforms/telegram/detail.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/telegram');
const SANDBOX = resolve(process.cwd(), 'sandbox/telegram');
const body = (file: string, i = 0): string => JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text;
const posts = body(resolve(FIXTURES, 'posts-channel-topwar_official-before-71009.har'));

describe('counts, durations, styles, text', () => {
  it.each([
    ['746', 746],
    ['69.4K', 69_400],
    ['37.2K', 37_200],
    ['109K', 109_000],
    ['12.3K', 12_300],
    ['1.3M', 1_300_000],
    ['2B', 2_000_000_000],
    ['1 234', 1234],
    ['1\u00a0234\u00a0567', 1_234_567],
    ['1,234', 1234],
    [' 29.0K ', 29_000],
  ])('parseCount(%j) = %d', (s, n) => {
    expect(parseCount(s)).toBe(n);
  });

  it('parseCount says nothing about what is not a count', () => {
    for (const s of [undefined, '', 'views', 'K', '1.2.3K', '-5']) expect(parseCount(s)).toBeUndefined();
  });

  it('parseCount never throws and scales K/M monotonically (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => (parseCount(s), true)));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 9 }), (a, d) => {
        const k = parseCount(`${a}.${d}K`)!;
        const m = parseCount(`${a}.${d}M`)!;
        return k === Math.round((a + d / 10) * 1000) && m === k * 1000;
      }),
    );
  });

  it.each([
    ['0:05', 5],
    ['0:11', 11],
    ['2:57', 177],
    ['27:40', 1660],
    ['1:02:03', 3723],
  ])('parseDuration(%j) = %d', (s, n) => {
    expect(parseDuration(s)).toBe(n);
  });

  it('parseDuration ignores what is not a clock', () => {
    for (const s of [undefined, '', 'abc', '1:2:3:4', '10:00 PM']) expect(parseDuration(s)).toBeUndefined();
  });

  it('backgroundUrl reads single quotes, &quot; (decoded) and protocol-relative URLs', () => {
    expect(backgroundUrl("width:800px;background-image:url('https://cdn4.telegram-cdn.org/file/a.jpg')")).toBe('https://cdn4.telegram-cdn.org/file/a.jpg');
    expect(backgroundUrl('left: 0px; background-image: url("https://cdn4.telegram-cdn.org/file/b.jpg");')).toBe('https://cdn4.telegram-cdn.org/file/b.jpg');
    expect(backgroundUrl("background-image:url('//cdn5.cdn-telegram.org/file/c.jpg')")).toBe('https://cdn5.cdn-telegram.org/file/c.jpg');
    expect(backgroundUrl('width:55%')).toBeUndefined();
    expect(backgroundUrl(undefined)).toBeUndefined();
  });

  it('plainText collapses markup whitespace, keeps <br> breaks and emoji characters', () => {
    const $ = load('<div id="t">Line one\n      continues <b>bold</b><br><br>  <i class="emoji" style="x"><b>😁</b></i> two&nbsp;words<br/>end  </div>');
    expect(plainText($('#t'))).toBe('Line one continues bold\n\n😁 two words\nend');
    expect(plainText($('#none'))).toBe('');
  });
});

describe('the real t.me/s/topwar_official page', () => {
  const page = parseHistory(posts);

  it('holds 12 messages oldest first, links to older messages, not to newer ones', () => {
    expect(page.messages.map((m) => m.id)).toEqual([70989, 70990, 70992, 70995, 70996, 70997, 70998, 70999, 71000, 71006, 71007, 71008]);
    expect(page).toMatchObject({ hasHistory: true, hasOlder: true, hasNewer: false, noMessagesFound: false, isTme: true });
    expect(page.messages.every((m) => m.channel === 'topwar_official' && !m.service && m.author === 'Военное обозрение')).toBe(true);
  });

  it('reads the channel header', () => {
    expect(page.channel).toMatchObject({
      title: 'Военное обозрение',
      username: 'topwar_official',
      verified: false,
      counters: { subscribers: 109_000, photos: 19_600, videos: 15_400, files: 8, links: 28_600 },
    });
    expect(page.channel!.avatar).toMatch(/^https:\/\/cdn4\.telegram-cdn\.org\/file\/rdlhZu1d4HGv.+\.jpg$/);
  });

  it('forwarded-from, link preview, withheld videos and album members', () => {
    const byId = new Map(page.messages.map((m) => [m.id, m]));
    expect(byId.get(70996)!.forwardedFrom).toEqual({ name: 'Военкор Ярем', url: 'https://t.me/yaremshooter/1066' });
    expect(byId.get(70996)!.linkPreview).toMatchObject({ url: 'http://t.me/infantmilitario/93419', site: 'Telegram', title: 'Милитарист' });
    expect(byId.get(70996)!.linkPreview!.image).toMatch(/^https:\/\/cdn4\.telegram-cdn\.org\/file\/tQZ711MVkJHq5TBc0Cy8vm/);
    expect(byId.get(71006)).toMatchObject({ unsupported: 'Media is too big', media: [{ kind: 'video', w: 464, h: 619, duration_s: 177 }] });
    expect(byId.get(71006)!.media[0].url).toBeUndefined();
    expect(byId.get(70992)!.media.map((m) => [m.kind, m.id])).toEqual([['image', 70992], ['image', 70993], ['video', 70994]]);
    expect(byId.get(71000)!.media.map((m) => m.id)).toEqual([71000, 71001, 71002, 71003, 71004, 71005]);
    expect(byId.get(70998)!.forwardedFrom).toEqual({ name: 'БелВПО', url: 'https://t.me/Belarus_VPO/34301' });
  });

  it('an album member id finds the album that holds it', () => {
    expect(pickMessage(page.messages, { channel: 'topwar_official', id: '70994' })!.id).toBe(70992);
    expect(pickMessage(page.messages, { channel: 'TOPWAR_OFFICIAL', id: '71003' })!.id).toBe(71000);
    expect(pickMessage(page.messages, { channel: 'topwar_official', id: '71001' })!.id).toBe(71000);
    expect(pickMessage(page.messages, { channel: 'topwar_official', id: '70991' })).toBeUndefined();
    expect(pickMessage(page.messages, { channel: 'other', id: '70989' })).toBeUndefined();
  });

  it('messageToDraft: channel as author, own media first, views as stats', () => {
    const msg = page.messages.find((m) => m.id === 70989)!;
    const draft = messageToDraft(msg);
    expect(draft).toMatchObject({
      native_id: 'topwar_official/70989',
      type: 'image',
      author: 'Военное обозрение',
      author_id: 'topwar_official',
      author_handle: 'topwar_official',
      url: 'https://t.me/topwar_official/70989',
      ts: Date.parse('2023-02-28T07:47:53+00:00') / 1000,
      stats: { views: 37_200 },
      aspect: { width: 800, height: 469 },
    });
    expect(draft.media).toEqual([{ kind: 'image', url: draft.thumb, w: 800, h: 469 }]);
  });

  it('channelInfoToAuthor keeps K-rounded subscribers as followers', () => {
    expect(channelInfoToAuthor(page.channel!, 'topwar_official')).toMatchObject({ id: 'topwar_official', handle: 'topwar_official', followers: 109_000, url: 'https://t.me/topwar_official' });
  });
});

describe('the real trimmed detail widgets', () => {
  it('voice: audio URL and duration, no media', () => {
    const [msg] = parseHistory(body(resolve(FIXTURES, 'detail-message-voice-oper_goblin-939.har'))).messages;
    expect(msg).toMatchObject({ channel: 'oper_goblin', id: 939, media: [], views: 746, forwardedFrom: { name: 'Спортивный Екб' } });
    expect(msg.voice!.duration_s).toBe(1660);
    expect(msg.voice!.url).toMatch(/^https:\/\/cdn4\.telegram-cdn\.org\/file\/e7ba63f364\.ogg\?token=/);
    expect(messageToDraft(msg)).toMatchObject({ type: 'text', media: [], stats: { views: 746 } });
    expect(messageToDraft(msg).duration_s).toBeUndefined();
  });

  it('link preview video: its own player, no size (the width is a percentage)', () => {
    const [msg] = parseHistory(body(resolve(FIXTURES, 'detail-message-link-preview-video-fighter_bomber-11226.har'))).messages;
    expect(msg.media).toEqual([]);
    expect(msg.linkPreview).toMatchObject({ url: 'https://t.me/shalnyak/5410', site: 'Telegram', title: 'Shalnyak', video: { kind: 'video', duration_s: 11 } });
    expect(msg.linkPreview!.description).toBe('Дядь @fighter_bomber глянь!!!\nУ меня такааая разработка🔥\nДля чего пока не знаю, но жути наводит пздц как🤓');
    expect(msg.linkPreview!.video!.url).toMatch(/^https:\/\/cdn4\.telegram-cdn\.org\/file\/0f5ac11ec6\.mp4\?token=/);
    expect(msg.linkPreview!.video!.w).toBeUndefined();
  });

  it('album: the caption of the inner text element, not the spacer of the outer one', () => {
    const [msg] = parseHistory(body(resolve(FIXTURES, 'detail-message-photo-and-video-anna_news-46908.har'))).messages;
    expect(msg.media.map((m) => [m.kind, m.id])).toEqual([['video', 46908], ['image', 46909], ['image', 46910]]);
    expect(msg.text.endsWith('#Белгород #Беспилотники\n\n@anna_news')).toBe(true);
  });
});

describe('the t.me/<username> card', () => {
  it('a channel without preview: exact subscribers, description, avatar', () => {
    const card = parseTmePage(body(resolve(SANDBOX, 'user-channel-quietharbor-no-preview.har'), 1));
    expect(card).toMatchObject({ title: 'Quiet Harbor', kind: 'channel', followers: 1234, previewable: false, description: 'Marina news for berth holders.\nPreview disabled.' });
    expect(tmePageToAuthor(card, 'quietharbor')).toMatchObject({ id: 'quietharbor', name: 'Quiet Harbor', followers: 1234 });
  });

  it('a username nobody holds: no title', () => {
    const card = parseTmePage(body(resolve(SANDBOX, 'error-channel-nosuchharbor-not-found.har'), 1));
    expect(card.title).toBeUndefined();
    expect(card.description).toBeUndefined();
  });

  it('groups count members, users and bots show their @username', () => {
    const page = (extra: string) =>
      parseTmePage(`<div class="tgme_page"><div class="tgme_page_title"><span dir="auto">X<i class="verified-icon"></i></span></div><div class="tgme_page_extra">${extra}</div><a href="/s/x">Preview channel</a></div>`);
    expect(page('12 345 members, 678 online')).toMatchObject({ kind: 'group', followers: 12_345, verified: true, previewable: true });
    expect(page('@someone')).toMatchObject({ kind: 'user' });
    expect(page('@some_bot')).toMatchObject({ kind: 'bot' });
    expect(page('1 subscriber')).toMatchObject({ kind: 'channel', followers: 1 });
  });
});

describe('page markers', () => {
  it('"No posts found", an embed error, a page that is not t.me', () => {
    expect(parseHistory(body(resolve(SANDBOX, 'search-harborweather-tsunami-empty.har')))).toMatchObject({ messages: [], noMessagesFound: true, hasHistory: true });
    expect(parseHistory(body(resolve(SANDBOX, 'error-detail-harborweather-999-post-not-found.har'), 1))).toMatchObject({ messages: [], widgetError: 'Post not found' });
    expect(parseHistory('<html><body>Bad gateway</body></html>')).toMatchObject({ isTme: false, messages: [] });
  });

  it('an older page links to newer messages; a service message is flagged', () => {
    const page = parseHistory(body(resolve(SANDBOX, 'posts-channel-harborweather-2-before-201.har')));
    expect(page).toMatchObject({ hasOlder: false, hasNewer: true });
    expect(page.messages.filter((m) => m.service).map((m) => [m.id, m.text])).toEqual([[1, 'Channel created']]);
  });

  it('parsers never throw on arbitrary markup (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('', '<div class="tgme_widget_message" data-post="a_b_c/1">', '<div class="tgme_widget_message_wrap">', '<time datetime="x">'), (s, prefix) => {
        const page = parseHistory(prefix + s);
        for (const m of page.messages) messageToDraft(m);
        parseTmePage(prefix + s);
        return true;
      }),
    );
  });
});

describe('polls', () => {
  // Hand-written: a poll message as the web preview lays it out (question, type, options with shares).
  const html = `<section class="tgme_channel_history js-message_history">
<div class="tgme_widget_message js-widget_message" data-post="somechan/12">
  <div class="tgme_widget_message_poll js-poll">
    <div class="tgme_widget_message_poll_question">Tea or coffee?</div>
    <div class="tgme_widget_message_poll_type">Anonymous Poll</div>
    <a class="tgme_widget_message_poll_options" href="https://t.me/somechan/12">
      <div class="tgme_widget_message_poll_option"><div class="tgme_widget_message_poll_option_percent">40%</div>
        <div class="tgme_widget_message_poll_option_value"><div class="tgme_widget_message_poll_option_text">Tea</div></div></div>
      <div class="tgme_widget_message_poll_option"><div class="tgme_widget_message_poll_option_percent">60%</div>
        <div class="tgme_widget_message_poll_option_value"><div class="tgme_widget_message_poll_option_text">Coffee</div></div></div>
    </a>
  </div>
  <div class="tgme_widget_message_footer"><a class="tgme_widget_message_date" href="https://t.me/somechan/12"><time datetime="2023-02-27T16:21:02+00:00">19:21</time></a></div>
</div></section>`;

  it('keeps the question and every option with its share as the text', () => {
    const [msg] = parseHistory(html).messages;
    expect(msg.text).toBe('Tea or coffee?\n• Tea — 40%\n• Coffee — 60%');
    expect(messageToDraft(msg).type).toBe('text');
  });

  it('a poll under a caption leaves the caption as the text', () => {
    const withCaption = html.replace('<div class="tgme_widget_message_poll js-poll">', '<div class="tgme_widget_message_text">Vote!</div><div class="tgme_widget_message_poll js-poll">');
    expect(parseHistory(withCaption).messages[0].text).toBe('Vote!');
  });
});
