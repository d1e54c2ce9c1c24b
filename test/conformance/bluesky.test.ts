import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult, WriteResult } from '../../src/domain/results.js';
import { decodeCursor } from '../../src/tasks/cursor.js';
import { bluesky } from '../../src/platforms/bluesky/index.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every bluesky recording, replayed through the real catalog validation, adapter and runner normalization.
 * Hand-made sandbox recordings (sandbox/bluesky) cover what no real recording does.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bluesky');
const SANDBOX = resolve(process.cwd(), 'sandbox/bluesky');
const used = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => resolve(SANDBOX, name);
const raw = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);

const run = (action: string, params: Record<string, unknown>, replay: string[], credentials?: Record<string, string>) =>
  runAction({ source: 'bluesky', action, params, replay, session: credentials ? { credentials } : undefined });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=bluesky&profile=default`;
const secs = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
const xrpc = (host: string, nsid: string, query = ''): string => `https://${host}/xrpc/${nsid}${query ? `?${query}` : ''}`;

const LOGIN = { identifier: 'crawler-demo.bsky.social', app_password: 'xxxx-xxxx-xxxx-xxxx' };
const BSKY_DID = 'did:plc:z72i7hdynmk6r22z27h6tvur';
const VIDEO_RKEY = '3lbaafjknk22b';
const VIDEO_URI = `at://${BSKY_DID}/app.bsky.feed.post/${VIDEO_RKEY}`;

describe('bluesky.posts', () => {
  const MKBHD = 'did:plc:ys5aypbbeqmwn42edy5t3sho';
  const file = () => real('posts-author-feed-mkbhd.har');

  it('reads the recorded author feed page, field by field', async () => {
    const { result, requests } = await run('posts', { query: MKBHD, limit: 30 }, [file()]);
    expect(requests).toEqual([`GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getAuthorFeed', 'actor=did%3Aplc%3Ays5aypbbeqmwn42edy5t3sho&limit=30')}`]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 30 });
    const body = raw(file());

    env.items.forEach((item, i) => {
      const post = body.feed[i].post;
      const rkey = post.uri.split('/').pop();
      expect(item).toMatchObject({
        id: `bluesky:${MKBHD}/${rkey}`,
        provider: 'bluesky',
        text: post.record.text,
        author: 'Marques Brownlee',
        author_id: MKBHD,
        author_handle: 'mkbhd.com',
        author_url: 'https://bsky.app/profile/mkbhd.com',
        url: `https://bsky.app/profile/mkbhd.com/post/${rkey}`,
        ts: secs(post.record.createdAt),
        stats: { likes: post.likeCount, comments: post.replyCount, shares: post.repostCount },
        provenance: 'live',
      });
      expect(item.stats.views).toBeUndefined();
      expect(item.title).toBeUndefined();
    });

    expect(env.items[0]).toMatchObject({ id: `bluesky:${MKBHD}/3lsy4fwoq6s23`, type: 'text', text: '2025 is 50% over 🫣', ts: secs('2025-07-02T11:30:50.192Z'), stats: { likes: 418, comments: 20, shares: 24 } });
    expect(env.items[0].media).toEqual([]);
    expect(env.items[0].thumb).toBeUndefined();

    const photo = env.items[1];
    const photoView = body.feed[1].post.embed.images[0];
    expect(photo).toMatchObject({ type: 'image', text: 'I’m a simple man', aspect: { width: 1500, height: 1999 }, thumb: image(photoView.thumb) });
    expect(photo.media).toEqual([{ kind: 'image', url: image(photoView.fullsize), w: 1500, h: 1999 }]);

    const clip = env.items[15];
    const clipView = body.feed[15].post.embed;
    expect(clip).toMatchObject({ id: `bluesky:${MKBHD}/3ljlhgkjyys2h`, type: 'video', aspect: { width: 4096, height: 2048 }, thumb: image(clipView.thumbnail) });
    expect(clipView.playlist).toMatch(/^https:\/\/video\.bsky\.app\/watch\/.+\/playlist\.m3u8$/);
    expect(clip.media).toEqual([{ kind: 'video', url: video(clipView.playlist), w: 4096, h: 2048 }]);
    expect(clip.duration_s).toBeUndefined();

    // A link card lends its thumbnail as cover; it is not the post's media.
    const card = env.items[3];
    expect(card).toMatchObject({ type: 'text', thumb: image(body.feed[3].post.embed.external.thumb) });
    expect(card.media).toEqual([]);
    // A quote post shows none of the quoted post's media.
    expect(env.items[11]).toMatchObject({ type: 'text', media: [] });
    expect(env.items[11].thumb).toBeUndefined();

    const kinds = body.feed.map((f: any) => f.post.embed?.$type ?? 'none');
    expect(env.items.map((i) => i.type)).toEqual(
      kinds.map((k: string) => (k === 'app.bsky.embed.images#view' ? 'image' : k === 'app.bsky.embed.video#view' ? 'video' : 'text')),
    );
    expect(env.items.filter((i) => i.type === 'image')).toHaveLength(11);
    for (const item of env.items) {
      expect(item.thumb === undefined || item.thumb.startsWith('/v1/media?u=https%3A%2F%2F')).toBe(true);
      for (const m of item.media) expect(m.url.startsWith('/v1/media?u=https%3A%2F%2F')).toBe(true);
    }
    expect(decodeCursor(env.next_cursor).c).toBe(body.cursor);
  });

  it('accepts profile URLs and at:// account URIs naming the DID', async () => {
    for (const query of [`https://bsky.app/profile/${MKBHD}`, `at://${MKBHD}`, `bsky.app/profile/${MKBHD}/`]) {
      const { result, requests } = await run('posts', { query, limit: 2 }, [file()]);
      expect(requests).toHaveLength(1);
      expect((result as Envelope).items.map((i) => i.id)).toEqual([`bluesky:${MKBHD}/3lsy4fwoq6s23`, `bluesky:${MKBHD}/3lsjk7iog322t`]);
    }
  });

  it('a walk past the recorded page keeps the 30 items it got and says where the recordings end', async () => {
    const { result, requests, warnings } = await run('posts', { query: MKBHD, max_items: 50 }, [file()]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 30 });
    expect(requests[0]).toBe(`GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getAuthorFeed', 'actor=did%3Aplc%3Ays5aypbbeqmwn42edy5t3sho&limit=100')}`);
    expect(requests[1]).toContain('cursor=2025-01-09T16%3A54%3A06.992Z');
    expect(warnings.join('\n')).toMatch(/stopped after 1 page\(s\): replay: no recording matches GET https:\/\/public\.api\.bsky\.app/);
    expect(decodeCursor(env.next_cursor).c).toBe('2025-01-09T16:54:06.992Z');
  });

  it('a handle with no recording fails loudly, naming the URL', async () => {
    await expect(run('posts', { query: '@mkbhd.com' }, [file()])).rejects.toThrow(
      /no recording matches GET https:\/\/public\.api\.bsky\.app\/xrpc\/app\.bsky\.feed\.getAuthorFeed\?actor=mkbhd\.com/,
    );
  });

  it('walks the sandbox feed of @bsky.app: reposts of others left out, replies kept, ends without a cursor', async () => {
    const { result, requests } = await run('posts', { query: '@bsky.app', max_items: 20 }, [sand('posts-author-feed-bsky.app.har')]);
    const env = result as Envelope;
    expect(requests).toEqual([
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getAuthorFeed', 'actor=bsky.app&limit=100')}`,
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getAuthorFeed', 'actor=bsky.app&limit=100&cursor=2024-11-10T15%3A00%3A00.000Z')}`,
    ]);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 5 });
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.every((i) => i.author_id === BSKY_DID && i.author_url === 'https://bsky.app/profile/bsky.app')).toBe(true);
    expect(env.items.map((i) => i.type)).toEqual(['image', 'video', 'text', 'text', 'text']);
    expect(env.items[0].media.map((m) => [m.kind, m.w, m.h])).toEqual([['image', 1200, 2400], ['image', 1200, 2400]]);
    expect(env.items[2].text).toMatch(/^@alice-demo\.bsky\.social love this/);
  });

  it('an account that never posted is an honest empty', async () => {
    const { result } = await run('posts', { query: 'quiet-demo.bsky.social' }, [sand('posts-author-feed-quiet-demo-empty.har')]);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });
  });

  it('429 with RateLimit headers is rate_limited, not empty', async () => {
    const { result } = await run('posts', { query: 'busy-demo.bsky.social' }, [sand('error-author-feed-rate-limited-429.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'rate_limited', retryable: true } });
  });

  it("the edge's 403 on a public method is blocked", async () => {
    const { result } = await run('posts', { query: 'walled-demo.bsky.social' }, [sand('error-author-feed-edge-403.har')]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', count: 0, error: { code: 'blocked', retryable: true } });
    expect((result as Envelope).error!.message).toMatch(/administrative rules/);
  });
});

describe('bluesky.detail', () => {
  const file = () => real('detail-post-thread-3kaheyt6vpc22.har');
  const DID = 'did:plc:kvwvcn5iqfooopmyzvb4qzba';

  it('reads the recorded thread (bsky.social host, recordWithMedia images), field by field', async () => {
    const { result, requests } = await run('detail', { query: `at://${DID}/app.bsky.feed.post/3kaheyt6vpc22` }, [file()]);
    const q = `uri=at%3A%2F%2Fdid%3Aplc%3Akvwvcn5iqfooopmyzvb4qzba%2Fapp.bsky.feed.post%2F3kaheyt6vpc22&depth=0&parentHeight=0`;
    // The public AppView is asked first; this recording was made on the bsky.social entryway.
    expect(requests).toEqual([
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getPostThread', q)}`,
      `GET ${xrpc('api.bsky.app', 'app.bsky.feed.getPostThread', q)}`,
      `GET ${xrpc('bsky.social', 'app.bsky.feed.getPostThread', q)}`,
    ]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 1 });
    const view = raw(file()).thread.post.embed.media.images[0];
    expect(env.items[0]).toEqual({
      id: `bluesky:${DID}/3kaheyt6vpc22`,
      type: 'image',
      provider: 'bluesky',
      text: '',
      author: 'Python SDK',
      author_id: DID,
      author_handle: 'test.marshal.dev',
      author_url: 'https://bsky.app/profile/test.marshal.dev',
      url: 'https://bsky.app/profile/test.marshal.dev/post/3kaheyt6vpc22',
      thumb: image(view.thumb),
      media: [{ kind: 'image', url: image(view.fullsize) }],
      ts: secs('2023-09-28T12:49:36.735Z'),
      stats: { likes: 0, comments: 0, shares: 0 },
      provenance: 'live',
    });
  });

  it('takes the bsky.app URL with a DID and the native item id too', async () => {
    for (const query of [`https://bsky.app/profile/${DID}/post/3kaheyt6vpc22`, `${DID}/3kaheyt6vpc22`, `bluesky:${DID}/3kaheyt6vpc22`]) {
      const { result } = await run('detail', { query }, [file()]);
      expect((result as Envelope).items[0].id).toBe(`bluesky:${DID}/3kaheyt6vpc22`);
    }
  });

  it('a handle URL resolves the handle first (resolveHandle recording), then reads the thread', async () => {
    const { result, requests } = await run('detail', { query: `https://bsky.app/profile/bsky.app/post/${VIDEO_RKEY}` }, [
      real('resolve-handle-bsky.app.har'),
      sand(`detail-post-thread-bsky.app-${VIDEO_RKEY}.har`),
    ]);
    expect(requests).toEqual([
      `GET ${xrpc('bsky.social', 'com.atproto.identity.resolveHandle', 'handle=bsky.app')}`,
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getPostThread', `uri=${encodeURIComponent(VIDEO_URI)}&depth=0&parentHeight=0`)}`,
    ]);
    expect(raw(FIXTURES + '/resolve-handle-bsky.app.har').did).toBe(BSKY_DID);
    const view = raw(sand(`detail-post-thread-bsky.app-${VIDEO_RKEY}.har`)).thread.post;
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({
      id: `bluesky:${BSKY_DID}/${VIDEO_RKEY}`,
      type: 'video',
      text: 'A one-minute tour of custom feeds 🎬',
      author: 'Bluesky',
      author_handle: 'bsky.app',
      url: `https://bsky.app/profile/bsky.app/post/${VIDEO_RKEY}`,
      thumb: image(view.embed.thumbnail),
      aspect: { width: 1920, height: 1080 },
      ts: secs('2024-11-18T15:30:00.000Z'),
      stats: { likes: 8800, comments: 4, shares: 1210 },
    });
    expect(item.media).toEqual([{ kind: 'video', url: video(view.embed.playlist), w: 1920, h: 1080 }]);
  });

  it('a deleted post is not_found', async () => {
    const file = sand('error-post-not-found-400.har');
    const uri = new URL(JSON.parse(readFileSync(file, 'utf8')).log.entries[0].request.url).searchParams.get('uri');
    const { result } = await run('detail', { query: uri }, [file]);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'not_found', retryable: false } });
  });

  it('a reference that names no post is invalid_request, before any request', async () => {
    const { result, requests } = await run('detail', { query: 'https://bsky.app/profile/bsky.app' }, [file()]);
    expect(requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});

describe('bluesky.comments', () => {
  it('the recorded thread has no replies: an honest empty', async () => {
    const { result, requests } = await run('comments', { query: 'at://did:plc:kvwvcn5iqfooopmyzvb4qzba/app.bsky.feed.post/3kaheyt6vpc22' }, [
      real('detail-post-thread-3kaheyt6vpc22.har'),
    ]);
    expect(requests.at(-1)).toContain('bsky.social/xrpc/app.bsky.feed.getPostThread?uri=');
    expect(requests.at(-1)).toContain('&depth=10&parentHeight=0');
    expect(result).toMatchObject({ source: 'empty', total: 0, has_more: false, items: [] });
  });

  it('flattens the reply tree depth first, each reply after its parent, threaded by at:// URI', async () => {
    const file = sand(`comments-post-thread-bsky.app-${VIDEO_RKEY}.har`);
    const { result, requests } = await run('comments', { query: `https://bsky.app/profile/bsky.app/post/${VIDEO_RKEY}` }, [sand('resolve-handle-bsky.app.har'), file]);
    expect(requests[1]).toBe(`GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getPostThread', `uri=${encodeURIComponent(VIDEO_URI)}&depth=10&parentHeight=0`)}`);
    const res = result as CommentsResult;
    const thread = raw(file).thread;
    const r1 = thread.replies[0];
    const r1a = r1.replies[0];
    const r1a1 = r1a.replies[0];
    const r1b = r1.replies[1];
    const r2 = thread.replies[1];
    // total: the AppView's replyCount of the post (4 direct replies), raised by the runner to the 5 listed.
    expect(res).toMatchObject({ source: 'live', total: 5, has_more: false });
    expect(res.items.map((c) => c.cid)).toEqual([r1, r1a, r1a1, r1b, r2].map((n) => n.post.uri));
    expect(res.items.map((c) => c.parent_id)).toEqual([undefined, r1.post.uri, r1a.post.uri, r1.post.uri, undefined]);
    const rkey = r1.post.uri.split('/').pop();
    expect(res.items[0]).toEqual({
      cid: r1.post.uri,
      text: 'This is so much clearer than the docs!',
      likes: 40,
      reply_total: 2,
      user_id: r1.post.author.did,
      handle: 'alice-demo.bsky.social',
      user_name: 'Alice (demo)',
      created_at: secs('2024-11-18T15:41:00.000Z'),
      source: 'bluesky',
      url: `https://bsky.app/profile/alice-demo.bsky.social/post/${rkey}`,
    });
    // No display name: the handle stands in.
    expect(res.items[3]).toMatchObject({ handle: 'carol-demo.bsky.social', user_name: 'carol-demo.bsky.social', text: '+1' });
  });

  it('limit cuts the flat list and the cursor resumes where it stopped', async () => {
    const replay = [sand('resolve-handle-bsky.app.har'), sand(`comments-post-thread-bsky.app-${VIDEO_RKEY}.har`)];
    const first = (await run('comments', { query: VIDEO_URI, limit: 3 }, replay)).result as CommentsResult;
    expect(first.items).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const rest = (await run('comments', { query: VIDEO_URI, limit: 3, cursor: first.cursor }, replay)).result as CommentsResult;
    expect(rest.items.map((c) => c.text)).toEqual(['+1', 'Can we get captions on these?']);
    expect(rest.has_more).toBe(false);
  });
});

describe('bluesky.user', () => {
  it('the recorded getFollows answer stands in for a profile: subject fields, no counts', async () => {
    const file = real('user-follows-test.marshal.dev.har');
    const { result, requests, warnings } = await run('user', { query: '@test.marshal.dev' }, [file]);
    expect(requests[0]).toBe(`GET ${xrpc('public.api.bsky.app', 'app.bsky.actor.getProfile', 'actor=test.marshal.dev')}`);
    expect(requests.at(-1)).toBe(`GET ${xrpc('bsky.social', 'app.bsky.graph.getFollows', 'actor=test.marshal.dev&limit=1')}`);
    const subject = raw(file).subject;
    expect(result as CreatorResult).toEqual({
      ok: true,
      source: 'live',
      items: [],
      ms: expect.any(Number),
      warnings: ['profile read from getFollows: follower, following and post counts were not reported'],
      data: {
        platform: 'bluesky',
        author: {
          id: 'did:plc:kvwvcn5iqfooopmyzvb4qzba',
          source: 'bluesky',
          handle: 'test.marshal.dev',
          name: 'Python SDK',
          bio: subject.description,
          avatar: image(subject.avatar),
          url: 'https://bsky.app/profile/test.marshal.dev',
        },
      },
    });
    expect(warnings).toHaveLength(1);
  });

  it('reads the sandbox getProfile of bsky.app with counts and verification', async () => {
    const file = sand('user-profile-bsky.app.har');
    const { result, requests } = await run('user', { query: 'https://bsky.app/profile/bsky.app' }, [file]);
    expect(requests).toEqual([`GET ${xrpc('public.api.bsky.app', 'app.bsky.actor.getProfile', 'actor=bsky.app')}`]);
    const p = raw(file);
    expect((result as CreatorResult).data!.author).toEqual({
      id: BSKY_DID,
      source: 'bluesky',
      handle: 'bsky.app',
      name: 'Bluesky',
      bio: p.description,
      avatar: image(p.avatar),
      url: 'https://bsky.app/profile/bsky.app',
      followers: 27_654_321,
      following: 7,
      posts: 640,
      verified: true,
    });
  });

  it('"Profile not found" is not_found', async () => {
    const { result } = await run('user', { query: 'no-such-account-demo.bsky.social' }, [sand('error-profile-not-found-400.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', error: { code: 'not_found' } });
  });
});

describe('bluesky.search', () => {
  it('anonymous: the recorded 403 "forbidden by administrative rules" is session_expired, never empty', async () => {
    const { result, requests } = await run('search', { query: 'aaaaaa', limit: 100 }, [real('error-searchposts-forbidden-403.har')]);
    expect(requests).toEqual([
      // recorded with cursor=0: replay takes an absent cursor as that first page
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.searchPosts', 'q=aaaaaa&limit=100')}`,
    ]);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, items: [], error: { code: 'session_expired', retryable: false } });
    expect((result as Envelope).error!.message).toMatch(/identifier and app_password/);
  });

  it('anonymous sandbox search answers the same way', async () => {
    const { result, requests } = await run('search', { query: 'bluesky' }, [sand('error-searchposts-anonymous-403.har')]);
    expect(requests).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, source: 'live', error: { code: 'session_expired' } });
  });

  it('logged in: opens a session and searches on the PDS, paging by cursor', async () => {
    const file = sand('search-posts-bluesky-logged-in.har');
    const { result, requests } = await run('search', { query: 'bluesky', limit: 4 }, [sand('session-crawler-demo.har'), file], LOGIN);
    expect(requests).toEqual([
      `POST ${xrpc('bsky.social', 'com.atproto.server.createSession')}`,
      `GET ${xrpc('bsky.social', 'app.bsky.feed.searchPosts', 'q=bluesky&limit=4')}`,
      `GET ${xrpc('bsky.social', 'app.bsky.feed.searchPosts', 'q=bluesky&limit=4&cursor=25')}`,
    ]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 4 });
    expect(env.next_cursor).toBeUndefined();
    const posts = [...raw(file, 0).posts, ...raw(file, 1).posts];
    expect(env.items.map((i) => i.id)).toEqual(posts.map((p: any) => `bluesky:${p.author.did}/${p.uri.split('/').pop()}`));
    expect(env.items.map((i) => i.type)).toEqual(['text', 'image', 'video', 'text']);
    expect(env.items[3]).toMatchObject({ author: 'Demo Newsroom', author_handle: 'news-demo.bsky.social', thumb: image(posts[3].embed.external.thumb) });
  });
});

/** A one-entry HAR with a hand-written body, for shapes no fixture holds. */
function handHar(url: string, body: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bluesky-hand-')), 'hand.har');
  const entry = { request: { method: 'GET', url }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { text: JSON.stringify(body) } } };
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
  return file;
}

describe('answers no fixture holds (hand-written shapes)', () => {
  const did = 'did:plc:handwritten0000000000001';
  const post = (rkey: string, embed?: unknown) => ({
    uri: `at://${did}/app.bsky.feed.post/${rkey}`,
    cid: 'bafyhand',
    author: { did, handle: 'hand.example.com', displayName: 'Hand Written' },
    record: { $type: 'app.bsky.feed.post', text: `post ${rkey}`, createdAt: '2024-06-01T00:00:00.000Z' },
    ...(embed ? { embed } : {}),
    likeCount: 1,
    indexedAt: '2024-06-01T00:00:01.000Z',
  });

  it('search with a login whose session cannot be opened (no recording) degrades to the public AppView, with a warning', async () => {
    const file = handHar(`${xrpc('public.api.bsky.app', 'app.bsky.feed.searchPosts', 'q=handmade')}`, { posts: [post('3kaaaaaaaaa2a')] });
    const { result, requests, warnings } = await run('search', { query: 'handmade' }, [file], LOGIN);
    expect(requests[0]).toBe(`POST ${xrpc('bsky.social', 'com.atproto.server.createSession')}`);
    expect(requests.at(-1)).toMatch(/^GET https:\/\/public\.api\.bsky\.app\/xrpc\/app\.bsky\.feed\.searchPosts\?q=handmade/);
    expect(warnings.join(' ')).toMatch(/logged-in route failed/);
    expect(result).toMatchObject({ ok: true, source: 'live', count: 1, items: [{ id: `bluesky:${did}/3kaaaaaaaaa2a`, text: 'post 3kaaaaaaaaa2a' }] });
  });

  it('2023-era answers put images on av-cdn.bsky.app: served through the media proxy like cdn.bsky.app', async () => {
    const full = `https://av-cdn.bsky.app/img/feed_fullsize/plain/${did}/bafkhand@jpeg`;
    const thumb = `https://av-cdn.bsky.app/img/feed_thumbnail/plain/${did}/bafkhand@jpeg`;
    const uri = `at://${did}/app.bsky.feed.post/3kbbbbbbbbb2b`;
    const file = handHar(`${xrpc('public.api.bsky.app', 'app.bsky.feed.getPostThread', `uri=${encodeURIComponent(uri)}`)}`, {
      thread: { $type: 'app.bsky.feed.defs#threadViewPost', post: post('3kbbbbbbbbb2b', { $type: 'app.bsky.embed.images#view', images: [{ thumb, fullsize: full, alt: '' }] }), replies: [] },
    });
    const { result } = await run('detail', { query: uri }, [file]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, count: 1, items: [{ type: 'image', media: [{ kind: 'image', url: image(full) }] }] });
    const h = new URL(full).hostname;
    expect(bluesky.mediaHosts.some((p) => (p.startsWith('.') ? h.endsWith(p) : h === p))).toBe(true);
  });
});

describe('bluesky.recommended', () => {
  it('Discover is the default category and pages by its opaque cursor', async () => {
    const file = sand('recommended-feed-discover.har');
    const { result, requests } = await run('recommended', { limit: 5 }, [file]);
    const feed = encodeURIComponent(`at://${BSKY_DID}/app.bsky.feed.generator/whats-hot`);
    expect(requests).toEqual([
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getFeed', `feed=${feed}&limit=5`)}`,
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getFeed', `feed=${feed}&limit=5&cursor=${encodeURIComponent(raw(file).cursor)}`)}`,
    ]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 5 });
    expect(env.items.map((i) => i.type)).toEqual(['image', 'text', 'video', 'text', 'text']);
    expect(env.items[2].media[0]).toMatchObject({ kind: 'video', w: 1080, h: 1920 });
  });

  it.each([
    ['hot-classic', 'recommended-feed-hot-classic.har', 'did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.generator/hot-classic', 2],
    ['news', 'recommended-feed-news.har', 'did:plc:kkf4naxqmweop7dv4l2iqqf5/app.bsky.feed.generator/verified-news', 1],
    ['science', 'recommended-feed-science.har', 'did:plc:jfhpnnst6flqway4eaeqzj2a/app.bsky.feed.generator/for-science', 1],
  ])('category %s reads its feed generator', async (category, har, uri, n) => {
    const { result, requests } = await run('recommended', { category }, [sand(har)]);
    expect(requests).toEqual([`GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getFeed', `feed=${encodeURIComponent(`at://${uri}`)}&limit=24`)}`]);
    expect(result).toMatchObject({ ok: true, source: 'live', count: n });
  });
});

describe('bluesky.trending', () => {
  it('ranks the topics in order with bsky.app links', async () => {
    const { result, requests } = await run('trending', {}, [sand('trending-topics.har')]);
    expect(requests).toEqual([`GET ${xrpc('public.api.bsky.app', 'app.bsky.unspecced.getTrendingTopics', 'limit=25')}`]);
    expect((result as TrendResult).data!.trends).toEqual([
      { word: 'Demo Cup Final', source: 'bluesky', rank: 1, url: 'https://bsky.app/profile/trending.bsky.app/feed/900000001' },
      { word: 'Northern Lights', source: 'bluesky', rank: 2, url: 'https://bsky.app/profile/trending.bsky.app/feed/900000002' },
      { word: '#caturday', source: 'bluesky', rank: 3, url: 'https://bsky.app/hashtag/caturday' },
      { word: 'Open Source', source: 'bluesky', rank: 4, url: 'https://bsky.app/search?q=open%20source' },
      { word: 'Space Launch', source: 'bluesky', rank: 5, url: 'https://bsky.app/profile/trending.bsky.app/feed/900000005' },
    ]);
  });
});

describe('bluesky writes', () => {
  const session = sand('session-crawler-demo.har');

  it('the recorded ExpiredToken answer to createRecord is session_expired, never retried', async () => {
    const { result, requests } = await run('post.create', { text: 'hello' }, [session, real('error-expired-token-400.har')], LOGIN);
    expect(requests).toEqual([`POST ${xrpc('bsky.social', 'com.atproto.server.createSession')}`, `POST ${xrpc('bsky.social', 'com.atproto.repo.createRecord')}`]);
    expect(result).toMatchObject({ ok: false, state: 'session_expired', source: 'bluesky', error: { code: 'session_expired' } });
    expect((result as WriteResult).error!.message).toMatch(/ExpiredToken: Token has expired/);
  });

  it('post.create publishes and answers the bsky.app URL', async () => {
    const { result, requests } = await run('post.create', { text: 'Hello from the crawler sandbox' }, [session, sand('write-post-create.har')], LOGIN);
    expect(requests).toHaveLength(2);
    expect(result).toMatchObject({ ok: true, state: 'published', source: 'bluesky', url: 'https://bsky.app/profile/crawler-demo.bsky.social/post/3lbgynmqc222b' });
  });

  it('comment.create reads the parent for its strong ref, then replies', async () => {
    const { result, requests } = await run('comment.create', { target: `https://bsky.app/profile/bsky.app/post/${VIDEO_RKEY}`, text: 'Great tour, thanks!' }, [
      session,
      sand('resolve-handle-bsky.app.har'),
      sand(`detail-post-thread-bsky.app-${VIDEO_RKEY}.har`),
      sand('write-comment-create.har'),
    ], LOGIN);
    expect(requests.map((r) => r.split('?')[0])).toEqual([
      `POST ${xrpc('bsky.social', 'com.atproto.server.createSession')}`,
      `GET ${xrpc('bsky.social', 'com.atproto.identity.resolveHandle')}`,
      `GET ${xrpc('public.api.bsky.app', 'app.bsky.feed.getPostThread')}`,
      `POST ${xrpc('bsky.social', 'com.atproto.repo.createRecord')}`,
    ]);
    const reply = raw(sand('write-comment-create.har'));
    expect(result).toMatchObject({ ok: true, state: 'published', target: VIDEO_URI, url: `https://bsky.app/profile/crawler-demo.bsky.social/post/${reply.uri.split('/').pop()}` });
  });

  it('delete checks the record exists, then deletes it', async () => {
    const { result, requests } = await run('delete', { target: 'https://bsky.app/profile/crawler-demo.bsky.social/post/3lbgynmqc222b' }, [session, sand('write-delete.har')], LOGIN);
    expect(requests.map((r) => r.split('?')[0])).toEqual([
      `POST ${xrpc('bsky.social', 'com.atproto.server.createSession')}`,
      `GET ${xrpc('bsky.social', 'com.atproto.repo.getRecord')}`,
      `POST ${xrpc('bsky.social', 'com.atproto.repo.deleteRecord')}`,
    ]);
    expect(result).toMatchObject({ ok: true, state: 'deleted', target: 'at://did:plc:sbxcrawlerdemo2222aaaaaa/app.bsky.feed.post/3lbgynmqc222b' });
  });

  it('delete of a post that is not there is rejected as not_found, and nothing is deleted', async () => {
    const { result, requests } = await run('delete', { target: 'at://did:plc:sbxcrawlerdemo2222aaaaaa/app.bsky.feed.post/3l7wext5s222b' }, [session, sand('error-delete-record-not-found.har')], LOGIN);
    expect(requests.some((r) => r.includes('deleteRecord'))).toBe(false);
    expect(result).toMatchObject({ ok: false, state: 'rejected', error: { code: 'not_found' } });
  });

  it("delete of someone else's post is rejected without a write", async () => {
    const { result, requests } = await run('delete', { target: `at://${BSKY_DID}/app.bsky.feed.post/${VIDEO_RKEY}` }, [session], LOGIN);
    expect(requests).toEqual([`POST ${xrpc('bsky.social', 'com.atproto.server.createSession')}`]);
    expect(result).toMatchObject({ ok: false, state: 'rejected', target: VIDEO_URI, error: { code: 'invalid_request' } });
  });

  it('without credentials a write is session_expired before any request; dry_run plans without the network', async () => {
    const denied = await run('post.create', { text: 'hi' }, [session]);
    expect(denied.requests).toEqual([]);
    expect(denied.result).toMatchObject({ ok: false, state: 'session_expired', error: { code: 'session_expired' } });
    const planned = await run('comment.create', { target: VIDEO_URI, text: 'hi', dry_run: true }, [session], LOGIN);
    expect(planned.requests).toEqual([]);
    expect(planned.result).toMatchObject({ ok: true, state: 'planned', target: `https://bsky.app/profile/${BSKY_DID}/post/${VIDEO_RKEY}` });
  });

  it('text over 300 graphemes is rejected in the plan', async () => {
    const { result, requests } = await run('post.create', { text: 'é'.repeat(301), dry_run: true }, [session], LOGIN);
    expect(requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, state: 'rejected', error: { code: 'invalid_request' } });
  });
});

describe('bluesky recordings', () => {
  it('every sandbox recording is hand-made and marked so', () => {
    const files = readdirSync(SANDBOX).filter((f) => f.endsWith('.har'));
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const f of files) {
      const har = JSON.parse(readFileSync(resolve(SANDBOX, f), 'utf8'));
      expect(har.log.version).toBe('1.2');
      for (const e of har.log.entries) expect(e.comment).toMatch(/^hand-made sandbox recording: /);
    }
  });

  // Runs last (vitest keeps file order): every real recording must have been replayed above.
  it('every recording in ../shared/fixtures/bluesky was replayed', () => {
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(all.filter((f) => !used.has(basename(f)))).toEqual([]);
  });
});
