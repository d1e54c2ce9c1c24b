import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../src/crawl/http.js';
import { StaleOperation } from '../../src/crawl/ops.js';
import { requestParams } from '../../src/crawl/replay/har.js';
import { complaintOf, graphql, outcomeOf, readAnswer, variablesText, type Said } from '../../src/platforms/threads/api.js';
import { webSession } from '../../src/platforms/threads/session.js';
import { threadsCtx } from '../helpers/threads-ctx.js';

function response(body: string, opts: { status?: number; url?: string; headers?: Record<string, string> } = {}): HttpResponse {
  const buf = Buffer.from(body);
  return {
    status: opts.status ?? 200,
    url: opts.url ?? 'https://www.threads.com/graphql/query',
    redirects: [],
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: buf,
    text: () => body,
    json: () => JSON.parse(body),
  };
}

const op = { name: 'BarcelonaPostPageDirectQuery', doc_id: '35009275178687016' };
const said = (s: Partial<Said>): Said => ({ status: 200, message: '', loggedIn: false, ...s });

describe('threads outcomes (one table)', () => {
  it.each<[string, Partial<Said>, string]>([
    ['an unknown doc_id', { message: 'The GraphQL document with ID 35009275178687016 was not found.', op }, 'upstream_error'],
    ['a missing relay provider', { message: 'Variable "__relay_internal__pv__BarcelonaNewrelayprovider" of required type "Boolean!" was not provided.', op }, 'upstream_error'],
    ['HTTP 429', { status: 429 }, 'rate_limited'],
    ['"Please wait a few minutes"', { status: 401, message: 'Please wait a few minutes before you try again.' }, 'rate_limited'],
    ['rate_limit_error', { status: 400, message: 'x', type: 'rate_limit_error' }, 'rate_limited'],
    ['the Graph API throttle (code 4)', { status: 400, message: 'Application request limit reached', type: 'OAuthException', code: 4 }, 'rate_limited'],
    ['checkpoint_required', { status: 400, message: 'checkpoint_required' }, 'blocked'],
    ['challenge_required', { status: 400, message: 'challenge_required' }, 'blocked'],
    ['feedback_required', { status: 400, message: 'feedback_required' }, 'blocked'],
    ['login_required with a login', { status: 403, message: 'login_required', loggedIn: true }, 'session_expired'],
    ['login_required without one', { status: 403, message: 'login_required' }, 'session_expired'],
    ['the comet "Not Logged In"', { message: 'Not Logged In: Please log in to continue.' }, 'session_expired'],
    ['an invalid Graph API token (190)', { status: 400, message: 'Error validating access token', type: 'OAuthException', code: 190 }, 'session_expired'],
    ['Media not found or unavailable', { status: 400, message: 'Media not found or unavailable' }, 'not_found'],
    ['the Graph API\'s missing object (100/33)', { status: 400, message: 'Unsupported get request.', type: 'THApiException', code: 100, subcode: 33 }, 'not_found'],
    ['HTTP 404', { status: 404 }, 'not_found'],
    ['HTTP 401 anonymous', { status: 401 }, 'blocked'],
    ['HTTP 403 with a login', { status: 403, loggedIn: true }, 'session_expired'],
    ['HTTP 500', { status: 500 }, 'upstream_error'],
    ['anything else', { message: 'Something went wrong' }, 'upstream_error'],
  ])('%s → %s', (_, s, code) => {
    expect(outcomeOf('post X', said(s)).code).toBe(code);
  });
  it('a stale id names the operation, the doc_id and the refresh command; a stale provider names the flags', () => {
    const e = outcomeOf('post X', said({ message: 'The GraphQL document with ID 35009275178687016 was not found.', op }));
    expect(e).toBeInstanceOf(StaleOperation);
    expect(e.message).toMatch(/BarcelonaPostPageDirectQuery \(doc_id 35009275178687016\).*npx crawler platforms refresh threads.*CRAWLER_THREADS_OPS/);
    expect(outcomeOf('p', said({ message: 'Variable "x" was not provided', op })).message).toContain('BarcelonaPostPageDirectQuery.providers');
  });
  it('"not found" without an operation is a missing post, not a stale id', () => {
    expect(outcomeOf('p', said({ message: 'The GraphQL document with ID 1 was not found.' })).code).toBe('not_found');
  });
  it('reads every Meta error envelope', () => {
    expect(complaintOf({ errors: [{ message: 'boom', code: 1675004 }], data: null }, 200)).toMatchObject({ message: 'boom', code: 1675004 });
    expect(complaintOf({ error: 1357001, errorSummary: 'Not Logged In', errorDescription: 'Please log in to continue.' }, 200)).toMatchObject({ code: 1357001, message: 'Not Logged In: Please log in to continue.' });
    expect(complaintOf({ error: { message: 'm', type: 'THApiException', code: 100, error_subcode: 33 } }, 400)).toMatchObject({ type: 'THApiException', code: 100, subcode: 33 });
    expect(complaintOf({ status: 'fail', message: 'login_required' }, 403)).toMatchObject({ message: 'login_required' });
    expect(complaintOf({ status: 'ERROR', error_message: 'UNKNOWN', id: '1' }, 200)?.message).toContain('UNKNOWN');
    expect(complaintOf({ status: 'ok', user: {} }, 200)).toBeUndefined();
    // Errors next to an answered root are about optional fields.
    expect(complaintOf({ errors: [{ message: 'field x' }], data: { user: { pk: '1' } } }, 200)).toBeUndefined();
  });
});

describe('threads answers', () => {
  it('strips the for (;;); guard; keeps long ids exact', () => {
    expect(readAnswer(response('for (;;);{"data":{"user":{"pk":31415926535897932384}}}'), 'w', false)).toEqual({ data: { user: { pk: '31415926535897932384' } } });
  });
  it('a page in place of JSON is blocked (a challenge page too); an empty 200 as well', () => {
    expect(() => readAnswer(response('<!DOCTYPE html><html class="_9dls"></html>', { headers: { 'content-type': 'text/html' } }), 'w', false)).toThrow(expect.objectContaining({ code: 'blocked' }));
    expect(() => readAnswer(response('<html><a href="/challenge/">verify</a></html>'), 'w', false)).toThrow(/challenge page/);
    expect(() => readAnswer(response(''), 'w', false)).toThrow(expect.objectContaining({ code: 'blocked' }));
  });
  it('a landing on the login page is session_expired, naming the fix', () => {
    expect(() => readAnswer(response('<html>log in</html>', { url: 'https://www.threads.com/login?next=%2F' }), 'w', false)).toThrow(/store a threads login profile/);
    expect(() => readAnswer(response('', { status: 302, headers: { location: 'https://www.threads.com/accounts/login/' } }), 'w', true)).toThrow(expect.objectContaining({ code: 'session_expired' }));
  });
  it('JSON that is neither an answer nor an error, on an error status, is mapped by status', () => {
    expect(() => readAnswer(response('{}', { status: 404 }), 'w', false)).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => readAnswer(response('not json', { headers: { 'content-type': 'text/plain' } }), 'w', false)).toThrow(expect.objectContaining({ code: 'upstream_error', message: expect.stringContaining('expected JSON, got text/plain') }));
  });
});

describe('threads requests', () => {
  it('variables carry the relay providers; the 2023 operations took ids as JSON numbers', () => {
    expect(variablesText({ postID: '3141055616164096839', sort_order: 'TOP' }, { BarcelonaIsLoggedInrelayprovider: false }, false)).toBe(
      '{"postID":"3141055616164096839","sort_order":"TOP","__relay_internal__pv__BarcelonaIsLoggedInrelayprovider":false}',
    );
    expect(variablesText({ postID: '3141055616164096839' }, undefined, true)).toBe('{"postID":3141055616164096839}');
  });
  it('replay reads the ids inside a form field holding JSON (Meta posts variables that way)', () => {
    const params = requestParams(new URL('https://www.threads.com/graphql/query'), { mimeType: 'application/x-www-form-urlencoded', text: 'lsd=x&variables=%7B%22postID%22%3A%2212%22%2C%22first%22%3A10%7D&doc_id=1' });
    expect(params.get('variables.postID')).toBe('12');
    expect(params.get('variables.first')).toBe('10');
    expect(params.get('doc_id')).toBe('1');
    expect(params.get('variables')).toContain('"postID"');
  });
  it('the GraphQL POST carries the page\'s lsd and csrftoken, the app id, the operation and the fetch metadata', async () => {
    const seen: string[] = [];
    const ctx = threadsCtx({
      requests: seen,
      answers: [
        { url: 'https://www.threads.com/', headers: [['set-cookie', 'csrftoken=CSRF1; Path=/']], body: '<script>["LSD",[],{"token":"LSD1"},1]</script>' },
        { method: 'POST', url: 'https://www.threads.com/graphql/query', form: { variables: '{"username":"a"}' }, body: { data: { user: { pk: '1', username: 'a' } } } },
      ],
    });
    let sent: Record<string, string> = {};
    const original = ctx.http.request.bind(ctx.http);
    ctx.http.request = async (req) => {
      if (req.method === 'POST') sent = { ...req.headers, body: String(req.body) };
      return original(req);
    };
    await graphql(ctx, 'BarcelonaUsernameHovercardImplDirectQuery', { username: 'a' }, 'user @a');
    const form = new URLSearchParams(sent.body);
    expect(form.get('lsd')).toBe('LSD1');
    expect(form.get('doc_id')).toBe('26380219401627134');
    expect(form.get('fb_api_req_friendly_name')).toBe('BarcelonaUsernameHovercardImplDirectQuery');
    expect(JSON.parse(form.get('variables')!)).toMatchObject({ username: 'a', __relay_internal__pv__BarcelonaIsLoggedInrelayprovider: false });
    expect(sent).toMatchObject({ 'x-fb-lsd': 'LSD1', 'x-csrftoken': 'CSRF1', 'x-ig-app-id': '238260118697367', 'x-fb-friendly-name': 'BarcelonaUsernameHovercardImplDirectQuery', 'x-root-field-name': 'xdt_text_app_user_by_username', 'sec-fetch-site': 'same-origin', 'x-logged-out-threads-migrated-request': 'true' });
    expect(sent.cookie).toContain('csrftoken=CSRF1');
    expect(seen).toEqual(['GET https://www.threads.com/', 'POST https://www.threads.com/graphql/query']);
  });
});

describe('threads web session', () => {
  it('reads the LSD from the bootstrap JSON or __eqmc, the cookies from Set-Cookie (deletions dropped)', async () => {
    const a = await webSession(threadsCtx({ answers: [{ url: 'https://www.threads.com/', headers: [['set-cookie', 'csrftoken=C1; Path=/'], ['set-cookie', 'mid=M1; Path=/'], ['set-cookie', 'sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT']], body: '<script>["LSD",[],{"token":"AVq1"},332]</script>' }] }));
    expect(a).toEqual({ lsd: 'AVq1', csrftoken: 'C1', cookies: 'csrftoken=C1; mid=M1', minted: true, dtsg: undefined });
    const b = await webSession(threadsCtx({ answers: [{ url: 'https://www.threads.com/', body: '<script type="application/json" id="__eqmc">{"u":"/","l":"EQ1"}</script><script>["DTSGInitialData",[],{"token":"NAc:1"},258]</script>' }] }));
    expect(b).toMatchObject({ lsd: 'EQ1', dtsg: 'NAc:1' });
  });
  it('a page without a token names the patterns to patch; a challenge page is blocked; a login wall session_expired', async () => {
    await expect(webSession(threadsCtx({ answers: [{ url: 'https://www.threads.com/', body: '<html>new layout</html>' }] }))).rejects.toThrow(/web\.lsd_patterns.*CRAWLER_THREADS_OPS/);
    await expect(webSession(threadsCtx({ answers: [{ url: 'https://www.threads.com/', body: '<html><form action="/challenge/">x</form></html>' }] }))).rejects.toMatchObject({ code: 'blocked' });
    const wall = threadsCtx({
      answers: [
        { url: 'https://www.threads.com/', status: 302, headers: [['location', 'https://www.threads.com/login?next=%2F']], body: '' },
        { url: 'https://www.threads.com/login?next=%2F', body: '<html>Log in</html>' },
      ],
    });
    await expect(webSession(wall)).rejects.toMatchObject({ code: 'session_expired', message: expect.stringContaining('store a threads login profile') });
    await expect(webSession(threadsCtx({ answers: [{ url: 'https://www.threads.com/', status: 429, body: '' }] }))).rejects.toMatchObject({ code: 'rate_limited' });
  });
  it('no recording of the page (replay): the session goes without tokens, and is not asked again at once', async () => {
    const seen: string[] = [];
    const ctx = threadsCtx({ requests: seen });
    expect(await webSession(ctx)).toEqual({ minted: false });
    expect(await webSession(ctx)).toEqual({ minted: false });
    expect(seen).toEqual(['GET https://www.threads.com/']);
  });
});

describe('threads login probe', () => {
  const probeAt = 'https://i.instagram.com/api/v1/accounts/current_user/?edit=true';
  const LOGIN = 'sessionid=1%3Ax; csrftoken=c; ds_user_id=1';
  it('login_required is session_expired; a checkpoint stays a block', async () => {
    const { threads } = await import('../../src/platforms/threads/index.js');
    expect(await threads.probe!(threadsCtx({ cookies: LOGIN, answers: [{ url: probeAt, status: 403, body: { message: 'login_required', status: 'fail' } }] }))).toBe('session_expired');
    expect(await threads.probe!(threadsCtx({ cookies: LOGIN, answers: [{ url: probeAt, body: { status: 'ok', user: null } }] }))).toBe('session_expired');
    await expect(threads.probe!(threadsCtx({ cookies: LOGIN, answers: [{ url: probeAt, status: 400, body: { message: 'checkpoint_required', status: 'fail' } }] }))).rejects.toMatchObject({ code: 'blocked' });
    // A redirect is never followed with the account's cookies: where it leads is the answer.
    await expect(threads.probe!(threadsCtx({ cookies: LOGIN, answers: [{ url: probeAt, status: 302, headers: [['location', 'https://www.instagram.com/challenge/?next=/']], body: '' }] }))).rejects.toMatchObject({ code: 'blocked' });
    expect(await threads.probe!(threadsCtx({ cookies: LOGIN, answers: [{ url: probeAt, status: 302, headers: [['location', 'https://www.instagram.com/accounts/login/']], body: '' }] }))).toBe('session_expired');
  });
  it('an app token (credential igt) is sent as the bearer with the app\'s agent', async () => {
    const { bearerOf } = await import('../../src/platforms/threads/session.js');
    const ctx = threadsCtx();
    ctx.session.credentials = { igt: 'abc' };
    expect(bearerOf(ctx)).toBe('Bearer IGT:2:abc');
    ctx.session.credentials = { igt: 'Bearer IGT:2:xyz' };
    expect(bearerOf(ctx)).toBe('Bearer IGT:2:xyz');
  });
});
