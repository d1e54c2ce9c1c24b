import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../src/crawl/http.js';
import { loadOps, StaleOperation } from '../../src/crawl/ops.js';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { apiGet, igHeaders, relayQuery } from '../../src/platforms/instagram/api.js';
import { instagram } from '../../src/platforms/instagram/index.js';
import { appId, docId, OPS_DEFAULTS, queryHash } from '../../src/platforms/instagram/ops.js';
import { GuestRefused, readJson } from '../../src/platforms/instagram/outcomes.js';
import { viewerPk } from '../../src/platforms/instagram/probe.js';
import { appIdIn, bundleUrlsIn, relayOperationsIn } from '../../src/platforms/instagram/refresh.js';
import { jazoest } from '../../src/platforms/instagram/write.js';
import { lsdIn, setCookies } from '../../src/platforms/instagram/guest.js';
import { Registry } from '../../src/platforms/registry.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';

const SANDBOX = resolve(process.cwd(), 'sandbox/instagram');
const LOGIN = 'sessionid=52418700001%3Asbx%3A12; csrftoken=SbxWriterCsrf0001; ds_user_id=52418700001';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The replay dispatcher, keeping what each request sent (headers and body). */
class Capturing extends ReplayDispatcher {
  readonly sent: Sent[] = [];
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const headers: Record<string, string> = {};
    const h = options.headers as Record<string, string> | string[] | undefined;
    if (Array.isArray(h)) for (let i = 0; i + 1 < h.length; i += 2) headers[String(h[i]).toLowerCase()] = String(h[i + 1]);
    else if (h) for (const [k, v] of Object.entries(h)) headers[k.toLowerCase()] = String(v);
    const body = typeof options.body === 'string' ? options.body : Buffer.isBuffer(options.body) ? options.body.toString('utf8') : '';
    this.sent.push({ method: String(options.method), url: new URL(String(options.path), String(options.origin)).toString(), headers, body });
    return super.dispatch(options, handler);
  }
}

function ctxWith(files: string[], opts: { cookies?: string; ops?: Record<string, unknown> } = {}): { ctx: CrawlContext; sent: Sent[]; warnings: string[] } {
  const registry = new Registry();
  const dispatcher = new Capturing({ recordings: loadRecordings(files), rulesFor: (h) => registry.forHost(h)?.replay });
  const warnings: string[] = [];
  const ctx = makeContext({
    adapter: instagram,
    profile: 'default',
    cookies: opts.cookies,
    memo: new MemoryMemo(),
    dispatcher,
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings,
    ops: opts.ops ? { ...OPS_DEFAULTS, ...opts.ops } : undefined,
  });
  return { ctx, sent: dispatcher.sent, warnings };
}

const anon = ctxWith([]).ctx;
const logged = ctxWith([], { cookies: LOGIN }).ctx;

function res(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    url: 'https://www.instagram.com/x',
    redirects: [],
    headers: { 'content-type': 'application/json', ...headers },
    body: Buffer.from(text),
    text: () => text,
    json: () => JSON.parse(text),
  };
}

const outcome = (r: HttpResponse, ctx = anon, op?: Parameters<typeof readJson>[3]): unknown => {
  try {
    return readJson(r, ctx, 'probe call', op);
  } catch (e) {
    return e;
  }
};
const code = (r: HttpResponse, ctx = anon, op?: Parameters<typeof readJson>[3]) => (outcome(r, ctx, op) as { code?: string }).code;

describe('instagram outcome table', () => {
  it('"Please wait a few minutes" (401, require_login) and 429 are throttles, never login demands', () => {
    expect(code(res(401, { message: 'Please wait a few minutes before you try again.', require_login: true, status: 'fail' }))).toBe('rate_limited');
    const e = outcome(res(429, '', { 'retry-after': '120' })) as { code: string; retryAfterS?: number };
    expect(e.code).toBe('rate_limited');
    expect(e.retryAfterS).toBe(120);
    expect(code(res(400, { message: 'feedback_required', spam: true, feedback_message: 'We limit how often', status: 'fail' }))).toBe('rate_limited');
    expect(code(res(200, { errors: [{ message: 'Rate limit exceeded', code: 1675004 }] }))).toBe('rate_limited');
    expect(code(res(400, { message: 'x', error_type: 'rate_limit_error', status: 'fail' }))).toBe('rate_limited');
  });
  it('checkpoint_required: a stored login needs a human (session_expired, naming the profile and the challenge); logged out it is a block', () => {
    const body = { message: 'checkpoint_required', checkpoint_url: '/challenge/624247/lMZI350pJ1/', lock: false, status: 'fail' };
    const e = outcome(res(400, body), logged) as Error & { code: string };
    expect(e.code).toBe('session_expired');
    expect(e.message).toContain('/challenge/624247/lMZI350pJ1/');
    expect(e.message).toContain('profile "default"');
    expect(code(res(400, body), anon)).toBe('blocked');
    expect((outcome(res(400, { message: 'challenge_required', challenge: { url: 'https://www.instagram.com/accounts/suspended/?next=x' }, status: 'fail' }), logged) as Error).message).toContain('suspension');
    expect(code(res(302, '', { location: 'https://www.instagram.com/challenge/?next=/x/' }), logged)).toBe('session_expired');
    expect(code(res(302, '', { location: 'https://www.instagram.com/challenge/?next=/x/' }), anon)).toBe('blocked');
  });
  it('login_required and login redirects are session_expired: "no longer accepts" with a login, "wants a login" without', () => {
    expect((outcome(res(403, { message: 'login_required', status: 'fail' }), logged) as Error).message).toMatch(/no longer accepts the login of profile "default"/);
    expect((outcome(res(403, { message: 'login_required', status: 'fail' }), anon) as Error).message).toMatch(/wants a login.*profile named "default"/);
    expect(code(res(302, '', { location: 'https://www.instagram.com/accounts/login/?next=/x' }))).toBe('session_expired');
    expect(code(res(200, '<html><head><title>Login • Instagram</title></head></html>', { 'content-type': 'text/html' }))).toBe('session_expired');
    expect(code(res(401, ''))).toBe('session_expired');
  });
  it('a logged-out request sent to the home page is the anonymous quota spent (yt-dlp)', () => {
    expect(code(res(302, '', { location: 'https://www.instagram.com/' }), anon)).toBe('rate_limited');
    expect(code(res(302, '', { location: '/' }), logged)).toBe('upstream_error');
  });
  it('a stale doc_id or query_hash is StaleOperation naming the id and the refresh; the same answer to a call without an op is not', () => {
    const incorrect = { errors: [{ message: 'execution error', code: 1675002, summary: 'Incorrect Query', description: 'The query provided was invalid.', severity: 'CRITICAL' }], status: 'ok' };
    const e = outcome(res(200, incorrect), anon, { key: 'PolarisPostChildCommentsQuery', kind: 'doc_id', id: '27823744063932558' });
    expect(e).toBeInstanceOf(StaleOperation);
    expect((e as Error).message).toContain('PolarisPostChildCommentsQuery (doc_id 27823744063932558)');
    expect((e as Error).message).toContain('npx crawler platforms refresh instagram');
    expect(outcome(res(200, { errors: [{ message: 'Cannot query field "name" on type "User".' }], data: null }), anon, { key: 'query_hash_tagged', kind: 'query_hash', id: 'e31a' })).toBeInstanceOf(StaleOperation);
    expect(outcome(res(200, incorrect), anon)).not.toBeInstanceOf(StaleOperation);
    expect(code(res(200, incorrect), anon)).toBe('upstream_error');
  });
  it('missing things are not_found; refused guest tokens, sentry_block, 403 and web pages are blocks; the rest upstream errors', () => {
    expect(code(res(200, { errors: [{ message: 'execution error', code: 4630001, summary: 'Bad Request', description: 'Media not found or unavailable' }] }))).toBe('not_found');
    expect(code(res(404, ''))).toBe('not_found');
    expect(outcome(res(200, { errors: [{ message: 'Sorry, something went wrong', code: 1357004 }] }))).toBeInstanceOf(GuestRefused);
    expect(code(res(400, { message: 'x', error_type: 'sentry_block', status: 'fail' }))).toBe('blocked');
    expect(code(res(403, ''))).toBe('blocked');
    expect(code(res(200, '<!DOCTYPE html><html><body>app shell</body></html>', { 'content-type': 'text/html' }))).toBe('blocked');
    expect(code(res(502, 'bad gateway'))).toBe('upstream_error');
    expect(code(res(200, { message: 'execution failure', errors: [{ message: 'execution error' }], status: 'fail' }))).toBe('upstream_error');
    expect(code(res(200, { errors: [{ message: 'execution error', severity: 'CRITICAL' }], data: null }))).toBe('upstream_error');
  });
  it("answers are read past Meta's for (;;); prefix, with ids past 2^53 kept exact", () => {
    const json = outcome(res(200, 'for (;;);{"data":{"pk":3600000000000000101,"n":1.5e3,"big":12345678901234567890}}')) as any;
    expect(json.data).toEqual({ pk: '3600000000000000101', n: 1500, big: '12345678901234567890' });
  });
});

describe('instagram requests read the operation data', () => {
  it('X-IG-App-ID and X-ASBD-ID come from ctx.ops; X-CSRFToken from the login; junk in the data warns and keeps the built-in value', () => {
    const { ctx, warnings } = ctxWith([], { cookies: LOGIN, ops: { app_id: '124024574287414', PolarisPostChildCommentsQuery: 'not-an-id', query_hash_tagged: 42 } });
    expect(igHeaders(ctx)).toMatchObject({ 'x-ig-app-id': '124024574287414', 'x-asbd-id': '359341', 'x-csrftoken': 'SbxWriterCsrf0001' });
    expect(appId(anon)).toBe('936619743392459');
    expect(docId(ctx, 'PolarisPostChildCommentsQuery')).toBe(OPS_DEFAULTS.PolarisPostChildCommentsQuery);
    expect(queryHash(ctx, 'query_hash_tagged')).toBe(OPS_DEFAULTS.query_hash_tagged);
    expect(warnings.join('\n')).toMatch(/PolarisPostChildCommentsQuery = "not-an-id" is not a valid value/);
    expect(igHeaders(anon)['x-csrftoken']).toBeUndefined();
  });
  it('a logged-out Relay call carries the patched doc_id, the minted lsd and csrftoken, and the home page cookies', async () => {
    const { ctx, sent } = ctxWith([join(SANDBOX, 'site-pages.har'), join(SANDBOX, 'comments-DH1xO0naABl.har')], { ops: { PolarisPostCommentsPaginationQuery: '28082902984733691', app_id: '124024574287414' } });
    await relayQuery(ctx, 'PolarisPostCommentsPaginationQuery', { media_id: '3600000000000000101', first: 24, before: null, last: null, sort_order: 'popular', __relay_internal__pv__PolarisIsLoggedInrelayprovider: false }, { what: 'comments' });
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(['GET https://www.instagram.com/', 'POST https://www.instagram.com/api/graphql']);
    const call = sent[1]!;
    const form = new URLSearchParams(call.body);
    expect(form.get('doc_id')).toBe('28082902984733691');
    expect(form.get('fb_api_req_friendly_name')).toBe('PolarisPostCommentsPaginationQuery');
    expect(form.get('lsd')).toBe('AVrSandboxLsd0Token');
    expect(call.headers['x-fb-lsd']).toBe('AVrSandboxLsd0Token');
    expect(call.headers['x-csrftoken']).toBe('SbxCsrfTokenHarbor01');
    expect(call.headers['x-ig-app-id']).toBe('124024574287414');
    expect(call.headers.cookie).toContain('csrftoken=SbxCsrfTokenHarbor01');
    expect(call.headers.cookie).toContain('mid=ZsbxAAABAAHarbor0sandbox');
  });
  it('a logged-in Relay call posts graphql/query with the session (no lsd, no guest cookies)', async () => {
    const { ctx, sent } = ctxWith([join(SANDBOX, 'posts-feed-harborcook.har')], { cookies: LOGIN });
    await relayQuery(ctx, 'PolarisProfilePostsQuery', { username: 'harborcook' }, { what: 'feed' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('https://www.instagram.com/graphql/query/');
    expect(new URLSearchParams(sent[0]!.body).get('doc_id')).toBe(OPS_DEFAULTS.PolarisProfilePostsQuery);
    expect(new URLSearchParams(sent[0]!.body).has('lsd')).toBe(false);
    expect(sent[0]!.headers['x-csrftoken']).toBe('SbxWriterCsrf0001');
    expect(sent[0]!.headers.cookie).toBe(LOGIN);
  });
  it('refused guest tokens (1357004) are minted again once, then the call goes through', async () => {
    const home = JSON.parse(readFileSync(join(SANDBOX, 'site-pages.har'), 'utf8')).log.entries[0];
    const good = JSON.parse(readFileSync(join(SANDBOX, 'replies-18010000000000001.har'), 'utf8')).log.entries[0];
    const refused = { ...good, comment: 'hand-made test recording: guest tokens refused', response: { ...good.response, content: { mimeType: 'application/json', text: JSON.stringify({ errors: [{ message: 'Sorry, something went wrong', code: 1357004 }] }) } } };
    const file = join(mkdtempSync(join(tmpdir(), 'ig-guest-')), 'guest.har');
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [home, refused, good] } }));
    const { ctx, sent, warnings } = ctxWith([file]);
    const json = await relayQuery(ctx, 'PolarisPostChildCommentsQuery', { media_id: '3600000000000000101', parent_comment_id: '18010000000000001' }, { what: 'replies' });
    expect(Object.keys((json as any).data)).toEqual(['xdt_api__v1__media__media_id__comments__parent_comment_id__child_comments__connection']);
    expect(sent.map((s) => s.url)).toEqual(['https://www.instagram.com/', 'https://www.instagram.com/api/graphql', 'https://www.instagram.com/', 'https://www.instagram.com/api/graphql']);
    expect(warnings).toContain('Instagram refused the guest tokens; they were minted again');
  });
  it('REST calls never follow a redirect (a login or challenge redirect is the answer)', async () => {
    const { ctx, sent } = ctxWith([join(SANDBOX, 'error-login-redirect.har')]);
    await expect(apiGet(ctx, 'https://www.instagram.com/api/v1/users/web_profile_info/', { username: 'walledharbor' }, { what: 'x' })).rejects.toMatchObject({ code: 'session_expired' });
    expect(sent).toHaveLength(1);
  });
  it('CRAWLER_INSTAGRAM_OPS layers an operator file over the built-in ids, key by key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ig-ops-'));
    const patch = join(dir, 'ig.json');
    writeFileSync(patch, JSON.stringify({ PolarisPostChildCommentsQuery: '27229753410037873' }));
    const merged = loadOps([instagram], dir, { CRAWLER_INSTAGRAM_OPS: patch }).get('instagram')!;
    expect(merged.PolarisPostChildCommentsQuery).toBe('27229753410037873');
    expect(merged.app_id).toBe('936619743392459');
    expect(merged.query_hash_comments).toBe(OPS_DEFAULTS.query_hash_comments);
  });
});

describe('instagram page tokens, bundles and small helpers', () => {
  it("the home page's LSD comes from __eqmc, else the LSD config entry; Set-Cookie lines become a cookie map", () => {
    expect(lsdIn('<script type="application/json" id="__eqmc" nonce="x">{"u":"/ajax/qm/","l":"AdTest123"}</script>')).toBe('AdTest123');
    expect(lsdIn('<script>requireLazy(["LSD",[],{"token":"AVq9"},323])</script>')).toBe('AVq9');
    expect(lsdIn('<html></html>')).toBeUndefined();
    expect([...setCookies('csrftoken=abc; Path=/; Secure\nmid=Z1; HttpOnly\nsessionid=""; expires=Thu, 01-Jan-1970')]).toEqual([
      ['csrftoken', 'abc'],
      ['mid', 'Z1'],
    ]);
  });
  it('bundle URLs from script src, preload links and escaped resource maps, once each', () => {
    const html = `<script src="https://static.cdninstagram.com/rsrc.php/v4/yS/r/A1.js" async></script><link rel="preload" href="https://static.cdninstagram.com/rsrc.php/v4/yS/r/A1.js" as="script">
      {"src":"https:\\/\\/static.cdninstagram.com\\/rsrc.php\\/v4iM3\\/yB\\/l\\/en_US\\/B2.js?_nc_x=Ij3&amp;_nc_eui2=AeH"} <script src="https://example.com/other.js"></script>`;
    expect(bundleUrlsIn(html)).toEqual(['https://static.cdninstagram.com/rsrc.php/v4/yS/r/A1.js', 'https://static.cdninstagram.com/rsrc.php/v4iM3/yB/l/en_US/B2.js?_nc_x=Ij3&_nc_eui2=AeH']);
  });
  it('Relay operation modules in their minified forms; other modules are not operations', () => {
    const js = [
      '__d("PolarisPostCommentsPaginationQuery_instagramRelayOperation",[],(function(a,b,c,d,e,f){e.exports="25516980651312394"}),null);',
      '__d("PolarisProfilePostsQuery_instagramRelayOperation",[],(function(t,n,r,o,a,i){a.exports="9066276850131169"}),null);',
      '__d("PolarisSearchBoxNonProfiledRefetchableQuery_instagramRelayOperation",[],(function(a,b,c,d,e,f){"use strict";e.exports="27634848489527274"}),null);',
      '__d("XIGSharedConstants",[],(function(a,b,c,d,e,f){e.exports="123456789012345"}),null);',
    ].join('\n');
    expect(Object.fromEntries(relayOperationsIn(js))).toEqual({
      PolarisPostCommentsPaginationQuery: '25516980651312394',
      PolarisProfilePostsQuery: '9066276850131169',
      PolarisSearchBoxNonProfiledRefetchableQuery: '27634848489527274',
    });
    expect(appIdIn('<script>{"APP_ID":"936619743392459"}</script>')).toBe('936619743392459');
    expect(appIdIn('["DGWWebConfig",[],{"appId":"936619743392459"},4325]')).toBe('936619743392459');
    expect(appIdIn('<html></html>')).toBeUndefined();
  });
  it('the viewer pk from ds_user_id or the sessionid; jazoest sums the csrftoken', () => {
    expect(viewerPk('sessionid=1518284433%3AabcDEF%3A12; ds_user_id=1518284433')).toBe('1518284433');
    expect(viewerPk('sessionid=1518284433%3AabcDEF%3A12')).toBe('1518284433');
    expect(viewerPk('csrftoken=x')).toBeUndefined();
    expect(jazoest('abc')).toBe('2294');
  });
});
