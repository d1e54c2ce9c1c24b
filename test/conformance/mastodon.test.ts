import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult, WriteResult } from '../../src/domain/results.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every mastodon recording, replayed through the real catalog validation, adapter and runner normalization.
 * The real recordings come from a development server at http://localhost:3000, which a caller can never name
 * in live mode (params.instance takes public hostnames only): a profile bound to that server reaches it, as in
 * production. In replay mode a caller may name it, since no request leaves the process.
 * Hand-made sandbox recordings (sandbox/mastodon) cover what no real recording does.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/mastodon');
const SANDBOX = resolve(process.cwd(), 'sandbox/mastodon');
const used = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => resolve(SANDBOX, name);
const entries = (file: string): any[] => JSON.parse(readFileSync(file, 'utf8')).log.entries;
const body = (file: string, i = 0): any => JSON.parse(entries(file)[i].response.content.text);
const form = (file: string, i = 0): URLSearchParams => new URLSearchParams(entries(file)[i].request.postData.text);

const DEV = { instance: 'http://localhost:3000' };
const DEV_LOGIN = { ...DEV, access_token: 'recorded-token-was-dropped' };
const run = (action: string, params: Record<string, unknown>, replay: string[], credentials?: Record<string, string>) =>
  runAction({ source: 'mastodon', action, params, replay, session: credentials ? { credentials } : undefined });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=mastodon&profile=default`;
const unix = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

describe('replay mode: a caller may name the recorded development server (nothing reaches a network)', () => {
  const replayRun = (action: string, params: Record<string, unknown>, file: string) =>
    runAction({ source: 'mastodon', action, params, replay: [real(file)], replayMode: true });

  it('takes params.instance localhost:3000 and status URLs on it, with no profile', async () => {
    const user = await replayRun('user', { query: 'mastodonpy_test', instance: 'localhost:3000' }, 'user-account-lookup.har');
    expect(user.requests[0]).toBe('GET https://localhost:3000/api/v1/accounts/lookup?acct=mastodonpy_test');
    expect(user.result).toMatchObject({ ok: true, source: 'live', data: { author: { handle: 'mastodonpy_test@localhost:3000' } } });
    const detail = await replayRun('detail', { query: 'http://localhost:3000/@mastodonpy_test/117020583223442465' }, 'detail-status.har');
    expect((detail.result as Envelope).items[0].id).toBe('mastodon:localhost:3000/117020583223442465');
    const gone = await replayRun('user', { query: 'kljadklajsdkljlkjlkjlkjasdasd', instance: 'localhost:3000' }, 'error-account-not-found-404.har');
    expect(gone.result).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('still refuses what is not a server name', async () => {
    for (const instance of ['http://localhost:3000', 'a b', 'user@host', 'host/path']) {
      const { result, requests } = await replayRun('user', { query: 'x', instance }, 'user-account-lookup.har');
      expect(requests).toEqual([]);
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
  });
});

describe('mastodon.detail (detail-status.har)', () => {
  const file = () => real('detail-status.har');

  it('reads the recorded status field by field', async () => {
    const { result, requests } = await run('detail', { query: '117020583223442465' }, [file()], DEV);
    const s = body(file(), 1);
    expect(requests).toEqual(['GET http://localhost:3000/api/v1/statuses/117020583223442465']);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 1 });
    expect(env.items[0]).toEqual({
      id: 'mastodon:localhost:3000/117020583223442465',
      type: 'text',
      provider: 'mastodon',
      text: 'Toot!',
      author: s.account.display_name,
      author_id: s.account.id,
      author_handle: 'mastodonpy_test@localhost:3000',
      author_url: 'https://localhost:3000/@mastodonpy_test',
      url: s.url,
      media: [],
      ts: unix(s.created_at),
      stats: { likes: s.favourites_count, comments: s.replies_count, shares: s.reblogs_count },
      provenance: 'live',
    });
  });

  it('takes the status URL (its server is the profile server) and the native id form', async () => {
    for (const query of ['http://localhost:3000/@mastodonpy_test/117020583223442465', 'mastodon:localhost:3000/117020583223442465']) {
      const { result, requests } = await run('detail', { query }, [file()], DEV);
      expect(requests).toEqual(['GET http://localhost:3000/api/v1/statuses/117020583223442465']);
      expect((result as Envelope).items[0].id).toBe('mastodon:localhost:3000/117020583223442465');
    }
  });

  it('refuses a local-network server named by the caller, before any request', async () => {
    const { result, requests } = await run('detail', { query: 'http://localhost:3000/@mastodonpy_test/117020583223442465' }, [file()]);
    expect(requests).toEqual([]);
    expect((result as Envelope).error?.code).toBe('invalid_request');
  });

  it('the recording also holds the post and the delete around it', async () => {
    const posted = (await run('post.create', { text: form(file()).get('status'), confirm: true }, [file()], DEV_LOGIN)).result as WriteResult;
    expect(posted).toMatchObject({ ok: true, state: 'published', url: body(file(), 0).url, target: 'localhost:3000/117020583223442465' });
    const deleted = (await run('delete', { target: '117020583223442465', confirm: true }, [file()], DEV_LOGIN)).result as WriteResult;
    expect(deleted).toMatchObject({ ok: true, state: 'deleted', url: body(file(), 2).url, target: 'localhost:3000/117020583223442465' });
  });
});

describe('mastodon.comments (comments-status-context-empty.har)', () => {
  const file = () => real('comments-status-context-empty.har');

  it('an empty descendants list is an honest empty', async () => {
    const { result, requests } = await run('comments', { query: 'http://localhost:3000/@mastodonpy_test/117020585487094447' }, [file()], DEV);
    expect(body(file(), 1)).toEqual({ ancestors: [], descendants: [] });
    expect(requests).toEqual(['GET http://localhost:3000/api/v1/statuses/117020585487094447/context']);
    expect(result as CommentsResult).toMatchObject({ source: 'empty', total: 0, has_more: false, items: [] });
    expect((result as CommentsResult).error).toBeUndefined();
  });

  it('replays the recorded post and delete', async () => {
    const posted = (await run('post.create', { text: 'Toot!', confirm: true }, [file()], DEV_LOGIN)).result as WriteResult;
    expect(posted).toMatchObject({ state: 'published', target: 'localhost:3000/117020585487094447', url: body(file(), 0).url });
    const deleted = (await run('delete', { target: body(file(), 2).url, confirm: true }, [file()], DEV_LOGIN)).result as WriteResult;
    expect(deleted).toMatchObject({ state: 'deleted', target: body(file(), 2).url });
  });
});

describe('mastodon.posts (posts-account-statuses-paged.har)', () => {
  const file = () => real('posts-account-statuses-paged.har');
  const ids = (i: number) => body(file(), i).map((s: any) => `mastodon:localhost:3000/${s.id}`);

  it('reads the first page and takes the Link header max_id as the cursor', async () => {
    const { result, requests } = await run('posts', { query: '117020565966271181', limit: 5 }, [file()], DEV);
    expect(requests).toEqual(['GET http://localhost:3000/api/v1/accounts/117020565966271181/statuses?limit=5']);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 5 });
    expect(env.items.map((i) => i.id)).toEqual(ids(0));
    const s = body(file(), 0)[0];
    expect(env.items[0]).toEqual({
      id: `mastodon:localhost:3000/${s.id}`,
      type: 'text',
      provider: 'mastodon',
      text: 'Toot number 9!',
      author: 'John Lennon',
      author_id: '117020565966271181',
      author_handle: 'mastodonpy_test@localhost:3000',
      author_url: 'https://localhost:3000/@mastodonpy_test',
      url: 'http://localhost:3000/@mastodonpy_test/117020580518794573',
      media: [],
      ts: unix(s.created_at),
      stats: { likes: 0, comments: 0, shares: 0 },
      provenance: 'live',
    });
    expect(env.items.map((i) => i.text)).toEqual(['Toot number 9!', 'Toot number 8!', 'Toot number 7!', 'Toot number 6!', 'Toot number 5!']);
    expect(env.next_cursor).toBeTruthy();

    const second = await run('posts', { query: '117020565966271181', limit: 5, cursor: env.next_cursor }, [file()], DEV);
    expect(second.requests).toEqual(['GET http://localhost:3000/api/v1/accounts/117020565966271181/statuses?limit=5&max_id=117020580489281910']);
    expect((second.result as Envelope).items.map((i) => i.id)).toEqual(ids(1));
    expect((second.result as Envelope).items.map((i) => i.text)).toEqual(['Toot number 4!', 'Toot number 3!', 'Toot number 2!', 'Toot number 1!', 'Toot number 0!']);
  });

  it('walks with max_items and keeps what the recordings hold when they end', async () => {
    const ten = await run('posts', { query: '117020565966271181', max_items: 10 }, [file()], DEV);
    expect(ten.requests).toHaveLength(2);
    expect((ten.result as Envelope).items.map((i) => i.id)).toEqual([...ids(0), ...ids(1)]);

    const all = await run('posts', { query: '117020565966271181', max_items: -1 }, [file()], DEV);
    const env = all.result as Envelope;
    expect(env.count).toBe(10);
    expect(all.requests[2]).toBe('GET http://localhost:3000/api/v1/accounts/117020565966271181/statuses?limit=40&max_id=117020580452511285');
    expect(all.warnings.join(' ')).toMatch(/stopped after 2 page\(s\)/);
    expect(env.next_cursor).toBeTruthy();
  });

  it('resolves a username through /api/v1/accounts/lookup first', async () => {
    const { result, requests } = await run('posts', { query: '@mastodonpy_test', limit: 5 }, [real('user-account-lookup.har'), file()], DEV);
    expect(requests).toEqual([
      'GET http://localhost:3000/api/v1/accounts/lookup?acct=mastodonpy_test',
      'GET http://localhost:3000/api/v1/accounts/117020565966271181/statuses?limit=5',
    ]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(ids(0));
  });

  it('the rel=prev (min_id) page the recording also holds parses to the newest page', async () => {
    // The adapter never asks for newer pages; the recorded body is still a Status list like the others.
    expect(body(file(), 2).map((s: any) => s.id)).toEqual(body(file(), 0).map((s: any) => s.id));
  });
});

describe('mastodon.user (user-account-lookup.har)', () => {
  const file = () => real('user-account-lookup.har');

  it('maps the Account entity to the author, field by field', async () => {
    const a = body(file(), 0);
    for (const query of ['mastodonpy_test', '@mastodonpy_test@localhost:3000', 'http://localhost:3000/@mastodonpy_test']) {
      const { result, requests } = await run('user', { query }, [file()], DEV);
      expect(requests).toEqual(['GET http://localhost:3000/api/v1/accounts/lookup?acct=mastodonpy_test']);
      expect(result as CreatorResult).toEqual({
        ok: true,
        source: 'live',
        items: [],
        ms: expect.any(Number),
        data: {
          platform: 'mastodon',
          author: {
            id: a.id,
            source: 'mastodon',
            handle: 'mastodonpy_test@localhost:3000',
            name: 'John Lennon',
            bio: 'I walk funny',
            avatar: image(a.avatar),
            url: 'http://localhost:3000/@mastodonpy_test',
            followers: a.followers_count,
            following: a.following_count,
            posts: a.statuses_count,
          },
        },
      });
    }
  });

  it('the user@server lookup the recording also holds answers the same account', () => {
    expect(entries(file())[1].request.url).toContain('acct=mastodonpy_test%40localhost%3A3000');
    expect(body(file(), 1).id).toBe(body(file(), 0).id);
  });
});

describe('mastodon.search (search-accounts.har)', () => {
  const file = () => real('search-accounts.har');

  it('type=accounts: accounts as text cards, anonymously', async () => {
    const { result, requests } = await run('search', { query: 'mastodonpy_test', type: 'accounts' }, [file()], DEV);
    expect(requests).toEqual(['GET http://localhost:3000/api/v2/search?q=mastodonpy_test&type=accounts&limit=24']);
    const env = result as Envelope;
    const [a, b] = body(file(), 0).accounts;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 2 });
    expect(env.items[0]).toEqual({
      id: 'mastodon:localhost:3000/@mastodonpy_test',
      type: 'text',
      provider: 'mastodon',
      title: 'John Lennon',
      text: 'I walk funny',
      author: 'John Lennon',
      author_id: a.id,
      author_handle: 'mastodonpy_test@localhost:3000',
      author_url: 'https://localhost:3000/@mastodonpy_test',
      url: a.url,
      thumb: image(a.avatar_static),
      media: [],
      ts: unix(a.created_at),
      stats: {},
      provenance: 'live',
    });
    // An empty display name falls back to the username; an empty note is no text.
    expect(env.items[1]).toMatchObject({ id: 'mastodon:localhost:3000/@mastodonpy_test_2', title: 'mastodonpy_test_2', author_id: b.id });
    expect(env.items[1].text).toBeUndefined();
  });

  it('type=statuses with a login: the recorded empty list is an honest empty', async () => {
    const { result, requests } = await run('search', { query: 'mastodonpy_test' }, [file()], DEV_LOGIN);
    expect(requests).toEqual(['GET http://localhost:3000/api/v2/search?q=mastodonpy_test&type=statuses&limit=24&resolve=true']);
    expect(body(file(), 2).statuses).toEqual([]);
    expect(result as Envelope).toMatchObject({ ok: true, source: 'empty', count: 0 });
  });

  it('type=statuses without a login says so instead of answering an empty list', async () => {
    const { result, requests } = await run('search', { query: 'mastodonpy_test' }, [file()], DEV);
    expect(requests).toEqual([]);
    expect(result as Envelope).toMatchObject({ ok: false, source: 'live', error: { code: 'session_expired' } });
  });
});

/** A HAR of hand-written answers, for shapes no fixture holds. */
function handHar(entries: Array<{ url: string; status: number; body: string; type?: string }>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mastodon-hand-')), 'hand.har');
  const log = {
    version: '1.2',
    entries: entries.map((e) => ({
      request: { method: 'GET', url: e.url },
      response: { status: e.status, headers: [{ name: 'content-type', value: e.type ?? 'application/json; charset=utf-8' }], content: { text: e.body } },
    })),
  };
  writeFileSync(file, JSON.stringify({ log }));
  return file;
}

describe('mastodon.search on a server older than 2.4.1 (only /api/v1/search)', () => {
  it('falls back to v1 search when v2 is missing, and reads its accounts', async () => {
    const account = { id: '42', username: 'oldtimer', acct: 'oldtimer', display_name: 'Old Timer', note: '<p>hello from 2018</p>', url: 'https://old.example/@oldtimer', created_at: '2018-01-02T00:00:00.000Z' };
    const file = handHar([
      { url: 'https://old.example/api/v2/search?q=oldtimer', status: 404, body: '<html><body>The page you were looking for does not exist.</body></html>', type: 'text/html' },
      { url: 'https://old.example/api/v1/search?q=oldtimer', status: 200, body: JSON.stringify({ accounts: [account], statuses: [], hashtags: ['oldtag'] }) },
    ]);
    const { result, requests } = await run('search', { query: 'oldtimer', type: 'accounts', instance: 'old.example' }, [file]);
    expect(requests.map((r) => new URL(r.split(' ')[1]).pathname)).toEqual(['/api/v2/search', '/api/v1/search']);
    expect(result).toMatchObject({
      ok: true,
      source: 'live',
      count: 1,
      items: [{ id: 'mastodon:old.example/@oldtimer', title: 'Old Timer', text: 'hello from 2018', author_handle: 'oldtimer@old.example' }],
    });
  });
});

describe('mastodon.hot and trending (trending-statuses-empty.har)', () => {
  const file = () => real('trending-statuses-empty.har');

  it('hot: an empty trends list is an honest empty', async () => {
    const { result, requests } = await run('hot', {}, [file()], DEV);
    expect(requests).toEqual(['GET http://localhost:3000/api/v1/trends/statuses?limit=24']);
    expect(body(file())).toEqual([]);
    expect(result as Envelope).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });
  });

  it('trending: tags first, then the legacy alias, then trending posts (empty here)', async () => {
    const { result, requests, warnings } = await run('trending', {}, [file()], DEV);
    expect(requests).toEqual([
      'GET http://localhost:3000/api/v1/trends/tags?limit=20',
      'GET http://localhost:3000/api/v1/trends?limit=20',
      'GET http://localhost:3000/api/v1/trends/statuses?limit=20',
    ]);
    expect(result as TrendResult).toMatchObject({ ok: true, source: 'empty', data: { platform: 'mastodon', trends: [] } });
    expect(warnings.join(' ')).toMatch(/did not serve trending tags/);
  });
});

describe('mastodon.recommended and hot (hot-public-timeline-anonymous.har)', () => {
  const file = () => real('hot-public-timeline-anonymous.har');
  const timeline = () => body(file(), 2);

  it('recommended federated: the public timeline, anonymously, with entities decoded and mentions as text', async () => {
    const { result, requests, warnings } = await run('recommended', { category: 'federated' }, [file()], DEV);
    expect(requests[0]).toBe('GET http://localhost:3000/api/v1/timelines/public?limit=24');
    // The recorded Link header names the next page; the recording ends there.
    expect(requests[1]).toBe('GET http://localhost:3000/api/v1/timelines/public?limit=24&max_id=117020574694606796');
    expect(warnings.join(' ')).toMatch(/stopped after 1 page/);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 8 });
    expect(env.items.map((i) => i.id)).toEqual(timeline().map((s: any) => `mastodon:localhost:3000/${s.id}`));
    expect(env.items.map((i) => i.text)).toEqual([
      'Toot, finally!',
      "you can't say that on television",
      "it's cool guy too",
      "on the internet, nobody knows you're a plane",
      "@mastodonpy_test beep beep I'm a jeep",
      'the best editor? why, of course it is the KDE Advanced Text Editor, Kate',
      'nice',
      'I have never stolen a ham in my life.',
    ]);
    // An account without a display name is shown by its username.
    expect(env.items[0]).toMatchObject({ author: 'mastodonpy_test_2', author_handle: 'mastodonpy_test_2@localhost:3000', author_id: '117020566092212359' });
    expect(env.items[1]).toMatchObject({ author: 'admin', author_url: 'https://localhost:3000/@admin', ts: unix(timeline()[1].created_at), type: 'text' });
    expect(env.next_cursor).toBeTruthy();
  });

  it('recommended local asks for local=true (the recorded federated answer is the nearest)', async () => {
    const { requests } = await run('recommended', { limit: 8 }, [file()], DEV);
    expect(requests).toEqual(['GET http://localhost:3000/api/v1/timelines/public?local=true&limit=8']);
  });

  it('hot falls back to the public timeline when trending posts cannot be had, and says so', async () => {
    const { result, requests, warnings } = await run('hot', { limit: 8 }, [file()], DEV);
    expect(requests).toEqual(['GET http://localhost:3000/api/v1/trends/statuses?limit=8', 'GET http://localhost:3000/api/v1/timelines/public?limit=8']);
    expect((result as Envelope).items).toHaveLength(8);
    expect(warnings.join(' ')).toMatch(/did not serve trending posts/);
  });

  it('replays the recorded post and delete (the /api/v2/instance probe is not needed)', async () => {
    const posted = (await run('post.create', { text: 'Toot, finally!', confirm: true }, [file()], DEV_LOGIN)).result as WriteResult;
    expect(posted).toMatchObject({ state: 'published', url: body(file(), 0).url, target: 'localhost:3000/117020593134559451' });
    const deleted = (await run('delete', { target: '117020593134559451', confirm: true }, [file()], DEV_LOGIN)).result as WriteResult;
    expect(deleted).toMatchObject({ state: 'deleted', url: body(file(), 3).url });
    expect(body(file(), 1).domain).toBe('localhost:3000');
  });
});

describe('mastodon writes (write-status-post-delete.har, write-status-reply.har)', () => {
  it('post.create sends the form with the Idempotency-Key and reads the new status', async () => {
    const file = real('write-status-post-delete.har');
    const { result, requests } = await run('post.create', { text: 'Toot!', visibility: 'public', idempotency_key: 'k-1', confirm: true }, [file], DEV_LOGIN);
    expect(requests).toEqual(['POST http://localhost:3000/api/v1/statuses']);
    const created = body(file, 0);
    expect(result as WriteResult).toEqual({
      ok: true,
      state: 'published',
      url: created.url,
      target: `localhost:3000/${created.id}`,
      source: 'mastodon',
      ms: expect.any(Number),
    });
  });

  it('delete answers deleted with the status URL', async () => {
    const file = real('write-status-post-delete.har');
    const { result, requests } = await run('delete', { target: 'localhost:3000/117020585924712638', confirm: true }, [file], DEV_LOGIN);
    expect(requests).toEqual(['DELETE http://localhost:3000/api/v1/statuses/117020585924712638']);
    expect(result as WriteResult).toMatchObject({ ok: true, state: 'deleted', url: body(file, 1).url, target: 'localhost:3000/117020585924712638' });
  });

  it('comment.create replies with in_reply_to_id; the recorded post, reply and both deletes replay', async () => {
    const file = real('write-status-reply.har');
    expect(form(file, 2).get('in_reply_to_id')).toBe('117020583245459824');
    const reply = await run('comment.create', { target: 'http://localhost:3000/@mastodonpy_test_2/117020583245459824', text: '@mastodonpy_test_2 same!', visibility: 'public', confirm: true }, [file], DEV_LOGIN);
    expect(reply.requests).toEqual(['POST http://localhost:3000/api/v1/statuses']);
    expect(reply.result as WriteResult).toMatchObject({ ok: true, state: 'published', url: 'http://localhost:3000/@admin/117020583258292382', target: 'localhost:3000/117020583258292382' });
    expect(body(file, 2).in_reply_to_id).toBe('117020583245459824');

    const parent = await run('post.create', { text: 'Toot, finally!', confirm: true }, [file], DEV_LOGIN);
    expect(parent.result as WriteResult).toMatchObject({ state: 'published', target: 'localhost:3000/117020583245459824' });
    for (const [target, i] of [['117020583258292382', 3], ['117020583245459824', 4]] as const) {
      const del = await run('delete', { target, confirm: true }, [file], DEV_LOGIN);
      expect(del.result as WriteResult).toMatchObject({ state: 'deleted', url: body(file, i).url });
    }
    // verify_credentials (#1) is the test suite checking its login; the adapter needs no such probe.
    expect(body(file, 1).username).toBe('admin');
  });

  it('dry_run plans without a request, naming the profile server', async () => {
    const { result, requests } = await run('comment.create', { target: '117020583245459824', text: 'hi', dry_run: true }, [real('write-status-reply.har')], DEV_LOGIN);
    expect(requests).toEqual([]);
    expect(result as WriteResult).toMatchObject({ ok: true, state: 'planned', target: 'localhost:3000/117020583245459824' });
  });

  it('a write without a stored token is session_expired, never attempted', async () => {
    const { result, requests } = await run('post.create', { text: 'Toot!', confirm: true }, [real('write-status-post-delete.har')], DEV);
    expect(requests).toEqual([]);
    expect(result as WriteResult).toMatchObject({ ok: false, state: 'session_expired', error: { code: 'session_expired' } });
  });
});

describe('mastodon error recordings', () => {
  it('error-account-not-found-404: lookup 404 is not_found for user and posts', async () => {
    const file = real('error-account-not-found-404.har');
    const user = await run('user', { query: 'kljadklajsdkljlkjlkjlkjasdasd' }, [file], DEV);
    expect(user.requests).toEqual(['GET http://localhost:3000/api/v1/accounts/lookup?acct=kljadklajsdkljlkjlkjlkjasdasd']);
    expect(user.result as CreatorResult).toMatchObject({ ok: false, source: 'live', error: { code: 'not_found', retryable: false } });
    expect((user.result as CreatorResult).error!.message).toContain('Record not found');
    const posts = await run('posts', { query: '@kljadklajsdkljlkjlkjlkjasdasd' }, [file], DEV);
    expect(posts.result as Envelope).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'not_found' } });
  });

  it('error-invalid-token-401: the home timeline with a dead token is session_expired', async () => {
    const file = real('error-invalid-token-401.har');
    const { result, requests } = await run('recommended', { category: 'home' }, [file], DEV_LOGIN);
    expect(requests).toEqual(['GET http://localhost:3000/api/v1/timelines/home?limit=24']);
    expect(result as Envelope).toMatchObject({ ok: false, source: 'live', error: { code: 'session_expired' } });
    expect((result as Envelope).error!.message).toContain('The access token is invalid');
  });

  it('error-validation-422-localized: the server refusing the text is rejected with its own (localized) words', async () => {
    const file = real('error-validation-422-localized.har');
    const recorded = form(file, 0).get('status')!;
    // The recorded text is longer than the catalog's 2048-character string cap; any text over the server's 500 fits.
    const text = recorded.slice(0, 600);
    expect(text.length).toBeGreaterThan(500);
    const { result, requests } = await run('post.create', { text, confirm: true }, [file], DEV_LOGIN);
    expect(requests).toEqual(['POST http://localhost:3000/api/v1/statuses']);
    expect(result as WriteResult).toMatchObject({ ok: false, state: 'rejected', error: { code: 'invalid_request', message: body(file, 0).error } });
    expect(body(file, 0).error).toBe('バリデーションに失敗しました: Text上限は500文字です');
    expect(body(file, 1).error).toMatch(/^Gültigkeitsprüfung ist fehlgeschlagen/);
  });
});

describe('mastodon sandbox recordings (hand-made)', () => {
  const S = [SANDBOX];
  const LOGIN = { access_token: 'sandbox-token' };

  it('every sandbox entry is marked hand-made', () => {
    for (const name of readdirSync(SANDBOX).filter((f) => f.endsWith('.har'))) {
      for (const e of entries(sand(name))) expect(e.comment).toMatch(/^hand-made sandbox recording:/);
    }
  });

  it('posts: lookup, then two pages; image, video and gifv media with sizes and durations; a boost shows the boosted post', async () => {
    const { result, requests } = await run('posts', { query: '@river_otter@mastodon.social', max_items: -1 }, S);
    expect(requests).toEqual([
      'GET https://mastodon.social/api/v1/accounts/lookup?acct=river_otter',
      'GET https://mastodon.social/api/v1/accounts/109302746581234567/statuses?limit=40',
      'GET https://mastodon.social/api/v1/accounts/109302746581234567/statuses?limit=40&max_id=113500000000000150',
    ]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 6 });
    expect(env.next_cursor).toBeUndefined();
    const page = body(sand('posts-river_otter-pages.har'), 0);
    const [photo, clip, gif, boost] = env.items;
    const p0 = page[0].media_attachments;
    expect(photo).toMatchObject({
      id: 'mastodon:mastodon.social/113500000000000400',
      type: 'image',
      author: 'River Otter Photos 🦦',
      author_handle: 'river_otter@mastodon.social',
      author_url: 'https://mastodon.social/@river_otter',
      url: 'https://mastodon.social/@river_otter/113500000000000400',
      thumb: image(p0[0].preview_url),
      aspect: { width: 4032, height: 3024 },
      stats: { likes: 87, comments: 3, shares: 14 },
      ts: unix('2026-11-20T07:15:42.000Z'),
    });
    expect(photo.text).toBe('Two otters sharing one rock this morning. #otters #wildlife\n\nFull set: https://example.org/albums/otters-2026-11');
    expect(photo.media).toEqual([
      { kind: 'image', url: image(p0[0].url), w: 4032, h: 3024 },
      { kind: 'image', url: image(p0[1].url), w: 3024, h: 4032 },
    ]);
    expect(clip).toMatchObject({ type: 'video', title: 'otters being loud', text: 'Listen to them squeak 🔊', duration_s: 14.52, aspect: { width: 1920, height: 1080 } });
    expect(clip.media).toEqual([{ kind: 'video', url: video(page[1].media_attachments[0].url), w: 1920, h: 1080, duration_s: 14.52 }]);
    expect(clip.thumb).toBe(image(page[1].media_attachments[0].preview_url));
    expect(gif).toMatchObject({ type: 'video', duration_s: 3.2, media: [{ kind: 'video', w: 480, h: 270, duration_s: 3.2 }] });
    expect(boost).toMatchObject({
      id: 'mastodon:mastodon.social/113499990000000000',
      author_handle: 'kelp_forest@fosstodon.org',
      author_url: 'https://fosstodon.org/@kelp_forest',
      url: 'https://fosstodon.org/@kelp_forest/112233445566778899',
      stats: { likes: 120, comments: 4, shares: 31 },
    });
    expect(env.items[4].text).toBe('Question for @kelp_forest: how deep do the otters dive there?');
  });

  it('user, detail and comments (threaded by in_reply_to_id)', async () => {
    const user = (await run('user', { query: 'https://mastodon.social/@river_otter' }, S)).result as CreatorResult;
    expect(user.data!.author).toMatchObject({ id: '109302746581234567', handle: 'river_otter@mastodon.social', bio: 'Otters, rivers & the occasional heron.\nPhotos by a hobbyist.', followers: 4821, following: 212, posts: 1375 });

    const detail = (await run('detail', { query: 'https://mastodon.social/@river_otter/113500000000000300' }, S)).result as Envelope;
    expect(detail.items).toHaveLength(1);
    expect(detail.items[0]).toMatchObject({ id: 'mastodon:mastodon.social/113500000000000300', type: 'video', duration_s: 14.52 });
    expect(detail.items[0].media[0].url).toContain('kind=video');

    const { result, requests } = await run('comments', { query: 'https://mastodon.social/@river_otter/113500000000000400' }, S);
    expect(requests).toEqual(['GET https://mastodon.social/api/v1/statuses/113500000000000400/context']);
    const c = result as CommentsResult;
    expect(c).toMatchObject({ source: 'live', total: 4, has_more: false });
    expect(c.items.map((x) => [x.cid, x.parent_id])).toEqual([
      ['113500000000000410', undefined],
      ['113500000000000420', '113500000000000410'],
      ['113500000000000440', '113500000000000420'],
      ['113500000000000430', undefined],
    ]);
    expect(c.items[0]).toEqual({
      cid: '113500000000000410',
      text: '@river_otter gorgeous light!',
      likes: 4,
      reply_total: 1,
      user_id: '109400000000000001',
      handle: 'kelp_forest@fosstodon.org',
      user_name: 'Kelp Forest',
      created_at: unix('2026-11-20T07:40:00.000Z'),
      source: 'mastodon',
      url: 'https://fosstodon.org/@kelp_forest/112233445566779001',
    });
    expect(c.items[3]).toMatchObject({ handle: 'tidepool@mastodon.social', user_name: 'tidepool' });
  });

  it('search accounts anonymously, posts with a login, and an honest empty', async () => {
    const accounts = (await run('search', { query: 'otter', type: 'accounts', limit: 20 }, S)).result as Envelope;
    expect(accounts.items.map((i) => [i.id, i.author_handle])).toEqual([
      ['mastodon:mastodon.social/@river_otter', 'river_otter@mastodon.social'],
      ['mastodon:mastodon.social/@otterly@mas.to', 'otterly@mas.to'],
    ]);
    const posts = await run('search', { query: 'otter', limit: 20 }, S, LOGIN);
    expect(posts.requests).toEqual(['GET https://mastodon.social/api/v2/search?q=otter&type=statuses&limit=20&resolve=true']);
    expect((posts.result as Envelope).items.map((i) => i.id)).toEqual(['mastodon:mastodon.social/113500000000000400']);
    const none = (await run('search', { query: 'zzzxqj', type: 'accounts' }, S)).result as Envelope;
    expect(none).toMatchObject({ ok: true, source: 'empty', count: 0 });
  });

  it('hot, trending and the three recommended feeds', async () => {
    const hot = (await run('hot', {}, S)).result as Envelope;
    expect(hot.items.map((i) => [i.id, i.stats.likes])).toEqual([
      ['mastodon:mastodon.social/113500000000000600', 512],
      ['mastodon:mastodon.social/113500000000000400', 87],
    ]);

    const trending = (await run('trending', {}, S)).result as TrendResult;
    expect(trending.data!.trends).toEqual([
      { word: '#otters', source: 'mastodon', rank: 1, hot_value: 340, url: 'https://mastodon.social/tags/otters' },
      { word: '#wildlife', source: 'mastodon', rank: 2, hot_value: 323, url: 'https://mastodon.social/tags/wildlife' },
      { word: '#KelpForest', source: 'mastodon', rank: 3, hot_value: 17, url: 'https://mastodon.social/tags/KelpForest' },
    ]);

    const local = await run('recommended', {}, S);
    expect(local.requests).toEqual([
      'GET https://mastodon.social/api/v1/timelines/public?local=true&limit=24',
      'GET https://mastodon.social/api/v1/timelines/public?local=true&limit=24&max_id=113500000000000400',
    ]);
    expect((local.result as Envelope).items.map((i) => i.id)).toEqual(['mastodon:mastodon.social/113500000000000430', 'mastodon:mastodon.social/113500000000000400']);
    expect(local.warnings).toEqual([]);

    const federated = (await run('recommended', { category: 'federated' }, S)).result as Envelope;
    expect(federated.items.map((i) => i.author_handle)).toEqual(['otterly@mas.to', 'kelp_forest@fosstodon.org', 'tidepool@mastodon.social']);

    const home = await run('recommended', { category: 'home' }, S);
    expect(home.requests).toEqual([]);
    expect((home.result as Envelope).error?.code).toBe('session_expired');
    const homeIn = (await run('recommended', { category: 'home' }, S, LOGIN)).result as Envelope;
    expect(homeIn.items.map((i) => i.id)).toEqual(['mastodon:mastodon.social/113499990000000000', 'mastodon:mastodon.social/113500000000000100']);
  });

  it('writes: post, reply (also to another server by its URL), delete, and a delete of a gone post', async () => {
    const post = (await run('post.create', { text: 'Hello from the crawler sandbox', visibility: 'public', confirm: true }, S, LOGIN)).result as WriteResult;
    expect(post).toMatchObject({ ok: true, state: 'published', url: 'https://mastodon.social/@river_otter/113500000000000500', target: 'mastodon.social/113500000000000500' });

    const reply = (await run('comment.create', { target: 'mastodon.social/113500000000000410', text: '@kelp_forest@fosstodon.org thanks!', confirm: true }, S, LOGIN)).result as WriteResult;
    expect(reply).toMatchObject({ state: 'published', target: 'mastodon.social/113500000000000510' });

    const cross = await run('comment.create', { target: 'https://fosstodon.org/@kelp_forest/112233445566778899', text: '@kelp_forest@fosstodon.org lovely kelp!', confirm: true }, S, LOGIN);
    expect(cross.requests).toEqual([
      'GET https://mastodon.social/api/v2/search?q=https%3A%2F%2Ffosstodon.org%2F%40kelp_forest%2F112233445566778899&type=statuses&resolve=true&limit=1',
      'POST https://mastodon.social/api/v1/statuses',
    ]);
    expect(cross.result as WriteResult).toMatchObject({ state: 'published', target: 'mastodon.social/113500000000000520' });

    const del = (await run('delete', { target: 'https://mastodon.social/@river_otter/113500000000000500', confirm: true }, S, LOGIN)).result as WriteResult;
    expect(del).toMatchObject({ ok: true, state: 'deleted', url: 'https://mastodon.social/@river_otter/113500000000000500' });
    const gone = (await run('delete', { target: '113500000000000999', confirm: true }, S, LOGIN)).result as WriteResult;
    expect(gone).toMatchObject({ ok: false, state: 'rejected', error: { code: 'not_found' } });

    const other = await run('delete', { target: 'https://fosstodon.org/@kelp_forest/112233445566778899', confirm: true }, S, LOGIN);
    expect(other.requests).toEqual([]);
    expect((other.result as WriteResult).error?.code).toBe('invalid_request');

    const planned = (await run('post.create', { text: 'anything', dry_run: true }, S)).result as WriteResult;
    expect(planned).toMatchObject({ ok: true, state: 'planned' });
  });

  it('errors: 429 rate_limited, 503 upstream_error, 422 login wall, bot-check blocked, 404 not_found', async () => {
    const limited = (await run('trending', { instance: 'mas.to' }, S)).result as TrendResult;
    expect(limited).toMatchObject({ ok: false, source: 'live', error: { code: 'rate_limited', retryable: true } });
    const down = (await run('user', { query: '@kelp_forest@fosstodon.org' }, S)).result as CreatorResult;
    expect(down).toMatchObject({ ok: false, error: { code: 'upstream_error', retryable: true } });
    const wall = (await run('recommended', { instance: 'hachyderm.io' }, S)).result as Envelope;
    expect(wall).toMatchObject({ ok: false, source: 'live', error: { code: 'session_expired' } });
    const check = (await run('detail', { query: 'https://infosec.exchange/@someone/113500000000000700' }, S)).result as Envelope;
    expect(check).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked', retryable: true } });
    const missing = (await run('user', { query: 'nobody_here' }, S)).result as CreatorResult;
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

afterAll(() => {
  // Every real recording must have been replayed by some test above.
  const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
  const missing = all.filter((f) => !used.has(f));
  if (missing.length) throw new Error(`recordings never replayed: ${missing.join(', ')}`);
});

describe('mastodon: hashtag timelines and trending links (hand-written answers)', () => {
  const status = (id: string, text: string) => ({ id, created_at: '2026-11-01T10:00:00.000Z', content: `<p>${text} <a href="https://tags.example/tags/cats">#cats</a></p>`, url: `https://tags.example/@ann/${id}`, replies_count: 1, reblogs_count: 2, favourites_count: 3, account: { id: '7', username: 'ann', acct: 'ann', display_name: 'Ann', url: 'https://tags.example/@ann' }, media_attachments: [] });

  it('a lone #tag reads its public timeline without a login, paged by max_id; other searches still need one', async () => {
    const file = handHar([
      { url: 'https://tags.example/api/v1/timelines/tag/cats?limit=2', status: 200, body: JSON.stringify([status('103', 'third'), status('102', 'second')]) },
      { url: 'https://tags.example/api/v1/timelines/tag/cats?limit=2&max_id=102', status: 200, body: JSON.stringify([status('101', 'first')]) },
    ]);
    const first = await run('search', { query: '#cats', limit: 2, instance: 'tags.example' }, [file]);
    const env = first.result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 2 });
    expect(env.items.map((i) => [i.id, i.text])).toEqual([
      ['mastodon:tags.example/103', 'third #cats'],
      ['mastodon:tags.example/102', 'second #cats'],
    ]);
    const walked = await run('search', { query: '#cats', limit: 2, instance: 'tags.example', cursor: env.next_cursor }, [file]);
    expect((walked.result as Envelope).items.map((i) => i.id)).toEqual(['mastodon:tags.example/101']);
    expect(walked.requests).toEqual(['GET https://tags.example/api/v1/timelines/tag/cats?limit=2&max_id=102']);
    const words = await run('search', { query: '#cats and dogs', instance: 'tags.example' }, [file]);
    expect(words.result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
    expect(words.requests).toEqual([]);
  });

  it('trending board=links: page titles as words with their URLs and summed uses; tags stay the default', async () => {
    const link = (title: string, url: string, uses: string[]) => ({ url, title, type: 'link', history: uses.map((u, i) => ({ day: String(1_700_000_000 - i * 86_400), uses: u, accounts: '1' })) });
    const file = handHar([
      { url: 'https://tags.example/api/v1/trends/links?limit=20', status: 200, body: JSON.stringify([link('A story', 'https://news.example/a', ['5', '7']), link('', 'https://news.example/b', ['1'])]) },
      { url: 'https://tags.example/api/v1/trends/tags?limit=20', status: 200, body: JSON.stringify([{ name: 'cats', url: 'https://tags.example/tags/cats', history: [{ day: '1', uses: '4', accounts: '2' }] }]) },
    ]);
    const links = await run('trending', { board: 'links', instance: 'tags.example' }, [file]);
    expect((links.result as TrendResult).data!.trends).toEqual([
      { word: 'A story', source: 'mastodon', rank: 1, hot_value: 12, url: 'https://news.example/a' },
      { word: 'https://news.example/b', source: 'mastodon', rank: 2, hot_value: 1, url: 'https://news.example/b' },
    ]);
    const tags = await run('trending', { instance: 'tags.example' }, [file]);
    expect((tags.result as TrendResult).data!.trends[0]).toMatchObject({ word: '#cats', hot_value: 4 });
    expect((await run('trending', { board: 'posts', instance: 'tags.example' }, [file]).catch((e: Error) => e)) as Error).toBeInstanceOf(Error);
  });
});
