import { describe, expect, it } from 'vitest';
import { authorOf, bestVideo, boardToDraft, pictures, pinMedia, pinToDraft, reactions, timeOf } from '../../src/platforms/pinterest/parse.js';

const v = (url: string, width = 1080, height = 1920, duration = 10_000) => ({ url, width, height, duration, thumbnail: 'https://i.pinimg.com/videos/thumbnails/originals/x.jpg' });

describe('pinterest video choice', () => {
  it('the highest V_<n>P wins over HLS and the V_EXP tiers; duration is milliseconds', () => {
    const best = bestVideo({ V_HLSV4: v('https://v1.pinimg.com/videos/mc/hls/a.m3u8'), V_480P: v('https://v1.pinimg.com/videos/mc/480p/a.mp4', 480, 854), V_720P: v('https://v1.pinimg.com/videos/mc/720p/a.mp4', 720, 1280, 31_500), V_EXP4: v('https://v1.pinimg.com/videos/mc/expMp4/a_t2.mp4') });
    expect(best).toMatchObject({ url: 'https://v1.pinimg.com/videos/mc/720p/a.mp4', w: 720, h: 1280, duration_s: 31.5 });
  });
  it('without V_<n>P: an MP4 whose path names its height, then HLS (V_HLSV4 first), then the largest', () => {
    expect(bestVideo({ V_EXP3: v('https://v1.pinimg.com/videos/mc/expMp4/a_t1.mp4'), V_EXP7: v('https://v1.pinimg.com/videos/mc/720p/a.mp4') })!.url).toBe('https://v1.pinimg.com/videos/mc/720p/a.mp4');
    expect(bestVideo({ V_HLSV3_MOBILE: v('https://v.pinimg.com/m.m3u8'), V_HLSV4: v('https://v.pinimg.com/4.m3u8'), V_EXP3: v('https://v1.pinimg.com/videos/mc/expMp4/a_t1.mp4') })!.url).toBe('https://v.pinimg.com/4.m3u8');
    expect(bestVideo({ V_A: v('https://v.pinimg.com/small.mp4', 240, 426), V_B: v('https://v.pinimg.com/big.mp4', 1080, 1920) })!.url).toBe('https://v.pinimg.com/big.mp4');
    expect(bestVideo({ V_720P: { url: 'not a url' } })).toBeUndefined();
    expect(bestVideo(null)).toBeUndefined();
  });
});

describe('pinterest pictures and counts', () => {
  it('orig for media, 736x for the cover; the largest size when either is missing', () => {
    const p = pictures({ '236x': { url: 'https://i.pinimg.com/236x/a.jpg', width: 236, height: 400 }, '736x': { url: 'https://i.pinimg.com/736x/a.jpg', width: 736, height: 1248 }, orig: { url: 'https://i.pinimg.com/originals/a.jpg', width: 1000, height: 1696 } });
    expect(p.orig!.url).toBe('https://i.pinimg.com/originals/a.jpg');
    expect(p.cover!.url).toBe('https://i.pinimg.com/736x/a.jpg');
    const q = pictures({ '236x': { url: 'https://i.pinimg.com/236x/b.jpg', width: 236 }, '474x': { url: 'https://i.pinimg.com/474x/b.jpg', width: 474 } });
    expect(q.orig!.url).toBe('https://i.pinimg.com/474x/b.jpg');
    expect(q.cover!.url).toBe('https://i.pinimg.com/474x/b.jpg');
    expect(pictures({})).toEqual({ orig: undefined, cover: undefined });
  });
  it('reactions add up; an empty map is a reported zero; no map is not reported', () => {
    expect(reactions({ '1': 140, '5': 1 })).toBe(141);
    expect(reactions({})).toBe(0);
    expect(reactions(undefined)).toBeUndefined();
    expect(reactions({ '1': -3, '5': 'x', '7': 2 })).toBe(2);
  });
  it('created_at in RFC 2822 form', () => {
    expect(timeOf('Wed, 09 Feb 2022 20:32:10 +0000')).toBe(1644438730);
    expect(timeOf('yesterday')).toBeUndefined();
    expect(timeOf(1644438730)).toBeUndefined();
  });
});

describe('pinterest pins', () => {
  it('a carousel slot without an original points at the same picture under /originals/', () => {
    const media = pinMedia({ carousel_data: { carousel_slots: [{ id: '1', images: { '345x': { url: 'https://i.pinimg.com/345x/ab/cd/ef/abcdef.jpg', width: 345, height: 345 } } }] } });
    expect(media).toEqual([{ kind: 'image', url: 'https://i.pinimg.com/originals/ab/cd/ef/abcdef.jpg' }]);
  });
  it('an idea pin without readable blocks falls back to the video, then the picture', () => {
    const pin = { story_pin_data: { pages: [{ blocks: [{ type: 'story_pin_paragraph_block', text: 'hi' }] }] }, images: { orig: { url: 'https://i.pinimg.com/originals/x.jpg', width: 10, height: 20 } } };
    expect(pinMedia(pin)).toEqual([{ kind: 'image', url: 'https://i.pinimg.com/originals/x.jpg', w: 10, h: 20 }]);
  });
  it('no id, a lossy numeric id, or another object type is no pin', () => {
    expect(pinToDraft({ type: 'pin', title: 'x' })).toBeUndefined();
    expect(pinToDraft({ type: 'pin', id: 672584525610478245 })).toBeUndefined();
    expect(pinToDraft({ type: 'board', id: '672584594289335576' })).toBeUndefined();
    expect(pinToDraft({ type: 'story', id: '1' })).toBeUndefined();
    expect(pinToDraft('672584525610478245')).toBeUndefined();
  });
  it('blank titles and the " " description are absent; the pinner is the author, else the creator', () => {
    const d = pinToDraft({ id: '12', title: ' ', grid_title: '', description: ' ', native_creator: { id: '34', username: 'maker', full_name: '' } })!;
    expect(d.title).toBeUndefined();
    expect(d.text).toBeUndefined();
    expect(d).toMatchObject({ native_id: '12', type: 'image', author: 'maker', author_handle: 'maker', author_id: '34', url: 'https://www.pinterest.com/pin/12/', media: [], stats: {} });
  });
  it('saves count as shares when reported, repin_count otherwise', () => {
    expect(pinToDraft({ id: '1', aggregated_pin_data: { aggregated_stats: { saves: 9 }, comment_count: 2 }, repin_count: 5 })!.stats).toEqual({ comments: 2, shares: 9 });
    expect(pinToDraft({ id: '1', repin_count: 5, comment_count: 0 })!.stats).toEqual({ comments: 0, shares: 5 });
  });
});

describe('pinterest boards and users', () => {
  it('a board item: board: id, its page, the largest cover listed per size when no cover URL is named', () => {
    const d = boardToDraft({ type: 'board', id: '77', name: 'B', url: '/u/b/', owner: { id: '5', username: 'u' }, images: { '170x': [{ url: 'https://i.pinimg.com/170x/c.jpg', width: 170 }], '474x': [{ url: 'https://i.pinimg.com/474x/c.jpg', width: 474 }] } })!;
    expect(d).toMatchObject({ native_id: 'board:77', title: 'B', url: 'https://www.pinterest.com/u/b/', thumb: 'https://i.pinimg.com/474x/c.jpg', author_handle: 'u' });
    expect(boardToDraft({ type: 'pin', id: '1' })).toBeUndefined();
  });
  it('an author: counts as reported, verified by identity or merchant, the largest avatar', () => {
    expect(authorOf({ id: '9', username: 'u', full_name: 'U', about: ' ', follower_count: 3, following_count: 0, pin_count: 7, image_medium_url: 'https://i.pinimg.com/75x75_RS/a.jpg', is_verified_merchant: true })).toEqual({
      id: '9',
      source: 'pinterest',
      handle: 'u',
      name: 'U',
      bio: undefined,
      avatar: 'https://i.pinimg.com/75x75_RS/a.jpg',
      url: 'https://www.pinterest.com/u/',
      followers: 3,
      following: 0,
      posts: 7,
      verified: true,
    });
    expect(authorOf({ username: 'u' })).toBeUndefined();
    expect(authorOf(null)).toBeUndefined();
  });
});
