import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { bluesky } from '../../src/platforms/bluesky/index.js';
import { probeLogin as blueskyProbe } from '../../src/platforms/bluesky/probe.js';
import { mastodon } from '../../src/platforms/mastodon/index.js';
import { probeLogin as mastodonProbe } from '../../src/platforms/mastodon/probe.js';
import { reddit } from '../../src/platforms/reddit/index.js';
import { probeLogin as redditProbe } from '../../src/platforms/reddit/probe.js';
import type { PlatformAdapter } from '../../src/platforms/types.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';

interface Answer {
  method?: 'GET' | 'POST';
  url: string;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Defaults to application/json; a string body is sent as is. */
  type?: string;
}

/** Hand-made answers in the documented shapes (test-only recordings), and a log of the requests the probe made. */
function ctxFor(adapter: PlatformAdapter, credentials: Record<string, string> | undefined, answers: Answer[]) {
  const dir = mkdtempSync(join(tmpdir(), 'probe-social-'));
  const file = join(dir, 'probe.har');
  const entries = answers.map((a) => {
    const type = a.type ?? 'application/json';
    const headers = [{ name: 'content-type', value: type }, ...Object.entries(a.headers ?? {}).map(([name, value]) => ({ name, value }))];
    const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    return {
      comment: 'hand-made test recording',
      request: { method: a.method ?? 'GET', url: a.url, headers: [] },
      response: { status: a.status, statusText: '', headers, content: { mimeType: type, text } },
    };
  });
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries } }));
  const requests: string[] = [];
  const ctx = makeContext({
    adapter,
    profile: 'default',
    credentials,
    memo: new MemoryMemo(),
    dispatcher: new ReplayDispatcher({ recordings: loadRecordings([file]), rulesFor: () => adapter.replay }),
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings: [],
    onRequest: (method, url) => requests.push(`${method} ${url.host}${url.pathname}`),
  });
  return { ctx, requests };
}

describe('reddit login probe', () => {
  const ME = 'https://oauth.reddit.com/api/v1/me';
  const TOKEN = 'https://www.reddit.com/api/v1/access_token';
  const me = { name: 'probe_user', id: 'abc12', created_utc: 1_500_000_000, link_karma: 1, comment_karma: 2 };

  it('a stored access token that /api/v1/me accepts is ok', async () => {
    const { ctx, requests } = ctxFor(reddit, { access_token: 'tok' }, [{ url: ME, status: 200, body: me }]);
    expect(await redditProbe(ctx)).toBe('ok');
    expect(requests).toEqual(['GET oauth.reddit.com/api/v1/me']);
  });

  it('mints a user token from a refresh_token grant, then asks /api/v1/me', async () => {
    const { ctx, requests } = ctxFor(reddit, { client_id: 'cid', client_secret: 'sec', refresh_token: 'rt' }, [
      { method: 'POST', url: TOKEN, status: 200, body: { access_token: 'minted', token_type: 'bearer', expires_in: 86400, scope: 'identity read' } },
      { url: ME, status: 200, body: me },
    ]);
    expect(await redditProbe(ctx)).toBe('ok');
    expect(requests).toEqual(['POST www.reddit.com/api/v1/access_token', 'GET oauth.reddit.com/api/v1/me']);
  });

  it('a 401 invalid_token on /api/v1/me is session_expired', async () => {
    const { ctx } = ctxFor(reddit, { access_token: 'stale' }, [
      { url: ME, status: 401, body: { message: 'Unauthorized', error: 401 }, headers: { 'www-authenticate': 'Bearer realm="reddit", error="invalid_token"' } },
    ]);
    expect(await redditProbe(ctx)).toBe('session_expired');
  });

  it('a refused grant (invalid_grant) is session_expired', async () => {
    const { ctx, requests } = ctxFor(reddit, { client_id: 'cid', client_secret: 'sec', refresh_token: 'revoked' }, [
      { method: 'POST', url: TOKEN, status: 200, body: { error: 'invalid_grant' } },
    ]);
    expect(await redditProbe(ctx)).toBe('session_expired');
    expect(requests).toEqual(['POST www.reddit.com/api/v1/access_token']);
  });

  it('app-only credentials are ok once reddit grants their token (no account to ask about)', async () => {
    const { ctx, requests } = ctxFor(reddit, { client_id: 'cid', client_secret: 'sec' }, [
      { method: 'POST', url: TOKEN, status: 200, body: { access_token: 'app', token_type: 'bearer', expires_in: 86400, scope: '*' } },
    ]);
    expect(await redditProbe(ctx)).toBe('ok');
    expect(requests).toEqual(['POST www.reddit.com/api/v1/access_token']);
  });

  it('no credentials: session_expired without a request', async () => {
    for (const creds of [undefined, {}, { user_agent: 'x' }] as Array<Record<string, string> | undefined>) {
      const { ctx, requests } = ctxFor(reddit, creds, []);
      expect(await redditProbe(ctx)).toBe('session_expired');
      expect(requests).toEqual([]);
    }
  });

  it('429 is rate_limited, the edge block page is blocked', async () => {
    const limited = ctxFor(reddit, { access_token: 'tok' }, [
      { url: ME, status: 429, body: { message: 'Too Many Requests', error: 429 }, headers: { 'x-ratelimit-reset': '42' } },
    ]);
    await expect(redditProbe(limited.ctx)).rejects.toMatchObject({ code: 'rate_limited', retryAfterS: 42 });
    const blocked = ctxFor(reddit, { access_token: 'tok' }, [
      { url: ME, status: 403, type: 'text/html', body: '<html><body>You\'ve been blocked by network security.</body></html>' },
    ]);
    await expect(redditProbe(blocked.ctx)).rejects.toMatchObject({ code: 'blocked' });
    const down = ctxFor(reddit, { access_token: 'tok' }, [{ url: ME, status: 503, type: 'text/plain', body: 'upstream connect error' }]);
    await expect(redditProbe(down.ctx)).rejects.toMatchObject({ code: 'upstream_error' });
  });
});

describe('bluesky login probe', () => {
  const CREATE = 'https://bsky.social/xrpc/com.atproto.server.createSession';
  const GET = 'https://bsky.social/xrpc/com.atproto.server.getSession';
  const creds = { identifier: 'probe.bsky.social', app_password: 'abcd-efgh-ijkl-mnop' };
  const session = { did: 'did:plc:probe', handle: 'probe.bsky.social', accessJwt: 'access', refreshJwt: 'refresh', active: true };

  it('opens a session and getSession names the account: ok', async () => {
    const { ctx, requests } = ctxFor(bluesky, creds, [
      { method: 'POST', url: CREATE, status: 200, body: session },
      { url: GET, status: 200, body: { did: 'did:plc:probe', handle: 'probe.bsky.social', active: true } },
    ]);
    expect(await blueskyProbe(ctx)).toBe('ok');
    expect(requests).toEqual(['POST bsky.social/xrpc/com.atproto.server.createSession', 'GET bsky.social/xrpc/com.atproto.server.getSession']);
  });

  it('goes to the PDS the profile names', async () => {
    const { ctx, requests } = ctxFor(bluesky, { ...creds, service: 'https://pds.example.com/' }, [
      { method: 'POST', url: 'https://pds.example.com/xrpc/com.atproto.server.createSession', status: 200, body: session },
      { url: 'https://pds.example.com/xrpc/com.atproto.server.getSession', status: 200, body: { did: 'did:plc:probe', handle: 'probe.bsky.social' } },
    ]);
    expect(await blueskyProbe(ctx)).toBe('ok');
    expect(requests.every((r) => r.startsWith('POST pds.example.com/') || r.startsWith('GET pds.example.com/'))).toBe(true);
  });

  it('a refused app password is session_expired', async () => {
    const { ctx, requests } = ctxFor(bluesky, creds, [
      { method: 'POST', url: CREATE, status: 401, body: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' } },
    ]);
    expect(await blueskyProbe(ctx)).toBe('session_expired');
    expect(requests).toEqual(['POST bsky.social/xrpc/com.atproto.server.createSession']);
  });

  it('a deactivated account is session_expired', async () => {
    const { ctx } = ctxFor(bluesky, creds, [
      { method: 'POST', url: CREATE, status: 200, body: { ...session, active: false, status: 'deactivated' } },
      { url: GET, status: 200, body: { did: 'did:plc:probe', handle: 'probe.bsky.social', active: false, status: 'deactivated' } },
    ]);
    expect(await blueskyProbe(ctx)).toBe('session_expired');
  });

  it('no credentials (or half of them): session_expired without a request', async () => {
    for (const c of [undefined, {}, { identifier: 'probe.bsky.social' }, { app_password: 'x' }] as Array<Record<string, string> | undefined>) {
      const { ctx, requests } = ctxFor(bluesky, c, []);
      expect(await blueskyProbe(ctx)).toBe('session_expired');
      expect(requests).toEqual([]);
    }
  });

  it('RateLimitExceeded is rate_limited, a bare 403 from the edge is blocked', async () => {
    const limited = ctxFor(bluesky, creds, [
      { method: 'POST', url: CREATE, status: 429, body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }, headers: { 'retry-after': '30' } },
    ]);
    await expect(blueskyProbe(limited.ctx)).rejects.toMatchObject({ code: 'rate_limited', retryAfterS: 30 });
    const blocked = ctxFor(bluesky, creds, [
      { method: 'POST', url: CREATE, status: 403, type: 'text/html', body: '<html><body><h1>403 Forbidden</h1>Request forbidden by administrative rules.</body></html>' },
    ]);
    await expect(blueskyProbe(blocked.ctx)).rejects.toMatchObject({ code: 'blocked' });
  });
});

describe('mastodon login probe', () => {
  const VERIFY = 'https://fosstodon.org/api/v1/accounts/verify_credentials';
  const account = { id: '109000000000000001', username: 'probe', acct: 'probe', display_name: 'Probe', source: { privacy: 'public' } };
  const creds = { access_token: 'tok', instance: 'fosstodon.org' };

  it('verify_credentials on the profile instance names the account: ok', async () => {
    const { ctx, requests } = ctxFor(mastodon, creds, [{ url: VERIFY, status: 200, body: account }]);
    expect(await mastodonProbe(ctx)).toBe('ok');
    expect(requests).toEqual(['GET fosstodon.org/api/v1/accounts/verify_credentials']);
  });

  it('a token without an instance belongs to mastodon.social', async () => {
    const { ctx, requests } = ctxFor(mastodon, { access_token: 'tok' }, [
      { url: 'https://mastodon.social/api/v1/accounts/verify_credentials', status: 200, body: account },
    ]);
    expect(await mastodonProbe(ctx)).toBe('ok');
    expect(requests).toEqual(['GET mastodon.social/api/v1/accounts/verify_credentials']);
  });

  it('401 "The access token is invalid" is session_expired', async () => {
    const { ctx } = ctxFor(mastodon, creds, [{ url: VERIFY, status: 401, body: { error: 'The access token is invalid' } }]);
    expect(await mastodonProbe(ctx)).toBe('session_expired');
  });

  it('403 "Your login is currently disabled" is session_expired', async () => {
    const { ctx } = ctxFor(mastodon, creds, [{ url: VERIFY, status: 403, body: { error: 'Your login is currently disabled' } }]);
    expect(await mastodonProbe(ctx)).toBe('session_expired');
  });

  it('no token: session_expired without a request', async () => {
    for (const c of [undefined, {}, { instance: 'fosstodon.org' }, { access_token: '  ' }] as Array<Record<string, string> | undefined>) {
      const { ctx, requests } = ctxFor(mastodon, c, []);
      expect(await mastodonProbe(ctx)).toBe('session_expired');
      expect(requests).toEqual([]);
    }
  });

  it('429 is rate_limited, a bot-check page is blocked, 404 is upstream_error', async () => {
    const limited = ctxFor(mastodon, creds, [
      { url: VERIFY, status: 429, body: { error: 'Too many requests' }, headers: { 'retry-after': '12' } },
    ]);
    await expect(mastodonProbe(limited.ctx)).rejects.toMatchObject({ code: 'rate_limited', retryAfterS: 12 });
    const blocked = ctxFor(mastodon, creds, [
      { url: VERIFY, status: 403, type: 'text/html', body: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>cf-chl</body></html>' },
    ]);
    await expect(mastodonProbe(blocked.ctx)).rejects.toMatchObject({ code: 'blocked' });
    const missing = ctxFor(mastodon, creds, [{ url: VERIFY, status: 404, body: { error: 'Record not found' } }]);
    await expect(mastodonProbe(missing.ctx)).rejects.toMatchObject({ code: 'upstream_error' });
  });
});

describe('adapters expose the probes', () => {
  it('reddit, bluesky and mastodon', () => {
    expect(reddit.probe).toBe(redditProbe);
    expect(bluesky.probe).toBe(blueskyProbe);
    expect(mastodon.probe).toBe(mastodonProbe);
  });
});
