import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { xBogus } from '../../src/crawl/bytedance/xbogus.js';
import { Blocked, CrawlError, NotFound, ParseError, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpResponse } from '../../src/crawl/http.js';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { SignatureRefused } from '../../src/crawl/signing.js';
import { PageChallenge, STATUS_OUTCOMES, StatusCodeError, checkHttp, errorForStatus, isFallbackable, readAnswer, rehydrationScope, scopeSection } from '../../src/platforms/tiktok/api.js';
import { cookieValue, forgetGuest, guestCookie, guestIdentity, randomDeviceId, randomMsToken } from '../../src/platforms/tiktok/guest.js';
import { tiktok } from '../../src/platforms/tiktok/index.js';
import { probeLogin } from '../../src/platforms/tiktok/probe.js';
import { bogusOf, encodeQuery, pageSignature, webParams } from '../../src/platforms/tiktok/sign.js';
import type { CrawlContext, PageSigning } from '../../src/platforms/types.js';
import { MemoryMemo, makeContext } from '../../src/tasks/context.js';

const SANDBOX = resolve(process.cwd(), 'sandbox/tiktok');

function response(status: number, body: string, url = 'https://www.tiktok.com/api/item/detail/?itemId=1', headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.from(body, 'utf8');
  return { status, url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}

function replayCtx(files: string[], session: { cookies?: string } = {}): { ctx: CrawlContext; requests: string[]; warnings: string[] } {
  const requests: string[] = [];
  const warnings: string[] = [];
  const ctx = makeContext({
    adapter: tiktok,
    profile: 'default',
    cookies: session.cookies,
    memo: new MemoryMemo(),
    dispatcher: new ReplayDispatcher({ recordings: loadRecordings(files.map((f) => resolve(SANDBOX, f))), rulesFor: () => tiktok.replay }),
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings,
    onRequest: (m, u) => requests.push(`${m} ${u.toString()}`),
  });
  return { ctx, requests, warnings };
}

const errorOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('tiktok outcome table', () => {
  it.each([
    [10000, Blocked, 'blocked'],
    [10204, Blocked, 'blocked'],
    [8, SessionExpired, 'session_expired'],
    [10102, SessionExpired, 'session_expired'],
    [10201, NotFound, 'not_found'],
    [10202, NotFound, 'not_found'],
    [10221, NotFound, 'not_found'],
    [10216, NotFound, 'not_found'],
    [10222, NotFound, 'not_found'],
    [-1, SignatureRefused, 'blocked'],
    [4, StatusCodeError, 'upstream_error'],
    [10101, StatusCodeError, 'upstream_error'],
  ])('statusCode %i → %o (%s)', (code, cls, errCode) => {
    const e = errorForStatus(code, 'msg', 'thing');
    expect(e).toBeInstanceOf(cls);
    expect(e.code).toBe(errCode);
    expect(e.message).toContain(`statusCode ${code}`);
  });

  it('a private account is not a login problem: 10222 never asks for a re-login', () => {
    expect(errorForStatus(10222, '', 'x').message).toMatch(/with and without a login/);
    expect(errorForStatus(10216, '', 'x').message).toMatch(/private/);
  });

  it('every mapped code has an outcome that is a typed crawl error', () => {
    for (const [code, make] of STATUS_OUTCOMES) expect(make('w', code, '')).toBeInstanceOf(CrawlError);
  });
});

describe('tiktok answers', () => {
  it('an empty 200 and a verify page are refused signatures (blocked, and the page may pass)', () => {
    expect(errorOf(() => readAnswer(response(200, ''), 'x'))).toBeInstanceOf(SignatureRefused);
    expect(errorOf(() => readAnswer(response(200, '  \n'), 'x'))).toBeInstanceOf(SignatureRefused);
    expect(errorOf(() => readAnswer(response(200, '<html><div id="captcha-verify-container"></div></html>'), 'x'))).toBeInstanceOf(SignatureRefused);
  });

  it('other HTML is unreadable (upstream_error), not a block', () => {
    const e = errorOf(() => readAnswer(response(200, '<html>hello</html>', undefined, { 'content-type': 'text/html' }), 'x'));
    expect(e).toBeInstanceOf(ParseError);
    expect((e as CrawlError).code).toBe('upstream_error');
    expect(errorOf(() => readAnswer(response(200, '[1,2]'), 'x'))).toBeInstanceOf(ParseError);
  });

  it('codes: 0 or none passes; statusCode and status_code both read; allow lets one through', () => {
    expect(readAnswer(response(200, '{"statusCode":0,"itemList":[]}'), 'x')).toEqual({ statusCode: 0, itemList: [] });
    expect(readAnswer(response(200, '{"itemList":[]}'), 'x')).toEqual({ itemList: [] });
    expect(errorOf(() => readAnswer(response(200, '{"status_code":8,"status_msg":"Login expired"}'), 'x'))).toBeInstanceOf(SessionExpired);
    expect(errorOf(() => readAnswer(response(200, '{"statusCode":"10204"}'), 'x'))).toBeInstanceOf(Blocked);
    expect(readAnswer(response(200, '{"statusCode":10222,"userInfo":{"user":{}}}'), 'x', [10222])).toMatchObject({ statusCode: 10222 });
  });

  it('-1 is a refused signature only when the answer is otherwise empty', () => {
    expect(errorOf(() => readAnswer(response(200, '{"statusCode":-1,"userInfo":{}}'), 'x'))).toBeInstanceOf(SignatureRefused);
    expect(errorOf(() => readAnswer(response(200, '{"statusCode":-1,"itemList":[{"id":"1"}]}'), 'x'))).toBeInstanceOf(StatusCodeError);
  });

  it('HTTP: 403 blocked, 429 rate_limited with Retry-After, 5xx upstream, 404 not_found on pages only, /login session_expired', () => {
    expect(errorOf(() => checkHttp(response(403, ''), 'x'))).toBeInstanceOf(Blocked);
    const limited = errorOf(() => checkHttp(response(429, '', undefined, { 'retry-after': '30' }), 'x')) as RateLimited;
    expect(limited).toBeInstanceOf(RateLimited);
    expect(limited.retryAfterS).toBe(30);
    expect(errorOf(() => checkHttp(response(502, ''), 'x'))).toBeInstanceOf(UpstreamError);
    expect(errorOf(() => checkHttp(response(404, ''), 'x', true))).toBeInstanceOf(NotFound);
    expect((errorOf(() => checkHttp(response(404, ''), 'x')) as CrawlError).code).toBe('upstream_error');
    expect(errorOf(() => checkHttp(response(200, '', 'https://www.tiktok.com/login?redirect_url=x'), 'x'))).toBeInstanceOf(SessionExpired);
    expect(errorOf(() => checkHttp(response(302, '', 'https://www.tiktok.com/@a', { location: '/login/phone-or-email' }), 'x'))).toBeInstanceOf(SessionExpired);
    expect(checkHttp(response(200, '{}', 'https://www.tiktok.com/loginless'), 'x')).toBeUndefined();
  });

  it('which failures move on to the next equivalent route', () => {
    expect(isFallbackable(new UpstreamError('x'))).toBe(true);
    expect(isFallbackable(new ParseError('x'))).toBe(true);
    expect(isFallbackable(new PageChallenge('x'))).toBe(true);
    expect(isFallbackable(new Blocked('x'))).toBe(false);
    expect(isFallbackable(new SignatureRefused('x'))).toBe(false);
    expect(isFallbackable(new NotFound('x'))).toBe(false);
    expect(isFallbackable(new SessionExpired('x'))).toBe(false);
  });
});

describe('tiktok pages', () => {
  const page = (json: string) => `<html><head><script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${json}</script></head></html>`;

  it('reads __DEFAULT_SCOPE__ and maps a section statusCode', () => {
    const scope = rehydrationScope(page('{"__DEFAULT_SCOPE__":{"webapp.video-detail":{"statusCode":10216,"statusMsg":"","itemInfo":{}}}}'), 'x');
    expect(errorOf(() => scopeSection(scope, 'webapp.video-detail', 'x'))).toBeInstanceOf(NotFound);
    expect(errorOf(() => scopeSection(scope, 'webapp.user-detail', 'x'))).toBeInstanceOf(ParseError);
    const priv = rehydrationScope(page('{"__DEFAULT_SCOPE__":{"webapp.user-detail":{"statusCode":10222,"userInfo":{"user":{"id":"1"}}}}}'), 'x');
    expect(scopeSection(priv, 'webapp.user-detail', 'x', [10222])).toMatchObject({ statusCode: 10222 });
    // A page is not signed: its -1 is an unknown failure, not a refused signature.
    const minus = rehydrationScope(page('{"__DEFAULT_SCOPE__":{"webapp.video-detail":{"statusCode":-1}}}'), 'x');
    expect(errorOf(() => scopeSection(minus, 'webapp.video-detail', 'x'))).toBeInstanceOf(StatusCodeError);
  });

  it('a challenge page is a PageChallenge (blocked, but the API may still answer); anything else unreadable', () => {
    const waf = errorOf(() => rehydrationScope('<html><script>var _wafchallengeid="x"</script></html>', 'x'));
    expect(waf).toBeInstanceOf(PageChallenge);
    expect((waf as CrawlError).code).toBe('blocked');
    expect(errorOf(() => rehydrationScope('<html>nothing</html>', 'x'))).toBeInstanceOf(ParseError);
    expect(errorOf(() => rehydrationScope('<html><body></body></html>', 'x', 'ttwid=1; Path=/\n_wafchallengeid=abc; Max-Age=60'))).toBeInstanceOf(PageChallenge);
    // A normal page loads TikTok's captcha SDK: without the rehydration data it is unreadable, not a challenge.
    expect(errorOf(() => rehydrationScope('<html><script src="https://sf16-website-login.neutral.ttwstatic.com/obj/tiktok_web_login_static/captcha/secsdk-captcha.js"></script></html>', 'x'))).toBeInstanceOf(ParseError);
    expect(errorOf(() => rehydrationScope(page('{not json'), 'x'))).toBeInstanceOf(ParseError);
    expect(errorOf(() => rehydrationScope(page('{"other":1}'), 'x'))).toBeInstanceOf(ParseError);
  });
});

describe('tiktok guest identity', () => {
  it('msToken: 156 characters of [0-9A-Za-z]; device_id: 19 digits in yt-dlp\'s range', () => {
    const tokens = new Set(Array.from({ length: 20 }, () => randomMsToken()));
    expect(tokens.size).toBe(20);
    for (const t of tokens) expect(t).toMatch(/^[0-9A-Za-z]{156}$/);
    for (let i = 0; i < 200; i++) {
      const id = BigInt(randomDeviceId());
      expect(id >= 7250000000000000000n && id < 7325099899999994577n).toBe(true);
    }
  });

  it('minted once (ttwid from POST /ttwid/check/), kept in the guest jar, sent as cookies; forgetting re-mints', async () => {
    const { ctx, requests } = replayCtx(['ttwid-check.har']);
    const g1 = await guestIdentity(ctx);
    const g2 = await guestIdentity(ctx);
    expect(g1).toBe(g2);
    expect(requests).toEqual(['POST https://www.tiktok.com/ttwid/check/']);
    expect(g1.ttwid).toBe('1%7Csandbox-ttwid-value%7C1777890000%7Csandbox');
    expect(guestCookie(ctx, g1)).toBe(`ttwid=${g1.ttwid}; msToken=${g1.msToken}`);
    expect(forgetGuest(ctx)).toBe(true);
    const g3 = await guestIdentity(ctx);
    expect(g3.msToken).not.toBe(g1.msToken);
    expect(requests).toHaveLength(2);
  });

  it("a profile's own msToken and ttwid win: no mint, no guest cookie for them, nothing to forget", async () => {
    const { ctx, requests } = replayCtx(['ttwid-check.har'], { cookies: 'sessionid=abc; msToken=OWN_TOKEN; ttwid=OWN_TTWID' });
    const g = await guestIdentity(ctx);
    expect(requests).toEqual([]);
    expect(g.msToken).toBe('OWN_TOKEN');
    expect(guestCookie(ctx, g)).toBeUndefined();
    expect(forgetGuest(ctx)).toBe(false);
    expect(cookieValue('a=1; msToken=x; b=2', 'msToken')).toBe('x');
  });

  it('an unrecorded ttwid mint is skipped silently; the identity is kept only briefly without it', async () => {
    const { ctx, warnings } = replayCtx(['user-page-harborcook.har']);
    const g = await guestIdentity(ctx);
    expect(g.ttwid).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});

describe('tiktok signing', () => {
  const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
  const guest = { msToken: 'T'.repeat(156), deviceId: '7300000000000000001' };

  it('common params follow the agent, the endpoint params come before msToken, encoding is our own and stable', () => {
    const pairs = webParams(UA, guest, 'search', [['keyword', 'a b/ü'], ['offset', '0']]);
    const names = pairs.map(([k]) => k);
    expect(names.slice(0, 3)).toEqual(['aid', 'app_language', 'app_name']);
    expect(names.slice(-3)).toEqual(['keyword', 'offset', 'msToken']);
    expect(Object.fromEntries(pairs)).toMatchObject({ browser_platform: 'MacIntel', os: 'mac', device_id: guest.deviceId, from_page: 'search', browser_version: UA.slice('Mozilla/'.length) });
    expect(encodeQuery([['keyword', 'a b/ü'], ['x', '']])).toBe('keyword=a%20b%2F%C3%BC&x=');
  });

  it('X-Bogus is the shared port over exactly the query bytes and the agent', () => {
    const q = encodeQuery(webParams(UA, guest, 'user', [['uniqueId', 'tiktok']]));
    const b = bogusOf(q, UA);
    expect(b).toMatch(/^[A-Za-z0-9/=-]{28}$/);
    const now = Math.floor(Date.now() / 1000);
    expect([now - 1, now, now + 1].some((t) => xBogus(q, UA, t) === b)).toBe(true);
  });

  it("the page's frontierSign answer becomes X-Bogus / X-Gnarly; an empty or odd answer is an error", async () => {
    const seen: unknown[] = [];
    const page = (answer: unknown): PageSigning => ({ sign: async (req) => (seen.push(req), answer as never) });
    expect(await pageSignature(page({ 'X-Bogus': 'DFSzswVOabcdefgh', 'X-Gnarly': 'gnarly+/=value0' }), 'https://www.tiktok.com/api/x/?a=1')).toEqual([
      ['X-Bogus', 'DFSzswVOabcdefgh'],
      ['X-Gnarly', 'gnarly+/=value0'],
    ]);
    expect(seen[0]).toEqual({ pageUrl: 'https://www.tiktok.com/', fn: 'byted_acrawler.frontierSign', args: ['https://www.tiktok.com/api/x/?a=1'] });
    expect(await pageSignature(page({ 'X-Bogus': 'DFSzswVOabcdefgh' }), 'u')).toEqual([['X-Bogus', 'DFSzswVOabcdefgh']]);
    await expect(pageSignature(page({}), 'u')).rejects.toThrow(/neither X-Bogus nor X-Gnarly/);
    await expect(pageSignature(page('DFSzswVO'), 'u')).rejects.toThrow(UpstreamError);
    await expect(pageSignature(page({ 'X-Bogus': 'has space in it' }), 'u')).rejects.toThrow(UpstreamError);
  });
});

describe('tiktok login probe (passport/web/account/info)', () => {
  it('a named user is ok; an error answer is session_expired', async () => {
    expect(await probeLogin(replayCtx(['probe-account-info-logged-in.har']).ctx)).toBe('ok');
    expect(await probeLogin(replayCtx(['probe-account-info-logged-out.har']).ctx)).toBe('session_expired');
  });

  it('an empty body is blocked; a redirect to /login is session_expired; an unreadable answer leaves health alone', async () => {
    const ctx = (res: HttpResponse) => ({ http: { request: async () => res } }) as unknown as CrawlContext;
    await expect(probeLogin(ctx(response(200, '')))).rejects.toBeInstanceOf(Blocked);
    expect(await probeLogin(ctx(response(200, '<html/>', 'https://www.tiktok.com/login')))).toBe('session_expired');
    await expect(probeLogin(ctx(response(200, '{"data":{}}')))).rejects.toBeInstanceOf(UpstreamError);
    await expect(probeLogin(ctx(response(200, 'nope')))).rejects.toBeInstanceOf(UpstreamError);
  });
});
