import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Blocked, NotFound, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpResponse } from '../../src/crawl/http.js';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { SignatureRefused } from '../../src/crawl/signing.js';
import { check, detectSignal, OUTCOMES, type Signal } from '../../src/platforms/toutiao/api.js';
import { toutiao } from '../../src/platforms/toutiao/index.js';
import { count, parseJson, unixSeconds } from '../../src/platforms/toutiao/json.js';
import { encodeQuery, withSignature } from '../../src/platforms/toutiao/signer.js';
import { guestCookie, REGISTER_BODY, TTWID_KEY, ttwidFromSetCookie } from '../../src/platforms/toutiao/ttwid.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';

function response(o: { status?: number; url?: string; redirects?: string[]; headers?: Record<string, string>; body?: string }): HttpResponse {
  const body = Buffer.from(o.body ?? '');
  return {
    status: o.status ?? 200,
    url: o.url ?? 'https://www.toutiao.com/article/7506218830561436223/',
    redirects: o.redirects ?? [],
    headers: o.headers ?? {},
    body,
    text: () => body.toString('utf8'),
    json: () => JSON.parse(body.toString('utf8')),
  };
}

function ctxFor(cookies?: string): CrawlContext {
  return { session: { cookies }, log: pino({ level: 'silent' }) } as unknown as CrawlContext;
}

describe('the outcome table', () => {
  const base = { what: 'x', signed: false, loggedIn: false };
  it.each<[Signal, boolean, boolean, new (...a: never[]) => Error, string]>([
    ['login_wall', false, false, Blocked, 'blocked'],
    ['login_wall', false, true, SessionExpired, 'session_expired'],
    ['login_wall', true, true, SessionExpired, 'session_expired'],
    ['challenge', false, false, Blocked, 'blocked'],
    ['challenge', true, false, SignatureRefused, 'blocked'],
    ['captcha', false, false, Blocked, 'blocked'],
    ['captcha', true, false, SignatureRefused, 'blocked'],
    ['empty_body', false, false, Blocked, 'blocked'],
    ['empty_body', true, false, SignatureRefused, 'blocked'],
    ['http_403', true, false, Blocked, 'blocked'],
    ['http_404', false, false, NotFound, 'not_found'],
    ['http_429', false, false, RateLimited, 'rate_limited'],
    ['http_5xx', false, false, UpstreamError, 'upstream_error'],
  ])('%s (signed %s, logged in %s) → %s', (signal, signed, loggedIn, kind, code) => {
    const e = OUTCOMES[signal]({ ...base, signed, loggedIn });
    expect(e).toBeInstanceOf(kind);
    expect(e.code).toBe(code);
    // Only signed refusals are ones the page's own signer may get past.
    expect(e instanceof SignatureRefused).toBe(signed && ['challenge', 'captcha', 'empty_body'].includes(signal));
  });

  it('a block is never a login demand, and no signal maps to an empty answer', () => {
    for (const signal of Object.keys(OUTCOMES) as Signal[]) {
      const e = OUTCOMES[signal]({ ...base });
      expect(e.code).not.toBe('session_expired');
    }
  });

  it('429 carries Retry-After', () => {
    try {
      check(response({ status: 429, headers: { 'retry-after': '30' } }), ctxFor(), 'x');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RateLimited);
      expect((e as RateLimited).retryAfterS).toBe(30);
    }
  });

  it('a login wall with a stored login is session_expired; anonymous it is blocked', () => {
    const wall = response({ url: 'https://sso.toutiao.com/?service=x', redirects: ['https://www.toutiao.com/article/1/'] });
    expect(() => check(wall, ctxFor('sessionid=abc'), 'x')).toThrow(SessionExpired);
    expect(() => check(wall, ctxFor('tt_webid=1'), 'x')).toThrow(Blocked);
  });
});

describe('detectSignal', () => {
  it.each<[string, Parameters<typeof response>[0], Signal | undefined]>([
    ['a page with RENDER_DATA', { body: '<html><script id="RENDER_DATA" type="application/json">%7B%7D</script></html>' }, undefined],
    ['an ordinary JSON answer', { body: '{"message":"success","data":[]}' }, undefined],
    ['JSON "need login"', { body: '{"message":"need login","data":null}' }, 'login_wall'],
    ['JSON 请先登录', { body: '{"err_no":10001,"message":"请先登录"}' }, 'login_wall'],
    ['landing on sso.toutiao.com', { url: 'https://sso.toutiao.com/?service=https%3A%2F%2Fwww.toutiao.com', body: '<html>登录</html>' }, 'login_wall'],
    ['a redirect to sso.toutiao.com', { status: 302, headers: { location: 'https://sso.toutiao.com/login' } }, 'login_wall'],
    ['the challenge page', { body: '<script>var s=window.byted_acrawler.sign("",__ac_nonce);</script>' }, 'challenge'],
    ['an __ac_nonce cookie on a page without data', { headers: { 'set-cookie': '__ac_nonce=0682c3; Path=/' }, body: '<html><script src="x.js"></script></html>' }, 'challenge'],
    ['the search verify box', { body: '<div id="pc_captcha"></div>' }, 'captcha'],
    ['a slider page', { body: '<script>const verify_data = {"code":"10000"}</script>' }, 'captcha'],
    ['an empty 200', { body: '' }, 'empty_body'],
    ['a whitespace 200', { body: ' \n' }, 'empty_body'],
    ['HTTP 403', { status: 403, body: 'x' }, 'http_403'],
    ['HTTP 404', { status: 404, body: 'x' }, 'http_404'],
    ['HTTP 429', { status: 429, body: '' }, 'http_429'],
    ['HTTP 502', { status: 502, body: '' }, 'http_5xx'],
  ])('%s', (_name, res, signal) => {
    expect(detectSignal(response(res))).toBe(signal);
  });
});

describe('parseJson keeps big ids exact', () => {
  it('bare 19-digit numbers come back as their digits; safe numbers, floats and strings as they were', () => {
    const v = parseJson('{"id":6917172096716099083,"n":-9223372036854775807,"a":[7506231029384756481,1.5e3,12],"s":"id 6917172096716099083, ok","f":1.2345678901234567890,"e":-2E+21,"t":true}') as Record<string, unknown>;
    expect(v).toEqual({ id: '6917172096716099083', n: '-9223372036854775807', a: ['7506231029384756481', 1500, 12], s: 'id 6917172096716099083, ok', f: 1.2345678901234567, e: -2e21, t: true });
  });

  it('property: any integer, in any position, parses to its exact value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.string(), (n, s) => {
        const text = `{"k":${n},"s":${JSON.stringify(s)},"l":[${n}]}`;
        const v = parseJson(text) as { k: unknown; s: string; l: unknown[] };
        const exact = Number.isSafeInteger(Number(n)) ? Number(n) : n.toString();
        expect(v.k).toEqual(exact);
        expect(v.l).toEqual([exact]);
        expect(v.s).toBe(s);
      }),
    );
  });

  it('invalid JSON still throws', () => {
    expect(() => parseJson('{"a":')).toThrow();
    expect(() => parseJson('<html>')).toThrow();
  });
});

describe('counts and times', () => {
  it.each<[unknown, number | undefined]>([
    [12, 12],
    ['12', 12],
    ['1,024', 1024],
    ['12.8万', 128000],
    ['3亿', 300000000],
    ['1.5w', 15000],
    ['', undefined],
    ['暂无', undefined],
    [-1, undefined],
    [Number.NaN, undefined],
    [null, undefined],
  ])('count(%j) = %j', (v, n) => {
    expect(count(v)).toBe(n);
  });

  it('unix seconds from seconds or milliseconds; 0 and junk are no time', () => {
    expect(unixSeconds(1747483344)).toBe(1747483344);
    expect(unixSeconds(1747483344123)).toBe(1747483344);
    expect(unixSeconds('1747483344')).toBe(1747483344);
    expect(unixSeconds(0)).toBeUndefined();
    expect(unixSeconds('soon')).toBeUndefined();
    expect(unixSeconds(42)).toBeUndefined();
    expect(unixSeconds(1e300)).toBeUndefined();
    expect(unixSeconds(Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });
});

describe('signed request bytes', () => {
  it('the query is encoded once, in order, and the signature appended to exactly those bytes', () => {
    const q = encodeQuery([
      ['category', 'profile_all'],
      ['token', 'MS4w_-x'],
      ['entrance_gid', ''],
      ['kw', '人工 智能&'],
    ]);
    expect(q).toBe('category=profile_all&token=MS4w_-x&entrance_gid=&kw=%E4%BA%BA%E5%B7%A5%20%E6%99%BA%E8%83%BD%26');
    expect(withSignature(`https://www.toutiao.com/api/pc/list/user/feed?${q}`, '_02B4Z.x')).toBe(`https://www.toutiao.com/api/pc/list/user/feed?${q}&_signature=_02B4Z.x`);
    expect(withSignature('https://www.toutiao.com/api/pc/user/fans_stat', 'abc')).toBe('https://www.toutiao.com/api/pc/user/fans_stat?_signature=abc');
  });
});

describe('guest ttwid', () => {
  const REGISTER = 'https://ttwid.bytedance.com/ttwid/union/register/';
  const CALLBACK = 'https://www.toutiao.com/ttwid/union/register/callback/?aid=24&ticket=t1';

  function replayCtx(list: Array<{ method?: string; url: string; headers?: Record<string, string>; body: string; status?: number }>, cookies?: string) {
    const dir = mkdtempSync(join(tmpdir(), 'toutiao-ttwid-'));
    const file = join(dir, 'ttwid.har');
    writeFileSync(
      file,
      JSON.stringify({
        log: {
          version: '1.2',
          entries: list.map((e) => ({
            request: {
              method: e.method ?? 'GET',
              url: e.url,
              headers: [],
              ...(e.method === 'POST' ? { postData: { mimeType: 'application/json', text: JSON.stringify(REGISTER_BODY) } } : {}),
            },
            response: {
              status: e.status ?? 200,
              headers: Object.entries({ 'Content-Type': 'application/json', ...e.headers }).map(([name, value]) => ({ name, value })),
              content: { text: e.body, mimeType: 'application/json' },
            },
            comment: 'hand-made: ttwid register answers (shape as in sandbox/toutiao/ttwid-register.har)',
          })),
        },
      }),
    );
    const requests: string[] = [];
    const warnings: string[] = [];
    const ctx = makeContext({
      adapter: toutiao,
      profile: 'default',
      cookies,
      memo: new MemoryMemo(),
      dispatcher: new ReplayDispatcher({ recordings: loadRecordings([file]) }),
      pacer: new LocalPacer(),
      gapMs: 0,
      signal: new AbortController().signal,
      log: pino({ level: 'silent' }),
      warnings,
      onRequest: (m, u) => requests.push(`${m} ${u.toString()}`),
    });
    return { ctx, requests, warnings };
  }

  it('reads ttwid from Set-Cookie lines', () => {
    expect(ttwidFromSetCookie('a=1; Path=/\nttwid=1%7Cabc%7C1; Domain=bytedance.com')).toBe('1%7Cabc%7C1');
    expect(ttwidFromSetCookie('ttwid=deleted; Max-Age=0')).toBeUndefined();
    expect(ttwidFromSetCookie(undefined)).toBeUndefined();
  });

  it('mints once from the register answer and keeps it in the guest jar', async () => {
    const { ctx, requests } = replayCtx([{ method: 'POST', url: REGISTER, headers: { 'Set-Cookie': 'ttwid=1%7Cfirst; Path=/' }, body: '{"status_code":0,"message":"union register success","redirect_url":"x"}' }]);
    expect(await guestCookie(ctx)).toBe('ttwid=1%7Cfirst');
    expect(await guestCookie(ctx)).toBe('ttwid=1%7Cfirst');
    expect(requests).toEqual([`POST ${REGISTER}`]);
    expect(ctx.guest.get(TTWID_KEY)).toBe('1%7Cfirst');
  });

  it('follows toutiao\'s callback when the register answer set no cookie', async () => {
    const { ctx, requests } = replayCtx([
      { method: 'POST', url: REGISTER, body: JSON.stringify({ status_code: 0, message: 'union register success', redirect_url: CALLBACK }) },
      { url: CALLBACK, headers: { 'Set-Cookie': 'ttwid=1%7Cfromcallback; Path=/; Domain=.toutiao.com' }, body: '{"status_code":0,"message":"callback success","sub_status_code":2002}' },
    ]);
    expect(await guestCookie(ctx)).toBe('ttwid=1%7Cfromcallback');
    expect(requests).toEqual([`POST ${REGISTER}`, `GET ${CALLBACK}`]);
  });

  it('never follows a callback off toutiao.com', async () => {
    const { ctx, requests, warnings } = replayCtx([
      { method: 'POST', url: REGISTER, body: JSON.stringify({ status_code: 0, redirect_url: 'https://evil.example/ttwid/union/register/callback/?t=1' }) },
    ]);
    expect(await guestCookie(ctx)).toBeUndefined();
    expect(requests).toEqual([`POST ${REGISTER}`]);
    expect(warnings.join()).toMatch(/could not mint a toutiao guest ttwid \(ttwid register set no ttwid cookie\)/);
  });

  it('a refused register goes on without a ttwid, says so, and is not asked again for a while', async () => {
    const { ctx, requests, warnings } = replayCtx([{ method: 'POST', url: REGISTER, body: '{"status_code":1001,"message":"parse params fail","sub_status_code":2002}' }]);
    expect(await guestCookie(ctx)).toBeUndefined();
    expect(await guestCookie(ctx)).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(warnings.join()).toMatch(/status_code 1001 \(parse params fail\)/);
  });

  it('a profile that carries its own ttwid mints none', async () => {
    const { ctx, requests } = replayCtx([], 'ttwid=1%7Cmine; sessionid=x');
    expect(await guestCookie(ctx)).toBeUndefined();
    expect(requests).toEqual([]);
  });
});
