import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import type { CommentsResult, CreatorResult, Envelope } from '../../src/domain/results.js';
import { Registry } from '../../src/platforms/registry.js';
import { readAnswer } from '../../src/platforms/threads/api.js';
import { threads } from '../../src/platforms/threads/index.js';
import { parseJsonKeepingIds } from '../../src/platforms/threads/json.js';
import { postOf, postToDraft } from '../../src/platforms/threads/parse.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every threads recording, replayed through the real catalog validation, adapter and normalization. The real
 * ones (fixtures/threads) are July 2023: the anonymous web GraphQL of www.threads.net (post page with its
 * replies, profile threads tab, profile root) and the app's private API with a login (text_feed profile,
 * users/<pk>/info, users/search), plus the app's publishing answer and the official API's container error.
 * The hand-made sandbox (sandbox/threads) covers the 2026 www.threads.com operations no real recording
 * covers, the app's post search, the login probe, the refresh of the operation ids and the error answers.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/threads');
const SANDBOX = resolve(process.cwd(), 'sandbox/threads');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const entry = (file: string, i = 0): any => JSON.parse(readFileSync(file, 'utf8')).log.entries[i];
const body = (file: string, i = 0): any => parseJsonKeepingIds(entry(file, i).response.content.text);
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;
const LOGIN = { cookies: 'sessionid=63100000007%3Asandbox%3A1; csrftoken=SandboxLoginCsrf; ds_user_id=63100000007' };

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'threads', action, params, replay, ...extra });

/** The form fields of the n-th POST the crawl sent to a GraphQL endpoint, as the replay saw them. */
function sentForm(requests: string[], host: string): string[] {
  return requests.filter((r) => r.startsWith('POST ') && r.includes(host));
}

describe('threads on real recordings (2023)', () => {
  it('detail: the post page answer gives the post, its author and counts; the 2026 query is asked first', async () => {
    const file = real('detail-graphql-post-page-3141055616164096839.har');
    const p = body(file).data.data.containing_thread.thread_items[0].post;
    const { result, requests } = await run('detail', { query: 'https://www.threads.net/@mosseri/post/CuXRXDdNOtH?xmt=abc' }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items).toHaveLength(1);
    const item = env.items[0]!;
    expect(item).toMatchObject({
      id: 'threads:3141055616164096839',
      type: 'text',
      text: p.caption.text,
      author: 'mosseri',
      author_id: '95561',
      author_handle: 'mosseri',
      author_url: 'https://www.threads.com/@mosseri',
      url: 'https://www.threads.com/@mosseri/post/CuXRXDdNOtH',
      ts: 1688663030,
      stats: { likes: 29984, comments: 2839 },
      media: [],
    });
    // The current generation first, then the 2023 one (which the recording answers).
    expect(sentForm(requests, 'www.threads.com/graphql/query')).toHaveLength(1);
    expect(requests.indexOf('POST https://www.threads.com/graphql/query')).toBeLessThan(requests.indexOf('POST https://www.threads.net/api/graphql'));
  });

  it('comments: the reply threads of the same answer, as threaded comments; total is the post\'s reply count', async () => {
    const file = real('detail-graphql-post-page-3141055616164096839.har');
    const raw = body(file).data.data;
    const r = raw.reply_threads[0].thread_items[0].post;
    const { result } = await run('comments', { query: 'CuXRXDdNOtH' }, [file]);
    const res = result as CommentsResult;
    expect(res.source).toBe('live');
    expect(res.total).toBe(raw.containing_thread.thread_items[0].post.text_post_app_info.direct_reply_count);
    expect(res.items).toEqual([
      { cid: '3141082664316809193', text: r.caption.text, likes: 59, reply_total: 0, user_id: '51094265817', handle: 'jimmywhotalks', user_name: 'jimmywhotalks', created_at: 1688666254, source: 'threads', url: 'https://www.threads.com/@jimmywhotalks/post/CuXXgqAva_p' },
    ]);
    // This generation answers one page: no cursor.
    expect(res.has_more).toBe(false);
  });

  it('posts: the profile threads tab gives the image post at its largest rendition; the reply count from the reply button', async () => {
    const file = real('posts-graphql-profile-threads-tab-zuck.har');
    const p = body(file).data.mediaData.threads[0].thread_items[0].post;
    const { result, requests } = await run('posts', { query: '314216' }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items.map((i) => i.id)).toEqual(['threads:3141002295235099165']);
    const item = env.items[0]!;
    expect(item).toMatchObject({ type: 'image', text: 'Lots of work on basic capabilities this morning.', author_handle: 'zuck', author_id: '314216', url: 'https://www.threads.com/@zuck/post/CuXFPIeLLod', ts: 1688656673 });
    expect(item.stats).toEqual({ likes: 184611, comments: 17882 });
    expect(item.media).toHaveLength(1);
    expect(origin(item.media[0]!.url)).toBe(p.image_versions2.candidates[0].url);
    expect(item.media[0]).toMatchObject({ kind: 'image', w: 4000, h: 3000 });
    expect(origin(item.thumb!)).toBe(p.image_versions2.candidates[0].url);
    expect(item.aspect).toEqual({ width: 4000, height: 3000 });
    expect(env.next_cursor).toBeUndefined();
    expect(requests.filter((r) => r.includes('i.instagram.com'))).toEqual([]);
  });

  it('user: the profile root answer gives the profile; the avatar is the largest HD version, service-hosted', async () => {
    const file = real('user-graphql-profile-root-zuck.har');
    const u = body(file).data.userData.user;
    const { result } = await run('user', { query: '314216' }, [file]);
    const res = result as CreatorResult;
    expect(res.ok).toBe(true);
    expect(res.data!.author).toMatchObject({ id: '314216', source: 'threads', handle: 'zuck', name: 'Mark Zuckerberg', url: 'https://www.threads.com/@zuck', followers: 1988496, verified: true });
    expect(origin(res.data!.author.avatar!)).toBe(u.hd_profile_pic_versions[1].url);
    expect(res.data!.author.bio).toBeUndefined();
  });

  it('posts with a login: the app\'s text_feed answer, its 19-digit ids kept exact (bare JSON numbers past 2^53)', async () => {
    const file = real('posts-api-v1-text-feed-profile-314216.har');
    expect(entry(file).response.content.text).toContain('"pk": 3143857175171939857');
    const { result, requests } = await run('posts', { query: '314216' }, [file], { session: LOGIN });
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items.map((i) => i.id)).toEqual(['threads:3143857175171939857']);
    expect(env.items[0]).toMatchObject({ type: 'text', author: 'Mark Zuckerberg', author_id: '314216', author_handle: 'zuck', url: 'https://www.threads.com/@zuck/post/CuhOXGmr74R', ts: 1688997002, stats: { likes: 127327, comments: 24278 } });
    expect(requests.at(-1)).toBe('GET https://i.instagram.com/api/v1/text_feed/314216/profile/?count=15');
    // Without a login the app route is never asked: the replay misses on the web query, not on the app's.
    await expect(run('posts', { query: '314216' }, [file])).rejects.toMatchObject({ name: 'ReplayMiss', url: 'https://www.threads.com/graphql/query' });
  });

  it('user with a login: users/<pk>/info; only the follower count is taken (following and media count are Instagram\'s)', async () => {
    const file = real('user-api-v1-users-info-314216.har');
    const u = body(file).user;
    const { result } = await run('user', { query: '314216' }, [file], { session: LOGIN });
    const author = (result as CreatorResult).data!.author;
    expect(author).toMatchObject({ id: '314216', handle: 'zuck', name: 'Mark Zuckerberg', followers: u.follower_count, verified: true, url: 'https://www.threads.com/@zuck' });
    expect(author.following).toBeUndefined();
    expect(author.posts).toBeUndefined();
    expect(origin(author.avatar!)).toBe(u.hd_profile_pic_url_info.url);
  });

  it('search users with a login: users/search answers accounts as text cards (@handle ids)', async () => {
    const file = real('search-users-zuck.har');
    const u = body(file).users[0];
    const { result, requests } = await run('search', { query: 'zuck', type: 'users' }, [file], { session: LOGIN });
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items).toHaveLength(1);
    expect(env.items[0]).toMatchObject({ id: 'threads:@zuck', type: 'text', title: 'Mark Zuckerberg', author_id: '314216', author_handle: 'zuck', url: 'https://www.threads.com/@zuck', media: [] });
    expect(origin(env.items[0]!.thumb!)).toBe(u.profile_pic_url);
    expect(requests).toEqual(['GET https://i.instagram.com/api/v1/users/search/?q=zuck&search_surface=user_search_page']);
  });

  it('search without a login: session_expired naming the profile to add, before any request', async () => {
    const file = real('search-users-zuck.har');
    const { result, requests } = await run('search', { query: 'zuck', type: 'users' }, [file]);
    const env = result as Envelope;
    expect(env.error?.code).toBe('session_expired');
    expect(env.error?.message).toMatch(/needs a threads login: store a threads profile "default"/);
    expect(requests).toEqual([]);
  });

  it('the app\'s publishing answer (configure_text_only_post) is the same post record: parsed, ids exact (post.create is not offered)', () => {
    const file = real('write-create-text-post.har');
    const json = body(file);
    const p = postOf(json.media)!;
    expect(p).toMatchObject({ pk: '3143277215847793526', code: 'CufKflZL8N2', text: 'Hello, world!', ts: 1688927865, replies: 0 });
    expect(p.user).toMatchObject({ id: '32545771157', handle: 'dmytro.striletskyi', name: 'Dmytro Striletskyi' });
    expect(postToDraft(p).url).toBe('https://www.threads.com/@dmytro.striletskyi/post/CufKflZL8N2');
    expect(Object.keys(threads.actions)).not.toContain('post.create');
  });

  it('the official API\'s container status ERROR (HTTP 200) is an upstream error naming the reason, through the real HTTP client', async () => {
    const file = real('error-container-status-error.har');
    const registry = new Registry();
    const ctx = makeContext({
      adapter: threads,
      profile: 'default',
      memo: new MemoryMemo(),
      dispatcher: new ReplayDispatcher({ recordings: loadRecordings([file]), rulesFor: (h) => registry.forHost(h)?.replay }),
      pacer: new LocalPacer(),
      gapMs: 0,
      signal: new AbortController().signal,
      log: pino({ level: 'silent' }),
      warnings: [],
    });
    const res = await ctx.http.request({ url: entry(file).request.url });
    expect(res.status).toBe(200);
    expect(() => readAnswer(res, 'container 123456789', true)).toThrow(expect.objectContaining({ code: 'upstream_error', message: expect.stringContaining('the publishing container failed (UNKNOWN)') }));
  });
});

describe('threads on the hand-made sandbox (2026 www.threads.com)', () => {
  const page = () => sand('session-page.har');

  it('detail: the post page query with the page\'s lsd and csrftoken; a carousel of an image and a video', async () => {
    const file = sand('detail-post-page-3712000000000000001.har');
    const p = body(file).data.data.edges[0].node.thread_items[0].post;
    const { result, requests } = await run('detail', { query: `https://www.threads.com/@harbor.lights/post/${p.code}/media` }, [page(), file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    const item = env.items[0]!;
    expect(item).toMatchObject({ id: 'threads:3712000000000000001', type: 'video', author: 'Harbor Lights', author_handle: 'harbor.lights', author_id: '63100000001', ts: 1789380000, stats: { likes: 5120, comments: 48, shares: 37 } });
    expect(item.url).toBe(`https://www.threads.com/@harbor.lights/post/${p.code}`);
    expect(item.media.map((m) => m.kind)).toEqual(['image', 'video']);
    expect(origin(item.media[0]!.url)).toBe(p.carousel_media[0].image_versions2.candidates[1].url);
    expect(origin(item.media[1]!.url)).toBe(p.carousel_media[1].video_versions[0].url);
    expect(item.media[1]).toMatchObject({ w: 720, h: 1280, duration_s: 8.2 });
    expect(new URL(item.media[1]!.url, 'http://x').searchParams.get('kind')).toBe('video');
    expect(requests).toEqual(['GET https://www.threads.com/', 'POST https://www.threads.com/graphql/query']);
  });

  it('comments: reply threads threaded by parent_id, a second page by the Relay cursor', async () => {
    const { result, requests } = await run('comments', { query: 'DODrFU-QAAB', limit: 50 }, [page(), sand('detail-post-page-3712000000000000001.har'), sand('comments-post-page-3712000000000000001-page2.har')]);
    const res = result as CommentsResult;
    expect(res.source).toBe('live');
    expect(res.total).toBe(48);
    expect(res.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['3712000000000000101', null],
      ['3712000000000000102', '3712000000000000101'],
      ['3712000000000000103', '3712000000000000102'],
      ['3712000000000000201', null],
      ['3712000000000000301', null],
    ]);
    expect(res.items[0]).toMatchObject({ text: 'Those anemones!', likes: 88, reply_total: 2, user_id: '63100000002', handle: 'tidepool.notes', user_name: 'Tidepool Notes', created_at: 1789381000 });
    expect(res.items[3]!.user_name).toBe('north.pier');
    expect(res.has_more).toBe(false);
    expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(2);
  });

  it('comments: the first page alone hands back the next Relay cursor', async () => {
    const { result } = await run('comments', { query: '3712000000000000001', limit: 5 }, [page(), sand('detail-post-page-3712000000000000001.har')]);
    const res = result as CommentsResult;
    expect(res.items).toHaveLength(4);
    expect(res.has_more).toBe(true);
    expect(res.cursor).toBeDefined();
  });

  it('comments replies_of: one reply\'s own replies, each with parent_id = that reply', async () => {
    const { result } = await run('comments', { query: '3712000000000000001', replies_of: '3712000000000000101' }, [page(), sand('comments-replies-of-3712000000000000101.har')]);
    const res = result as CommentsResult;
    expect(res.items).toEqual([expect.objectContaining({ cid: '3712000000000000104', parent_id: '3712000000000000101', text: 'Which pool is the second one?' })]);
    expect(res.total).toBe(2);
  });

  it('user: @handle → hovercard (id) → profile page; bio from the text fragments, the HD avatar', async () => {
    const { result, requests } = await run('user', { query: '@Harbor.Lights' }, [page(), sand('user-hovercard-harbor.lights.har'), sand('user-profile-page-63100000001.har')]);
    const author = (result as CreatorResult).data!.author;
    expect(author).toMatchObject({ id: '63100000001', handle: 'harbor.lights', name: 'Harbor Lights', bio: 'Tide pools, piers and the odd storm. @tidepool.notes', followers: 48210, verified: true, url: 'https://www.threads.com/@harbor.lights' });
    expect(origin(author.avatar!)).toContain('470063100000001_s640');
    expect(requests).toEqual(['GET https://www.threads.com/', 'POST https://www.threads.com/graphql/query', 'POST https://www.threads.com/graphql/query']);
  });

  it('posts: the threads tab walked to its end (max_items -1); a self-thread gives each of its posts', async () => {
    const { result } = await run('posts', { query: 'https://www.threads.net/@harbor.lights', max_items: -1 }, [page(), sand('user-hovercard-harbor.lights.har'), sand('posts-threads-tab-63100000001.har')]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items.map((i) => [i.id, i.type])).toEqual([
      ['threads:3712000000000001001', 'video'],
      ['threads:3712000000000001002', 'text'],
      ['threads:3712000000000001003', 'text'],
      ['threads:3712000000000001004', 'image'],
    ]);
    expect(env.items[0]).toMatchObject({ duration_s: 14.6, aspect: { width: 1080, height: 1920 } });
    expect(env.items[1]!.stats).toEqual({ likes: 402, comments: 30, shares: 5 });
    expect(env.next_cursor).toBeUndefined();
  });

  it('posts: a first page of two carries a cursor that resumes on the second page', async () => {
    const files = [page(), sand('user-hovercard-harbor.lights.har'), sand('posts-threads-tab-63100000001.har')];
    const first = (await run('posts', { query: '@harbor.lights', limit: 3 }, files)).result as Envelope;
    expect(first.items).toHaveLength(3);
    expect(first.next_cursor).toBeDefined();
    const second = (await run('posts', { query: '@harbor.lights', limit: 3, cursor: first.next_cursor }, files)).result as Envelope;
    expect(second.items.map((i) => i.id)).toEqual(['threads:3712000000000001004']);
  });

  it('search with a login: posts from the app\'s serp, rows as threads or bare posts, paged by page_token and rank_token', async () => {
    const { result, requests } = await run('search', { query: 'tide pools', limit: 10 }, [sand('search-posts-tide-pools.har')], { session: LOGIN });
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['threads:3712000000000002001', 'threads:3712000000000002002', 'threads:3712000000000002003']);
    expect(env.items[0]).toMatchObject({ type: 'image', author_handle: 'tidepool.notes' });
    const second = new URL(requests[1]!.slice(4));
    expect(Object.fromEntries(second.searchParams)).toMatchObject({ page_token: 'SandboxSerpToken2', page_num: '1', rank_token: '6f1c2d3e-sandbox-rank', search_surface: 'ig_text_search_serp_top', recent: '0' });
  });

  it('search users: an account that never joined Threads is left out', async () => {
    const { result } = await run('search', { query: 'harbor', type: 'users' }, [sand('search-users-harbor.har')], { session: LOGIN });
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['threads:@harbor.lights']);
  });

  it('probe: accounts/current_user answers the login → ok; no login → session_expired without a request', async () => {
    const { probeCtx } = await import('../helpers/probe-ctx.js');
    expect(await threads.probe!(probeCtx(threads, [sand('probe-current-user.har')], LOGIN.cookies))).toBe('ok');
    expect(await threads.probe!(probeCtx(threads, []))).toBe('session_expired');
  });
});

describe('threads on the hand-made error answers', () => {
  const page = () => sand('session-page.har');

  it('an unknown doc_id is a stale operation naming the operation, its id and the refresh command', async () => {
    const { result, warnings } = await run('detail', { query: '3712000000000009001' }, [page(), sand('error-stale-doc-id.har')]);
    const env = result as Envelope;
    expect(env.error?.code).toBe('upstream_error');
    expect(env.error?.message).toContain('BarcelonaPostPageDirectQuery (doc_id 35009275178687016) is unknown to the platform');
    expect(env.error?.message).toContain('npx crawler platforms refresh threads');
    expect(env.error?.message).toContain('CRAWLER_THREADS_OPS');
    expect(warnings.join(' ')).toContain('BarcelonaPostPageDirectQuery');
  });

  it('a page instead of JSON: the session is minted once more, then blocked (never empty)', async () => {
    const { result, requests, warnings } = await run('detail', { query: '3712000000000009002' }, [page(), sand('error-token-refused.har')]);
    const env = result as Envelope;
    expect(env.source).toBe('blocked');
    expect(env.error?.code).toBe('blocked');
    expect(requests.filter((r) => r === 'GET https://www.threads.com/')).toHaveLength(2);
    expect(warnings.join(' ')).toMatch(/minted again/);
  });

  it('HTTP 429 is rate_limited', async () => {
    const { result } = await run('detail', { query: '3712000000000009003' }, [page(), sand('error-rate-limited.har')]);
    expect((result as Envelope).error?.code).toBe('rate_limited');
  });

  it('a post page without edges is not_found; an unknown handle is not_found', async () => {
    expect(((await run('detail', { query: '3712000000000009004' }, [page(), sand('error-post-not-found.har')])).result as Envelope).error?.code).toBe('not_found');
    expect(((await run('user', { query: '@no.such.sandbox.user' }, [page(), sand('error-user-not-found.har')])).result as CreatorResult).error?.code).toBe('not_found');
  });

  it('the app: login_required is session_expired, "Please wait a few minutes" rate_limited, checkpoint_required blocked', async () => {
    expect(((await run('posts', { query: '63100000005' }, [page(), sand('error-app-login-required.har')], { session: LOGIN })).result as Envelope).error?.code).toBe('session_expired');
    expect(((await run('search', { query: 'wait', type: 'users' }, [sand('error-app-please-wait.har')], { session: LOGIN })).result as Envelope).error?.code).toBe('rate_limited');
    const blocked = (await run('search', { query: 'checkpoint', type: 'users' }, [sand('error-app-checkpoint.har')], { session: LOGIN })).result as Envelope;
    expect(blocked.error?.code).toBe('blocked');
    expect(blocked.source).toBe('blocked');
  });

  it('the whole sandbox together answers each action from its own recording', async () => {
    const d = (await run('detail', { query: '3712000000000000001' }, [SANDBOX])).result as Envelope;
    expect(d.items[0]!.id).toBe('threads:3712000000000000001');
    const u = (await run('user', { query: 'harbor.lights' }, [SANDBOX])).result as CreatorResult;
    expect(u.data!.author.id).toBe('63100000001');
    const gone = (await run('posts', { query: '63100000005' }, [SANDBOX], { session: LOGIN })).result as Envelope;
    expect(gone.error?.code).toBe('session_expired');
  });
});

describe('threads bad input', () => {
  it.each([
    ['detail', { query: 'https://www.instagram.com/p/CuXRXDdNOtH/' }],
    ['detail', { query: 'https://www.threads.com/@zuck' }],
    ['user', { query: 'https://www.threads.com/explore' }],
    ['posts', { query: 'not a handle!' }],
    ['comments', { query: 'CuXRXDdNOtH', replies_of: 'https://x.com/a/status/1' }],
  ])('%s %j is invalid_request before any request', async (action, params) => {
    const { result, requests } = await run(action, params, [SANDBOX]);
    expect((result as { error?: { code: string } }).error?.code).toBe('invalid_request');
    expect(requests).toEqual([]);
  });
  it.each([
    ['search', { query: 'tide', type: 'hashtags' }],
    ['comments', { query: 'CuXRXDdNOtH', sort: 'oldest' }],
  ])('%s %j is refused by the catalog (enum)', async (action, params) => {
    await expect(run(action, params, [SANDBOX], { session: LOGIN })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  // refresh-pages-and-bundles.har is read by test/unit/threads-ops.test.ts (the refresh runs outside any action).
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har') && f !== 'refresh-pages-and-bundles.har').filter((f) => !usedSandbox.has(f))).toEqual([]);
});
