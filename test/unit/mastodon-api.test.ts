import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CrawlError, NotFound, RateLimited, ReplayMiss, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import { call, classify, errorMessage, firstOf, nextParam, parseLink, readJson, retryAfterS } from '../../src/platforms/mastodon/api.js';
import { nextMaxId, offsetOf, pageSize, resolveAccountId } from '../../src/platforms/mastodon/common.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/mastodon');
const SANDBOX = resolve(process.cwd(), 'sandbox/mastodon');

/** A recorded exchange as the HttpClient would hand it over. */
function recorded(dir: string, file: string, i = 0): HttpResponse {
  const e = JSON.parse(readFileSync(resolve(dir, file), 'utf8')).log.entries[i];
  const headers: Record<string, string> = {};
  for (const h of e.response.headers) headers[h.name.toLowerCase()] = h.value;
  const buf = Buffer.from(e.response.content.text ?? '', 'utf8');
  return { status: e.response.status, url: e.request.url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}

function response(status: number, body: string, headers: Record<string, string> = {}, url = 'https://mastodon.social/api/v1/statuses/1'): HttpResponse {
  const buf = Buffer.from(body, 'utf8');
  return { status, url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}

const failure = (fn: () => unknown): CrawlError | string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};
const codeOf = (fn: () => unknown): string => {
  const f = failure(fn);
  return typeof f === 'string' ? f : f.code;
};

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
  const ctx = { platform: 'mastodon', profile: 'default', http, session: {}, memo: new MemoryMemo(), signal: new AbortController().signal, log: pino({ level: 'silent' }), warn: () => {} } as unknown as CrawlContext;
  return { ctx, asked };
}

describe('mastodon outcome mapping: the error recordings', () => {
  it('error-account-not-found-404 → not_found', () => {
    const res = recorded(FIXTURES, 'error-account-not-found-404.har');
    expect(errorMessage(res)).toBe('Record not found');
    expect(codeOf(() => readJson(res, 'lookup', false))).toBe('not_found');
  });

  it('error-invalid-token-401 → session_expired (with or without a token sent)', () => {
    const res = recorded(FIXTURES, 'error-invalid-token-401.har');
    const f = failure(() => readJson(res, 'home', true)) as CrawlError;
    expect(f.code).toBe('session_expired');
    expect(f.message).toContain('The access token is invalid');
    expect(codeOf(() => classify(res, 'home', 'write', true))).toBe('session_expired');
    expect(codeOf(() => readJson(res, 'home', false))).toBe('session_expired');
  });

  it('error-validation-422-localized → a write is rejected with the localized message, in both languages', () => {
    expect(classify(recorded(FIXTURES, 'error-validation-422-localized.har', 0), 'post', 'write', true)).toEqual({
      kind: 'rejected',
      message: 'バリデーションに失敗しました: Text上限は500文字です',
    });
    expect(classify(recorded(FIXTURES, 'error-validation-422-localized.har', 1), 'post', 'write', true)).toEqual({
      kind: 'rejected',
      message: 'Gültigkeitsprüfung ist fehlgeschlagen: Text Begrenzung von 500 Zeichen überschritten',
    });
  });

  it('sandbox: 429 with X-RateLimit-Reset → rate_limited with the seconds until the reset', () => {
    const res = recorded(SANDBOX, 'error-rate-limited-429.har');
    const f = failure(() => classify(res, 'trends', 'read', false, Date.parse('2026-11-21T14:44:30.000Z')));
    expect(f).toBeInstanceOf(RateLimited);
    expect((f as RateLimited).retryAfterS).toBe(30);
  });

  it('sandbox: 503 → upstream_error; 422 login wall on a read → session_expired; Cloudflare page → blocked', () => {
    expect(codeOf(() => readJson(recorded(SANDBOX, 'error-unavailable-503.har'), 'lookup', false))).toBe('upstream_error');
    expect(codeOf(() => readJson(recorded(SANDBOX, 'error-timeline-login-required-422.har'), 'timeline', false))).toBe('session_expired');
    expect(codeOf(() => readJson(recorded(SANDBOX, 'error-bot-check-403.har'), 'status', false))).toBe('blocked');
  });

  it('the successful recordings are ok', () => {
    expect(classify(recorded(FIXTURES, 'detail-status.har', 1), 'status', 'read', false)).toEqual({ kind: 'ok' });
    expect(classify(recorded(FIXTURES, 'write-status-post-delete.har', 1), 'delete', 'write', true)).toEqual({ kind: 'ok' });
    expect(readJson(recorded(FIXTURES, 'trending-statuses-empty.har'), 'trends', false)).toEqual([]);
  });
});

describe('mastodon outcome mapping: the rest of the table', () => {
  const json = (status: number, error: string) => response(status, JSON.stringify({ error }), { 'content-type': 'application/json; charset=utf-8' });

  it('403: a scope/disabled login is session_expired; otherwise anonymous → session_expired, logged in → not_found, write → rejected', () => {
    expect(codeOf(() => classify(json(403, 'This action is outside the authorized scopes'), 'x', 'read', true))).toBe('session_expired');
    expect(codeOf(() => classify(json(403, 'Your login is currently disabled'), 'x', 'write', true))).toBe('session_expired');
    expect(codeOf(() => classify(json(403, 'This action is not allowed'), 'x', 'read', false))).toBe('session_expired');
    expect(codeOf(() => classify(json(403, 'This action is not allowed'), 'x', 'read', true))).toBe('not_found');
    expect(classify(json(403, 'This action is not allowed'), 'x', 'write', true)).toEqual({ kind: 'rejected', message: 'This action is not allowed' });
  });

  it('410 gone → not_found; 422 on a read that is not a login wall → invalid_request; 400 → upstream_error', () => {
    expect(codeOf(() => classify(json(410, 'Gone'), 'x', 'read', false))).toBe('not_found');
    expect(codeOf(() => classify(json(422, 'Validation failed'), 'x', 'read', false))).toBe('invalid_request');
    expect(codeOf(() => classify(json(400, 'Bad request'), 'x', 'read', false))).toBe('upstream_error');
    expect(codeOf(() => classify(response(502, ''), 'x', 'read', false))).toBe('upstream_error');
  });

  it('a 200 that is not JSON is a parse failure (upstream_error), a 200 bot-check page is blocked; never empty', () => {
    expect(codeOf(() => readJson(response(200, '<html><body>Welcome to our blog</body></html>', { 'content-type': 'text/html' }), 'x', false))).toBe('upstream_error');
    expect(codeOf(() => readJson(response(200, '<html><title>Just a moment...</title></html>', { 'content-type': 'text/html' }), 'x', false))).toBe('blocked');
    expect(codeOf(() => readJson(response(200, ''), 'x', false))).toBe('upstream_error');
  });

  it('retryAfterS: ISO reset first, then Retry-After seconds', () => {
    const now = Date.parse('2026-11-21T14:00:00Z');
    expect(retryAfterS({ 'x-ratelimit-reset': '2026-11-21T14:05:00.000Z' }, now)).toBe(300);
    expect(retryAfterS({ 'x-ratelimit-reset': '2026-11-21T13:00:00.000Z' }, now)).toBe(0);
    expect(retryAfterS({ 'retry-after': '12' }, now)).toBe(12);
    expect(retryAfterS({}, now)).toBeUndefined();
  });
});

describe('Link header (RFC 8288) and paging', () => {
  it('parses the RFC 8288 examples', () => {
    expect(parseLink('<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter"')).toEqual({ previous: 'http://example.com/TheBook/chapter2' });
    expect(parseLink('</>; rel="http://example.net/foo"')).toEqual({ 'http://example.net/foo': '/' });
    expect(parseLink('<http://example.org/>; rel="start http://example.net/relation/other"')).toEqual({ start: 'http://example.org/', 'http://example.net/relation/other': 'http://example.org/' });
    expect(parseLink(undefined)).toEqual({});
  });

  it('reads max_id from the recorded Link headers', () => {
    const page1 = recorded(FIXTURES, 'posts-account-statuses-paged.har', 0);
    expect(nextParam(page1, 'max_id')).toBe('117020580489281910');
    expect(nextMaxId(page1, JSON.parse(page1.text()), 5)).toBe('117020580489281910');
    const timeline = recorded(FIXTURES, 'hot-public-timeline-anonymous.har', 2);
    expect(nextParam(timeline, 'max_id')).toBe('117020574694606796');
  });

  it('a Link header without next ends the list; no Link header continues a full page from its last id', () => {
    const last = recorded(SANDBOX, 'posts-river_otter-pages.har', 1);
    expect(nextMaxId(last, JSON.parse(last.text()), 2)).toBeUndefined();
    const list = [{ id: '9' }, { id: '8' }];
    expect(nextMaxId(response(200, '[]'), list, 2)).toBe('8');
    expect(nextMaxId(response(200, '[]'), list, 3)).toBeUndefined();
    expect(nextMaxId(response(200, '[]'), [], 3)).toBeUndefined();
  });

  it('offset cursors (search, trends) are plain numbers', () => {
    expect(offsetOf(undefined)).toBe(0);
    expect(offsetOf('40')).toBe(40);
    expect(codeOf(() => offsetOf('tl:123'))).toBe('invalid_request');
    expect(codeOf(() => offsetOf('-1'))).toBe('invalid_request');
  });

  it('page sizes follow limit or max_items, capped by the endpoint', () => {
    expect(pageSize({ limit: 24 }, 40)).toBe(24);
    expect(pageSize({ limit: 100 }, 40)).toBe(40);
    expect(pageSize({ limit: 24, max_items: -1 }, 40)).toBe(40);
    expect(pageSize({ limit: 24, max_items: 7 }, 40)).toBe(7);
    expect(pageSize({}, 20)).toBe(20);
  });
});

describe('requests', () => {
  it('sends the Bearer token only with a token, and DELETE as DELETE', async () => {
    const { ctx, asked } = fakeCtx([() => response(200, '{}'), () => response(200, '{}')]);
    await call(ctx, { origin: 'https://fosstodon.org', host: 'fosstodon.org', home: false }, { path: '/api/v1/statuses/1' });
    await call(ctx, { origin: 'http://localhost:3000', host: 'localhost:3000', home: true, token: 'tok' }, { method: 'DELETE', path: '/api/v1/statuses/1' });
    expect(asked[0]).toMatchObject({ method: 'GET', url: 'https://fosstodon.org/api/v1/statuses/1', headers: { Accept: 'application/json' } });
    expect(asked[0].headers?.Authorization).toBeUndefined();
    expect(asked[1]).toMatchObject({ method: 'DELETE', url: 'http://localhost:3000/api/v1/statuses/1', headers: { Authorization: 'Bearer tok' } });
  });

  it('follows redirects by hand: public https hops only, and the token stays on its own origin', async () => {
    const redirect = (location: string) => (req: HttpRequest) => response(301, '', { location }, req.url);
    const home = { origin: 'https://mastodon.example', host: 'mastodon.example', home: true, token: 'tok' };
    const { ctx, asked } = fakeCtx([redirect('/api/v1/statuses/2'), redirect('https://www.mastodon.example/api/v1/statuses/2'), () => response(200, '{}')]);
    expect((await call(ctx, home, { path: '/api/v1/statuses/1' })).status).toBe(200);
    expect(asked.map((r) => [r.url, r.headers?.Authorization, r.followRedirects])).toEqual([
      ['https://mastodon.example/api/v1/statuses/1', 'Bearer tok', false],
      ['https://mastodon.example/api/v1/statuses/2', 'Bearer tok', false],
      ['https://www.mastodon.example/api/v1/statuses/2', undefined, false],
    ]);

    for (const target of ['http://169.254.169.254/latest/meta-data', 'https://localhost/x', 'https://10.0.0.1/x', 'http://other.example/x']) {
      const bounced = fakeCtx([redirect(target)]);
      await expect(call(bounced.ctx, { origin: 'https://evil.example', host: 'evil.example', home: false }, { path: '/api/v1/statuses/1' })).rejects.toMatchObject({ code: 'upstream_error' });
      expect(bounced.asked).toHaveLength(1);
    }

    // A write is never replayed against a redirect target: the 3xx comes back and reads as an upstream error.
    const post = fakeCtx([redirect('https://mastodon.example/elsewhere')]);
    const res = await call(post.ctx, home, { method: 'POST', path: '/api/v1/statuses', form: { status: 'x' } });
    expect(res.status).toBe(301);
    expect(codeOf(() => classify(res, 'post', 'write', true))).toBe('upstream_error');
  });

  it('remembers resolved account ids per server', async () => {
    const { ctx, asked } = fakeCtx([() => recorded(FIXTURES, 'user-account-lookup.har', 0)]);
    const inst = { origin: 'http://localhost:3000', host: 'localhost:3000', home: true };
    expect(await resolveAccountId(ctx, inst, 'mastodonpy_test')).toBe('117020565966271181');
    expect(await resolveAccountId(ctx, inst, 'MastodonPy_Test')).toBe('117020565966271181');
    expect(asked).toHaveLength(1);
    expect(asked[0].query).toEqual({ acct: 'mastodonpy_test' });
  });

  it('firstOf: moves on after non-terminal failures, stops at terminal ones, reports the first replay miss', async () => {
    expect(await firstOf([async () => { throw new UpstreamError('down'); }, async () => 'second'])).toBe('second');
    expect(await firstOf([async () => { throw new NotFound('no endpoint'); }, async () => 'legacy'])).toBe('legacy');
    await expect(firstOf([async () => { throw new RateLimited('slow down'); }, async () => 'never'])).rejects.toBeInstanceOf(RateLimited);
    const miss = new ReplayMiss('GET', 'https://mastodon.social/api/v1/trends/tags');
    await expect(firstOf([async () => { throw miss; }, async () => { throw new ReplayMiss('GET', 'https://mastodon.social/api/v1/trends'); }])).rejects.toBe(miss);
  });
});
