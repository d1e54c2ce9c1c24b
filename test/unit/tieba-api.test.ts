import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { Blocked, NotFound, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import { ANSWER_RULES, checkAnswer, JSON_RULES, readJson } from '../../src/platforms/tieba/api.js';
import { bodyText, declaredCharset } from '../../src/platforms/tieba/charset.js';
import { dropGuest, guestCookie, keepGuest } from '../../src/platforms/tieba/guest.js';
import { tiebaCtx } from '../helpers/tieba-ctx.js';

const answer = (status: number, text: string, location = '') => ({ status, text, location });

describe('tieba outcome mapping', () => {
  it.each([
    [answer(429, 'x'), RateLimited],
    [answer(302, '', 'https://wappass.baidu.com/static/captcha/tuxing.html?ak=1'), Blocked],
    [answer(302, '', 'https://passport.baidu.com/v2/?login&u=https%3A%2F%2Ftieba.baidu.com'), SessionExpired],
    [answer(403, 'forbidden'), Blocked],
    [answer(404, '<html>很抱歉，该贴已被删除。</html>'), NotFound],
    [answer(502, 'bad gateway'), UpstreamError],
    [answer(418, 'teapot'), UpstreamError],
    [answer(200, ''), Blocked],
    [answer(200, '  blocked\n'), Blocked],
    [answer(200, '<html><head><title>百度安全验证</title></head></html>'), Blocked],
  ])('%j → %s', (a, kind) => {
    expect(() => checkAnswer(a, 'probe')).toThrow(kind);
  });

  it('every answer rule is reachable and named', () => {
    expect(ANSWER_RULES.map((r) => r.signal)).toHaveLength(new Set(ANSWER_RULES.map((r) => r.signal)).size);
    expect(JSON_RULES.length).toBeGreaterThanOrEqual(4);
  });

  it('the real recorded pages trip no block or error signal (no false positives)', () => {
    const dir = resolve(process.cwd(), '../shared/fixtures/tieba');
    for (const f of ['posts-forum-daomubiji.har', 'detail-thread-9117905169.har', 'comments-thread-9119688421-page1-dom.har', 'replies-lzl-9119688421-pid150726500312.har', 'search-keyword-fragment.har']) {
      const text = JSON.parse(readFileSync(resolve(dir, f), 'utf8')).log.entries[0].response.content.text as string;
      expect(() => checkAnswer(answer(200, text), f)).not.toThrow();
    }
  });

  it.each([
    [{ error_code: '1', error_msg: '用户未登录或登录失败，请更换账号或重试', info: { checkUserLogin: '1', needlogin: '1' } }, SessionExpired],
    [{ error_code: 0, info: { needlogin: '1' } }, SessionExpired],
    [{ no: 1130023, error: '用户不存在' }, NotFound],
    [{ error_code: 4, error_msg: '贴子可能已被删除' }, NotFound],
    [{ error_code: 220034, error_msg: '您的操作太频繁了' }, RateLimited],
    [{ errno: 2, errmsg: '请求异常，需要验证' }, Blocked],
    [{ no: 7, error: 'something else' }, UpstreamError],
  ])('JSON %j → %s', (json, kind) => {
    expect(() => readJson(answer(200, JSON.stringify(json)), 'probe')).toThrow(kind);
  });

  it('a zero code passes the body through; an HTML page where JSON was expected is a parse error, not empty', () => {
    expect(readJson(answer(200, '{"no":0,"error":"","data":{"x":1}}'), 'p')).toEqual({ no: 0, error: '', data: { x: 1 } });
    expect(readJson(answer(200, '{"errno":0,"errmsg":"success","data":{}}'), 'p').errmsg).toBe('success');
    expect(() => readJson(answer(200, '<html>hello</html>'), 'p')).toThrow(/expected JSON, got an HTML page/);
    expect(() => readJson(answer(200, '[1,2]'), 'p')).toThrow(/not a JSON object/);
  });
});

describe('tieba charsets', () => {
  const gbkBody = iconv.encode('<html><head><meta charset="gbk"></head><body>盗墓笔记</body></html>', 'gbk');
  it('the Content-Type charset decides, then a meta tag, else UTF-8', () => {
    expect(declaredCharset({ 'content-type': 'text/html; charset=GBK' }, Buffer.from('x'))).toBe('gbk');
    expect(declaredCharset({ 'content-type': 'text/html; charset="gb2312"' }, Buffer.from('x'))).toBe('gbk');
    expect(declaredCharset({ 'content-type': 'text/html' }, gbkBody)).toBe('gbk');
    expect(declaredCharset({ 'content-type': 'text/html' }, Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=gb18030">'))).toBe('gbk');
    expect(declaredCharset({ 'content-type': 'text/html; charset=utf-8' }, gbkBody)).toBe('utf-8');
    expect(declaredCharset({}, Buffer.from('<html>'))).toBeUndefined();
  });
  it('bodies read in their declared charset', () => {
    expect(bodyText({ headers: { 'content-type': 'text/html' }, body: gbkBody })).toContain('盗墓笔记');
    expect(bodyText({ headers: { 'content-type': 'text/html; charset=gbk' }, body: iconv.encode('贴吧', 'gbk') })).toBe('贴吧');
    expect(bodyText({ headers: {}, body: Buffer.from('贴吧', 'utf8') })).toBe('贴吧');
  });
});

describe('tieba guest cookie (BAIDUID)', () => {
  it('is taken from Set-Cookie, sent back, forgotten on demand; a profile’s own BAIDUID wins', () => {
    const { ctx } = tiebaCtx([]);
    expect(guestCookie(ctx)).toBeUndefined();
    keepGuest(ctx, { headers: { 'set-cookie': 'BDSVRTM=0; path=/\nBAIDUID=ABC123:FG=1; max-age=31536000; path=/; domain=.baidu.com' } });
    expect(guestCookie(ctx)).toBe('BAIDUID=ABC123:FG=1');
    expect(dropGuest(ctx)).toBe(true);
    expect(dropGuest(ctx)).toBe(false);
    const logged = tiebaCtx([], { cookies: 'BDUSS=x; BAIDUID=MINE:FG=1' }).ctx;
    keepGuest(logged, { headers: { 'set-cookie': 'BAIDUID=OTHER:FG=1; path=/' } });
    expect(guestCookie(logged)).toBeUndefined();
  });
});
