import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Blocked, InvalidInput, NotFound, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpResponse } from '../../src/crawl/http.js';
import { checkHttp, explainMissing, getPage, hasLogin, isFallbackable, loginNeeded, morePath, SIGNALS, type FbPage } from '../../src/platforms/facebook/api.js';
import { facebook } from '../../src/platforms/facebook/index.js';
import { followShortLink } from '../../src/platforms/facebook/resolve.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { probeCtx } from '../helpers/probe-ctx.js';

const LOGGED = 'c_user=100000000000777; xs=7%3Aa%3A2';
const ctx = (cookies?: string, profile = 'work'): CrawlContext => ({ ...probeCtx(facebook, [], cookies), profile });
const page = (p: Partial<FbPage>): FbPage => ({ status: 200, url: 'https://m.facebook.com/x', redirects: [], html: '', ...p });
const res = (status: number, headers: Record<string, string> = {}): HttpResponse =>
  ({ status, url: 'https://m.facebook.com/', redirects: [], headers, body: Buffer.alloc(0), text: () => '', json: () => ({}) }) as HttpResponse;

/** A temp HAR of hand-made answers (test-only). */
function har(entries: Array<{ url: string; status: number; location?: string; body?: string }>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'fb-')), 'answers.har');
  writeFileSync(
    file,
    JSON.stringify({
      log: {
        version: '1.2',
        entries: entries.map((e) => ({
          comment: 'hand-made test recording',
          request: { method: 'GET', url: e.url, headers: [] },
          response: { status: e.status, statusText: '', headers: [{ name: 'content-type', value: 'text/html' }, ...(e.location ? [{ name: 'location', value: e.location }] : [])], content: { mimeType: 'text/html', text: e.body ?? '' } },
        })),
      },
    }),
  );
  return file;
}

describe('facebook outcome table', () => {
  const cases: Array<[string, Partial<FbPage>, string | undefined, new (...a: never[]) => Error]> = [
    ['login redirect', { url: 'https://m.facebook.com/login.php?next=x' }, undefined, SessionExpired],
    ['login redirect', { url: 'https://www.facebook.com/login/?next=x' }, LOGGED, SessionExpired],
    ['checkpoint', { url: 'https://m.facebook.com/checkpoint/?next=x' }, undefined, Blocked],
    ['checkpoint', { url: 'https://m.facebook.com/checkpoint/828281030927956/', html: '<h1>We suspended your account</h1>' }, LOGGED, SessionExpired],
    ['consent page', { url: 'https://m.facebook.com/cookie/consent-page/?next=x' }, undefined, Blocked],
    ['not found title', { title: 'Page Not Found' }, undefined, NotFound],
    ['not found title', { title: 'Content Not Found' }, LOGGED, NotFound],
    ['temporary block', { title: 'You’re Temporarily Blocked' }, LOGGED, Blocked],
    ['temporary block', { title: "You can't use this feature at the moment" }, undefined, Blocked],
    ['account disabled', { html: '<div>Your Account Has Been Disabled</div>' }, LOGGED, SessionExpired],
    ['login title', { title: 'Log in to Facebook | Facebook' }, undefined, SessionExpired],
    ['async error', { async: { html: '', script: '', error: { code: 1357001, summary: 'Not Logged In', description: 'Please log in to continue.' } } }, undefined, SessionExpired],
    ['async error', { async: { html: '', script: '', error: { code: 1390008, summary: "You can't use this feature right now", description: '' } } }, undefined, Blocked],
    ['async error', { async: { html: '', script: '', error: { code: 1357004, summary: 'Sorry, something went wrong', description: '' } } }, undefined, UpstreamError],
    ['login form', { html: '<form id="login_form" action="/login/device-based/regular/login/">' }, undefined, SessionExpired],
    ['content unavailable', { html: "<h3>This content isn't available at the moment</h3>" }, undefined, SessionExpired],
    ['content unavailable', { html: "<h3>This content isn't available at the moment</h3>" }, LOGGED, NotFound],
    ['comet error root', { html: '{"__dr":"CometErrorRoot.react"}' }, undefined, Blocked],
  ];
  it.each(cases)('%s → the mapped outcome (%#)', (name, p, cookies, cls) => {
    const signal = SIGNALS.find((s) => s.name === name)!;
    expect(signal.test(page(p))).toBe(true);
    expect(() => explainMissing(ctx(cookies), page(p), 'a facebook page', 'no post')).toThrow(cls);
  });
  it('every signal is tested above, and a plain page is none of them (an unreadable one is upstream_error)', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(SIGNALS.map((s) => s.name)));
    const plain = page({ html: '<html><head><title>Nintendo | Facebook</title></head><body><a href="/login.php?next=x">Log In</a></body></html>', title: 'Nintendo | Facebook' });
    expect(SIGNALS.filter((s) => s.test(plain))).toEqual([]);
    expect(() => explainMissing(ctx(), plain, 'facebook post 1', 'no post')).toThrow(/could not parse the platform's answer: facebook post 1: no post/);
  });
  it('a login wall names the profile to add when anonymous, and says the stored one lapsed otherwise', () => {
    expect(hasLogin(ctx(LOGGED))).toBe(true);
    expect(hasLogin(ctx('datr=abc; c_user=; xs=1'))).toBe(false);
    expect(loginNeeded(ctx(undefined, 'work'), 'facebook search "x"').message).toMatch(/add a facebook login profile \(POST \/v1\/profiles with platform "facebook", name "work" and the c_user and xs cookies/);
    expect(loginNeeded(ctx(LOGGED, 'work'), 'facebook search "x"').message).toMatch(/stored login "work".*lapsed; log the facebook profile "work" in again/);
  });
  it('HTTP statuses', () => {
    expect(() => checkHttp(res(429, { 'retry-after': '120' }), 'w')).toThrow(RateLimited);
    try {
      checkHttp(res(429, { 'retry-after': '120' }), 'w');
    } catch (e) {
      expect((e as RateLimited).retryAfterS).toBe(120);
    }
    expect(() => checkHttp(res(404), 'w')).toThrow(NotFound);
    expect(() => checkHttp(res(403), 'w')).toThrow(Blocked);
    expect(() => checkHttp(res(500), 'w')).toThrow(UpstreamError);
    expect(() => checkHttp(res(200), 'w')).not.toThrow();
  });
  it('the www route is tried after an outage, a block, a replay miss, or a wall on an anonymous visit, never after a lapsed login or not_found', () => {
    expect(isFallbackable(ctx())(new UpstreamError('x'))).toBe(true);
    expect(isFallbackable(ctx())(new Blocked())).toBe(true);
    expect(isFallbackable(ctx())(new SessionExpired())).toBe(true);
    expect(isFallbackable(ctx(LOGGED))(new SessionExpired())).toBe(false);
    expect(isFallbackable(ctx())(new NotFound())).toBe(false);
    expect(isFallbackable(ctx())(new InvalidInput('x'))).toBe(false);
  });
});

describe('facebook cursors and redirects', () => {
  it('a cursor must stay a path on m.facebook.com of the allowed routes', () => {
    const allowed = /^\/page_content_list_view\/more\/$/;
    expect(morePath('/page_content_list_view/more/?page_id=1&start_cursor=%7B%7D', allowed, 'posts')).toBe('/page_content_list_view/more/?page_id=1&start_cursor=%7B%7D');
    for (const bad of ['https://evil.example/page_content_list_view/more/', '//evil.example/page_content_list_view/more/', '/login.php?next=x', 'page_content_list_view/more/', '/page_content_list_view/more/../../login.php']) {
      expect(() => morePath(bad, allowed, 'posts')).toThrow(InvalidInput);
    }
  });
  it('redirects are followed hop by hop: a login redirect is read without loading the login page; off-site is refused', async () => {
    const file = har([
      { url: 'https://m.facebook.com/1', status: 302, location: 'https://m.facebook.com/login.php?next=https%3A%2F%2Fm.facebook.com%2F1' },
      { url: 'https://m.facebook.com/2', status: 302, location: 'https://evil.example/2' },
      { url: 'https://m.facebook.com/3', status: 302, location: '/3/' },
      { url: 'https://m.facebook.com/3/', status: 200, body: '<html><head><title>Three | Facebook</title></head></html>' },
    ]);
    await expect(getPage(probeCtx(facebook, [file]), 'https://m.facebook.com/1', 'p1')).rejects.toThrow(SessionExpired);
    await expect(getPage(probeCtx(facebook, [file]), 'https://m.facebook.com/2', 'p2')).rejects.toThrow(/redirected off facebook\.com/);
    const p = await getPage(probeCtx(facebook, [file]), 'https://m.facebook.com/3', 'p3');
    expect(p).toMatchObject({ url: 'https://m.facebook.com/3/', redirects: ['https://m.facebook.com/3'], title: 'Three | Facebook' });
  });
  it('an fb.watch link: 404 is not_found, a 200 is not a redirect, a login redirect is a login wall', async () => {
    const file = har([
      { url: 'https://fb.watch/gone404/', status: 404 },
      { url: 'https://fb.watch/plain200/', status: 200, body: '<html></html>' },
      { url: 'https://fb.watch/walled1/', status: 302, location: 'https://www.facebook.com/login/?next=x' },
      { url: 'https://fb.watch/offsite1/', status: 302, location: 'https://evil.example/' },
    ]);
    await expect(followShortLink(probeCtx(facebook, [file]), 'https://fb.watch/gone404/')).rejects.toThrow(NotFound);
    await expect(followShortLink(probeCtx(facebook, [file]), 'https://fb.watch/plain200/')).rejects.toThrow(/expected a redirect/);
    await expect(followShortLink(probeCtx(facebook, [file]), 'https://fb.watch/walled1/')).rejects.toThrow(SessionExpired);
    await expect(followShortLink(probeCtx(facebook, [file]), 'https://fb.watch/offsite1/')).rejects.toThrow(/off facebook/);
  });
  it('adapter metadata: page parsing only (no operation data), media allowlist and Referer, login cookie', () => {
    expect(facebook.ops).toBeUndefined();
    expect(facebook.aliases).toContain('fb');
    expect(facebook.mediaHosts).toEqual(['.fbcdn.net']);
    expect(facebook.mediaHeaders!(new URL('https://video.x.fbcdn.net/a.mp4')).Referer).toBe('https://www.facebook.com/');
    expect(facebook.login).toMatchObject({ successCookie: 'c_user', domains: ['.facebook.com'] });
    expect(facebook.authorUrl({ handle: 'Nintendo', id: '1' })).toBe('https://www.facebook.com/Nintendo');
    expect(facebook.authorUrl({ id: '119240841493711' })).toBe('https://www.facebook.com/119240841493711');
    expect(facebook.authorUrl({})).toBeUndefined();
  });
});
