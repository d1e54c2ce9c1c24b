import pino from 'pino';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CrawlError } from '../../src/crawl/errors.js';
import { homeInstance, normalizeHost, pickInstance, writeInstance } from '../../src/platforms/mastodon/instance.js';
import { parseAccountRef, parseStatusRef, profileUrl } from '../../src/platforms/mastodon/refs.js';
import { mastodon } from '../../src/platforms/mastodon/index.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};

const ctxWith = (credentials?: Record<string, string>): CrawlContext =>
  ({ platform: 'mastodon', profile: 'default', http: {}, session: { credentials }, memo: new MemoryMemo(), signal: new AbortController().signal, log: pino({ level: 'silent' }), warn: () => {} }) as unknown as CrawlContext;

describe('mastodon status references', () => {
  it.each([
    ['117020583223442465', { id: '117020583223442465' }],
    ['https://mastodon.social/@Gargron/109310000000000001', { id: '109310000000000001', host: 'mastodon.social' }],
    ['https://mastodon.social/@Gargron/109310000000000001/', { id: '109310000000000001', host: 'mastodon.social' }],
    ['https://mastodon.social/@Gargron/109310000000000001/embed', { id: '109310000000000001', host: 'mastodon.social' }],
    ['https://mastodon.social/@kelp@fosstodon.org/113499990000000000', { id: '113499990000000000', host: 'mastodon.social' }],
    ['https://fosstodon.org/users/kelp_forest/statuses/112233445566778899', { id: '112233445566778899', host: 'fosstodon.org' }],
    ['http://localhost:3000/ap/users/117020565966271181/statuses/117020585487094447', { id: '117020585487094447', host: 'localhost:3000' }],
    ['https://mastodon.social/web/statuses/5', { id: '5', host: 'mastodon.social' }],
    ['https://Mastodon.Social/web/@Gargron/7', { id: '7', host: 'mastodon.social' }],
    ['mastodon.social/113500000000000400', { id: '113500000000000400', host: 'mastodon.social' }],
    ['mastodon:localhost:3000/117020583223442465', { id: '117020583223442465', host: 'localhost:3000' }],
  ])('%s', (input, expected) => {
    const ref = parseStatusRef(input);
    expect({ id: ref.id, host: ref.host }).toEqual({ id: expected.id, host: (expected as { host?: string }).host });
    if (input.startsWith('http')) expect(ref.url).toBe(input);
  });

  it('rejects what is not a status', () => {
    for (const bad of ['', '   ', 'https://mastodon.social/@Gargron', 'https://mastodon.social/about', 'hello world', 'ftp://x.org/@a/1', 'mastodon.social/abc']) {
      expect(codeOf(() => parseStatusRef(bad))).toBe('invalid_request');
    }
    expect(codeOf(() => parseStatusRef(undefined))).toBe('invalid_request');
  });
});

describe('mastodon account references', () => {
  it.each([
    ['Gargron', { acct: 'Gargron' }],
    ['@Gargron', { acct: 'Gargron' }],
    ['@Gargron@mastodon.social', { acct: 'Gargron', host: 'mastodon.social' }],
    ['Gargron@mastodon.social', { acct: 'Gargron', host: 'mastodon.social' }],
    ['acct:kelp_forest@fosstodon.org', { acct: 'kelp_forest', host: 'fosstodon.org' }],
    ['@mastodonpy_test@localhost:3000', { acct: 'mastodonpy_test', host: 'localhost:3000' }],
    ['https://mastodon.social/@Gargron', { acct: 'Gargron', host: 'mastodon.social' }],
    ['https://mastodon.social/@Gargron/with_replies', { acct: 'Gargron', host: 'mastodon.social' }],
    ['https://mastodon.social/@Gargron@mastodon.social', { acct: 'Gargron', host: 'mastodon.social' }],
    ['https://mastodon.social/@kelp_forest@fosstodon.org', { acct: 'kelp_forest@fosstodon.org', host: 'mastodon.social' }],
    ['https://fosstodon.org/users/kelp_forest', { acct: 'kelp_forest', host: 'fosstodon.org' }],
    ['http://localhost:3000/ap/users/117020565966271181', { id: '117020565966271181', host: 'localhost:3000' }],
    ['https://mastodon.social/web/accounts/1', { id: '1', host: 'mastodon.social' }],
    ['117020565966271181', { id: '117020565966271181' }],
  ])('%s', (input, expected) => {
    expect(parseAccountRef(input)).toEqual(expected);
  });

  it('rejects what is not an account', () => {
    for (const bad of ['', 'two words', 'https://mastodon.social/@Gargron/123', '@@x', 'https://mastodon.social/explore']) {
      expect(codeOf(() => parseAccountRef(bad))).toBe('invalid_request');
    }
  });

  it('profile URLs from handles (what authorUrl derives)', () => {
    expect(profileUrl('Gargron@mastodon.social')).toBe('https://mastodon.social/@Gargron');
    expect(profileUrl('mastodonpy_test@localhost:3000')).toBe('https://localhost:3000/@mastodonpy_test');
    expect(profileUrl('no-domain')).toBeUndefined();
    expect(profileUrl(undefined)).toBeUndefined();
    expect(mastodon.authorUrl({ id: '1', handle: 'kelp_forest@fosstodon.org' })).toBe('https://fosstodon.org/@kelp_forest');
  });

  it('never throws anything but a typed invalid_request on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const parse of [parseStatusRef, parseAccountRef]) {
          try {
            parse(s);
          } catch (e) {
            expect(e).toBeInstanceOf(CrawlError);
            expect((e as CrawlError).code).toBe('invalid_request');
          }
        }
      }),
    );
  });
});

describe('mastodon instance validation', () => {
  it('accepts plain public hostnames (IDN to punycode, case folded)', () => {
    expect(normalizeHost('mastodon.social')).toBe('mastodon.social');
    expect(normalizeHost('  Fosstodon.ORG ')).toBe('fosstodon.org');
    expect(normalizeHost('social.vivaldi.net')).toBe('social.vivaldi.net');
    expect(normalizeHost('mastodon.bücher.de')).toBe('mastodon.xn--bcher-kva.de');
    expect(normalizeHost('xn--80ak6aa92e.com')).toBe('xn--80ak6aa92e.com');
  });

  it.each([
    'https://mastodon.social',
    'mastodon.social/',
    'mastodon.social/@Gargron',
    'mastodon.social:443',
    'user@mastodon.social',
    'user:pw@mastodon.social',
    '127.0.0.1',
    '10.0.0.8',
    '169.254.169.254',
    '[::1]',
    '::1',
    '0x7f000001',
    'localhost',
    'LOCALHOST',
    'api.localhost',
    'printer.local',
    'metadata.google.internal',
    'router.home.arpa',
    'intranet',
    'mastodon.social.',
    '-bad.example.com',
    'a..b',
    'under_score.example.com',
    '',
  ])('rejects %j', (raw) => {
    expect(codeOf(() => normalizeHost(raw))).toBe('invalid_request');
  });

  it('the profile names its own server (operator-set, so a dev URL with a port is fine)', () => {
    expect(homeInstance(undefined)).toBeUndefined();
    expect(homeInstance({ access_token: 't' })).toEqual({ origin: 'https://mastodon.social', host: 'mastodon.social' });
    expect(homeInstance({ instance: 'http://localhost:3000' })).toEqual({ origin: 'http://localhost:3000', host: 'localhost:3000' });
    expect(homeInstance({ instance: 'fosstodon.org', access_token: 't' })).toEqual({ origin: 'https://fosstodon.org', host: 'fosstodon.org' });
    expect(codeOf(() => homeInstance({ instance: 'ftp://x.org' }))).toBe('session_expired');
  });

  it('picks the server: reference host, else params.instance; the default means the profile server', () => {
    const anon = ctxWith();
    expect(pickInstance(anon, {})).toEqual({ origin: 'https://mastodon.social', host: 'mastodon.social', home: false });
    expect(pickInstance(anon, { instance: 'fosstodon.org' })).toMatchObject({ origin: 'https://fosstodon.org', home: false });
    expect(pickInstance(anon, { instance: 'fosstodon.org' }, 'mas.to')).toMatchObject({ host: 'mas.to' });
    expect(codeOf(() => pickInstance(anon, {}, 'localhost:3000'))).toBe('invalid_request');
    expect(codeOf(() => pickInstance(anon, { instance: 'localhost' }))).toBe('invalid_request');

    const dev = ctxWith({ instance: 'http://localhost:3000', access_token: 'tok' });
    expect(pickInstance(dev, { instance: 'mastodon.social' })).toEqual({ origin: 'http://localhost:3000', host: 'localhost:3000', home: true, token: 'tok' });
    expect(pickInstance(dev, {}, 'localhost:3000')).toMatchObject({ home: true, token: 'tok' });
    // The token never travels to another server.
    expect(pickInstance(dev, { instance: 'fosstodon.org' })).toEqual({ origin: 'https://fosstodon.org', host: 'fosstodon.org', home: false });
    expect(pickInstance(dev, {}, 'mas.to').token).toBeUndefined();
    // Even with a profile on it, a caller cannot name a local server in params.instance.
    expect(codeOf(() => pickInstance(dev, { instance: 'localhost:3000' }))).toBe('invalid_request');

    const social = ctxWith({ access_token: 'tok' });
    expect(pickInstance(social, { instance: 'mastodon.social' })).toMatchObject({ home: true, token: 'tok' });
    expect(pickInstance(social, { instance: 'mas.to' })).toMatchObject({ home: false });
  });

  it('writes need the token and go only to its server', () => {
    expect(codeOf(() => writeInstance(ctxWith(), {}))).toBe('session_expired');
    expect(codeOf(() => writeInstance(ctxWith({ instance: 'fosstodon.org' }), {}))).toBe('session_expired');
    expect(writeInstance(ctxWith({ access_token: 'tok' }), { instance: 'mastodon.social' })).toMatchObject({ host: 'mastodon.social', token: 'tok' });
    expect(codeOf(() => writeInstance(ctxWith({ access_token: 'tok' }), { instance: 'mas.to' }))).toBe('invalid_request');
  });
});
