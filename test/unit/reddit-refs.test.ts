import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../src/crawl/errors.js';
import { fullname, parseCreatorRef, parsePostRef, parseSubreddit, permalinkPath, parseThingRef, postUrl, profileUrl, stripPrefix } from '../../src/platforms/reddit/refs.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/reddit');
const entry = (file: string, i: number): any => JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[i];
const body = (file: string, i: number): any => JSON.parse(entry(file, i).response.content.text);

const invalid = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof InvalidInput) return e.message;
    throw e;
  }
  throw new Error('expected InvalidInput');
};

describe('reddit post references', () => {
  it('reads every permalink the recordings carry', () => {
    const posts = body('hot-popular.har', 1).data.children.map((c: any) => c.data);
    expect(posts.length).toBe(100);
    for (const p of posts) {
      expect(parsePostRef(`https://www.reddit.com${p.permalink}`)).toEqual({ kind: 'post', id: p.id });
      expect(parsePostRef(p.name)).toEqual({ kind: 'post', id: p.id });
    }
    const spez = body('posts-user-spez-submitted-new.har', 1).data.children.map((c: any) => c.data);
    for (const p of spez) expect(parsePostRef(`https://www.reddit.com${p.permalink}`)).toEqual({ kind: 'post', id: p.id });
  });

  it('accepts the host, path and id forms', () => {
    const post = { kind: 'post', id: '2gmzqe' };
    for (const ref of [
      'https://www.reddit.com/r/redditdev/comments/2gmzqe/praw_https_enabled_praw_testing_needed/',
      'https://old.reddit.com/r/redditdev/comments/2gmzqe/praw_https_enabled_praw_testing_needed/?utm_source=share',
      'http://np.reddit.com/r/redditdev/comments/2gmzqe',
      'https://reddit.com/comments/2gmzqe',
      'reddit.com/r/redditdev/comments/2gmzqe/x',
      'www.reddit.com/r/redditdev/comments/2gmzqe/',
      '/r/redditdev/comments/2gmzqe/praw_https/',
      'r/redditdev/comments/2gmzqe',
      'https://www.reddit.com/user/bboe/comments/2gmzqe/x/',
      'https://redd.it/2gmzqe',
      'redd.it/2gmzqe',
      't3_2gmzqe',
      'T3_2GMZQE',
      '2gmzqe',
      ' 2gmzqe ',
    ]) {
      expect(parsePostRef(ref), ref).toEqual(post);
    }
    expect(parsePostRef('https://www.reddit.com/gallery/1skh6dk')).toEqual({ kind: 'post', id: '1skh6dk' });
  });

  it('a permalink with a comment id, and t1_ fullnames, name comments', () => {
    expect(parsePostRef('https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/cu5pebp/')).toEqual({ kind: 'comment', id: 'cu5pebp', postId: '3hahrw' });
    expect(parsePostRef('https://oauth.reddit.com/comments/3hahrw/_/cu5uyz1')).toEqual({ kind: 'comment', id: 'cu5uyz1', postId: '3hahrw' });
    expect(parsePostRef('t1_0')).toEqual({ kind: 'comment', id: '0' });
  });

  it('keeps share links whole for resolution (the recorded one included)', () => {
    const recorded = new URL(entry('resolve-share-url.har', 1).request.url);
    const shareUrl = `${recorded.origin}${recorded.pathname}`;
    expect(parsePostRef(shareUrl)).toEqual({ kind: 'share', url: 'https://www.reddit.com/r/redditdev/s/WNauetbiNG' });
    expect(parsePostRef('reddit.com/r/redditdev/s/WNauetbiNG?utm_source=x')).toEqual({ kind: 'share', url: 'https://www.reddit.com/r/redditdev/s/WNauetbiNG' });
    expect(parsePostRef('/r/redditdev/s/WNauetbiNG')).toEqual({ kind: 'share', url: 'https://www.reddit.com/r/redditdev/s/WNauetbiNG' });
    expect(parsePostRef('https://www.reddit.com/u/someone/s/AbC123')).toEqual({ kind: 'share', url: 'https://www.reddit.com/u/someone/s/AbC123' });
  });

  it('the 301 of the recorded share link names the post the comments recording holds', () => {
    const location = entry('resolve-share-url.har', 1).response.headers.find((h: any) => h.name.toLowerCase() === 'location').value;
    expect(parsePostRef(location)).toEqual({ kind: 'post', id: body('comments-submission-2gmzqe.har', 1)[0].data.children[0].data.id });
  });

  it('refuses what is not a reddit post', () => {
    expect(invalid(() => parsePostRef(''))).toMatch(/params\.query/);
    expect(invalid(() => parsePostRef(undefined))).toMatch(/required/);
    expect(invalid(() => parsePostRef('https://example.com/r/x/comments/abc'))).toMatch(/not a reddit host/);
    expect(invalid(() => parsePostRef('https://www.reddit.com/r/redditdev/'))).toMatch(/not a reddit post URL/);
    expect(invalid(() => parsePostRef('https://www.reddit.com/r/x/comments/not-an-id/'))).toMatch(/not a reddit post id/);
    expect(invalid(() => parsePostRef('two words'))).toMatch(/not a reddit post reference/);
    expect(invalid(() => parsePostRef('https://redd.it/'))).toMatch(/redd\.it/);
  });

  it('finds the id in any permalink shape (property)', () => {
    const id = fc.stringMatching(/^[a-z0-9]{5,8}$/);
    const sub = fc.stringMatching(/^[A-Za-z0-9_]{3,21}$/);
    const slugArb = fc.stringMatching(/^[a-z0-9_]{0,40}$/);
    const host = fc.constantFrom('www.reddit.com', 'old.reddit.com', 'reddit.com', 'new.reddit.com', 'np.reddit.com', 'm.reddit.com');
    fc.assert(
      fc.property(id, sub, slugArb, host, (i, s, sl, h) => {
        expect(parsePostRef(`https://${h}/r/${s}/comments/${i}/${sl}`)).toEqual({ kind: 'post', id: i });
        expect(parsePostRef(`https://redd.it/${i}`)).toEqual({ kind: 'post', id: i });
        expect(parsePostRef(`t3_${i}`)).toEqual({ kind: 'post', id: i });
      }),
      { numRuns: 300 },
    );
  });
});

describe('reddit creator references', () => {
  it('users in every spelling, keeping the case reddit uses in paths', () => {
    const name = body('user-about-lil_spazbot.har', 1).data.name;
    for (const ref of [`u/${name}`, `/u/${name}`, `/user/${name}`, `user/${name}/`, `@${name}`, name, `https://www.reddit.com/user/${name}/`, `reddit.com/u/${name}/submitted`]) {
      expect(parseCreatorRef(ref), ref).toEqual({ kind: 'user', name: 'Lil_SpazBot' });
    }
  });

  it('subreddits, and "me" for the logged-in account', () => {
    for (const ref of ['r/popular', '/r/popular', 'https://www.reddit.com/r/popular/', 'https://old.reddit.com/r/popular/hot']) {
      expect(parseCreatorRef(ref), ref).toEqual({ kind: 'subreddit', name: 'popular' });
    }
    expect(parseCreatorRef('me')).toEqual({ kind: 'me' });
    expect(parseCreatorRef('ME')).toEqual({ kind: 'me' });
    expect(parseCreatorRef('u/me')).toEqual({ kind: 'user', name: 'me' });
  });

  it('refuses malformed names', () => {
    expect(invalid(() => parseCreatorRef(''))).toMatch(/required/);
    expect(invalid(() => parseCreatorRef('u/has space'))).toMatch(/not a reddit username/);
    expect(invalid(() => parseCreatorRef('r/has-dash'))).toMatch(/not a subreddit name/);
    expect(invalid(() => parseCreatorRef('https://example.com/user/x'))).toMatch(/not a reddit host/);
    expect(invalid(() => parseCreatorRef('x/y'))).toMatch(/not a reddit user/);
  });
});

describe('subreddit names and write targets', () => {
  it('subreddit in every spelling; what reddit judges is passed on', () => {
    expect(parseSubreddit('pics')).toBe('pics');
    expect(parseSubreddit('r/pics')).toBe('pics');
    expect(parseSubreddit('/r/pics/')).toBe('pics');
    expect(parseSubreddit('https://www.reddit.com/r/pics/hot')).toBe('pics');
    // The placeholder PRAW left in the recorded submit: reddit, not this adapter, decides whether it exists.
    const recorded = new URLSearchParams(entry('write-submit-link-selftext.har', 1).request.postData.text).get('sr');
    expect(parseSubreddit(recorded)).toBe('<TEST_SUBREDDIT>');
    expect(invalid(() => parseSubreddit('two words'))).toMatch(/params\.subreddit/);
    expect(invalid(() => parseSubreddit(''))).toMatch(/params\.subreddit/);
    expect(invalid(() => parseSubreddit('a/b/c', 'category'))).toMatch(/params\.category/);
  });

  it('targets become fullnames; bare ids are posts; share links wait for resolution', () => {
    const recorded = new URLSearchParams(entry('write-comment-reply-submission.har', 1).request.postData.text).get('thing_id');
    expect(parseThingRef(recorded)).toEqual({ fullname: 't3_4b1tfm' });
    expect(parseThingRef('4b1tfm')).toEqual({ fullname: 't3_4b1tfm' });
    expect(parseThingRef('https://www.reddit.com/r/x/comments/4b1tfm/title/d162ara/')).toEqual({ fullname: 't1_d162ara' });
    expect(parseThingRef('t1_d162ara')).toEqual({ fullname: 't1_d162ara' });
    expect(parseThingRef('https://www.reddit.com/r/x/s/Code123')).toEqual({ share: 'https://www.reddit.com/r/x/s/Code123' });
    expect(invalid(() => parseThingRef('nope nope'))).toMatch(/^params\.target/);
  });

  it('fullnames and URLs', () => {
    expect(fullname({ kind: 'post', id: 'abc' })).toBe('t3_abc');
    expect(fullname({ kind: 'comment', id: 'abc' })).toBe('t1_abc');
    expect(stripPrefix('t2_1k4v4ka3y9')).toBe('1k4v4ka3y9');
    expect(stripPrefix('t1_cu5pebp')).toBe('cu5pebp');
    expect(stripPrefix('cu5pebp')).toBe('cu5pebp');
    expect(postUrl('2gmzqe')).toBe('https://www.reddit.com/comments/2gmzqe/');
    expect(profileUrl('Lil_SpazBot')).toBe('https://www.reddit.com/user/Lil_SpazBot/');
  });
});

describe('permalinkPath', () => {
  it('keeps the path a post or comment URL was given under, when it says more than /comments/<id>', () => {
    expect(permalinkPath('https://www.reddit.com/r/pics/comments/abc12/a_slug/def34/?context=3')).toBe('/r/pics/comments/abc12/a_slug/def34');
    expect(permalinkPath('reddit.com/r/pics/comments/abc12/a_slug/')).toBe('/r/pics/comments/abc12/a_slug');
    expect(permalinkPath('https://oauth.reddit.com/comments/abc12/_/def34')).toBe('/comments/abc12/_/def34');
    expect(permalinkPath('https://www.reddit.com/comments/abc12/')).toBeUndefined();
    expect(permalinkPath('abc12')).toBeUndefined();
    expect(permalinkPath('https://redd.it/abc12')).toBeUndefined();
    expect(permalinkPath('https://example.com/r/pics/comments/abc12/x')).toBeUndefined();
  });
});
