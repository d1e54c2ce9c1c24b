import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteLongIntegers } from '../../src/platforms/instagram/json.js';
import { authorOf, commentOf, dashSeconds, mediaToDraft, nodeToDraft, postToDraft, userCardToDraft } from '../../src/platforms/instagram/parse.js';

const cdn = (n: string) => `https://scontent-lhr8-1.cdninstagram.com/v/t51.2885-15/${n}.jpg`;

describe('instagram media items', () => {
  it('a carousel gives every child at its best rendition; the first child decides the type; ids come from the id string, never a rounded pk', () => {
    const d = mediaToDraft({
      pk: 3600000000000000000, // a number JSON.parse rounded: never trusted
      id: '3600000000000000102_52418700001',
      code: 'DH1xO0naABm',
      media_type: 8,
      taken_at: 1789800000,
      caption: null,
      user: { pk: '52418700001', username: 'harborcook', full_name: '' },
      like_count: 5,
      carousel_media: [
        { media_type: 2, video_versions: [{ width: 480, height: 854, url: cdn('v480') }, { width: 720, height: 1280, url: cdn('v720') }], image_versions2: { candidates: [{ width: 720, height: 1280, url: cdn('c720') }] }, video_duration: 9.5 },
        { media_type: 1, image_versions2: { candidates: [{ width: 320, height: 320, url: cdn('i320') }, { width: 1080, height: 1080, url: cdn('i1080') }] } },
        // A video child without renditions still shows its picture.
        { media_type: 2, image_versions2: { candidates: [{ width: 640, height: 640, url: cdn('v-cover') }] } },
      ],
    })!;
    expect(d.native_id).toBe('3600000000000000102');
    expect(d.type).toBe('video');
    expect(d.author).toBe('harborcook');
    expect(d.author_id).toBe('52418700001');
    expect(d.text).toBeUndefined();
    expect(d.media).toEqual([
      { kind: 'video', url: cdn('v720'), w: 720, h: 1280, duration_s: 9.5 },
      { kind: 'image', url: cdn('i1080'), w: 1080, h: 1080 },
      { kind: 'image', url: cdn('v-cover'), w: 640, h: 640 },
    ]);
    expect(d.thumb).toBe(cdn('c720'));
    expect(d.duration_s).toBe(9.5);
    expect(d.stats).toEqual({ likes: 5, comments: undefined, shares: undefined, views: undefined });
  });
  it('the pk from the code when the item has no usable id; owner from the id suffix; views on videos only', () => {
    const d = mediaToDraft({ code: 'CAnqPB-Jzcj', id: 'x', media_type: 2, play_count: 12, view_count: 3, image_versions2: { candidates: [] } })!;
    expect(d.native_id).toBe('2317006284167526179');
    expect(d.stats.views).toBe(12);
    expect(d.media).toEqual([]);
    const photo = mediaToDraft({ id: '2317006284167526179_305701719', media_type: 1, view_count: 9 })!;
    expect(photo.author_id).toBe('305701719');
    expect(photo.stats.views).toBeUndefined();
    expect(mediaToDraft({ media_type: 1 })).toBeUndefined();
    expect(mediaToDraft(null)).toBeUndefined();
  });
});

describe('instagram GraphQL nodes', () => {
  it('XDT typenames read like Graph ones; a video without video_url (hashtag feeds) is metadata only, its cover the thumb', () => {
    const d = nodeToDraft({ __typename: 'XDTGraphVideo', id: '2498383483036303865', shortcode: 'CKsCopzFQH5', display_url: cdn('cover'), owner: { id: '2148106670' }, edge_liked_by: { count: 7 }, edge_media_to_comment: { count: 1 }, video_view_count: 99, dimensions: { width: 640, height: 800 } })!;
    expect(d).toMatchObject({ native_id: '2498383483036303865', type: 'video', media: [], thumb: cdn('cover'), author_id: '2148106670', url: 'https://www.instagram.com/p/CKsCopzFQH5/', stats: { likes: 7, comments: 1, views: 99 }, aspect: { width: 640, height: 800 } });
    expect(d.author_handle).toBeUndefined();
  });
  it('the largest display resource when there is no display_url; the DASH manifest gives the length', () => {
    const d = nodeToDraft({
      __typename: 'GraphVideo',
      shortcode: 'B7eUksNFA-K',
      is_video: true,
      video_url: 'https://scontent-frt3-1.cdninstagram.com/v/a.mp4',
      dash_info: { video_dash_manifest: '<MPD mediaPresentationDuration="PT1M2.5S"></MPD>' },
      display_resources: [{ src: cdn('s'), config_width: 640, config_height: 800 }, { src: cdn('l'), config_width: 1080, config_height: 1350 }],
    })!;
    expect(d.native_id).toBe('2224305748263047050');
    expect(d.duration_s).toBe(62.5);
    expect(d.media).toEqual([{ kind: 'video', url: 'https://scontent-frt3-1.cdninstagram.com/v/a.mp4', w: undefined, h: undefined, duration_s: 62.5 }]);
    expect(postToDraft({ media_type: 1, id: '5_6' })?.native_id).toBe('5');
    expect(postToDraft({ __typename: 'GraphImage', id: '7', display_url: cdn('x') })?.media).toEqual([{ kind: 'image', url: cdn('x'), w: undefined, h: undefined }]);
  });
  it('DASH durations: hours, minutes, seconds; nothing else is a length', () => {
    expect(dashSeconds('<MPD mediaPresentationDuration="PT0H0M4.967S">')).toBe(4.967);
    expect(dashSeconds("<MPD mediaPresentationDuration='PT1H0M0S'>")).toBe(3600);
    expect(dashSeconds('<MPD>')).toBeUndefined();
    expect(dashSeconds(undefined)).toBeUndefined();
  });
});

describe('instagram people and comments', () => {
  it('REST users, web users and search users become one Author; the HD picture wins', () => {
    expect(authorOf({ pk: '1518284433', username: 'robertdowneyjr', full_name: 'RDJ', follower_count: 5, following_count: 4, media_count: 3, is_verified: true, profile_pic_url: cdn('s'), hd_profile_pic_url_info: { url: cdn('hd') } })).toEqual({
      id: '1518284433',
      source: 'instagram',
      handle: 'robertdowneyjr',
      name: 'RDJ',
      bio: undefined,
      avatar: cdn('hd'),
      url: 'https://www.instagram.com/robertdowneyjr/',
      followers: 5,
      following: 4,
      posts: 3,
      verified: true,
    });
    expect(authorOf({ username: 'noid' })?.id).toBe('noid');
    expect(authorOf({})).toBeUndefined();
    expect(userCardToDraft({ pk: '9', username: 'gullwatcher', full_name: 'Gull Watcher', profile_pic_url: cdn('a') })).toMatchObject({ native_id: '@gullwatcher', type: 'text', title: 'Gull Watcher', url: 'https://www.instagram.com/gullwatcher/', author_id: '9', thumb: cdn('a') });
  });
  it('comments of every family: Relay (pk, user, parent_comment_id), legacy (id, owner, edge counts), REST (user_id)', () => {
    expect(commentOf({ pk: '18', text: 'hi', created_at: 5, user: { pk: '2', username: 'fan', full_name: 'Fan' }, comment_like_count: 3, child_comment_count: 1, parent_comment_id: null }, 'SC')).toEqual({
      cid: '18',
      text: 'hi',
      likes: 3,
      reply_total: 1,
      user_id: '2',
      handle: 'fan',
      user_name: 'Fan',
      created_at: 5,
      source: 'instagram',
      url: 'https://www.instagram.com/p/SC/c/18/',
    });
    expect(commentOf({ pk: '19', text: 'yo', user: { username: 'a' }, parent_comment_id: '18' }, 'SC')?.parent_id).toBe('18');
    expect(commentOf({ pk: '19', text: 'yo', user: { id: '4', username: 'a' } }, 'SC', '18')).toMatchObject({ parent_id: '18', user_id: '4', likes: 0, reply_total: 0, created_at: 0 });
    expect(commentOf({ id: '17', text: 'old', created_at: 1, owner: { id: '3', username: 'o' }, edge_liked_by: { count: 2 }, edge_threaded_comments: { count: 4 } }, 'SC')).toMatchObject({ cid: '17', likes: 2, reply_total: 4, handle: 'o', user_id: '3' });
    expect(commentOf({ pk: '20', user_id: '7', created_at_utc: 9, text: 1 }, 'SC')).toMatchObject({ text: '', user_id: '7', handle: '', created_at: 9 });
    expect(commentOf({ text: 'no id' }, 'SC')).toBeUndefined();
  });
});

describe('instagram lossless JSON', () => {
  it('integers of 16 digits or more become strings; fractions, exponents, strings and short numbers stay', () => {
    const text = '{"a":18105007360131909,"b":-12345678901234567,"c":0.21884057971014495,"d":1.2e+25,"e":"x:12345678901234567","f":"q\\"1234567890123456","g":[9007199254740993,1]}';
    expect(JSON.parse(quoteLongIntegers(text))).toEqual({ a: '18105007360131909', b: '-12345678901234567', c: 0.21884057971014495, d: 1.2e25, e: 'x:12345678901234567', f: 'q"1234567890123456', g: ['9007199254740993', 1] });
  });
  it('any JSON value without long integers survives unchanged, and a long integer keeps its exact digits', () => {
    const noLongIntegers = fc.jsonValue().filter((v) => !/\d{16,}/.test(JSON.stringify(v)));
    fc.assert(
      fc.property(noLongIntegers, fc.bigInt({ min: 0n, max: 10n ** 19n }), (value, big) => {
        const text = JSON.stringify({ value, big: 0 }).replace('"big":0', `"big":${big}`);
        const parsed = JSON.parse(quoteLongIntegers(text));
        expect(String(parsed.big)).toBe(String(big));
        expect(JSON.stringify(parsed.value)).toBe(JSON.stringify(JSON.parse(JSON.stringify({ value })).value));
      }),
    );
  });
});
