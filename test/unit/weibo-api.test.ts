import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Blocked, CrawlError, NotFound, RateLimited, ReplayMiss, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import { checkStatus, firstRecorded, get, interpret, pcHeaders, readHtml, readJson, withFallback, xhrHeaders } from '../../src/platforms/weibo/api.js';
import { weibo } from '../../src/platforms/weibo/index.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import type { CrawlContext } from '../../src/platforms/types.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const recorded = (file: string): string => JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[0].response.content.text;

function response(status: number, body: string, url = 'https://m.weibo.cn/api/container/getIndex', headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.from(body, 'utf8');
  return { status, url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}

/** A context whose http answers from a queue and records what was asked. */
function fakeCtx(answers: Array<(req: HttpRequest) => HttpResponse>): { ctx: CrawlContext; asked: HttpRequest[] } {
  const asked: HttpRequest[] = [];
  const http = {
    request: async (req: HttpRequest) => {
      asked.push(req);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected request ${req.url}`);
      return next(req);
    },
  };
  const ctx = { platform: 'weibo', profile: 'default', http, session: {}, memo: new MemoryMemo(), signal: new AbortController().signal, log: pino({ level: 'silent' }), warn: () => {} } as unknown as CrawlContext;
  return { ctx, asked };
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};

describe('weibo outcome codes (interpret)', () => {
  it('ok:1 is success and hands back data', () => {
    const env = interpret(JSON.parse(recorded('user-arknights-profile.har')), 'profile');
    expect(env.kind).toBe('ok');
    expect(env.kind === 'ok' && (env.data.userInfo as { id: number }).id).toBe(6279793937);
  });

  it('the recorded "这里还没有内容" answers are honest empties', () => {
    expect(interpret(JSON.parse(recorded('error-empty-profile.har')), 'profile')).toEqual({ kind: 'empty', message: '这里还没有内容' });
    expect(interpret(JSON.parse(recorded('error-empty-hot-topic-container-2025-04-01.har')), 'topics').kind).toBe('empty');
    expect(interpret({ ok: 0, data: { cards: [] } }, 'x').kind).toBe('empty');
  });

  it('maps weibo errors to typed failures, never to empty', () => {
    expect(codeOf(() => interpret({ ok: -100, url: 'https://passport.weibo.cn/signin/welcome' }, 'x'))).toBe('session_expired');
    expect(codeOf(() => interpret({ ok: 0, errno: '20101', msg: 'target weibo does not exist!' }, 'x'))).toBe('not_found');
    expect(codeOf(() => interpret({ ok: 0, msg: '微博不存在或暂无查看权限!' }, 'x'))).toBe('not_found');
    expect(codeOf(() => interpret({ ok: 0, msg: '请求过于频繁，请稍后再试' }, 'x'))).toBe('rate_limited');
    expect(codeOf(() => interpret({ ok: 0, msg: '系统繁忙' }, 'x'))).toBe('upstream_error');
    expect(codeOf(() => interpret({ ok: 0 }, 'x'))).toBe('upstream_error');
    expect(codeOf(() => interpret([], 'x'))).toBe('upstream_error');
  });
});

describe('weibo HTTP outcomes', () => {
  it.each([
    [432, 'blocked'],
    [418, 'blocked'],
    [403, 'blocked'],
    [404, 'not_found'],
    [429, 'rate_limited'],
    [500, 'upstream_error'],
    [502, 'upstream_error'],
    [400, 'upstream_error'],
  ])('HTTP %d → %s', (status, code) => {
    expect(codeOf(() => checkStatus(response(status, '')))).toBe(code);
  });

  it('a 432 with an empty body is blocked, not a parse error', () => {
    expect(() => readJson(response(432, ''))).toThrow(Blocked);
  });

  it('non-JSON where JSON is expected is an upstream error, never empty', () => {
    expect(codeOf(() => readJson(response(200, '<html><body>hi</body></html>', undefined, { 'content-type': 'text/html' })))).toBe('upstream_error');
  });

  it('the recorded Sina Visitor System page is session_expired, on JSON and HTML endpoints alike', () => {
    const page = recorded('error-visitor-system-s-weibo-2024-01.har');
    expect(() => readHtml(response(200, page, 'https://s.weibo.com/top/summary?cate=realtimehot'))).toThrow(SessionExpired);
    expect(() => readJson(response(200, page))).toThrow(/visitor/i);
  });

  it('a captcha page is blocked', () => {
    const page = '<html><head><title>微博</title></head><body>请输入验证码以继续访问</body></html>';
    expect(() => readHtml(response(200, page, 'https://s.weibo.com/top/summary'))).toThrow(Blocked);
    expect(() => readJson(response(200, page))).toThrow(Blocked);
  });

  it('real pages pass', () => {
    expect(readHtml(response(200, recorded('trending-s-weibo-top-summary-topicband-2021-09-22.har'), 'https://s.weibo.com/top/summary'))).toContain('list_b');
    expect(readHtml(response(200, recorded('detail-html-4649031014551911.har'), 'https://m.weibo.cn/detail/4649031014551911'))).toContain('$render_data');
  });
});

describe('weibo redirects', () => {
  it('a redirect to passport is session_expired and passport is never requested', async () => {
    const { ctx, asked } = fakeCtx([
      (req) => response(302, '', req.url, { location: 'https://passport.weibo.com/visitor/visitor?entry=miniblog&a=enter' }),
    ]);
    await expect(get(ctx, 'https://s.weibo.com/top/summary', { cate: 'realtimehot' }, {})).rejects.toThrow(SessionExpired);
    expect(asked).toHaveLength(1);
    expect(asked[0].followRedirects).toBe(false);
  });

  it('follows a redirect that stays on weibo', async () => {
    const { ctx, asked } = fakeCtx([
      (req) => response(302, '', req.url, { location: '/detail/4649031014551911' }),
      (req) => response(200, 'ok', req.url),
    ]);
    const res = await get(ctx, 'https://m.weibo.cn/status/Kkzwhj69V', undefined, {});
    expect(res.status).toBe(200);
    expect(asked.map((r) => r.url)).toEqual(['https://m.weibo.cn/status/Kkzwhj69V', 'https://m.weibo.cn/detail/4649031014551911']);
  });

  it('refuses a redirect off weibo', async () => {
    const { ctx } = fakeCtx([(req) => response(302, '', req.url, { location: 'https://example.com/' })]);
    await expect(get(ctx, 'https://m.weibo.cn/detail/1', undefined, {})).rejects.toThrow(UpstreamError);
  });
});

describe('withFallback', () => {
  const miss1 = new ReplayMiss('GET', 'https://m.weibo.cn/statuses/show?id=1');
  const miss2 = new ReplayMiss('GET', 'https://m.weibo.cn/detail/1');

  it('uses the first route when it answers', async () => {
    expect(await withFallback(async () => 'api', async () => 'page')).toBe('api');
  });

  it('falls back on upstream errors, replay misses and honest nothing', async () => {
    expect(await withFallback(async () => { throw new UpstreamError('x'); }, async () => 'page')).toBe('page');
    expect(await withFallback(async () => { throw miss1; }, async () => 'page')).toBe('page');
    expect(await withFallback(async () => undefined, async () => 'page')).toBe('page');
  });

  it('does not fall back on terminal outcomes', async () => {
    await expect(withFallback(async () => { throw new NotFound('gone'); }, async () => 'page')).rejects.toThrow(NotFound);
    await expect(withFallback(async () => { throw new Blocked(); }, async () => 'page')).rejects.toThrow(Blocked);
    await expect(withFallback(async () => { throw new RateLimited(); }, async () => 'page')).rejects.toThrow(RateLimited);
  });

  it('reports the first real failure when the last route has no recording, else the first replay miss', async () => {
    await expect(withFallback(async () => { throw miss1; }, async () => { throw miss2; })).rejects.toBe(miss1);
    const real = new UpstreamError('x');
    await expect(withFallback(async () => { throw real; }, async () => { throw miss2; })).rejects.toBe(real);
  });

  it("reports the fallback's own verdict otherwise", async () => {
    await expect(withFallback(async () => { throw miss1; }, async () => { throw new SessionExpired('wall'); })).rejects.toThrow(SessionExpired);
  });

  it('walks a chain of routes in order, and reports the first answer-backed failure when the last one misses', async () => {
    const miss3 = new ReplayMiss('GET', 'https://weibo.com/ajax/statuses/show?id=1');
    const order: string[] = [];
    const route = (name: string, out: () => unknown) => async () => (order.push(name), out()) as string | undefined;
    expect(await withFallback(route('m', () => { throw new UpstreamError('x'); }), route('page', () => undefined), route('pc', () => 'pc'))).toBe('pc');
    expect(order).toEqual(['m', 'page', 'pc']);
    const x = new UpstreamError('x');
    const y = new UpstreamError('y');
    await expect(withFallback(async () => { throw x; }, async () => { throw miss2; }, async () => { throw miss3; })).rejects.toBe(x);
    await expect(withFallback(async () => { throw miss1; }, async () => { throw y; }, async () => { throw miss3; })).rejects.toBe(y);
    await expect(withFallback(async () => { throw miss1; }, async () => { throw miss2; }, async () => { throw miss3; })).rejects.toBe(miss1);
    await expect(withFallback(async () => { throw miss1; }, async () => { throw new NotFound('gone'); }, async () => 'pc')).rejects.toThrow(NotFound);
  });
});

describe('firstRecorded', () => {
  const miss1 = new ReplayMiss('GET', 'https://weibo.com/ajax/statuses/show?id=4645748019299849');
  const miss2 = new ReplayMiss('GET', 'https://weibo.com/ajax/statuses/show?id=Kjc77D1jz');

  it('tries the next form of a request only when the previous one has no recording', async () => {
    expect(await firstRecorded([async () => { throw miss1; }, async () => 'bid'])).toBe('bid');
    await expect(firstRecorded([async () => { throw new UpstreamError('x'); }, async () => 'bid'])).rejects.toThrow(UpstreamError);
    await expect(firstRecorded([async () => { throw miss1; }, async () => { throw miss2; }])).rejects.toBe(miss1);
  });
});

describe('adapter metadata', () => {
  it('declares what the runner and the media proxy need', () => {
    expect(weibo).toMatchObject({ id: 'weibo', name: 'Weibo', region: 'CN', auth: 'none', minGapMs: 1500 });
    expect(Object.keys(weibo.actions).sort()).toEqual(['comments', 'detail', 'download', 'hot', 'posts', 'search', 'trending', 'user']);
    expect(weibo.mediaHeaders!(new URL('https://wx1.sinaimg.cn/large/x.jpg'))).toEqual({ Referer: 'https://weibo.com/' });
    expect(weibo.authorUrl({ id: '6279793937' })).toBe('https://weibo.com/u/6279793937');
    expect(weibo.authorUrl({ handle: 'x' })).toBeUndefined();
    expect(weibo.categories!.map((c) => c.id)).toEqual(['hotposts']);
    expect(weibo.replay!.cursor).toContain('max_id');
    expect(weibo.replay!.cursor).not.toContain('max_id_type');
    expect(xhrHeaders()).toMatchObject({ Referer: 'https://m.weibo.cn/', 'X-Requested-With': 'XMLHttpRequest', 'MWeibo-Pwa': '1' });
    expect(pcHeaders()).toMatchObject({ Referer: 'https://weibo.com/', 'X-Requested-With': 'XMLHttpRequest' });
    expect(pcHeaders()['User-Agent']).toMatch(/Windows NT/);
    expect(weibo.hosts).toEqual(expect.arrayContaining(['m.weibo.cn', 'weibo.com', 's.weibo.com']));
    expect(weibo.replay!.identifying).toEqual(expect.arrayContaining(['id', 'uid', 'screen_name']));
    expect(weibo.replay!.cursor).toEqual(expect.arrayContaining(['page', 'since_id']));
  });

  it("covers every media host the recordings' media URLs use", () => {
    const hosts = new Set<string>();
    const files = ['posts-arknights-timeline.har', 'detail-statuses-show-4645748019299849.har', 'detail-html-4649031014551911.har'];
    for (const f of files) {
      for (const m of recorded(f).matchAll(/"(?:url|stream_url(?:_hd)?|mp4_\w+|avatar_hd|profile_image_url)"\s*:\s*"(https?:[^"]+)"/g)) {
        hosts.add(new URL(m[1].replace(/\\\//g, '/')).hostname);
      }
    }
    const allowed = (h: string) => weibo.mediaHosts.some((p) => (p.startsWith('.') ? h.endsWith(p) : h === p));
    const mediaLike = [...hosts].filter((h) => /sinaimg|weibocdn/.test(h));
    expect(mediaLike.length).toBeGreaterThan(2);
    expect(mediaLike.filter((h) => !allowed(h))).toEqual([]);
  });
});
