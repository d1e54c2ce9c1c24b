import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountHandle,
  accountToAuthor,
  accountToDraft,
  attachmentToMedia,
  htmlToText,
  statusToDraft,
  statusesToDrafts,
  statusesToTrends,
  tagsToTrends,
  threadDescendants,
  unixSeconds,
} from '../../src/platforms/mastodon/parse.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/mastodon');
const SANDBOX = resolve(process.cwd(), 'sandbox/mastodon');
const recorded = (dir: string, file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(resolve(dir, file), 'utf8')).log.entries[i].response.content.text);
const H = 'localhost:3000';

describe('htmlToText', () => {
  it('paragraphs, line breaks, entities, mention and hashtag links, hidden URL parts', () => {
    expect(htmlToText('<p>Toot!</p>')).toBe('Toot!');
    expect(htmlToText('<p>you can&#39;t say that on television</p>')).toBe("you can't say that on television");
    expect(htmlToText('<p>one<br />two<br>three</p><p>four</p>')).toBe('one\ntwo\nthree\n\nfour');
    const reply = recorded(FIXTURES, 'write-status-reply.har', 2).content;
    expect(htmlToText(reply)).toBe('@mastodonpy_test_2 same!');
    expect(
      htmlToText(
        '<p>see <a href="https://example.org/a/very/long/path"><span class="invisible">https://</span><span class="ellipsis">example.org/a/very/lo</span><span class="invisible">ng/path</span></a> <a href="https://m.s/tags/x" class="mention hashtag">#<span>x</span></a></p>',
      ),
    ).toBe('see https://example.org/a/very/long/path #x');
    expect(htmlToText('plain & simple')).toBe('plain & simple');
    expect(htmlToText('')).toBe('');
    expect(htmlToText(null)).toBe('');
    expect(htmlToText(42)).toBe('');
  });
});

describe('statusToDraft on recorded statuses', () => {
  it('the detail recording (text post, local account)', () => {
    const s = recorded(FIXTURES, 'detail-status.har', 1);
    expect(statusToDraft(s, H)).toEqual({
      native_id: 'localhost:3000/117020583223442465',
      type: 'text',
      title: undefined,
      text: 'Toot!',
      author: 'John Lennon',
      author_id: '117020565966271181',
      author_handle: 'mastodonpy_test@localhost:3000',
      url: 'http://localhost:3000/@mastodonpy_test/117020583223442465',
      thumb: undefined,
      media: [],
      ts: Math.floor(Date.parse('2026-08-01T13:53:15.378Z') / 1000),
      duration_s: undefined,
      aspect: undefined,
      stats: { likes: 0, comments: 0, shares: 0 },
    });
  });

  it('the delete answer carries source `text` instead of `content`', () => {
    const s = recorded(FIXTURES, 'detail-status.har', 2);
    expect(s.content).toBeUndefined();
    expect(statusToDraft(s, H)?.text).toBe('Toot!');
  });

  it('the public timeline: 8 statuses, an empty display name falls back to the username', () => {
    const list = recorded(FIXTURES, 'hot-public-timeline-anonymous.har', 2);
    const drafts = statusesToDrafts(list, H);
    expect(drafts.map((d) => d.native_id)).toEqual(list.map((s: any) => `${H}/${s.id}`));
    expect(drafts[0].author).toBe('mastodonpy_test_2');
    expect(drafts.every((d) => d.type === 'text' && d.media?.length === 0)).toBe(true);
  });

  it('sandbox statuses: images with sizes, video with duration and poster, gifv, a content warning, a boost', () => {
    const page = recorded(SANDBOX, 'posts-river_otter-pages.har', 0);
    const [photo, clip, gif, boost] = statusesToDrafts(page, 'mastodon.social');
    expect(photo.type).toBe('image');
    expect(photo.media).toEqual([
      { kind: 'image', url: page[0].media_attachments[0].url, w: 4032, h: 3024 },
      { kind: 'image', url: page[0].media_attachments[1].url, w: 3024, h: 4032 },
    ]);
    expect(photo.thumb).toBe(page[0].media_attachments[0].preview_url);
    expect(clip).toMatchObject({ type: 'video', title: 'otters being loud', duration_s: 14.52, aspect: { width: 1920, height: 1080 }, thumb: page[1].media_attachments[0].preview_url });
    expect(gif.media).toEqual([{ kind: 'video', url: page[2].media_attachments[0].url, w: 480, h: 270, duration_s: 3.2 }]);
    expect(boost).toMatchObject({ native_id: 'mastodon.social/113499990000000000', author_handle: 'kelp_forest@fosstodon.org', url: 'https://fosstodon.org/@kelp_forest/112233445566778899' });
  });
});

describe('media attachments', () => {
  it('audio and unknown attachments are not media cards; remote_url stands in for a missing url', () => {
    expect(attachmentToMedia({ type: 'audio', url: 'https://files.example/a.mp3', meta: { original: { duration: 12 } } })).toBeUndefined();
    expect(attachmentToMedia({ type: 'unknown', url: null, remote_url: 'https://other.example/x.bin' })).toBeUndefined();
    expect(attachmentToMedia({ type: 'image', url: null, remote_url: 'https://other.example/x.jpg', meta: {} })).toEqual({ kind: 'image', url: 'https://other.example/x.jpg' });
    expect(attachmentToMedia({ type: 'video', url: 'https://f.example/v.mp4', preview_url: 'https://f.example/v.png', meta: { original: { width: 640, height: 360, duration: 9.1 } } })).toEqual({
      kind: 'video',
      url: 'https://f.example/v.mp4',
      w: 640,
      h: 360,
      duration_s: 9.1,
      preview: 'https://f.example/v.png',
    });
  });

  it('a post whose only attachment is audio is a text item', () => {
    const d = statusToDraft({ id: '1', content: '<p>listen</p>', media_attachments: [{ type: 'audio', url: 'https://f.example/a.mp3' }] }, 'mastodon.social');
    expect(d).toMatchObject({ type: 'text', media: [], text: 'listen' });
  });
});

describe('accounts', () => {
  it('handles: local accounts get the server, remote ones keep theirs', () => {
    expect(accountHandle({ acct: 'Gargron' }, 'mastodon.social')).toBe('Gargron@mastodon.social');
    expect(accountHandle({ acct: 'kelp_forest@fosstodon.org' }, 'mastodon.social')).toBe('kelp_forest@fosstodon.org');
    expect(accountHandle({ username: 'x' }, 'm.s')).toBe('x@m.s');
    expect(accountHandle({}, 'm.s')).toBeUndefined();
  });

  it('the recorded Account → Author', () => {
    const a = recorded(FIXTURES, 'user-account-lookup.har', 0);
    expect(accountToAuthor(a, H)).toEqual({
      id: '117020565966271181',
      source: 'mastodon',
      handle: 'mastodonpy_test@localhost:3000',
      name: 'John Lennon',
      bio: 'I walk funny',
      avatar: a.avatar,
      url: 'http://localhost:3000/@mastodonpy_test',
      followers: 0,
      following: 0,
      posts: 0,
    });
    expect(accountToAuthor({}, H)).toBeUndefined();
  });

  it('the recorded search accounts → text cards', () => {
    const [a, b] = recorded(FIXTURES, 'search-accounts.har', 0).accounts;
    expect(accountToDraft(a, H)).toMatchObject({ native_id: 'localhost:3000/@mastodonpy_test', type: 'text', title: 'John Lennon', text: 'I walk funny', thumb: a.avatar_static, stats: {} });
    expect(accountToDraft(b, H)).toMatchObject({ native_id: 'localhost:3000/@mastodonpy_test_2', title: 'mastodonpy_test_2', text: undefined });
  });
});

describe('threadDescendants', () => {
  const st = (id: string, reply: string | null, extra: object = {}) => ({ id, in_reply_to_id: reply, content: `<p>${id}</p>`, created_at: '2026-01-01T00:00:00Z', account: { id: 'a', acct: 'u' }, ...extra });

  it('direct replies have no parent_id; nested replies follow their parent depth-first', () => {
    const out = threadDescendants([st('2', '1'), st('5', '1'), st('3', '2'), st('4', '3'), st('6', '5')], '1', 'm.s');
    expect(out.map((c) => [c.cid, c.parent_id])).toEqual([
      ['2', undefined],
      ['3', '2'],
      ['4', '3'],
      ['5', undefined],
      ['6', '5'],
    ]);
  });

  it('a reply listed before its parent is still placed after it', () => {
    const out = threadDescendants([st('3', '2'), st('2', '1')], '1', 'm.s');
    expect(out.map((c) => [c.cid, c.parent_id])).toEqual([
      ['2', undefined],
      ['3', '2'],
    ]);
  });

  it('a reply to a status missing from the list (hidden or deleted) is shown at top level', () => {
    const out = threadDescendants([st('2', '1'), st('9', '8')], '1', 'm.s');
    expect(out.map((c) => [c.cid, c.parent_id])).toEqual([
      ['2', undefined],
      ['9', undefined],
    ]);
  });

  it('fills every Comment field, with 0/empty for what the server left out', () => {
    const [c] = threadDescendants([{ id: '2', in_reply_to_id: '1' }], '1', 'm.s');
    expect(c).toEqual({ cid: '2', text: '', likes: 0, reply_total: 0, user_id: '', handle: '', user_name: '', created_at: 0, source: 'mastodon', url: undefined });
    expect(threadDescendants(recorded(FIXTURES, 'comments-status-context-empty.har', 1).descendants, '117020585487094447', H)).toEqual([]);
  });
});

describe('trends', () => {
  it('tags: #name, rank as served, uses summed over the (string) history', () => {
    const tags = recorded(SANDBOX, 'trending-tags.har', 0);
    expect(tagsToTrends(tags)).toEqual([
      { word: '#otters', source: 'mastodon', rank: 1, hot_value: 340, url: 'https://mastodon.social/tags/otters' },
      { word: '#wildlife', source: 'mastodon', rank: 2, hot_value: 323, url: 'https://mastodon.social/tags/wildlife' },
      { word: '#KelpForest', source: 'mastodon', rank: 3, hot_value: 17, url: 'https://mastodon.social/tags/KelpForest' },
    ]);
    expect(tagsToTrends([{ name: 'nohistory' }, { url: 'x' }, 'junk'])).toEqual([{ word: '#nohistory', source: 'mastodon', rank: 1 }]);
    expect(tagsToTrends(recorded(FIXTURES, 'trending-statuses-empty.har'))).toEqual([]);
  });

  it('statuses as trends (fallback): first line, likes, post URL', () => {
    const list = recorded(SANDBOX, 'hot-trends-statuses.har', 0);
    const [first] = statusesToTrends(list, 'mastodon.social');
    expect(first).toEqual({ word: 'Sea otters hold hands while they sleep so they do not drift apart.', source: 'mastodon', rank: 1, hot_value: 512, url: 'https://mas.to/@otterly/113456789012345678' });
  });
});

describe('robustness', () => {
  it('unixSeconds', () => {
    expect(unixSeconds('2026-08-01T13:53:15.378Z')).toBe(1785592395);
    expect(unixSeconds('nope')).toBeUndefined();
    expect(unixSeconds(undefined)).toBeUndefined();
  });

  it('parsers never throw on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        statusToDraft(v, 'm.s');
        statusesToDrafts(v, 'm.s');
        accountToAuthor(v, 'm.s');
        accountToDraft(v, 'm.s');
        threadDescendants(v, '1', 'm.s');
        tagsToTrends(v);
        statusesToTrends(v, 'm.s');
        attachmentToMedia(v);
      }),
    );
  });
});
