import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CrawlError } from '../../src/crawl/errors.js';
import { toutiao } from '../../src/platforms/toutiao/index.js';
import { creatorUrl, parseCreatorRef, parsePostRef, postUrl, trendingNativeId, type PostKind } from '../../src/platforms/toutiao/refs.js';

const ID = '7506218830561436223';
const TOKEN = 'MS4wLjABAAAAq3Yk8mZxWc2aNfR0uT7pLh4sVbE9oDj1iKQ6wGyCX5M';

describe('post references', () => {
  it.each<[string, PostKind]>([
    [`https://www.toutiao.com/article/${ID}/`, 'article'],
    [`https://www.toutiao.com/article/${ID}/?log_from=abc&wid=1`, 'article'],
    [`www.toutiao.com/article/${ID}`, 'article'],
    [`https://www.toutiao.com/video/${ID}/`, 'video'],
    [`https://www.toutiao.com/w/${ID}/`, 'micro'],
    [`https://www.toutiao.com/w/a${ID}/`, 'micro'],
    [`https://www.toutiao.com/group/${ID}/`, 'unknown'],
    [`https://www.toutiao.com/item/${ID}/`, 'unknown'],
    [`https://toutiao.com/group/${ID}/`, 'unknown'],
    [`https://toutiao.com/a${ID}/`, 'unknown'],
    [`http://www.toutiao.com/a${ID}/`, 'unknown'],
    [`https://m.toutiao.com/i${ID}/`, 'unknown'],
    [`https://m.toutiao.com/i${ID}/info/`, 'unknown'],
    [`https://m.toutiao.com/article/${ID}/`, 'article'],
    [`https://m.toutiao.com/w/${ID}/`, 'micro'],
    [`https://m.toutiao.com/video/${ID}/`, 'video'],
    [ID, 'unknown'],
    [` ${ID} `, 'unknown'],
  ])('%s → %s', (input, kind) => {
    expect(parsePostRef(input)).toEqual({ id: ID, kind });
  });

  it('a 16-digit micro-post id is a post id too', () => {
    expect(parsePostRef('https://www.toutiao.com/w/1872013328886923/')).toEqual({ id: '1872013328886923', kind: 'micro' });
  });

  it('share short links are kept for resolving (normalized), not guessed', () => {
    expect(parsePostRef('https://m.toutiao.com/is/iYSgcfwq/')).toEqual({ short: 'https://m.toutiao.com/is/iYSgcfwq/' });
    expect(parsePostRef('m.toutiao.com/is/GC6g0Ft4Oao')).toEqual({ short: 'https://m.toutiao.com/is/GC6g0Ft4Oao/' });
  });

  it.each([
    ['', /required/],
    ['trending-7506290511447588874', /hot-board topic/],
    ['https://www.toutiao.com/trending/7506290511447588874/', /hot-board topic/],
    ['https://www.douyin.com/video/7506218830561436223', /not a toutiao/],
    ['https://www.toutiao.com/c/user/token/MS4wLjABAAAAq3Yk8mZxWc2aNfR0uT7pLh4sVbE9oDj1iKQ6wGyCX5M/', /not a toutiao post URL/],
    ['https://www.toutiao.com/article/12345/', /not a toutiao post URL/],
    ['https://eviltoutiao.com/article/7506218830561436223/', /not a toutiao/],
    ['12345', /not a toutiao post reference/],
    ['hello world', /not a toutiao post reference/],
  ])('refuses %j', (input, message) => {
    let thrown: unknown;
    try {
      parsePostRef(input);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CrawlError);
    expect((thrown as CrawlError).code).toBe('invalid_request');
    expect((thrown as Error).message).toMatch(message);
  });

  const postId = fc.stringMatching(/^[1-9]\d{14,19}$/);
  it('property: every link form of any group id parses back to that id and its kind', () => {
    const forms: Array<[(id: string) => string, PostKind]> = [
      [(id) => `https://www.toutiao.com/article/${id}/`, 'article'],
      [(id) => `https://www.toutiao.com/video/${id}/`, 'video'],
      [(id) => `https://www.toutiao.com/w/${id}/`, 'micro'],
      [(id) => `https://www.toutiao.com/w/a${id}/`, 'micro'],
      [(id) => `https://www.toutiao.com/group/${id}/?app=news_article`, 'unknown'],
      [(id) => `https://toutiao.com/a${id}/`, 'unknown'],
      [(id) => `https://m.toutiao.com/i${id}/`, 'unknown'],
      [(id) => `https://m.toutiao.com/article/${id}/`, 'article'],
      [(id) => id, 'unknown'],
    ];
    fc.assert(
      fc.property(postId, fc.integer({ min: 0, max: forms.length - 1 }), (id, i) => {
        const [form, kind] = forms[i];
        expect(parsePostRef(form(id))).toEqual({ id, kind });
      }),
    );
  });

  it('property: the canonical URL of a post round-trips through the parser', () => {
    fc.assert(
      fc.property(postId, fc.constantFrom<PostKind>('article', 'video', 'micro'), (id, kind) => {
        expect(parsePostRef(postUrl(id, kind))).toEqual({ id, kind });
      }),
    );
  });

  it('property: a hot-board topic native id is never taken for a post', () => {
    fc.assert(
      fc.property(postId, (id) => {
        expect(() => parsePostRef(trendingNativeId(id))).toThrow(/hot-board topic/);
      }),
    );
  });
});

describe('creator references', () => {
  it.each([
    [`https://www.toutiao.com/c/user/token/${TOKEN}/`, { token: TOKEN }],
    [`https://www.toutiao.com/c/user/token/${TOKEN}/?source=profile&log_from=x`, { token: TOKEN }],
    [`www.toutiao.com/c/user/token/${TOKEN}`, { token: TOKEN }],
    [TOKEN, { token: TOKEN }],
    ['https://www.toutiao.com/c/user/58391760233/', { uid: '58391760233' }],
    ['https://m.toutiao.com/c/user/58391760233/', { uid: '58391760233' }],
    ['58391760233', { uid: '58391760233' }],
    ['https://m.toutiao.com/is/iYSgcfwq/', { short: 'https://m.toutiao.com/is/iYSgcfwq/' }],
  ])('%s', (input, ref) => {
    expect(parseCreatorRef(input)).toEqual(ref);
  });

  it.each([
    ['', /required/],
    ['@城市早报', /no @handles/],
    ['https://www.toutiao.com/article/7506218830561436223/', /not a toutiao profile URL/],
    ['https://www.toutiao.com/c/user/token/notatoken/', /not a toutiao profile URL/],
    ['https://space.bilibili.com/946974', /not a toutiao creator reference/],
  ])('refuses %j', (input, message) => {
    expect(() => parseCreatorRef(input)).toThrow(message);
  });

  const token = fc.stringMatching(/^MS4wLjABAAAA[A-Za-z0-9_-]{20,80}$/);
  it('property: the profile URL of any token round-trips, and author_url is that URL', () => {
    fc.assert(
      fc.property(token, (t) => {
        expect(parseCreatorRef(creatorUrl(t))).toEqual({ token: t });
        expect(parseCreatorRef(t)).toEqual({ token: t });
        expect(toutiao.authorUrl({ id: t })).toBe(creatorUrl(t));
      }),
    );
  });

  it('author_url of a numeric user id is its uid page; anything else has none', () => {
    expect(toutiao.authorUrl({ id: '3651978203441287' })).toBe('https://www.toutiao.com/c/user/3651978203441287/');
    expect(toutiao.authorUrl({ id: 'someone' })).toBeUndefined();
    expect(toutiao.authorUrl({})).toBeUndefined();
  });
});
