import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Blocked, NotFound, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import { checkAnswer, checkBookmark, CsrfRefused, dataParam, nextBookmark, readAnswer, resource, type OutcomeContext } from '../../src/platforms/pinterest/api.js';
import { csrf, sessionCsrf } from '../../src/platforms/pinterest/guest.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

const res = (status: number, text: string, headers: Record<string, string> = {}, url = 'https://www.pinterest.com/resource/PinResource/get/'): HttpResponse => ({
  status,
  url,
  redirects: [],
  headers,
  body: Buffer.from(text),
  text: () => text,
  json: () => JSON.parse(text),
});
const anon: OutcomeContext = { what: 'pin 1', resource: 'PinResource', profile: 'default', withLogin: false };
const outcome = (r: HttpResponse, o: OutcomeContext = anon): unknown => {
  try {
    return checkAnswer(readAnswer(r), o);
  } catch (e) {
    return e;
  }
};
const failure = (http: number, message: string) => JSON.stringify({ resource_response: { status: 'failure', error: { status: 'failure', http_status: http, code: 1, message } } });
const ok = (data: unknown, bookmark?: string) => JSON.stringify({ resource_response: { status: 'success', code: 0, data, bookmark }, resource: { options: { bookmarks: [bookmark ?? '-end-'] } } });

describe('pinterest outcome table', () => {
  it('maps every recorded and documented signal to its error', () => {
    expect(outcome(res(403, 'Invalid Resource Request', { 'content-type': 'text/plain' }))).toBeInstanceOf(UpstreamError);
    expect((outcome(res(403, 'Invalid Resource Request')) as Error).message).toMatch(/"Invalid Resource Request" to PinResource/);
    expect(outcome(res(403, '<p>CSRF verification failed. Request aborted.</p>'))).toBeInstanceOf(CsrfRefused);
    expect(outcome(res(403, '<html>Access denied</html>'))).toBeInstanceOf(Blocked);
    const limited = outcome(res(429, failure(429, 'Too many requests'), { 'retry-after': '30' }));
    expect(limited).toBeInstanceOf(RateLimited);
    expect((limited as RateLimited).retryAfterS).toBe(30);
    expect(outcome(res(404, failure(404, 'Pin not found.')))).toBeInstanceOf(NotFound);
    expect(outcome(res(404, ''))).toBeInstanceOf(NotFound);
    // The error may come inside a 200 envelope as well.
    expect(outcome(res(200, failure(404, 'Pin not found.')))).toBeInstanceOf(NotFound);
    expect(outcome(res(200, failure(429, 'slow down')))).toBeInstanceOf(RateLimited);
    expect(outcome(res(502, 'Bad gateway'))).toBeInstanceOf(UpstreamError);
    expect(outcome(res(200, '<!DOCTYPE html><html><body>human?</body></html>'))).toBeInstanceOf(Blocked);
    expect(outcome(res(200, ''))).toMatchObject({ code: 'upstream_error' });
    expect(outcome(res(200, '{"resource_response":{"da'))).toMatchObject({ code: 'upstream_error' });
    expect(outcome(res(200, '{"data":[]}'))).toMatchObject({ code: 'upstream_error' });
    expect(outcome(res(200, JSON.stringify({ resource_response: { status: 'failure', message: 'odd' } })))).toBeInstanceOf(UpstreamError);
    expect(outcome(res(200, ok({ id: '1' })))).toMatchObject({ resource_response: { data: { id: '1' } } });
  });
  it('a login wall is session_expired: to add a profile without a login, to log in again with one; never for a block', () => {
    const noLogin = outcome(res(401, failure(401, 'Authorization failed.'))) as Error;
    expect(noLogin).toBeInstanceOf(SessionExpired);
    expect(noLogin.message).toMatch(/add a pinterest profile .*"name":"default"/);
    const lapsed = outcome(res(401, failure(401, 'Authorization failed.')), { ...anon, withLogin: true, profile: 'work' }) as Error;
    expect(lapsed).toBeInstanceOf(SessionExpired);
    expect(lapsed.message).toMatch(/profile "work".*log that pinterest profile in again/);
    expect(outcome(res(200, '<html>login</html>', {}, 'https://www.pinterest.com/login/?next=%2Fpin%2F1%2F'))).toBeInstanceOf(SessionExpired);
    expect(outcome(res(403, '<html>blocked</html>'))).not.toBeInstanceOf(SessionExpired);
  });
});

describe('pinterest bookmarks', () => {
  it('reads resource.options.bookmarks first, then resource_response.bookmark; -end- and cbNone end the feed', () => {
    expect(nextBookmark({ resource: { options: { bookmarks: ['Y2JVSG81'] } }, resource_response: { bookmark: 'other' } })).toBe('Y2JVSG81');
    expect(nextBookmark({ resource_response: { bookmark: 'Y2JVSG82' } })).toBe('Y2JVSG82');
    expect(nextBookmark({ resource: { options: { bookmarks: ['-end-'] } } })).toBeUndefined();
    expect(nextBookmark({ resource: { options: { bookmarks: [`Y2JOb25lO${'x'.repeat(10)}`] } } })).toBeUndefined();
    expect(nextBookmark({ resource: { options: { bookmarks: [] } } })).toBeUndefined();
    expect(nextBookmark({})).toBeUndefined();
  });
  it('a cursor must look like a bookmark', () => {
    expect(checkBookmark('Y2JVSG81V2sx+/=|NEW|')).toBe('Y2JVSG81V2sx+/=|NEW|');
    expect(checkBookmark(undefined)).toBeUndefined();
    expect(() => checkBookmark('two words')).toThrow(/not a pinterest bookmark/);
    expect(() => checkBookmark('x'.repeat(8001))).toThrow(/not a pinterest bookmark/);
  });
  it('data holds the options and, on a follow-up, the bookmark', () => {
    expect(dataParam({ resource: 'pin', options: { id: '1', field_set_key: 'detailed' }, sourceUrl: '/pin/1/', what: 'x' })).toBe('{"options":{"id":"1","field_set_key":"detailed"},"context":{}}');
    expect(JSON.parse(dataParam({ resource: 'search', options: { query: 'a' }, sourceUrl: '/', what: 'x', bookmark: 'B' }))).toEqual({ options: { query: 'a', bookmarks: ['B'] }, context: {} });
  });
});

/** A context whose HTTP client records the requests and answers from a queue. */
function fakeCtx(answers: HttpResponse[], cookies?: string): { ctx: CrawlContext; sent: HttpRequest[]; warnings: string[] } {
  const sent: HttpRequest[] = [];
  const warnings: string[] = [];
  const jar = new MemoryMemo();
  const ctx = {
    platform: 'pinterest',
    profile: 'default',
    http: { request: async (req: HttpRequest) => (sent.push(req), answers.shift() ?? res(599, 'no answer left')) },
    session: { cookies },
    memo: new MemoryMemo(),
    guest: { userAgent: 'UA', get: (k: string) => jar.get(k), set: (k: string, v: unknown, t?: number) => jar.set(k, v, t), delete: (k: string) => jar.delete(k) },
    ops: {},
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    replay: false,
    warn: (m: string) => warnings.push(m),
  } as unknown as CrawlContext;
  return { ctx, sent, warnings };
}

describe('pinterest resource requests', () => {
  it('a first page is a GET with the web headers and a minted 32-hex csrftoken cookie', async () => {
    const { ctx, sent } = fakeCtx([res(200, ok({ id: '1' }))]);
    await resource(ctx, { resource: 'pin', options: { id: '1', field_set_key: 'detailed' }, sourceUrl: '/pin/1/', what: 'pin 1' });
    const req = sent[0]!;
    expect(req.method).toBeUndefined();
    const url = new URL(req.url);
    expect(url.pathname).toBe('/resource/PinResource/get/');
    expect(url.searchParams.get('source_url')).toBe('/pin/1/');
    expect(url.searchParams.get('_')).toMatch(/^\d{13}$/);
    expect(req.headers).toMatchObject({ 'x-requested-with': 'XMLHttpRequest', 'x-pinterest-appstate': 'active', 'x-pinterest-pws-handler': 'www/pin/[id].js', 'x-pinterest-source-url': '/pin/1/', referer: 'https://www.pinterest.com/pin/1/' });
    expect(req.headers!.cookie).toMatch(/^csrftoken=[0-9a-f]{32}$/);
    expect(req.headers!['x-csrftoken']).toBeUndefined();
    expect(req.query).toBeUndefined();
  });
  it('a follow-up is a form POST whose X-CSRFToken repeats the cookie; a stored login brings its own token', async () => {
    const { ctx, sent } = fakeCtx([res(200, ok([])), res(200, ok([]))]);
    await resource(ctx, { resource: 'userPins', options: { username: 'a' }, sourceUrl: '/a/pins/', what: 'x', bookmark: 'BM' });
    const req = sent[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('https://www.pinterest.com/resource/UserPinsResource/get/');
    expect(req.form).toEqual({ source_url: '/a/pins/', data: '{"options":{"username":"a","bookmarks":["BM"]},"context":{}}' });
    expect(req.headers!.cookie).toBe(`csrftoken=${req.headers!['x-csrftoken']}`);
    const logged = fakeCtx([res(200, ok([]))], '_auth=1; csrftoken=feedfacefeedfacefeedfacefeedface; _pinterest_sess=s');
    await resource(logged.ctx, { resource: 'userPins', options: {}, sourceUrl: '/a/pins/', what: 'x', bookmark: 'BM' });
    expect(logged.sent[0]!.headers!['x-csrftoken']).toBe('feedfacefeedfacefeedfacefeedface');
    expect(logged.sent[0]!.headers!.cookie).toBeUndefined();
  });
  it('a refused minted token is minted again once; refused twice is a block; a refused stored token asks for a new login', async () => {
    const csrfPage = res(403, 'CSRF verification failed. Request aborted.');
    const once = fakeCtx([csrfPage, res(200, ok([]))]);
    await resource(once.ctx, { resource: 'search', options: {}, sourceUrl: '/', what: 'x', bookmark: 'BM' });
    expect(once.sent).toHaveLength(2);
    expect(once.sent[0]!.headers!['x-csrftoken']).not.toBe(once.sent[1]!.headers!['x-csrftoken']);
    expect(once.warnings.join(' ')).toMatch(/minted again/);
    const twice = fakeCtx([csrfPage, csrfPage]);
    await expect(resource(twice.ctx, { resource: 'search', options: {}, sourceUrl: '/', what: 'x', bookmark: 'BM' })).rejects.toBeInstanceOf(Blocked);
    const stored = fakeCtx([csrfPage], 'csrftoken=abc');
    await expect(resource(stored.ctx, { resource: 'search', options: {}, sourceUrl: '/', what: 'x', bookmark: 'BM' })).rejects.toBeInstanceOf(SessionExpired);
    expect(stored.sent).toHaveLength(1);
  });
  it('the minted token is kept in the guest jar and reused', () => {
    const { ctx } = fakeCtx([]);
    const a = csrf(ctx);
    expect(a.minted).toBe(true);
    expect(csrf(ctx).token).toBe(a.token);
    expect(sessionCsrf('a=1; csrftoken=xyz; b=2')).toBe('xyz');
    expect(sessionCsrf('a=1')).toBeUndefined();
  });
});
