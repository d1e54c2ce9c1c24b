import { describe, expect, it } from 'vitest';
import { Blocked, NotFound, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import { SignatureRefused } from '../../src/crawl/signing.js';
import { encodeQuery, ERROR_OUTCOMES, readJson, readPage, type Answer } from '../../src/platforms/zhihu/api.js';
import { cookieValue, setCookiePairs } from '../../src/platforms/zhihu/guest.js';

const ans = (status: number, text: unknown, extra: Partial<Answer> = {}): Answer => ({
  status,
  url: 'https://www.zhihu.com/api/v4/answers/1',
  headers: { 'content-type': 'application/json' },
  text: typeof text === 'string' ? text : JSON.stringify(text),
  ...extra,
});
const err = (code: number, more: Record<string, unknown> = {}) => ({ error: { code, message: 'm', ...more } });
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
};

describe('zhihu outcome table', () => {
  it.each([
    [10001, SignatureRefused],
    [10002, SignatureRefused],
    [10003, SignatureRefused],
    [40352, Blocked],
    [40362, Blocked],
    [100, SessionExpired],
    [4041, NotFound],
  ])('error.code %i → %s', (code, cls) => {
    expect(ERROR_OUTCOMES.has(code)).toBe(true);
    const e = thrown(() => readJson(ans(code === 100 ? 401 : 403, err(code)), 'x'));
    expect(e).toBeInstanceOf(cls);
  });

  it('40352 says need_login, but it is a captcha: blocked, never a re-login', () => {
    const e = thrown(() => readJson(ans(403, err(40352, { need_login: true, redirect: 'https://www.zhihu.com/account/unhuman?type=S6E3V1&need_login=true' })), 'x'));
    expect(e).toBeInstanceOf(Blocked);
    expect(e).not.toBeInstanceOf(SessionExpired);
    expect((e as Blocked).code).toBe('blocked');
  });

  it('unknown codes: an unhuman redirect is a block, need_login a login demand, else by status', () => {
    expect(thrown(() => readJson(ans(403, err(49999, { redirect: '/account/unhuman?type=x' })), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readJson(ans(403, err(49998, { need_login: true })), 'x'))).toBeInstanceOf(SessionExpired);
    expect(thrown(() => readJson(ans(404, { error: { code: 1, name: 'NotFoundError', message: '' } }), 'x'))).toBeInstanceOf(NotFound);
    expect(thrown(() => readJson(ans(403, err(7)), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readJson(ans(200, err(7)), 'x'))).toBeInstanceOf(UpstreamError);
  });

  it('statuses without a body: 401 login, 403 block, 404 not found (or none where 404 means none), 429 with Retry-After, 5xx upstream', () => {
    expect(thrown(() => readJson(ans(401, ''), 'x'))).toBeInstanceOf(SessionExpired);
    expect(thrown(() => readJson(ans(403, '<html>forbidden</html>'), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readJson(ans(404, ''), 'x'))).toBeInstanceOf(NotFound);
    expect(readJson(ans(404, err(4041)), 'x', { emptyOn404: true })).toBeNull();
    const limited = thrown(() => readJson(ans(429, '', { headers: { 'retry-after': '30' } }), 'x'));
    expect(limited).toBeInstanceOf(RateLimited);
    expect((limited as RateLimited).retryAfterS).toBe(30);
    expect(thrown(() => readJson(ans(502, ''), 'x'))).toBeInstanceOf(UpstreamError);
  });

  it('the captcha page, by final URL, by Location or by its text, is a block; a sign-in redirect is a login demand', () => {
    expect(thrown(() => readJson(ans(200, '<html>…</html>', { url: 'https://www.zhihu.com/account/unhuman?type=unhuman' }), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readJson(ans(302, '', { headers: { location: 'https://www.zhihu.com/account/unhuman?need_login=true' } }), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readJson(ans(200, '<html><p>系统监测到您的网络环境存在异常</p></html>'), 'x'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readJson(ans(302, '', { headers: { location: 'https://www.zhihu.com/signin?next=%2F' } }), 'x'))).toBeInstanceOf(SessionExpired);
    expect(thrown(() => readPage(ans(200, '<html>sign in</html>', { url: 'https://www.zhihu.com/signin?next=%2Fpeople%2Fx' }), 'x'))).toBeInstanceOf(SessionExpired);
    expect(thrown(() => readPage(ans(200, '<html>系统监测到您的网络环境存在异常</html>', { url: 'https://www.zhihu.com/people/x' }), 'x'))).toBeInstanceOf(Blocked);
    expect(readPage(ans(200, '<html><script id="js-initialData">{}</script></html>', { url: 'https://www.zhihu.com/people/x' }), 'x')).toContain('js-initialData');
  });

  it('a 200 that is neither JSON nor a captcha is an unreadable answer (upstream_error), not empty', () => {
    const e = thrown(() => readJson(ans(200, ''), 'x'));
    expect((e as UpstreamError).code).toBe('upstream_error');
    expect(thrown(() => readJson(ans(200, '{broken'), 'x'))).toMatchObject({ code: 'upstream_error' });
    expect(readJson(ans(200, { data: [] }), 'x')).toEqual({ data: [] });
  });
});

describe('zhihu requests and guest cookies', () => {
  it('the query is encoded once, in order, as signed and sent', () => {
    expect(encodeQuery([['t', 'general'], ['q', '咖啡 豆'], ['include', 'data[*].a,b'], ['offset', 0], ['sort', '']])).toBe('t=general&q=%E5%92%96%E5%95%A1%20%E8%B1%86&include=data%5B*%5D.a%2Cb&offset=0&sort=');
  });

  it('Set-Cookie lines give name=value pairs with quotes kept; deleted ones are dropped', () => {
    const header = 'd_c0="AAB=|1763600000"; Domain=zhihu.com; Path=/\n_xsrf=abc; path=/\nq_c1=deleted; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    expect(setCookiePairs(header)).toEqual([
      ['d_c0', '"AAB=|1763600000"'],
      ['_xsrf', 'abc'],
    ]);
    expect(cookieValue('z_c0=2|1:0; d_c0="AA=|1"; x=1', 'd_c0')).toBe('"AA=|1"');
    expect(cookieValue('xd_c0=1', 'd_c0')).toBeUndefined();
    expect(cookieValue(undefined, 'd_c0')).toBeUndefined();
  });
});
