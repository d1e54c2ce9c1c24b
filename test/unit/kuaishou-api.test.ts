import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Blocked, CrawlError, NotFound, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpResponse } from '../../src/crawl/http.js';
import { SignatureRefused } from '../../src/crawl/signing.js';
import { checkGraphql, checkResult, checkStatus, GUEST_KEY, guestCookie, readJson, rememberGuest, RESULT_OUTCOMES } from '../../src/platforms/kuaishou/api.js';
import { canSignInPage, ENCODE_EXPRESSION, NoNativeSigner } from '../../src/platforms/kuaishou/hxfalcon.js';
import { kuaishou } from '../../src/platforms/kuaishou/index.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo, makeContext } from '../../src/tasks/context.js';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
};

function response(status: number, body: string, url = 'https://www.kuaishou.com/graphql', headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.from(body);
  return { status, url, redirects: [], headers: { 'content-type': 'application/json', ...headers }, body: buf, text: () => body, json: () => JSON.parse(body) };
}

function ctx(over: Partial<CrawlContext> = {}): CrawlContext {
  const jar = new MemoryMemo();
  return {
    platform: 'kuaishou',
    profile: 'default',
    http: undefined as never,
    session: {},
    memo: new MemoryMemo(),
    guest: { userAgent: 'UA', get: (k) => jar.get(k), set: (k, v, t) => jar.set(k, v, t), delete: (k) => jar.delete(k) },
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    replay: false,
    warn: () => {},
    ...over,
  } as CrawlContext;
}

describe('result codes (one table)', () => {
  it.each([
    [2, RateLimited, 'rate_limited'],
    [50, SignatureRefused, 'blocked'],
    [2001, Blocked, 'blocked'],
    [21, UpstreamError, 'upstream_error'],
  ])('result %i', (result, type, errorCode) => {
    const e = thrown(() => checkResult({ result, error_msg: 'x' }, 'op'));
    expect(e).toBeInstanceOf(type);
    expect((e as CrawlError).code).toBe(errorCode);
    expect(RESULT_OUTCOMES.has(result)).toBe(true);
  });

  it('result 1 (and an answer without result) pass through', () => {
    const ok = { result: 1, feeds: [] };
    expect(checkResult(ok, 'op')).toBe(ok);
    expect(checkResult({ feeds: [] }, 'op')).toEqual({ feeds: [] });
  });

  it('a captchaConfig is a block whatever the result says', () => {
    expect(thrown(() => checkResult({ result: 1, captchaConfig: '{}' }, 'op'))).toBeInstanceOf(Blocked);
    const recorded = { result: 2001, error_msg: '[2001] antispam need captcha', captchaConfig: '{"type":1}' };
    expect((thrown(() => checkResult(recorded, 'photo/info')) as Error).message).toMatch(/captcha/);
  });

  it('unknown codes: a login demand is session_expired, a gone post not_found, anything else upstream_error naming the code', () => {
    expect(thrown(() => checkResult({ result: 109, error_msg: '请登录后重试' }, 'op'))).toBeInstanceOf(SessionExpired);
    expect(thrown(() => checkResult({ result: 400, error_msg: '作品不存在' }, 'op'))).toBeInstanceOf(NotFound);
    const e = thrown(() => checkResult({ result: 777, error_msg: 'odd' }, 'op')) as Error;
    expect(e).toBeInstanceOf(UpstreamError);
    expect(e.message).toMatch(/result 777 \(odd\)/);
  });

  it('result 50 is never an empty list', () => {
    expect(thrown(() => checkResult({ result: 50, ab8d: true, error_msg: '签 名验证失败', feeds: [] }, 'op'))).toBeInstanceOf(SignatureRefused);
  });
});

describe('GraphQL answers', () => {
  it('data[operation] is returned and its result checked', () => {
    expect(checkGraphql({ data: { visionProfile: { result: 1, userProfile: {} } } }, 'visionProfile', 'p')).toEqual({ result: 1, userProfile: {} });
    expect(thrown(() => checkGraphql({ data: { visionSearchPhoto: { result: 2 } } }, 'visionSearchPhoto', 's'))).toBeInstanceOf(RateLimited);
  });
  it('top-level errors: upstream_error, or not_found / session_expired / blocked when they say so', () => {
    expect(thrown(() => checkGraphql({ errors: [{ message: 'Internal server error' }], data: null }, 'x', 'w'))).toBeInstanceOf(UpstreamError);
    expect(thrown(() => checkGraphql({ errors: [{ message: 'photo not found' }] }, 'x', 'w'))).toBeInstanceOf(NotFound);
    expect(thrown(() => checkGraphql({ errors: [{ message: 'need login' }] }, 'x', 'w'))).toBeInstanceOf(SessionExpired);
    expect(thrown(() => checkGraphql({ errors: [{ message: 'captcha required' }] }, 'x', 'w'))).toBeInstanceOf(Blocked);
  });
  it('no operation object is an upstream error, not an empty answer', () => {
    expect(thrown(() => checkGraphql({ data: { visionProfile: null } }, 'visionProfile', 'p'))).toBeInstanceOf(UpstreamError);
    expect(thrown(() => checkGraphql({}, 'visionProfile', 'p'))).toBeInstanceOf(UpstreamError);
  });
});

describe('HTTP outcomes', () => {
  it('where the request ended: the login page is session_expired, the captcha host blocked', () => {
    expect(thrown(() => checkStatus(response(200, '<html>', 'https://passport.kuaishou.com/pc/account/login/?sid=kuaishou.server.web'), 'x'))).toBeInstanceOf(SessionExpired);
    expect(thrown(() => checkStatus(response(200, '{}', 'https://captcha.zt.kuaishou.com/rest/zt/captcha/sliding/config'), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => checkStatus(response(200, '{}', 'https://www.kuaishou.com/rest/infra/captcha/check'), 'x'))).toBeInstanceOf(Blocked);
  });
  it.each([
    [403, Blocked],
    [404, NotFound],
    [429, RateLimited],
    [502, UpstreamError],
    [400, UpstreamError],
  ])('HTTP %i', (status, type) => {
    expect(thrown(() => checkStatus(response(status, ''), 'x'))).toBeInstanceOf(type);
  });
  it('200 passes', () => {
    expect(thrown(() => checkStatus(response(200, '{}'), 'x'))).toBeUndefined();
  });
  it('bodies: a verification page is blocked; an empty signed answer a refused signature; other garbage upstream', () => {
    expect(thrown(() => readJson(response(200, '<html>请完成安全验证</html>'), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readJson(response(200, '  '), 'x', true))).toBeInstanceOf(SignatureRefused);
    expect((thrown(() => readJson(response(200, ''), 'x')) as CrawlError).code).toBe('upstream_error');
    expect((thrown(() => readJson(response(200, '<html>hello</html>'), 'x')) as CrawlError).code).toBe('upstream_error');
    expect((thrown(() => readJson(response(200, '[1,2]'), 'x')) as CrawlError).code).toBe('upstream_error');
  });
});

describe('guest identity (did / didv)', () => {
  it('a page that sets did is remembered; later calls send it', async () => {
    const c = ctx();
    rememberGuest(c, response(200, '', 'https://www.kuaishou.com/', { 'set-cookie': 'did=web_abc123; path=/; domain=.kuaishou.com\ndidv=1700000000000; path=/' }));
    expect(c.guest.get(GUEST_KEY)).toEqual({ did: 'web_abc123', didv: '1700000000000' });
    expect(await guestCookie(c)).toBe('did=web_abc123; didv=1700000000000');
  });
  it("the profile's own did wins: no guest cookie is added", async () => {
    const c = ctx({ session: { cookies: 'did=web_mine; kuaishou.server.web_st=x' } });
    rememberGuest(c, response(200, '', 'https://www.kuaishou.com/', { 'set-cookie': 'did=web_other' }));
    expect(c.guest.get(GUEST_KEY)).toBeUndefined();
    expect(await guestCookie(c)).toBeUndefined();
  });
  it('without an answer that sets one, a did of the same shape is made locally', async () => {
    const c = ctx({ http: { request: async () => response(200, '<html></html>', 'https://www.kuaishou.com/') } as never });
    expect(await guestCookie(c)).toMatch(/^did=web_[0-9a-f]{32}; didv=\d{13}$/);
  });
});

describe('__NS_hxfalcon in-page signing', () => {
  it('runs only with a page, outside replay, and not in native mode', () => {
    const signer = { sign: async () => 'x' as never };
    expect(canSignInPage(ctx({ signer }), 'profile_feed')).toBe(true);
    expect(canSignInPage(ctx(), 'profile_feed')).toBe(false);
    expect(canSignInPage(ctx({ signer, replay: true }), 'profile_feed')).toBe(false);
    expect(canSignInPage(ctx({ signer, signModes: new Map([['kuaishou', 'native']]) }), 'profile_feed')).toBe(false);
    expect(canSignInPage(ctx({ signer, signModes: new Map([['kuaishou.search_feed', 'native']]) }), 'profile_feed')).toBe(true);
  });
  it('the native route refuses (so auto mode moves to the page) and says why', () => {
    const e = new NoNativeSigner('profile_feed');
    expect(e).toBeInstanceOf(SignatureRefused);
    expect(e.message).toMatch(/no native implementation/);
  });
  it('the page expression calls the captured realm with url, query, form and requestBody', async () => {
    // Evaluated here the way the page signer would: `args` in scope, window with a fake realm.
    const seen: unknown[] = [];
    const window = { __ks_realm: { call: (name: string, [req, cb]: [unknown, { suc: (s: string) => void }]) => (seen.push(name, req), cb.suc('SIG')) } };
    const run = new Function('window', 'args', `return (${ENCODE_EXPRESSION});`) as (w: unknown, a: unknown[]) => Promise<string>;
    await expect(run(window, ['/rest/v/profile/feed', { caver: 2 }, { user_id: 'u' }])).resolves.toBe('SIG');
    expect(seen).toEqual(['$encode', { url: '/rest/v/profile/feed', query: { caver: 2 }, form: {}, requestBody: { user_id: 'u' } }]);
    await expect(run({}, ['/x', {}, {}])).rejects.toThrow(/__ks_realm/);
  });
});

describe('adapter metadata', () => {
  it('media hosts cover the CDNs the recordings show; the mini-program host is not a cookie host', () => {
    for (const host of ['p2.a.yximgs.com', 'txmov2.a.yximgs.com', 'v1.kwaicdn.com', 'v2.kwaicdn.com', 's2-10623.kwimgs.com']) {
      expect(kuaishou.mediaHosts.some((p) => (p.startsWith('.') ? host.endsWith(p) : host === p)), host).toBe(true);
    }
    expect(kuaishou.hosts.some((p) => 'wxmini-api.uyouqu.com'.endsWith(p.replace(/^\./, '')))).toBe(false);
    expect(kuaishou.mediaHeaders?.(new URL('https://v1.kwaicdn.com/x.mp4')).Referer).toBe('https://www.kuaishou.com/');
  });
  it('the GraphQL query text is volatile for replay, the operation and ids identify', () => {
    expect(kuaishou.replay?.volatile).toContain('query');
    expect(kuaishou.replay?.identifying).toEqual(expect.arrayContaining(['operationName', 'variables.photoId', 'photoId', 'rootCommentId']));
    expect(kuaishou.replay?.cursor).toContain('variables.pcursor');
  });
});

describe('login probe', () => {
  /** A context whose requests are answered by one hand-written exchange. */
  function probeCtx(url: string, body: unknown, session: { cookies?: string; credentials?: Record<string, string> }, status = 200): CrawlContext {
    const file = join(mkdtempSync(join(tmpdir(), 'kuaishou-probe-')), 'probe.har');
    const post = url.endsWith('/graphql') ? { postData: { mimeType: 'application/json', text: JSON.stringify({ operationName: 'visionProfileUserList' }) } } : {};
    const entry = { request: { method: 'POST', url, ...post }, response: { status, headers: [{ name: 'content-type', value: 'application/json' }], content: { text: JSON.stringify(body) } } };
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
    const dispatcher = new ReplayDispatcher({ recordings: loadRecordings([file]), rulesFor: () => kuaishou.replay });
    return makeContext({ adapter: kuaishou, profile: 'p', cookies: session.cookies, credentials: session.credentials, memo: new MemoryMemo(), dispatcher, pacer: new LocalPacer(), gapMs: 0, signal: new AbortController().signal, log: pino({ level: 'silent' }), warnings: [] });
  }
  const web = { cookies: 'did=web_x; userId=1; kuaishou.server.web_st=abc' };
  const gql = 'https://www.kuaishou.com/graphql';

  it('visionProfileUserList result 1 is a live web login; another result or a login demand is a lapsed one', async () => {
    expect(await kuaishou.probe!(probeCtx(gql, { data: { visionProfileUserList: { result: 1, pcursor: '' } } }, web))).toBe('ok');
    expect(await kuaishou.probe!(probeCtx(gql, { data: { visionProfileUserList: { result: 109, error_msg: '' } } }, web))).toBe('session_expired');
    expect(await kuaishou.probe!(probeCtx(gql, { errors: [{ message: 'need login' }] }, web))).toBe('session_expired');
  });
  it('a captcha or throttling says nothing about the login: it is thrown, not turned into session_expired', async () => {
    await expect(kuaishou.probe!(probeCtx(gql, { data: { visionProfileUserList: { result: 2001 } } }, web))).rejects.toBeInstanceOf(Blocked);
    await expect(kuaishou.probe!(probeCtx(gql, { data: { visionProfileUserList: { result: 2 } } }, web))).rejects.toBeInstanceOf(RateLimited);
    await expect(kuaishou.probe!(probeCtx(gql, { errors: [{ message: 'Internal server error' }] }, web))).rejects.toBeInstanceOf(UpstreamError);
  });
  it('a profile with only a mini-program session is probed through the mini-program', async () => {
    const wx = { credentials: { wxmini_cookie: 'kuaishou.wechat.app_st=x' } };
    expect(await kuaishou.probe!(probeCtx('https://wxmini-api.uyouqu.com/rest/wd/feed/recommend', { result: 1, feeds: [] }, wx))).toBe('ok');
    expect(await kuaishou.probe!(probeCtx('https://wxmini-api.uyouqu.com/rest/wd/feed/recommend', { result: 109, error_msg: '请登录' }, wx))).toBe('session_expired');
  });
});
