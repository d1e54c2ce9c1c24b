import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../src/crawl/errors.js';
import {
  goodHandle,
  isDid,
  isHandle,
  isRkey,
  isTid,
  parseAtUri,
  parseCreatorRef,
  parsePostRef,
  postAtUri,
  tidMicros,
  tidSeconds,
} from '../../src/platforms/bluesky/refs.js';
import { bluesky } from '../../src/platforms/bluesky/index.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bluesky');
const DID = 'did:plc:ys5aypbbeqmwn42edy5t3sho';

describe('post references', () => {
  it.each([
    ['https://bsky.app/profile/mkbhd.com/post/3lsy4fwoq6s23', { handle: 'mkbhd.com' }],
    ['bsky.app/profile/mkbhd.com/post/3lsy4fwoq6s23', { handle: 'mkbhd.com' }],
    ['https://www.bsky.app/profile/MKBHD.com/post/3lsy4fwoq6s23?ref_src=embed', { handle: 'mkbhd.com' }],
    ['http://bsky.app/profile/mkbhd.com/post/3lsy4fwoq6s23/', { handle: 'mkbhd.com' }],
    ['https://bsky.app/profile/@mkbhd.com/post/3lsy4fwoq6s23', { handle: 'mkbhd.com' }],
    [`https://bsky.app/profile/${DID}/post/3lsy4fwoq6s23`, { did: DID }],
    [`https://bsky.app/profile/${encodeURIComponent(DID)}/post/3lsy4fwoq6s23`, { did: DID }],
    [`at://${DID}/app.bsky.feed.post/3lsy4fwoq6s23`, { did: DID }],
    ['at://mkbhd.com/app.bsky.feed.post/3lsy4fwoq6s23', { handle: 'mkbhd.com' }],
    [`${DID}/3lsy4fwoq6s23`, { did: DID }],
    [`bluesky:${DID}/3lsy4fwoq6s23`, { did: DID }],
    ['  did:web:example.com/3lsy4fwoq6s23 ', { did: 'did:web:example.com' }],
  ])('%s', (input, actor) => {
    expect(parsePostRef(input)).toEqual({ actor, rkey: '3lsy4fwoq6s23' });
  });

  it.each([
    '',
    '3lsy4fwoq6s23',
    'https://bsky.app/profile/mkbhd.com',
    'https://bsky.app/profile/mkbhd.com/feed/whats-hot',
    'https://bsky.app/profile/not a handle/post/3lsy4fwoq6s23',
    'https://example.com/profile/mkbhd.com/post/3lsy4fwoq6s23',
    `at://${DID}/app.bsky.feed.like/3lsy4fwoq6s23`,
    `at://${DID}/app.bsky.feed.post`,
    `at://${DID}`,
    'mkbhd.com/3lsy4fwoq6s23',
  ])('refuses %j', (input) => {
    expect(() => parsePostRef(input)).toThrow(InvalidInput);
  });
});

describe('creator references', () => {
  it.each([
    ['mkbhd.com', { handle: 'mkbhd.com' }],
    ['bsky.app', { handle: 'bsky.app' }],
    ['@bsky.app', { handle: 'bsky.app' }],
    ['https://bsky.app/profile/bsky.app', { handle: 'bsky.app' }],
    ['@MKBHD.com', { handle: 'mkbhd.com' }],
    ['@alice.bsky.social', { handle: 'alice.bsky.social' }],
    [DID, { did: DID }],
    ['did:web:example.com', { did: 'did:web:example.com' }],
    ['https://bsky.app/profile/mkbhd.com', { handle: 'mkbhd.com' }],
    ['bsky.app/profile/mkbhd.com/', { handle: 'mkbhd.com' }],
    [`https://bsky.app/profile/${DID}`, { did: DID }],
    ['https://bsky.app/profile/mkbhd.com/post/3lsy4fwoq6s23', { handle: 'mkbhd.com' }],
    [`at://${DID}`, { did: DID }],
  ])('%s', (input, actor) => {
    expect(parseCreatorRef(input)).toEqual(actor);
  });

  it.each(['', '@', 'mkbhd', 'https://bsky.app', 'https://bsky.app/', 'bsky.app/', 'not a handle', 'https://bsky.app/search?q=x', `at://${DID}/app.bsky.feed.post/3lsy4fwoq6s23`, 'did:plc:'])('refuses %j', (input) => {
    expect(() => parseCreatorRef(input)).toThrow(InvalidInput);
  });

  it('never throws anything but InvalidInput on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const parse of [parseCreatorRef, parsePostRef]) {
          try {
            parse(s);
          } catch (e) {
            expect(e).toBeInstanceOf(InvalidInput);
          }
        }
      }),
    );
  });
});

describe('identifier syntax (atproto specs)', () => {
  it('handles', () => {
    for (const h of ['bsky.app', 'mkbhd.com', 'alice.bsky.social', 'xn--ls8h.test', 'a.co', 'john.test']) expect(isHandle(h)).toBe(true);
    for (const h of ['bsky', 'bsky.app.', '-bsky.app', 'bsky.123', 'jo@hn.test', `${'a'.repeat(64)}.com`, 'bsky..app']) expect(isHandle(h)).toBe(false);
  });

  it('DIDs', () => {
    for (const d of [DID, 'did:web:example.com', 'did:web:localhost%3A1234', 'did:method:val:two']) expect(isDid(d)).toBe(true);
    for (const d of ['did:plc', 'did:PLC:abc', 'did:plc:abc/', 'plc:abc', 'did:plc:abc:']) expect(isDid(d)).toBe(false);
  });

  it('record keys', () => {
    for (const k of ['3lsy4fwoq6s23', 'self', 'example.com', '~1.2-3_', 'pre:fix']) expect(isRkey(k)).toBe(true);
    for (const k of ['.', '..', 'a/b', 'a b', '', 'a'.repeat(513)]) expect(isRkey(k)).toBe(false);
  });

  it('at:// URIs', () => {
    expect(parseAtUri(`at://${DID}/app.bsky.feed.post/3lsy4fwoq6s23`)).toEqual({ authority: DID, collection: 'app.bsky.feed.post', rkey: '3lsy4fwoq6s23' });
    expect(parseAtUri(`at://${DID}`)).toEqual({ authority: DID, collection: undefined, rkey: undefined });
    expect(parseAtUri('https://bsky.app')).toBeUndefined();
    expect(postAtUri(DID, 'abc')).toBe(`at://${DID}/app.bsky.feed.post/abc`);
  });

  it('"handle.invalid" is not a handle to link to', () => {
    expect(goodHandle('handle.invalid')).toBeUndefined();
    expect(goodHandle('mkbhd.com')).toBe('mkbhd.com');
    expect(goodHandle(undefined)).toBeUndefined();
  });
});

describe('TIDs (atproto TID spec)', () => {
  it('accepts the syntax the spec gives and refuses the rest', () => {
    for (const t of ['3jzfcijpj2z2a', '7777777777777', '3zzzzzzzzzzzz', '2222222222222']) expect(isTid(t)).toBe(true);
    for (const t of ['3jzfcijpj2z21', '0000000000000', '3JZFCIJPJ2Z2A', '3jzfcijpj2z2aa', '3jzfcijpj2z2', 'kjzfcijpj2z2a', 'self']) expect(isTid(t)).toBe(false);
  });

  it('decodes the timestamp: 2222222222222 is the epoch', () => {
    expect(tidMicros('2222222222222')).toBe(0n);
    expect(tidMicros('self')).toBeUndefined();
    expect(tidSeconds('not-a-tid')).toBeUndefined();
  });

  it('the recorded posts were created when their record keys say (within seconds)', () => {
    const body = JSON.parse(JSON.parse(readFileSync(resolve(FIXTURES, 'posts-author-feed-mkbhd.har'), 'utf8')).log.entries[0].response.content.text);
    for (const { post } of body.feed) {
      const rkey = post.uri.split('/').pop();
      const created = Date.parse(post.record.createdAt) / 1000;
      expect(Math.abs(tidSeconds(rkey)! - created)).toBeLessThan(5);
    }
    expect(tidSeconds('3lsy4fwoq6s23')).toBe(Math.floor(Date.parse('2025-07-02T11:30:50.192Z') / 1000));
  });
});

describe('author URLs', () => {
  it('prefer the handle, fall back to the DID, never link handle.invalid', () => {
    expect(bluesky.authorUrl({ id: DID, handle: 'mkbhd.com' })).toBe('https://bsky.app/profile/mkbhd.com');
    expect(bluesky.authorUrl({ id: DID, handle: 'handle.invalid' })).toBe(`https://bsky.app/profile/${DID}`);
    expect(bluesky.authorUrl({ id: DID })).toBe(`https://bsky.app/profile/${DID}`);
    expect(bluesky.authorUrl({})).toBeUndefined();
  });
});
