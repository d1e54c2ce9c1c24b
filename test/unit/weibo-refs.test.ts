import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../src/crawl/errors.js';
import { bidToMid, midToBid, parseCreatorRef, parsePostRef, postUrl, profileUrl } from '../../src/platforms/weibo/refs.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const body = (file: string, i = 0): any =>
  JSON.parse(JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[i].response.content.text);

describe('weibo mid <-> bid', () => {
  it('matches the pairs weibo itself reports in the recordings', () => {
    const show = body('detail-statuses-show-HyZVegYAP.har').data;
    expect(midToBid(show.mid)).toBe('HyZVegYAP');
    expect(bidToMid('HyZVegYAP')).toBe(show.mid);
    expect(bidToMid(show.retweeted_status.bid)).toBe(show.retweeted_status.mid);

    const timeline = body('posts-arknights-timeline.har').data.cards;
    expect(timeline.length).toBeGreaterThan(5);
    for (const card of timeline) {
      expect(midToBid(card.mblog.mid)).toBe(card.mblog.bid);
      expect(bidToMid(card.mblog.bid)).toBe(card.mblog.mid);
    }
    expect(bidToMid('Kjc77D1jz')).toBe('4645748019299849');
    expect(midToBid('4645748019299849')).toBe('Kjc77D1jz');
  });

  it('holds for comment ids too (same scheme)', () => {
    const comments = body('comments-hotflow-4383183661430868.har').data.data;
    const withBid = comments.filter((c: any) => c.bid);
    expect(withBid.length).toBeGreaterThan(3);
    for (const c of withBid) expect(midToBid(c.mid)).toBe(c.bid);
  });

  it('pads inner groups: zeros inside the mid survive the round trip', () => {
    expect(midToBid('1000000000000001')).toBe('a00000001');
    expect(bidToMid(midToBid('1000000000000001'))).toBe('1000000000000001');
    expect(bidToMid(midToBid('5000000'))).toBe('5000000');
  });

  it('round-trips any mid (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9][0-9]{0,18}$/), (mid) => {
        expect(bidToMid(midToBid(mid))).toBe(mid);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips any well-formed bid (property)', () => {
    const group = fc.integer({ min: 0, max: 9_999_999 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999 }), fc.array(group, { minLength: 1, maxLength: 2 }), (head, rest) => {
        const mid = String(head) + rest.map((g) => String(g).padStart(7, '0')).join('');
        const bid = midToBid(mid);
        expect(midToBid(bidToMid(bid))).toBe(bid);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects what is not a mid or a bid', () => {
    expect(() => midToBid('12a')).toThrow(InvalidInput);
    expect(() => bidToMid('abc-def')).toThrow(InvalidInput);
    // 'ZZZZ' is 62^4-1, more than one 7-digit group can hold.
    expect(() => bidToMid('1ZZZZ')).toThrow(InvalidInput);
  });
});

describe('weibo post references', () => {
  const mid = '4645748019299849';
  const cases: Array<[string, string]> = [
    [mid, mid],
    ['Kjc77D1jz', 'Kjc77D1jz'],
    [`https://m.weibo.cn/detail/${mid}`, mid],
    [`https://m.weibo.cn/status/Kjc77D1jz?mblogid=Kjc77D1jz&luicode=10000011`, 'Kjc77D1jz'],
    [`https://m.weibo.cn/status/${mid}`, mid],
    [`https://m.weibo.cn/6279793937/${mid}`, mid],
    ['https://weibo.com/6279793937/Kjc77D1jz', 'Kjc77D1jz'],
    ['https://www.weibo.com/6279793937/Kjc77D1jz?refer_flag=1001030103_', 'Kjc77D1jz'],
    [`weibo.com/detail/${mid}`, mid],
    [`  https://weibo.com/status/${mid}  `, mid],
  ];
  it.each(cases)('%s', (input, id) => {
    const ref = parsePostRef(input);
    expect(ref).toEqual({ id, mid, bid: 'Kjc77D1jz' });
  });

  it('rejects references that name no post', () => {
    for (const bad of ['', 'https://weibo.com/u/6279793937', 'https://example.com/detail/4645748019299849', 'hello world', '12345']) {
      expect(() => parsePostRef(bad)).toThrow(InvalidInput);
    }
  });
});

describe('weibo creator references', () => {
  it.each([
    ['6279793937', { uid: '6279793937' }],
    ['https://weibo.com/u/6279793937', { uid: '6279793937' }],
    ['https://www.weibo.com/u/6279793937?is_all=1', { uid: '6279793937' }],
    ['weibo.com/6279793937', { uid: '6279793937' }],
    ['https://m.weibo.cn/u/6279793937?uid=6279793937&luicode=10000011', { uid: '6279793937' }],
    ['https://m.weibo.cn/profile/6279793937', { uid: '6279793937' }],
    ['@明日方舟Arknights', { name: '明日方舟Arknights' }],
    ['明日方舟Arknights', { name: '明日方舟Arknights' }],
    ['https://m.weibo.cn/n/%E6%98%8E%E6%97%A5%E6%96%B9%E8%88%9FArknights', { name: '明日方舟Arknights' }],
    ['https://weibo.com/n/明日方舟Arknights', { name: '明日方舟Arknights' }],
  ])('%s', (input, expected) => {
    expect(parseCreatorRef(input)).toEqual(expected);
  });

  it('refuses personal-domain URLs and junk with a message naming the accepted forms', () => {
    expect(() => parseCreatorRef('https://weibo.com/arknights')).toThrow(/uid/);
    expect(() => parseCreatorRef('')).toThrow(InvalidInput);
    expect(() => parseCreatorRef('two words')).toThrow(InvalidInput);
  });
});

describe('weibo URLs', () => {
  it('builds the canonical post and profile URLs', () => {
    expect(postUrl('4645748019299849', '6279793937')).toBe('https://weibo.com/6279793937/Kjc77D1jz');
    expect(postUrl('4645748019299849')).toBe('https://m.weibo.cn/detail/4645748019299849');
    expect(profileUrl('6279793937')).toBe('https://weibo.com/u/6279793937');
  });
});
