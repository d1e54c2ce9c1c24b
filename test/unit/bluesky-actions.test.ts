import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { InvalidInput, NotFound, ReplayMiss, SessionExpired } from '../../src/crawl/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import { buildUrl } from '../../src/crawl/http.js';
import { credentialsOf, getSession, jwtExpiry, requireCredentials } from '../../src/platforms/bluesky/auth.js';
import { pageSize } from '../../src/platforms/bluesky/feeds.js';
import { withActor } from '../../src/platforms/bluesky/identity.js';
import { bluesky } from '../../src/platforms/bluesky/index.js';
import { checkText, graphemeCount } from '../../src/platforms/bluesky/writes.js';
import type { CommentsAction, CrawlContext, CreatorAction, ItemsAction, WriteAction } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

/*
 * Actions driven directly with a scripted http, for flows no recording shows: session reuse, refresh,
 * re-login, renewal after a refused token, fallbacks and refusals.
 */

const SANDBOX = resolve(process.cwd(), 'sandbox/bluesky');
const recorded = (file: string, i = 0): string => JSON.parse(readFileSync(resolve(SANDBOX, file), 'utf8')).log.entries[i].response.content.text;

type Answer = { status?: number; body: string } | Error;
type Route = [RegExp, (req: HttpRequest, url: URL) => Answer];

const LOGIN = { identifier: 'crawler-demo.bsky.social', app_password: 'xxxx-xxxx-xxxx-xxxx' };

function ctxWith(routes: Route[], credentials: Record<string, string> | null = LOGIN, memo = new MemoryMemo()) {
  const asked: Array<{ method: string; url: string; auth?: string; json?: unknown }> = [];
  const warnings: string[] = [];
  const http = {
    request: async (req: HttpRequest): Promise<HttpResponse> => {
      const url = buildUrl(req.url, req.query);
      asked.push({ method: req.method ?? 'GET', url: url.toString(), auth: req.headers?.Authorization, json: req.json });
      const route = routes.find(([re]) => re.test(`${req.method ?? 'GET'} ${url.toString()}`));
      if (!route) throw new ReplayMiss(req.method ?? 'GET', url.toString());
      const answer = route[1](req, url);
      if (answer instanceof Error) throw answer;
      const body = Buffer.from(answer.body, 'utf8');
      return { status: answer.status ?? 200, url: url.toString(), redirects: [], headers: {}, body, text: () => answer.body, json: () => JSON.parse(answer.body) };
    },
  };
  const ctx = {
    platform: 'bluesky',
    profile: 'default',
    http,
    session: { credentials: credentials ?? undefined },
    memo,
    guest: Object.assign(new MemoryMemo(), { userAgent: 'test-agent' }),
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warn: (m: string) => warnings.push(m),
  } as unknown as CrawlContext;
  return { ctx, asked, warnings, memo };
}

const jwt = (exp: number, scope = 'com.atproto.appPass') =>
  [{ typ: 'at+jwt', alg: 'ES256K' }, { scope, sub: 'did:plc:sbxcrawlerdemo2222aaaaaa', exp }].map((p) => Buffer.from(JSON.stringify(p)).toString('base64url')).concat('sig').join('.');
const nowS = () => Math.floor(Date.now() / 1000);
const sessionBody = (accessExp: number, refreshExp = nowS() + 86_400, tag = 'a') =>
  JSON.stringify({ did: 'did:plc:sbxcrawlerdemo2222aaaaaa', handle: 'crawler-demo.bsky.social', accessJwt: `${jwt(accessExp)}${tag}`, refreshJwt: `${jwt(refreshExp, 'com.atproto.refresh')}${tag}` });
const EXPIRED = JSON.stringify({ error: 'ExpiredToken', message: 'Token has expired' });

const search = bluesky.actions.search as ItemsAction;
const posts = bluesky.actions.posts as ItemsAction;
const user = bluesky.actions.user as CreatorAction;
const comments = bluesky.actions.comments as CommentsAction;
const postCreate = bluesky.actions['post.create'] as WriteAction;
const commentCreate = bluesky.actions['comment.create'] as WriteAction;
const searchPage1 = recorded('search-posts-bluesky-logged-in.har', 0);

describe('sessions', () => {
  it('logs in once and reuses the session across pages and tasks of the process', async () => {
    const { ctx, asked } = ctxWith([
      [/createSession/, () => ({ body: sessionBody(nowS() + 7200) })],
      [/searchPosts/, () => ({ body: searchPage1 })],
    ]);
    await search.page(ctx, { query: 'bluesky', limit: 25 });
    await search.page(ctx, { query: 'bluesky', limit: 25 }, '25');
    expect(asked.map((a) => a.url.split('?')[0].split('/').pop())).toEqual(['com.atproto.server.createSession', 'app.bsky.feed.searchPosts', 'app.bsky.feed.searchPosts']);
    expect(asked[0].json).toEqual({ identifier: 'crawler-demo.bsky.social', password: 'xxxx-xxxx-xxxx-xxxx' });
    expect(asked[1].auth).toMatch(/^Bearer ey/);
    expect(asked[2].url).toContain('cursor=25');
  });

  it('refreshes a lapsing access token with the refresh token instead of logging in again', async () => {
    let logins = 0;
    const { ctx, asked } = ctxWith([
      [/createSession/, () => (logins++, { body: sessionBody(nowS() + 30) })],
      [/refreshSession/, () => ({ body: sessionBody(nowS() + 7200, nowS() + 86_400, 'b') })],
      [/searchPosts/, () => ({ body: searchPage1 })],
    ]);
    await search.page(ctx, { query: 'bluesky' });
    await search.page(ctx, { query: 'bluesky' });
    expect(logins).toBe(1);
    const refresh = asked.find((a) => a.url.includes('refreshSession'))!;
    expect(refresh.method).toBe('POST');
    expect(refresh.auth).toMatch(/a$/);
    expect(asked.at(-1)!.auth).toMatch(/b$/);
  });

  it('logs in afresh when the refresh token is refused', async () => {
    let logins = 0;
    const { ctx } = ctxWith([
      [/createSession/, () => (logins++, { body: sessionBody(nowS() + 30) })],
      [/refreshSession/, () => ({ status: 400, body: JSON.stringify({ error: 'ExpiredToken', message: 'Token has been revoked' }) })],
      [/searchPosts/, () => ({ body: searchPage1 })],
    ]);
    await search.page(ctx, { query: 'bluesky' });
    await search.page(ctx, { query: 'bluesky' });
    expect(logins).toBe(2);
  });

  it('a read whose token is refused early renews the session and asks once more', async () => {
    let n = 0;
    const { ctx, asked } = ctxWith([
      [/createSession/, () => ({ body: sessionBody(nowS() + 7200) })],
      [/refreshSession/, () => ({ body: sessionBody(nowS() + 7200, nowS() + 86_400, 'b') })],
      [/searchPosts/, () => (n++ === 0 ? { status: 400, body: EXPIRED } : { body: searchPage1 })],
    ]);
    const page = await search.page(ctx, { query: 'bluesky' });
    expect(page.items).toHaveLength(3);
    expect(asked.map((a) => a.url.split('?')[0].split('/').pop())).toEqual([
      'com.atproto.server.createSession',
      'app.bsky.feed.searchPosts',
      'com.atproto.server.refreshSession',
      'app.bsky.feed.searchPosts',
    ]);
  });

  it('a read refused twice is session_expired, and the cached session is dropped', async () => {
    const { ctx, asked } = ctxWith([
      [/createSession/, () => ({ body: sessionBody(nowS() + 7200) })],
      [/refreshSession/, () => ({ body: sessionBody(nowS() + 7200) })],
      [/searchPosts/, () => ({ status: 400, body: EXPIRED })],
    ]);
    await expect(search.page(ctx, { query: 'bluesky' })).rejects.toThrow(/ExpiredToken.*also after renewing/);
    await expect(search.page(ctx, { query: 'bluesky' })).rejects.toBeInstanceOf(SessionExpired);
    expect(asked.filter((a) => a.url.includes('createSession'))).toHaveLength(2);
  });

  it('a write whose token is refused is not retried; the next write renews first', async () => {
    const created = recorded('write-post-create.har');
    let n = 0;
    const { ctx, asked } = ctxWith([
      [/createSession/, () => ({ body: sessionBody(nowS() + 7200) })],
      [/refreshSession/, () => ({ body: sessionBody(nowS() + 7200, nowS() + 86_400, 'b') })],
      [/createRecord/, () => (n++ === 0 ? { status: 400, body: EXPIRED } : { body: created })],
    ]);
    await expect(postCreate.run(ctx, { text: 'hi' })).rejects.toThrow(/nothing was written/);
    expect(asked.filter((a) => a.url.includes('createRecord'))).toHaveLength(1);
    const out = await postCreate.run(ctx, { text: 'hi' });
    expect(out).toMatchObject({ state: 'published', url: 'https://bsky.app/profile/crawler-demo.bsky.social/post/3lbgynmqc222b' });
    expect(asked.map((a) => a.url.split('?')[0].split('/').pop())).toEqual([
      'com.atproto.server.createSession',
      'com.atproto.repo.createRecord',
      'com.atproto.server.refreshSession',
      'com.atproto.repo.createRecord',
    ]);
    const record = (asked[3].json as { repo: string; collection: string; record: Record<string, unknown> });
    expect(record).toMatchObject({ repo: 'did:plc:sbxcrawlerdemo2222aaaaaa', collection: 'app.bsky.feed.post', record: { $type: 'app.bsky.feed.post', text: 'hi' } });
    expect(Date.parse(record.record.createdAt as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a refused login is session_expired naming the credentials', async () => {
    const { ctx } = ctxWith([[/createSession/, () => ({ status: 401, body: '{"error":"AuthenticationRequired","message":"Invalid identifier or password"}' })]]);
    await expect(getSession(ctx, 'search')).rejects.toThrow(/identifier and app_password/);
  });

  it('a profile on another PDS logs in there', async () => {
    const { ctx, asked } = ctxWith([[/createSession/, () => ({ body: sessionBody(nowS() + 7200) })]], { ...LOGIN, service: 'https://pds.example.com/' });
    await getSession(ctx, 'search');
    expect(asked[0].url).toBe('https://pds.example.com/xrpc/com.atproto.server.createSession');
  });
});

describe('credentials', () => {
  const ctx = (credentials?: Record<string, string>) => ctxWith([], credentials ?? null).ctx;
  it('identifier + app_password, with aliases handle / password, optional https service', () => {
    expect(credentialsOf(ctx(LOGIN))).toEqual({ identifier: 'crawler-demo.bsky.social', password: 'xxxx-xxxx-xxxx-xxxx', service: 'https://bsky.social' });
    expect(credentialsOf(ctx({ handle: '@me.test', password: 'p' }))).toEqual({ identifier: 'me.test', password: 'p', service: 'https://bsky.social' });
    expect(credentialsOf(ctx({ identifier: 'me.test' }))).toBeUndefined();
    expect(credentialsOf(ctx(undefined))).toBeUndefined();
    expect(() => credentialsOf(ctx({ ...LOGIN, service: 'http://insecure.test' }))).toThrow(SessionExpired);
  });

  it('without them, what needs a login says how to get one', () => {
    expect(() => requireCredentials(ctx(undefined), 'search')).toThrow(/search needs a logged-in bluesky profile.*app password/);
  });

  it('jwtExpiry reads the exp claim', () => {
    expect(jwtExpiry(jwt(1_700_000_000))).toBe(1_700_000_000_000);
    expect(jwtExpiry('not.a-jwt')).toBeUndefined();
    expect(jwtExpiry('opaque')).toBeUndefined();
  });
});

describe('anonymous search', () => {
  it('asks the public AppView without a cursor first; a 403 is session_expired', async () => {
    const { ctx, asked } = ctxWith(
      [[/searchPosts/, () => ({ status: 403, body: '403 Forbidden\nRequest forbidden by administrative rules.' })]],
      null,
    );
    await expect(search.page(ctx, { query: 'cats', limit: 10 })).rejects.toBeInstanceOf(SessionExpired);
    expect(asked.map((a) => a.url)).toEqual(['https://public.api.bsky.app/xrpc/app.bsky.feed.searchPosts?q=cats&limit=10']);
  });

  it('if the public AppView answers after all, the results are used', async () => {
    const { ctx } = ctxWith([[/searchPosts/, () => ({ body: searchPage1 })]], null);
    expect((await search.page(ctx, { query: 'bluesky' })).items).toHaveLength(3);
  });
});

describe('actors', () => {
  const feed = recorded('posts-author-feed-bsky.app.har');
  it('a handle is asked as is; the AppView takes handles', async () => {
    const { ctx, asked } = ctxWith([[/getAuthorFeed\?actor=bsky\.app/, () => ({ body: feed })]], null);
    expect((await posts.page(ctx, { query: 'bsky.app', limit: 30 })).items).toHaveLength(4);
    expect(asked).toHaveLength(1);
  });

  it('when the handle form cannot be answered, the handle is resolved once and the DID asked', async () => {
    const did = 'did:plc:z72i7hdynmk6r22z27h6tvur';
    const { ctx, asked } = ctxWith(
      [
        [/resolveHandle/, () => ({ body: JSON.stringify({ did }) })],
        [/getAuthorFeed\?actor=did/, () => ({ body: feed })],
      ],
      null,
    );
    await posts.page(ctx, { query: '@bsky.app' });
    await posts.page(ctx, { query: '@bsky.app' }, '2024-11-10T15:00:00.000Z');
    expect(asked.filter((a) => a.url.includes('resolveHandle'))).toHaveLength(1);
    expect(asked.at(-1)!.url).toContain(`actor=${encodeURIComponent(did)}`);
  });

  it('a handle that does not resolve is not_found; an unresolvable lookup reports the first miss', async () => {
    const nobody = ctxWith([[/resolveHandle/, () => ({ status: 400, body: '{"error":"InvalidRequest","message":"Unable to resolve handle"}' })]], null);
    await expect(withActor(nobody.ctx, { handle: 'nobody.test' }, async () => { throw new ReplayMiss('GET', 'https://first/'); })).rejects.toBeInstanceOf(NotFound);
    const unknown = ctxWith([], null);
    await expect(withActor(unknown.ctx, { handle: 'x.test' }, async () => { throw new ReplayMiss('GET', 'https://first/'); })).rejects.toThrow('https://first/');
  });

  it('user falls back to getFollows when getProfile fails upstream, warning that counts are missing', async () => {
    const follows = JSON.stringify({ subject: { did: 'did:plc:x', handle: 'x.test', displayName: 'X' }, follows: [] });
    const { ctx, warnings } = ctxWith(
      [
        [/getProfile/, () => ({ status: 502, body: 'Bad Gateway' })],
        [/resolveHandle/, () => ({ status: 502, body: 'Bad Gateway' })],
        [/getFollows/, () => ({ body: follows })],
      ],
      null,
    );
    expect(await user.run(ctx, { query: 'x.test' })).toEqual({ id: 'did:plc:x', source: 'bluesky', handle: 'x.test', name: 'X', url: 'https://bsky.app/profile/x.test' });
    expect(warnings[0]).toMatch(/counts were not reported/);
  });
});

describe('trending', () => {
  const trending = bluesky.actions.trending as unknown as { run: (ctx: CrawlContext, p: Record<string, unknown>) => Promise<Array<Record<string, unknown>>> };
  it('getTrends answers when getTrendingTopics is not answered, with postCount as hot_value', async () => {
    const trends = { trends: [{ topic: 'eclipse', displayName: 'Solar Eclipse', link: '/profile/trending.bsky.app/feed/1', postCount: 4200, status: 'hot' }, { topic: 'nba', link: '/profile/trending.bsky.app/feed/2' }] };
    const { ctx, asked } = ctxWith([[/getTrends\?/, () => ({ body: JSON.stringify(trends) })]], null);
    expect(await trending.run(ctx, {})).toEqual([
      { word: 'Solar Eclipse', source: 'bluesky', rank: 1, hot_value: 4200, url: 'https://bsky.app/profile/trending.bsky.app/feed/1' },
      { word: 'nba', source: 'bluesky', rank: 2, url: 'https://bsky.app/profile/trending.bsky.app/feed/2' },
    ]);
    expect(asked[0].url).toMatch(/getTrendingTopics/);
  });

  it('both missing: the getTrendingTopics miss is what is reported', async () => {
    const { ctx } = ctxWith([], null);
    await expect(trending.run(ctx, {})).rejects.toThrow(/getTrendingTopics/);
  });
});

describe('threads', () => {
  it('comments warns when replies lie deeper than it asked', async () => {
    const root = 'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3lbaafjknk22b';
    const thread = {
      thread: {
        $type: 'app.bsky.feed.defs#threadViewPost',
        post: { uri: root, replyCount: 1 },
        replies: [{ $type: 'app.bsky.feed.defs#threadViewPost', post: { uri: 'at://did:plc:a/app.bsky.feed.post/r1', record: { text: 'deep' }, replyCount: 3 } }],
      },
    };
    const { ctx, warnings } = ctxWith([[/getPostThread/, () => ({ body: JSON.stringify(thread) })]], null);
    const page = await comments.page(ctx, { query: root });
    expect(page.items).toHaveLength(1);
    expect(page.total).toBe(1);
    expect(warnings[0]).toMatch(/^3 replies lie deeper than 10 levels/);
  });

  it('a replyCount that is no whole count (negative, a fraction, 1e300) is not passed on as the comments total', async () => {
    const root = 'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3lbaafjknk22b';
    for (const replyCount of [-7, 2.5, 1e300, '3']) {
      const thread = { thread: { $type: 'app.bsky.feed.defs#threadViewPost', post: { uri: root, replyCount }, replies: [] } };
      const { ctx } = ctxWith([[/getPostThread/, () => ({ body: JSON.stringify(thread) })]], null);
      expect((await comments.page(ctx, { query: root })).total).toBeUndefined();
    }
  });

  it('falls back to getPostThreadV2 (flat, depth-tagged) when getPostThread is not answered', async () => {
    const root = 'at://did:plc:tv2root/app.bsky.feed.post/3kaaaaaaaaa22';
    const item = (uri: string, depth: number, text: string) => ({
      uri,
      depth,
      value: { $type: 'app.bsky.unspecced.defs#threadItemPost', post: { uri, author: { did: uri.split('/')[2], handle: 'x.test' }, record: { text } } },
    });
    const v2 = {
      thread: [
        item('at://did:plc:tv2up/app.bsky.feed.post/3kparent0000a', -1, 'above'),
        item(root, 0, 'anchor'),
        item('at://did:plc:tv2a/app.bsky.feed.post/3kr1', 1, 'r1'),
        item('at://did:plc:tv2b/app.bsky.feed.post/3kr1a', 2, 'r1a'),
        { uri: 'at://did:plc:tv2c/app.bsky.feed.post/3kgone', depth: 2, value: { $type: 'app.bsky.unspecced.defs#threadItemNotFound' } },
        item('at://did:plc:tv2d/app.bsky.feed.post/3kunder', 3, 'under a deleted reply'),
        item('at://did:plc:tv2e/app.bsky.feed.post/3kr2', 1, 'r2'),
      ],
    };
    const { ctx, asked } = ctxWith([[/getPostThreadV2\?/, () => ({ body: JSON.stringify(v2) })]], null);
    const page = await comments.page(ctx, { query: root });
    expect(page.items.map((c) => [c.text, c.parent_id?.split('/').pop() ?? null])).toEqual([
      ['r1', null],
      ['r1a', '3kr1'],
      ['r2', null],
    ]);
    expect(asked.filter((a) => a.url.includes('getPostThreadV2')).map((a) => new URL(a.url).searchParams.get('anchor'))[0]).toBe(root);
    const detailed = await (bluesky.actions.detail as ItemsAction).page(ctx, { query: root });
    expect(detailed.items.map((d) => d.text)).toEqual(['anchor']);
  });

  it('getPostThreadV2 whose anchor is not found is not_found; a first-route miss is reported when V2 is missing too', async () => {
    const root = 'at://did:plc:tv2root/app.bsky.feed.post/3kaaaaaaaaa22';
    const gone = { thread: [{ uri: root, depth: 0, value: { $type: 'app.bsky.unspecced.defs#threadItemNotFound' } }] };
    const { ctx } = ctxWith([[/getPostThreadV2\?/, () => ({ body: JSON.stringify(gone) })]], null);
    await expect(comments.page(ctx, { query: root })).rejects.toBeInstanceOf(NotFound);
    const none = ctxWith([], null);
    await expect(comments.page(none.ctx, { query: root })).rejects.toThrow(/app\.bsky\.feed\.getPostThread\?/);
  });

  it('a thread root that is a #notFoundPost or #blockedPost is not_found', async () => {
    for (const t of [{ $type: 'app.bsky.feed.defs#notFoundPost', uri: 'at://x', notFound: true }, { $type: 'app.bsky.feed.defs#blockedPost', uri: 'at://x', blocked: true }]) {
      const { ctx } = ctxWith([[/getPostThread/, () => ({ body: JSON.stringify({ thread: t }) })]], null);
      await expect(comments.page(ctx, { query: 'did:plc:abc/3lbaafjknk22b' })).rejects.toBeInstanceOf(NotFound);
    }
  });

  it('a reply to a reply keeps the thread root and answers the reply', async () => {
    const rootRef = { uri: 'at://did:plc:root/app.bsky.feed.post/1', cid: 'bafyroot' };
    const parentUri = 'at://did:plc:a/app.bsky.feed.post/3lbaafjknk22b';
    const thread = { thread: { $type: 'app.bsky.feed.defs#threadViewPost', post: { uri: parentUri, cid: 'bafyparent', record: { text: 'p', reply: { root: rootRef, parent: rootRef } } } } };
    const { ctx, asked } = ctxWith([
      [/createSession/, () => ({ body: sessionBody(nowS() + 7200) })],
      [/getPostThread/, () => ({ body: JSON.stringify(thread) })],
      [/createRecord/, () => ({ body: JSON.stringify({ uri: 'at://did:plc:sbxcrawlerdemo2222aaaaaa/app.bsky.feed.post/3lbgynmqc222b', cid: 'bafynew' }) })],
    ]);
    const out = await commentCreate.run(ctx, { target: parentUri, text: 'reply' });
    expect(out).toEqual({ state: 'published', url: 'https://bsky.app/profile/crawler-demo.bsky.social/post/3lbgynmqc222b', target: parentUri });
    expect((asked.at(-1)!.json as any).record.reply).toEqual({ root: rootRef, parent: { uri: parentUri, cid: 'bafyparent' } });
  });
});

describe('write plans', () => {
  it('describe without touching the network, and say when the profile cannot post', async () => {
    const withLogin = ctxWith([]);
    expect(await postCreate.plan(withLogin.ctx, { text: 'hello' })).toEqual({ summary: 'post "hello" on Bluesky as @crawler-demo.bsky.social' });
    const anonymous = ctxWith([], null);
    expect((await postCreate.plan(anonymous.ctx, { text: 'hello' })).summary).toMatch(/no bluesky credentials yet/);
    expect(await commentCreate.plan(withLogin.ctx, { target: 'https://bsky.app/profile/bsky.app/post/3lbaafjknk22b', text: 'x' })).toMatchObject({
      target: 'https://bsky.app/profile/bsky.app/post/3lbaafjknk22b',
    });
    await expect(commentCreate.plan(withLogin.ctx, { target: 'https://bsky.app/profile/bsky.app', text: 'x' })).rejects.toBeInstanceOf(InvalidInput);
    expect(withLogin.asked).toEqual([]);
    expect(anonymous.asked).toEqual([]);
  });

  it('text limits count graphemes (300) and bytes (3000)', () => {
    expect(graphemeCount('👩‍👩‍👧‍👦é')).toBe(2);
    expect(checkText('é'.repeat(300))).toHaveLength(300);
    expect(() => checkText('a'.repeat(301))).toThrow(/at most 300 characters; this one has 301/);
    expect(() => checkText('👩‍👩‍👧‍👦'.repeat(200))).toThrow(/3000 bytes/);
    expect(() => checkText('   ')).toThrow(/empty/);
    expect(() => checkText(undefined)).toThrow(InvalidInput);
  });
});

describe('page sizes', () => {
  it('a walk asks for 100, a page for its limit within 1..100', () => {
    expect(pageSize({ max_items: 500 })).toBe(100);
    expect(pageSize({ limit: 24 })).toBe(24);
    expect(pageSize({ limit: 1000 })).toBe(100);
    expect(pageSize({})).toBe(30);
  });
});
