import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CrawlError, RateLimited, ReplayMiss, UpstreamError } from '../../src/crawl/errors.js';
import { buildUrl, type HttpRequest, type HttpResponse } from '../../src/crawl/http.js';
import { exchange, firstAnswer, read, readJson, write } from '../../src/platforms/reddit/api.js';
import { bearer, canActAsUser, hasCredentials } from '../../src/platforms/reddit/auth.js';
import { awaitBudget, noteBudget, userAgent } from '../../src/platforms/reddit/http.js';
import { judge } from '../../src/platforms/reddit/write.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/reddit');
const recorded = (file: string, i: number): { status: number; headers: Record<string, string>; text: string; url: string } => {
  const e = JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[i];
  const headers: Record<string, string> = {};
  for (const h of e.response.headers) headers[h.name.toLowerCase()] = h.value;
  return { status: e.response.status, headers, text: e.response.content.text, url: e.request.url };
};

function response(status: number, body: string, url = 'https://oauth.reddit.com/r/x/hot', headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' }): HttpResponse {
  const buf = Buffer.from(body, 'utf8');
  return { status, url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}
const fromRecording = (file: string, i: number): HttpResponse => {
  const r = recorded(file, i);
  return response(r.status, r.text, r.url, r.headers);
};

type Answer = (req: HttpRequest, url: string) => HttpResponse;

/** A context whose http answers from a queue and records what was asked. */
function fakeCtx(answers: Answer[], credentials?: Record<string, string>): { ctx: CrawlContext; asked: Array<HttpRequest & { full: string }>; warnings: string[] } {
  const asked: Array<HttpRequest & { full: string }> = [];
  const warnings: string[] = [];
  const http = {
    request: async (req: HttpRequest) => {
      const full = buildUrl(req.url, req.query).toString();
      asked.push({ ...req, full });
      const next = answers.shift();
      if (!next) throw new ReplayMiss(req.method ?? 'GET', full);
      return next(req, full);
    },
  };
  const ctx = {
    platform: 'reddit',
    profile: 'default',
    http,
    session: { credentials },
    memo: new MemoryMemo(),
    guest: Object.assign(new MemoryMemo(), { userAgent: 'test-agent' }),
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warn: (m: string) => warnings.push(m),
  } as unknown as CrawlContext;
  return { ctx, asked, warnings };
}

const ok = (body: unknown, headers: Record<string, string> = {}): Answer => (_req, url) => response(200, JSON.stringify(body), url, { 'content-type': 'application/json; charset=UTF-8', ...headers });
const status = (code: number, body = '{}', headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' }): Answer => (_req, url) => response(code, body, url, headers);
const TOKEN = ok({ access_token: 'tok-1', token_type: 'bearer', expires_in: 3600, scope: '*' });

function errorOf(fn: () => unknown): CrawlError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CrawlError) return e;
    throw e;
  }
  throw new Error('expected a CrawlError');
}
async function rejection(p: Promise<unknown>): Promise<CrawlError | ReplayMiss> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CrawlError || e instanceof ReplayMiss) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('reddit read outcomes (readJson), from the recorded error answers', () => {
  it('401 invalid_token is a lapsed session', () => {
    const res = fromRecording('error-invalid-token-401.har', 0);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="reddit", error="invalid_token"');
    const e = errorOf(() => readJson(res, 'me', true));
    expect(e.code).toBe('session_expired');
    expect(e.message).toMatch(/invalid_token/);
    expect(errorOf(() => readJson(res, 'me', false)).message).toMatch(/stores none/);
  });

  it('403 of a quarantined/private community is not_found ("not visible to this account"), never blocked', () => {
    const res = fromRecording('error-quarantined-403.har', 2);
    expect(JSON.parse(res.text())).toEqual({ message: 'Forbidden', error: 403 });
    const e = errorOf(() => readJson(res, 'r/ferguson hot', true));
    expect(e.code).toBe('not_found');
    expect(e.message).toMatch(/quarantined/);
    expect(errorOf(() => readJson(response(403, '{"reason": "private", "message": "Forbidden", "error": 403}'), 'x', false)).message).toMatch(/community is private/);
    expect(errorOf(() => readJson(response(403, '{"reason": "quarantined", "message": "Forbidden", "error": 403}'), 'x', false)).message).toMatch(/has not opted in/);
  });

  it('403 for a missing scope is the stored login, 403 as a page is the edge blocking', () => {
    const scope = response(403, '{"message": "Forbidden", "error": 403}', undefined, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="reddit", error="insufficient_scope"' });
    expect(errorOf(() => readJson(scope, 'x', true)).code).toBe('session_expired');
    const page = response(403, "<html><body>You've been blocked by network security.</body></html>", 'https://www.reddit.com/r/x/hot.json', { 'content-type': 'text/html; charset=utf-8' });
    expect(errorOf(() => readJson(page, 'x', false)).code).toBe('blocked');
  });

  it('a bot page with HTTP 200 is blocked; another non-JSON body is a parse error (fallbackable)', () => {
    const bot = response(200, '<html><h1>whoa there, pardner!</h1></html>', 'https://www.reddit.com/r/x/hot.json', { 'content-type': 'text/html' });
    expect(errorOf(() => readJson(bot, 'x', false)).code).toBe('blocked');
    const odd = response(200, '<html>maintenance</html>', 'https://www.reddit.com/r/x/hot.json', { 'content-type': 'text/html' });
    const e = errorOf(() => readJson(odd, 'x', false));
    expect(e.code).toBe('upstream_error');
    expect(e.message).toMatch(/expected JSON/);
  });

  it('404, 429 (with x-ratelimit-reset), 5xx, 400', () => {
    expect(errorOf(() => readJson(response(404, '{"message": "Not Found", "error": 404}'), 'x', true)).code).toBe('not_found');
    const limited = errorOf(() => readJson(response(429, 'Too Many Requests', undefined, { 'content-type': 'text/plain', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '42' }), 'x', true));
    expect(limited).toBeInstanceOf(RateLimited);
    expect((limited as RateLimited).retryAfterS).toBe(42);
    expect((errorOf(() => readJson(response(429, '', undefined, { 'retry-after': '7' }), 'x', true)) as RateLimited).retryAfterS).toBe(7);
    expect(errorOf(() => readJson(response(503, 'down'), 'x', true)).code).toBe('upstream_error');
    expect(errorOf(() => readJson(response(400, '{}'), 'x', true)).code).toBe('invalid_request');
  });

  it('a 200 answer is the parsed body, empty Listings included (the callers call them empty)', () => {
    const empty = fromRecording('error-empty-info-listing.har', 1);
    expect(readJson(empty, 'info', true)).toEqual({ kind: 'Listing', data: { modhash: '', children: [], after: null, before: null } });
  });
});

describe('redirects', () => {
  it('to the subreddit search: the community does not exist', async () => {
    const { ctx } = fakeCtx([status(302, '', { location: 'https://www.reddit.com/subreddits/search.json?q=nosuchsubzz' })]);
    expect((await rejection(exchange(ctx, { method: 'GET', url: 'https://www.reddit.com/r/nosuchsubzz/hot.json' }))).message).toMatch(/no such subreddit/);
  });

  it('to login or the over-18 gate: a login is needed; off reddit: upstream error', async () => {
    for (const [location, code] of [
      ['https://www.reddit.com/login/?dest=x', 'session_expired'],
      ['/over18?dest=https%3A%2F%2Fwww.reddit.com%2Fr%2Fnsfw', 'session_expired'],
      ['https://evil.example/', 'upstream_error'],
    ] as const) {
      const { ctx } = fakeCtx([status(302, '', { location })]);
      expect(((await rejection(exchange(ctx, { method: 'GET', url: 'https://www.reddit.com/r/x/hot.json' }))) as CrawlError).code, location).toBe(code);
    }
  });

  it('other redirects inside reddit are followed for GETs', async () => {
    const { ctx, asked } = fakeCtx([status(301, '', { location: 'https://www.reddit.com/r/Pics/hot.json' }), ok({ kind: 'Listing', data: { children: [] } })]);
    const res = await exchange(ctx, { method: 'GET', url: 'https://www.reddit.com/r/pics/hot.json', query: { raw_json: 1 } });
    expect(res.status).toBe(200);
    expect(asked.map((a) => a.full)).toEqual(['https://www.reddit.com/r/pics/hot.json?raw_json=1', 'https://www.reddit.com/r/Pics/hot.json']);
    expect(asked.every((a) => a.followRedirects === false)).toBe(true);
  });
});

describe('routes: oauth with credentials, the anonymous .json without', () => {
  const listing = { kind: 'Listing', data: { children: [], after: null } };

  it('without credentials: www .json first, oauth.reddit.com without a token as the fallback', async () => {
    const { ctx, asked } = fakeCtx([(_r, url) => { throw new ReplayMiss('GET', url); }, ok(listing)]);
    await read(ctx, { what: 'hot', variants: [{ path: '/r/popular/hot' }], query: { limit: 100, raw_json: 1 } });
    expect(asked.map((a) => a.full)).toEqual(['https://www.reddit.com/r/popular/hot.json?limit=100&raw_json=1', 'https://oauth.reddit.com/r/popular/hot?limit=100&raw_json=1']);
    expect(asked[0].headers?.Authorization).toBeUndefined();
    expect(asked[1].headers?.Authorization).toBeUndefined();
    expect(asked[0].headers?.['User-Agent']).toBe('nodejs:social-crawler:0.1.0 (self-hosted social-crawler)');
  });

  it('with credentials: the token, then oauth with it; www only when oauth fails non-terminally', async () => {
    const { ctx, asked } = fakeCtx([TOKEN, status(503, 'busy'), ok(listing)], { client_id: 'cid', client_secret: 'sec' });
    await read(ctx, { what: 'hot', variants: [{ path: '/r/popular/hot' }] });
    expect(asked.map((a) => `${a.method ?? 'GET'} ${a.full}`)).toEqual([
      'POST https://www.reddit.com/api/v1/access_token',
      'GET https://oauth.reddit.com/r/popular/hot',
      'GET https://www.reddit.com/r/popular/hot.json',
    ]);
    expect(asked[1].headers?.Authorization).toBe('bearer tok-1');
    expect(asked[0].form).toEqual({ grant_type: 'client_credentials' });
  });

  it('a terminal answer ends the chain at once', async () => {
    const { ctx, asked } = fakeCtx([status(404, '{"message": "Not Found", "error": 404}')]);
    expect(((await rejection(read(ctx, { what: 'u/x', variants: [{ path: '/user/x/about' }, { path: '/user/x/about2' }] }))) as CrawlError).code).toBe('not_found');
    expect(asked).toHaveLength(1);
  });

  it('variants in order, each on both hosts; POST forms go as GET query to www', async () => {
    const miss: Answer = (_r, url) => {
      throw new ReplayMiss('GET', url);
    };
    const { ctx, asked } = fakeCtx([miss, miss, ok(listing)]);
    await read(ctx, { what: 's', variants: [{ path: '/r/all/search' }, { path: '/search' }], query: { q: 'a' } });
    expect(asked.map((a) => a.full)).toEqual(['https://www.reddit.com/r/all/search.json?q=a', 'https://oauth.reddit.com/r/all/search?q=a', 'https://www.reddit.com/search.json?q=a']);
    const more = fakeCtx([ok({ json: { errors: [], data: { things: [] } } })], { access_token: 'x' });
    await read(more.ctx, { what: 'm', variants: [{ path: '/api/morechildren' }], query: { raw_json: 1 }, form: { children: 'a,b', link_id: 't3_x' } });
    expect(more.asked[0]).toMatchObject({ method: 'POST', full: 'https://oauth.reddit.com/api/morechildren?raw_json=1', form: { children: 'a,b', link_id: 't3_x' } });
  });

  it('all routes failing: the first real platform answer wins over replay misses, else the first miss', async () => {
    const first = new ReplayMiss('GET', 'https://www.reddit.com/a.json');
    const upstream = new UpstreamError('HTTP 502');
    expect(await rejection(firstAnswer([() => Promise.reject(first), () => Promise.reject(upstream)]))).toBe(upstream);
    expect(await rejection(firstAnswer([() => Promise.reject(first), () => Promise.reject(new ReplayMiss('GET', 'https://oauth.reddit.com/a'))]))).toBe(first);
    expect(await firstAnswer([() => Promise.reject(upstream), () => Promise.resolve(7)])).toBe(7);
  });

  it('"me" needs a user and writes need credentials: without them nothing is sent', async () => {
    for (const creds of [undefined, { client_id: 'cid', client_secret: 'sec' }]) {
      const { ctx, asked } = fakeCtx([], creds);
      expect(((await rejection(read(ctx, { what: 'me', variants: [{ path: '/api/v1/me' }], user: true }))) as CrawlError).code).toBe('session_expired');
      expect(asked).toEqual([]);
    }
    const { ctx, asked } = fakeCtx([]);
    expect(((await rejection(write(ctx, '/api/del', { id: 't3_x' }, 'delete'))) as CrawlError).code).toBe('session_expired');
    expect(asked).toEqual([]);
  });

  it("a write with an app-only token is tried once; reddit's refusal is a missing user login", async () => {
    const { ctx, asked } = fakeCtx([TOKEN, status(403, '{"message": "Forbidden", "error": 403}')], { client_id: 'cid', client_secret: 'sec' });
    const e = (await rejection(write(ctx, '/api/del', { id: 't3_x' }, 'delete'))) as CrawlError;
    expect(e.code).toBe('session_expired');
    expect(e.message).toMatch(/app-only/);
    expect(asked.map((a) => a.form?.grant_type ?? a.full)).toEqual(['client_credentials', 'https://oauth.reddit.com/api/del?raw_json=1']);
  });

  it('a minted token reddit stops accepting is minted again once for a read', async () => {
    const { ctx, asked } = fakeCtx(
      [TOKEN, status(401, '{"message": "Unauthorized", "error": 401}'), ok({ access_token: 'tok-2', expires_in: 3600 }), ok(listing)],
      { client_id: 'cid', client_secret: 'sec' },
    );
    await read(ctx, { what: 'hot', variants: [{ path: '/r/popular/hot' }] });
    expect(asked.map((a) => a.form?.grant_type ?? a.headers?.Authorization)).toEqual(['client_credentials', 'bearer tok-1', 'client_credentials', 'bearer tok-2']);
  });

  it('a stored access_token is never re-minted: 401 is session_expired', async () => {
    const { ctx, asked } = fakeCtx([() => fromRecording('error-invalid-token-401.har', 0)], { access_token: 'stale' });
    expect(((await rejection(read(ctx, { what: 'me', variants: [{ path: '/api/v1/me' }], query: { raw_json: 1 }, user: true }))) as CrawlError).code).toBe('session_expired');
    expect(asked.map((a) => a.full)).toEqual(['https://oauth.reddit.com/api/v1/me?raw_json=1']);
    expect(asked[0].headers?.Authorization).toBe('bearer stale');
  });
});

describe('OAuth tokens', () => {
  it('sends the app as HTTP Basic (RFC 7617 example vector)', async () => {
    const { ctx, asked } = fakeCtx([TOKEN], { client_id: 'Aladdin', client_secret: 'open sesame' });
    await bearer(ctx);
    expect(asked[0].headers?.Authorization).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
    expect(asked[0].url).toBe('https://www.reddit.com/api/v1/access_token');
  });

  it('picks the grant from what the profile stores', async () => {
    const cases: Array<[Record<string, string>, Record<string, string>]> = [
      [{ client_id: 'c', client_secret: 's' }, { grant_type: 'client_credentials' }],
      [{ client_id: 'c', client_secret: 's', refresh_token: 'r' }, { grant_type: 'refresh_token', refresh_token: 'r' }],
      [{ client_id: 'c', client_secret: 's', username: 'u', password: 'p' }, { grant_type: 'password', username: 'u', password: 'p' }],
      [{ client_id: 'c' }, { grant_type: 'https://oauth.reddit.com/grants/installed_client', device_id: 'DO_NOT_TRACK_THIS_DEVICE' }],
    ];
    for (const [creds, form] of cases) {
      const { ctx, asked } = fakeCtx([TOKEN], creds);
      await bearer(ctx);
      expect(asked[0].form).toEqual(form);
    }
    expect(canActAsUser(fakeCtx([], { client_id: 'c', client_secret: 's' }).ctx)).toBe(false);
    expect(canActAsUser(fakeCtx([], { client_id: 'c', refresh_token: 'r' }).ctx)).toBe(true);
    expect(canActAsUser(fakeCtx([], { access_token: 'a' }).ctx)).toBe(true);
    expect(hasCredentials(fakeCtx([], {}).ctx)).toBe(false);
  });

  it('keeps the token in memo until a minute before it expires', async () => {
    const { ctx, asked } = fakeCtx([ok({ access_token: 'tok', expires_in: 86400 })], { client_id: 'c', client_secret: 's' });
    expect((await bearer(ctx))?.token).toBe('tok');
    expect((await bearer(ctx))?.token).toBe('tok');
    expect(asked).toHaveLength(1);
  });

  it('the recorded token answers are accepted', async () => {
    for (const file of ['hot-popular.har', 'user-about-lil_spazbot.har', 'comments-submission-2gmzqe.har']) {
      const { ctx } = fakeCtx([() => fromRecording(file, 0)], { client_id: 'c', client_secret: 's' });
      expect((await bearer(ctx))?.token).toBe('<ACCESS_TOKEN>');
    }
  });

  it('refused credentials are a lapsed session', async () => {
    const grant = fakeCtx([ok({ error: 'invalid_grant' })], { client_id: 'c', refresh_token: 'revoked' });
    expect(((await rejection(bearer(grant.ctx))) as CrawlError).code).toBe('session_expired');
    const app = fakeCtx([status(401, '{"message": "Unauthorized", "error": 401}')], { client_id: 'c', client_secret: 'wrong' });
    expect(((await rejection(bearer(app.ctx))) as CrawlError).message).toMatch(/client_id\/client_secret/);
    const edge = fakeCtx([status(403, '<html>blocked by network security</html>', { 'content-type': 'text/html' })], { client_id: 'c', client_secret: 's' });
    expect(((await rejection(bearer(edge.ctx))) as CrawlError).code).toBe('blocked');
  });

  it('a token answer that is JSON but not an object (null, an array, a number) is a parse error, not a crash', async () => {
    for (const body of ['null', '[]', '0', '"token"']) {
      const { ctx } = fakeCtx([status(200, body)], { client_id: 'c', client_secret: 's' });
      const err = await rejection(bearer(ctx));
      expect(err).toBeInstanceOf(CrawlError);
      expect(err.message).toMatch(/token endpoint answered JSON that is not an object/);
    }
  });
});

describe('rate limits (x-ratelimit-*)', () => {
  it('a nearly spent budget is noted and warned about; a healthy one is not', () => {
    const { ctx, warnings } = fakeCtx([]);
    noteBudget(ctx, fromRecording('hot-popular.har', 1));
    expect(warnings).toEqual([]);
    noteBudget(ctx, response(200, '{}', 'https://oauth.reddit.com/x', { 'x-ratelimit-remaining': '1.0', 'x-ratelimit-reset': '120' }), 1_000_000);
    expect(warnings[0]).toMatch(/x-ratelimit-remaining 1\b.*120 s/);
  });

  it('the next request of the profile waits for a short window and fails rate_limited on a long one', async () => {
    const { ctx, warnings } = fakeCtx([]);
    const now = Date.now();
    noteBudget(ctx, response(200, '{}', 'https://oauth.reddit.com/x', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '300' }), now);
    const e = await rejection(awaitBudget(ctx, 'oauth.reddit.com', now + 1000));
    expect(e).toBeInstanceOf(RateLimited);
    expect((e as RateLimited).retryAfterS).toBe(299);
    // The anonymous host has its own budget.
    await awaitBudget(ctx, 'www.reddit.com', now + 1000);
    noteBudget(ctx, response(200, '{}', 'https://www.reddit.com/x.json', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0.05' }));
    const t0 = Date.now();
    await awaitBudget(ctx, 'www.reddit.com');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(30);
    expect(warnings.at(-1)).toMatch(/waited/);
  });

  it('a read after a spent budget does not reach reddit', async () => {
    const { ctx, asked } = fakeCtx([ok({ kind: 'Listing', data: { children: [] } }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '600' })]);
    await read(ctx, { what: 'a', variants: [{ path: '/r/a/hot' }] });
    expect(((await rejection(read(ctx, { what: 'b', variants: [{ path: '/r/b/hot' }] }))) as CrawlError).code).toBe('rate_limited');
    expect(asked).toHaveLength(1);
  });
});

describe('User-Agent', () => {
  it('descriptive by default, naming the account when known, or the profile\'s own', () => {
    expect(userAgent(fakeCtx([]).ctx)).toBe('nodejs:social-crawler:0.1.0 (self-hosted social-crawler)');
    expect(userAgent(fakeCtx([], { username: 'bob' }).ctx)).toBe('nodejs:social-crawler:0.1.0 (by /u/bob)');
    expect(userAgent(fakeCtx([], { user_agent: 'linux:my.app:1.2 (by /u/alice)' }).ctx)).toBe('linux:my.app:1.2 (by /u/alice)');
  });
});

describe('write outcomes', () => {
  it('reddit refusals map to states or typed errors', () => {
    expect(judge(200, JSON.parse(recorded('write-comment-reply-submission.har', 1).text), 'c')).toBeUndefined();
    expect(judge(200, {}, 'del')).toBeUndefined();
    expect(judge(200, { json: { errors: [['SUBREDDIT_NOEXIST', "that community doesn't exist", 'sr']] } }, 's')).toEqual({ state: 'rejected', message: "SUBREDDIT_NOEXIST: that community doesn't exist (sr)" });
    expect(judge(400, { fields: ['title'], explanation: 'Title too long', error_type: 'SUBMIT_VALIDATION_ERROR', message: 'Bad Request', reason: 'SUBMIT_VALIDATION_TITLE' }, 's')).toEqual({ state: 'rejected', message: 'SUBMIT_VALIDATION_TITLE: Title too long (title)' });
    expect(judge(403, { message: 'Forbidden', error: 403 }, 'd')).toEqual({ state: 'rejected', message: 'reddit refused the request (HTTP 403)' });
    expect(errorOf(() => judge(200, { json: { errors: [['USER_REQUIRED', 'Please log in to do that.', null]] } }, 'c')).code).toBe('session_expired');
    const limited = errorOf(() => judge(200, { json: { errors: [['RATELIMIT', 'Take a break for 9 minutes before trying again.', 'ratelimit']] } }, 'c'));
    expect((limited as RateLimited).retryAfterS).toBe(540);
    expect(errorOf(() => judge(200, { json: { errors: [['BAD_CAPTCHA', 'care to try these again?', 'captcha']] } }, 'c')).code).toBe('blocked');
  });

  it('one POST with the user token, never retried on 401', async () => {
    const { ctx, asked } = fakeCtx([status(401, '{"message": "Unauthorized", "error": 401}')], { access_token: 'x' });
    expect(((await rejection(write(ctx, '/api/comment', { api_type: 'json', thing_id: 't3_a', text: 'hi' }, 'c'))) as CrawlError).code).toBe('session_expired');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', full: 'https://oauth.reddit.com/api/comment?raw_json=1', form: { api_type: 'json', thing_id: 't3_a', text: 'hi' } });
  });
});
