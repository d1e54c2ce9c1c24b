import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Blocked, CrawlError, InvalidInput, NotFound, RateLimited, ReplayMiss, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpResponse } from '../../src/crawl/http.js';
import { APPVIEW, NSID, PUBLIC_APPVIEW, TokenRejected, checkWindow, firstAnswer, interpret, isFallbackable, retryAfterOf, xrpc } from '../../src/platforms/bluesky/api.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { compareParams, compileRules } from '../../src/crawl/replay/match.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { bluesky } from '../../src/platforms/bluesky/index.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bluesky');
const SANDBOX = resolve(process.cwd(), 'sandbox/bluesky');

function response(status: number, body: string, url = 'https://public.api.bsky.app/xrpc/app.bsky.feed.getAuthorFeed', headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.from(body, 'utf8');
  return { status, url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}

/** The recorded exchange as the http client would hand it over. */
function recorded(file: string, i = 0): { res: HttpResponse; nsid: string } {
  const entry = JSON.parse(readFileSync(file, 'utf8')).log.entries[i];
  const headers = Object.fromEntries((entry.response.headers ?? []).map((h: { name: string; value: string }) => [h.name.toLowerCase(), h.value]));
  const nsid = new URL(entry.request.url).pathname.replace('/xrpc/', '');
  return { res: response(entry.response.status, entry.response.content.text ?? '', entry.request.url, headers), nsid };
}

const outcome = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? `${e.constructor.name}:${e.code}` : `not a crawl error: ${String(e)}`;
  }
  return 'ok';
};

describe('every error recording maps to its typed outcome', () => {
  const cases: Array<[string, string, boolean, string]> = [
    [FIXTURES, 'error-expired-token-400.har', true, 'TokenRejected:session_expired'],
    [FIXTURES, 'error-searchposts-forbidden-403.har', false, 'SessionExpired:session_expired'],
    [SANDBOX, 'error-searchposts-anonymous-403.har', false, 'SessionExpired:session_expired'],
    [SANDBOX, 'error-author-feed-edge-403.har', false, 'Blocked:blocked'],
    [SANDBOX, 'error-author-feed-rate-limited-429.har', false, 'RateLimited:rate_limited'],
    [SANDBOX, 'error-post-not-found-400.har', false, 'NotFound:not_found'],
    [SANDBOX, 'error-profile-not-found-400.har', false, 'NotFound:not_found'],
    [SANDBOX, 'error-delete-record-not-found.har', true, 'NotFound:not_found'],
  ];
  it.each(cases)('%s/%s', (dir, file, authed, expected) => {
    const { res, nsid } = recorded(resolve(dir, file));
    expect(outcome(() => interpret(res, { nsid, authed }))).toBe(expected);
  });

  it('covers every error recording there is', () => {
    const named = new Set(cases.map(([, f]) => f));
    const all = [...readdirSync(FIXTURES), ...readdirSync(SANDBOX)].filter((f) => f.startsWith('error-') && f.endsWith('.har'));
    expect(all.filter((f) => !named.has(f))).toEqual([]);
  });

  it('the anonymous search refusal tells the operator what to store', () => {
    const { res, nsid } = recorded(resolve(FIXTURES, 'error-searchposts-forbidden-403.har'));
    expect(() => interpret(res, { nsid, authed: false })).toThrow(/Request forbidden by administrative rules\..*identifier and app_password/);
  });

  it('the same 403 with a session token is a block, not a login matter', () => {
    const { res, nsid } = recorded(resolve(FIXTURES, 'error-searchposts-forbidden-403.har'));
    expect(outcome(() => interpret(res, { nsid, authed: true }))).toBe('Blocked:blocked');
  });

  it('429 carries the seconds until RateLimit-Reset', () => {
    const res = response(429, '{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}', undefined, { 'ratelimit-reset': String(Math.floor(Date.now() / 1000) + 120) });
    try {
      interpret(res, { nsid: NSID.getAuthorFeed, authed: false });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(RateLimited);
      expect((e as RateLimited).retryAfterS).toBeGreaterThanOrEqual(119);
      expect((e as RateLimited).retryAfterS).toBeLessThanOrEqual(121);
    }
  });
});

describe('interpret: other answers', () => {
  const call = { nsid: NSID.getPostThread, authed: false };
  it.each([
    [400, '{"error":"InvalidToken","message":"Token is invalid"}', 'TokenRejected:session_expired'],
    [401, '{"error":"AuthMissing","message":"Authentication Required"}', 'TokenRejected:session_expired'],
    [401, 'Unauthorized', 'TokenRejected:session_expired'],
    [400, '{"error":"RateLimitExceeded"}', 'RateLimited:rate_limited'],
    [400, '{"error":"NotFound","message":"Post not found: at://x"}', 'NotFound:not_found'],
    [400, '{"error":"InvalidRequest","message":"Unable to resolve handle"}', 'NotFound:not_found'],
    [400, '{"error":"AccountTakedown","message":"Account has been taken down"}', 'NotFound:not_found'],
    [400, '{"error":"BlockedActor","message":"Requester has blocked actor"}', 'NotFound:not_found'],
    [400, '{"error":"UnknownFeed","message":"Unknown feed"}', 'NotFound:not_found'],
    [400, '{"error":"InvalidRequest","message":"Error: uri must be a valid at-uri"}', 'InvalidInput:invalid_request'],
    [403, '{"error":"Forbidden","message":"nope"}', 'Blocked:blocked'],
    [404, 'Not Found', 'UpstreamError:upstream_error'],
    [501, '{"error":"MethodNotImplemented","message":"Method Not Implemented"}', 'UpstreamError:upstream_error'],
    [502, '<html>Bad Gateway</html>', 'UpstreamError:upstream_error'],
    [418, '', 'UpstreamError:upstream_error'],
    [200, '<html>not json</html>', 'ParseError:upstream_error'],
  ])('HTTP %i %s', (status, body, expected) => {
    expect(outcome(() => interpret(response(status, body), call))).toBe(expected);
  });

  it('a refused login is session_expired with a hint at the credentials, not a renewable token', () => {
    const res = response(401, '{"error":"AuthenticationRequired","message":"Invalid identifier or password"}', 'https://bsky.social/xrpc/com.atproto.server.createSession');
    let err: unknown;
    try {
      interpret(res, { nsid: NSID.createSession, authed: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SessionExpired);
    expect(err).not.toBeInstanceOf(TokenRejected);
    expect((err as Error).message).toMatch(/identifier and app_password/);
  });

  it('2xx JSON is the answer', () => {
    expect(interpret(response(200, '{"did":"did:plc:x"}'), call)).toEqual({ did: 'did:plc:x' });
  });

  it('retryAfterOf: RateLimit-Reset (unix seconds) before Retry-After (delay)', () => {
    expect(retryAfterOf({ 'ratelimit-reset': '1000' }, 990_000)).toBe(10);
    expect(retryAfterOf({ 'ratelimit-reset': '1000' }, 2_000_000)).toBe(0);
    expect(retryAfterOf({ 'retry-after': '30' })).toBe(30);
    expect(retryAfterOf({})).toBeUndefined();
  });
});

describe('firstAnswer', () => {
  const miss = (n: number) => new ReplayMiss('GET', `https://h${n}/`);
  it('moves on after misses and upstream errors, stops at terminal errors', async () => {
    expect(await firstAnswer([async () => { throw miss(1); }, async () => { throw new UpstreamError('5xx'); }, async () => 'third'])).toBe('third');
    await expect(firstAnswer([async () => { throw new NotFound('gone'); }, async () => 'never'])).rejects.toBeInstanceOf(NotFound);
    await expect(firstAnswer([async () => { throw new Blocked(); }, async () => 'never'])).rejects.toBeInstanceOf(Blocked);
    await expect(firstAnswer([async () => { throw new InvalidInput('bad'); }, async () => 'never'])).rejects.toBeInstanceOf(InvalidInput);
  });

  it('reports the first miss when every attempt missed, else the first real failure', async () => {
    await expect(firstAnswer([async () => { throw miss(1); }, async () => { throw miss(2); }])).rejects.toThrow('https://h1/');
    await expect(firstAnswer([async () => { throw miss(1); }, async () => { throw new UpstreamError('boom'); }])).rejects.toThrow('boom');
  });

  it('isFallbackable', () => {
    expect(isFallbackable(miss(1))).toBe(true);
    expect(isFallbackable(new UpstreamError('x'))).toBe(true);
    expect(isFallbackable(new SessionExpired())).toBe(false);
    expect(isFallbackable(new Error('bug'))).toBe(false);
  });
});

describe('replay rules', () => {
  const rules = compileRules(bluesky.replay);
  const params = (o: Record<string, string>) => new Map(Object.entries(o));

  it('the feed URI, the record key and a reply\'s thread identify; password and createdAt are ignored', () => {
    expect(typeof compareParams(params({ feed: 'at://a', limit: '30' }), params({ feed: 'at://b', limit: '30' }), rules)).toBe('string');
    expect(typeof compareParams(params({ repo: 'd', rkey: 'a' }), params({ repo: 'd', rkey: 'b' }), rules)).toBe('string');
    expect(typeof compareParams(params({ collection: 'c', 'record.reply.parent.uri': 'at://a' }), params({ collection: 'c', 'record.reply.parent.uri': 'at://b' }), rules)).toBe('string');
    expect(typeof compareParams(params({ identifier: 'me', password: 'real' }), params({ identifier: 'me', password: 'xxxx' }), rules)).toBe('number');
  });

  it('detail and comments each pick their own recording of the same thread', () => {
    const recs = loadRecordings([resolve(SANDBOX, 'detail-post-thread-bsky.app-3lbaafjknk22b.har'), resolve(SANDBOX, 'comments-post-thread-bsky.app-3lbaafjknk22b.har')]);
    const uri = recs[0].params.get('uri')!;
    const score = (depth: string) => recs.map((r) => compareParams(params({ uri, depth, parentHeight: '0' }), r.params, rules) as number);
    const [d0, c0] = score('0');
    const [d10, c10] = score('10');
    expect(d0).toBeGreaterThan(c0);
    expect(c10).toBeGreaterThan(d10);
  });

  it('a page of a feed never answers for another page', () => {
    expect(typeof compareParams(params({ actor: 'bsky.app', limit: '30' }), params({ actor: 'bsky.app', limit: '30', cursor: 'x' }), rules)).toBe('string');
  });
});

describe('rate-limit windows (RateLimit-Remaining / -Reset), kept in the account\'s persisted state', () => {
  function ctxAnswering(answers: HttpResponse[]) {
    const asked: string[] = [];
    const guest = Object.assign(new MemoryMemo(), { userAgent: 'test-agent' });
    const ctx = {
      profile: 'default',
      guest,
      http: {
        request: async (req: { url: string }) => {
          asked.push(req.url);
          return answers.shift()!;
        },
      },
    } as unknown as CrawlContext;
    return { ctx, asked, guest };
  }
  const inSeconds = (s: number) => String(Math.floor(Date.now() / 1000) + s);

  it('an answer that spends the window stands; the next call to that host is refused before it goes out, another host is not', async () => {
    const { ctx, asked } = ctxAnswering([
      response(200, '{"feed":[]}', undefined, { 'ratelimit-remaining': '0', 'ratelimit-reset': inSeconds(120) }),
      response(200, '{"feed":[]}', `${APPVIEW}/xrpc/app.bsky.feed.getAuthorFeed`),
    ]);
    expect(await xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.getAuthorFeed })).toEqual({ feed: [] });
    const refused = await xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.getProfile }).catch((e) => e);
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).retryAfterS).toBeGreaterThanOrEqual(118);
    expect((refused as RateLimited).message).toMatch(/public\.api\.bsky\.app: bluesky's rate-limit window for profile "default" is spent; it resets at /);
    expect(asked).toHaveLength(1);
    await xrpc(ctx, { origin: APPVIEW, nsid: NSID.getAuthorFeed });
    expect(asked).toHaveLength(2);
    // Once the reset passes, the host is asked again.
    expect(() => checkWindow(ctx, PUBLIC_APPVIEW, NSID.getProfile, Date.now() + 121_000)).not.toThrow();
  });

  it('a 429 keeps the window too; a reset already past (the sandbox recording\'s) or none keeps nothing', async () => {
    const { res } = recorded(resolve(SANDBOX, 'error-author-feed-rate-limited-429.har'));
    const { ctx, asked } = ctxAnswering([
      res,
      response(200, '{"feed":[]}', undefined, { 'ratelimit-remaining': '0' }),
      response(429, '{"error":"RateLimitExceeded"}', undefined, { 'ratelimit-reset': inSeconds(60) }),
    ]);
    await expect(xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.getAuthorFeed })).rejects.toBeInstanceOf(RateLimited);
    await xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.getAuthorFeed });
    await expect(xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.getAuthorFeed })).rejects.toBeInstanceOf(RateLimited);
    expect(asked).toHaveLength(3);
    await expect(xrpc(ctx, { origin: PUBLIC_APPVIEW, nsid: NSID.getAuthorFeed })).rejects.toThrow(/window .* is spent/);
    expect(asked).toHaveLength(3);
  });
});
