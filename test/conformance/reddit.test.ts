import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, WriteResult } from '../../src/domain/results.js';
import { reddit } from '../../src/platforms/reddit/index.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { decodeCursor } from '../../src/tasks/cursor.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every reddit recording, replayed through the real catalog validation, adapter and runner normalization.
 * The real ones are PRAW cassettes of oauth.reddit.com; the hand-made sandbox (sandbox/reddit) adds the
 * anonymous www.reddit.com .json answers, the media-rich posts, the error answers and the writes no
 * real recording covers.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/reddit');
const SANDBOX = resolve(process.cwd(), 'sandbox/reddit');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const entries = (file: string): any[] => JSON.parse(readFileSync(file, 'utf8')).log.entries;
const raw = (file: string, i: number): any => JSON.parse(entries(file)[i].response.content.text);

type Session = { credentials?: Record<string, string> };
const APP: Session = { credentials: { client_id: 'app-id', client_secret: 'app-secret' } };
const USER: Session = { credentials: { access_token: 'user-token' } };
const REFRESH: Session = { credentials: { client_id: 'app-id', refresh_token: 'refresh' } };
const SCRIPT: Session = { credentials: { client_id: 'app-id', client_secret: 'app-secret', username: 'bot', password: 'pw' } };

const run = (action: string, params: Record<string, unknown>, replay: string[], session?: Session, memo?: MemoryMemo) =>
  runAction({ source: 'reddit', action, params, replay, session, memo });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=reddit&profile=default`;
const TOKEN = 'POST https://www.reddit.com/api/v1/access_token';
const origin = (serviceUrl: string): string => decodeURIComponent(new URL(serviceUrl, 'http://x').searchParams.get('u')!);
const allowed = (u: string): boolean => {
  const h = new URL(u).hostname;
  return reddit.mediaHosts.some((p) => (p.startsWith('.') ? h.endsWith(p) : h === p));
};

function servicesOnly(env: Envelope): void {
  for (const item of env.items) {
    if (item.thumb) {
      expect(item.thumb.startsWith('/v1/media?u=https%3A%2F%2F')).toBe(true);
      expect(allowed(origin(item.thumb)), item.thumb).toBe(true);
    }
    for (const m of item.media) {
      expect(m.url.startsWith('/v1/media?u=https%3A%2F%2F')).toBe(true);
      expect(allowed(origin(m.url)), m.url).toBe(true);
    }
  }
}

describe('reddit.hot', () => {
  const file = () => real('hot-popular.har');
  const listing = () => raw(file(), 1).data;

  it('r/popular with app credentials: the token exchange, then the recorded listing, field by field', async () => {
    const { result, requests } = await run('hot', { category: 'popular', limit: 100 }, [file()], APP);
    expect(requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/r/popular/hot?limit=100&raw_json=1']);
    const env = result as Envelope;
    const posts = listing().children.map((c: any) => c.data);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 100 });
    expect(decodeCursor(env.next_cursor).c).toBe(listing().after);
    env.items.forEach((item, i) => {
      const p = posts[i];
      expect(item).toMatchObject({
        id: `reddit:${p.id}`,
        provider: 'reddit',
        title: p.title,
        author: p.author,
        author_id: p.author_fullname.replace(/^t2_/, ''),
        author_handle: p.author,
        author_url: `https://www.reddit.com/user/${p.author}/`,
        url: `https://www.reddit.com${p.permalink}`,
        ts: p.created_utc,
        stats: { likes: p.score, comments: p.num_comments, shares: p.num_crossposts },
        provenance: 'live',
      });
    });
    servicesOnly(env);

    const vid = posts[1];
    const rv = vid.secure_media.reddit_video;
    expect(env.items[1]).toEqual({
      id: 'reddit:1skl1i1',
      type: 'video',
      provider: 'reddit',
      title: 'A medium rare "steak."',
      author: 'PrinceFlynn',
      author_id: '2a4tm059g1',
      author_handle: 'PrinceFlynn',
      author_url: 'https://www.reddit.com/user/PrinceFlynn/',
      url: 'https://www.reddit.com/r/StupidFood/comments/1skl1i1/a_medium_rare_steak/',
      thumb: image(vid.preview.images[0].resolutions.find((r: any) => r.width === 640).url),
      media: [{ kind: 'video', url: video(rv.fallback_url), w: rv.width, h: rv.height, duration_s: rv.duration }],
      ts: 1776108121,
      duration_s: 147,
      aspect: { width: 1080, height: 1920 },
      stats: { likes: 714, comments: 428, shares: 0 },
      provenance: 'live',
    });

    const gallery = posts[7];
    expect(env.items[7]).toMatchObject({ id: 'reddit:1skh6dk', type: 'image', text: gallery.selftext, aspect: { width: 2160, height: 2160 } });
    expect(env.items[7].media).toEqual(
      gallery.gallery_data.items.map((g: any) => {
        const s = gallery.media_metadata[g.media_id].s;
        return { kind: 'image', url: image(s.u), w: s.x, h: s.y };
      }),
    );

    expect(env.items[3]).toMatchObject({ id: 'reddit:1skii2f', type: 'image', aspect: { width: 3024, height: 4032 } });
    expect(env.items[3].media).toEqual([{ kind: 'image', url: image('https://i.redd.it/rrinwcmrxzug1.jpeg'), w: 3024, h: 4032 }]);

    expect(env.items[32]).toMatchObject({ id: 'reddit:1sk894v', type: 'text', text: posts[32].selftext, media: [] });
    expect(env.items[32].thumb).toBeUndefined();
    expect(env.items[16]).toMatchObject({ id: 'reddit:1skbgql', type: 'text', text: posts[16].url, media: [] });
    expect(env.items[0]).toMatchObject({ id: 'reddit:1skjxta', type: 'video', media: [] });
    expect(env.items[0].duration_s).toBeUndefined();

    const types = env.items.reduce<Record<string, number>>((acc, i) => ({ ...acc, [i.type]: (acc[i.type] ?? 0) + 1 }), {});
    expect(types).toEqual({ video: 25, image: 64, text: 11 });
  });

  it('anonymously: www.reddit.com .json first, then the same recording over oauth; media filters apply', async () => {
    const { result, requests } = await run('hot', { limit: 10, media: 'video' }, [file()]);
    expect(requests).toEqual(['GET https://www.reddit.com/r/popular/hot.json?limit=100&raw_json=1', 'GET https://oauth.reddit.com/r/popular/hot?limit=100&raw_json=1']);
    const env = result as Envelope;
    expect(env.items.every((i) => i.type === 'video')).toBe(true);
    expect(env.items[0].id).toBe('reddit:1skjxta');
  });

  it('a limit that ends mid-page resumes from the next post of the same page', async () => {
    const first = (await run('hot', { limit: 5 }, [file()], APP)).result as Envelope;
    const next = (await run('hot', { limit: 2, cursor: first.next_cursor }, [file()], APP)).result as Envelope;
    const ids = listing().children.map((c: any) => `reddit:${c.data.id}`);
    expect(first.items.map((i) => i.id)).toEqual(ids.slice(0, 5));
    expect(next.items.map((i) => i.id)).toEqual(ids.slice(5, 7));
  });

  it('a quarantined community answers 403: not_found (not visible to this account), not blocked', async () => {
    for (const params of [{ category: 'ferguson' }, { subreddit: 'r/ferguson' }]) {
      const { result, requests } = await run('hot', params, [real('error-quarantined-403.har')], SCRIPT);
      expect(requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/r/ferguson/hot?limit=100&raw_json=1']);
      expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'not_found', retryable: false } });
      expect((result as Envelope).error?.message).toMatch(/403 Forbidden.*quarantined/);
    }
    const anon = await run('hot', { category: 'ferguson' }, [real('error-quarantined-403.har')]);
    expect(anon.result).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('sandbox: r/popular, r/all and a community as category (anonymous .json)', async () => {
    const pop = (await run('hot', {}, [sand('hot-popular.har')])).result as Envelope;
    expect(pop.items.map((i) => [i.id, i.type])).toEqual([
      ['reddit:1kq7v2a', 'video'],
      ['reddit:1kq2t7g', 'video'],
      ['reddit:1kq6m0c', 'image'],
      ['reddit:1kq3w8f', 'text'],
      ['reddit:1kq5z9d', 'image'],
      ['reddit:1kq4x1e', 'text'],
    ]);
    expect(pop.next_cursor).toBeUndefined();
    servicesOnly(pop);
    const all = await run('hot', { category: 'all' }, [sand('hot-all.har')]);
    expect(all.requests).toEqual(['GET https://www.reddit.com/r/all/hot.json?limit=100&raw_json=1']);
    expect((all.result as Envelope).count).toBe(3);
    const community = await run('hot', { category: 'MechanicalKeyboards' }, [sand('hot-mechanicalkeyboards.har')]);
    expect((community.result as Envelope).items.map((i) => i.id)).toEqual(['reddit:1kq6m0c', 'reddit:1kq7v2a', 'reddit:1kq4x1e']);
  });

  it('sandbox errors: 429 is rate_limited, the network-security page is blocked, an unknown community not_found', async () => {
    const limited = await run('hot', { category: 'wallstreetbets' }, [sand('error-429-too-many-requests.har')]);
    expect(limited.result).toMatchObject({ ok: false, source: 'live', error: { code: 'rate_limited', retryable: true } });
    const blocked = await run('hot', { subreddit: 'AskHistorians' }, [sand('error-blocked-network-security.har')]);
    expect(blocked.result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked', retryable: true } });
    const missing = await run('hot', { subreddit: 'nosuchsubzz' }, [sand('error-nonexistent-subreddit-redirect.har')]);
    expect(missing.result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((missing.result as Envelope).error?.message).toMatch(/no such subreddit/);
  });
});

describe('reddit.posts', () => {
  const file = () => real('posts-user-spez-submitted-new.har');

  it("u/spez: the recorded submissions, newest first", async () => {
    const { result, requests } = await run('posts', { query: 'u/spez', limit: 100 }, [file()], APP);
    expect(requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/user/spez/submitted?sort=new&limit=100&raw_json=1']);
    const env = result as Envelope;
    const posts = raw(file(), 1).data.children.map((c: any) => c.data);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 100 });
    expect(env.items.map((i) => i.id)).toEqual(posts.map((p: any) => `reddit:${p.id}`));
    expect(decodeCursor(env.next_cursor).c).toBe('t3_21oo');
    expect(env.items[0]).toEqual({
      id: 'reddit:434h6c',
      type: 'text',
      provider: 'reddit',
      title: 'Reddit in 2016',
      text: posts[0].selftext,
      author: 'spez',
      author_handle: 'spez',
      author_url: 'https://www.reddit.com/user/spez/',
      url: 'https://www.reddit.com/r/announcements/comments/434h6c/reddit_in_2016/',
      media: [],
      ts: 1454004343,
      stats: { likes: 2079, comments: 5771 },
      provenance: 'live',
    });
    expect(env.items[6]).toMatchObject({ id: 'reddit:3dk1jh', type: 'text', text: 'https://en.wikipedia.org/wiki/Orville_Redenbacher?repost=true' });
    const card = posts[2].preview.images[0].resolutions.filter((r: any) => r.width <= 640).at(-1);
    expect(env.items[2]).toMatchObject({ id: 'reddit:3tlcil', thumb: image(card.url) });
    servicesOnly(env);
  });

  it('a walk keeps the recorded page and says where the recordings end', async () => {
    for (const query of ['u/spez', '/user/spez', 'https://www.reddit.com/user/spez/', 'spez']) {
      const { result, requests, warnings } = await run('posts', { query, max_items: 150 }, [file()]);
      const env = result as Envelope;
      expect(env.count, query).toBe(100);
      expect(requests.slice(-2)).toEqual([
        'GET https://www.reddit.com/user/spez/submitted.json?sort=new&after=t3_21oo&limit=100&raw_json=1',
        'GET https://oauth.reddit.com/user/spez/submitted?sort=new&after=t3_21oo&limit=100&raw_json=1',
      ]);
      expect(warnings.some((w) => /stopped after 1 page\(s\): replay: no recording matches GET https:\/\/www\.reddit\.com\/user\/spez\/submitted\.json/.test(w))).toBe(true);
      expect(decodeCursor(env.next_cursor).c).toBe('t3_21oo');
    }
  });

  it('sandbox: a whole account walked with max_items -1, and a subreddit\'s new posts', async () => {
    const user = await run('posts', { query: 'u/keebsmith', max_items: -1 }, [sand('posts-user-keebsmith.har')]);
    expect(user.requests).toEqual([
      'GET https://www.reddit.com/user/keebsmith/submitted.json?sort=new&limit=100&raw_json=1',
      'GET https://www.reddit.com/user/keebsmith/submitted.json?sort=new&after=t3_1kq5z9d&limit=100&raw_json=1',
    ]);
    const env = user.result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['reddit:1kq2t7g', 'reddit:1kq7v2a', 'reddit:1kq5z9d', 'reddit:1kq4x1e']);
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.every((i) => i.author_id === '8f3k2x1q')).toBe(true);
    const sub = await run('posts', { query: 'r/MechanicalKeyboards' }, [sand('posts-subreddit-new.har')]);
    expect(sub.requests).toEqual(['GET https://www.reddit.com/r/MechanicalKeyboards/new.json?limit=100&raw_json=1']);
    expect((sub.result as Envelope).count).toBe(5);
  });

  it('sandbox: a private community is not_found; a spent rate-limit budget stops the walk with what it has', async () => {
    const priv = await run('posts', { query: 'r/secretclubhouse' }, [sand('error-private-subreddit-403.har')]);
    expect(priv.result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((priv.result as Envelope).error?.message).toMatch(/community is private/);
    const spent = await run('posts', { query: 'u/budgetbot', max_items: 50 }, [sand('error-ratelimit-budget-spent.har')]);
    expect(spent.requests).toHaveLength(1);
    expect(spent.result).toMatchObject({ ok: true, source: 'live', count: 1 });
    expect(spent.warnings.some((w) => /x-ratelimit-remaining 0/.test(w))).toBe(true);
    expect(spent.warnings.some((w) => /stopped after 1 page\(s\): rate_limited: .*resets in 300 s/.test(w))).toBe(true);
  });
});

describe('reddit.search', () => {
  it('the recorded site-wide search (/r/all/search), field by field', async () => {
    const file = real('search-all-praw.har');
    const { result, requests } = await run('search', { query: 'praw oauth search' }, [file], APP);
    expect(requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/r/all/search?q=praw+oauth+search&sort=relevance&t=all&limit=100&raw_json=1']);
    const env = result as Envelope;
    const posts = raw(file, 1).data.children.map((c: any) => c.data);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 6 });
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.map((i) => i.id)).toEqual(posts.map((p: any) => `reddit:${p.id}`));
    expect(env.items[0]).toEqual({
      id: 'reddit:3gpbiu',
      type: 'text',
      provider: 'reddit',
      title: posts[0].title,
      text: posts[0].selftext,
      author: 'dClauzel',
      author_handle: 'dClauzel',
      author_url: 'https://www.reddit.com/user/dClauzel/',
      url: `https://www.reddit.com${posts[0].permalink}`,
      media: [],
      ts: Math.trunc(posts[0].created_utc),
      stats: { likes: 0, comments: 21 },
      provenance: 'live',
    });
  });

  it('sandbox: two pages, a subreddit with restrict_sr, and an honest empty', async () => {
    const { result, requests } = await run('search', { query: 'mechanical keyboard' }, [sand('search-mechanical-keyboard.har')]);
    expect(requests).toEqual([
      'GET https://www.reddit.com/r/all/search.json?q=mechanical+keyboard&sort=relevance&t=all&limit=100&raw_json=1',
      'GET https://www.reddit.com/r/all/search.json?q=mechanical+keyboard&sort=relevance&t=all&after=t3_1kq5z9d&limit=100&raw_json=1',
    ]);
    expect((result as Envelope).items.map((i) => i.type)).toEqual(['video', 'image', 'image', 'text', 'text']);
    const restricted = await run('search', { query: 'switches', subreddit: 'MechanicalKeyboards' }, [sand('search-subreddit-switches.har')]);
    expect(restricted.requests).toEqual(['GET https://www.reddit.com/r/MechanicalKeyboards/search.json?q=switches&sort=relevance&t=all&limit=100&raw_json=1&restrict_sr=true']);
    expect((restricted.result as Envelope).count).toBe(2);
    const empty = await run('search', { query: 'zxqv no such words anywhere' }, [sand('error-empty-search.har')]);
    expect(empty.result).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });
  });
});

describe('reddit.user', () => {
  it('the recorded profile (user token from a refresh grant)', async () => {
    const { result, requests } = await run('user', { query: 'u/Lil_SpazBot' }, [real('user-about-lil_spazbot.har')], REFRESH);
    expect(requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/user/Lil_SpazBot/about?raw_json=1']);
    expect(result as CreatorResult).toEqual({
      ok: true,
      source: 'live',
      items: [],
      ms: expect.any(Number),
      data: {
        platform: 'reddit',
        author: {
          id: '3ebyblla',
          source: 'reddit',
          handle: 'Lil_SpazBot',
          name: 'x',
          avatar: image('https://www.redditstatic.com/avatars/defaults/v2/avatar_default_6.png'),
          url: 'https://www.reddit.com/user/Lil_SpazBot/',
          followers: 0,
          likes: 1,
          verified: true,
        },
      },
    });
  });

  it('"me" with a token reddit rejects (the recorded 401) is session_expired; without a user login nothing is asked', async () => {
    const { result, requests } = await run('user', { query: 'me' }, [real('error-invalid-token-401.har')], USER);
    expect(requests).toEqual(['GET https://oauth.reddit.com/api/v1/me?raw_json=1']);
    expect(result).toMatchObject({ ok: false, source: 'live', error: { code: 'session_expired', retryable: false } });
    expect((result as CreatorResult).error?.message).toMatch(/invalid_token/);
    const none = await run('user', { query: 'me' }, [real('error-invalid-token-401.har')]);
    expect(none.requests).toEqual([]);
    expect(none.result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
  });

  it('sandbox: a profile field by field, a missing and a suspended account', async () => {
    const { result, requests } = await run('user', { query: '@keebsmith' }, [sand('user-about-keebsmith.har')]);
    expect(requests).toEqual(['GET https://www.reddit.com/user/keebsmith/about.json?raw_json=1']);
    const icon = raw(resolve(SANDBOX, 'user-about-keebsmith.har'), 0).data.icon_img;
    expect((result as CreatorResult).data?.author).toEqual({
      id: '8f3k2x1q',
      source: 'reddit',
      handle: 'keebsmith',
      name: 'Keeb Smith',
      bio: 'Building keyboards badly since 2019. Lube, film, repeat.',
      avatar: image(icon),
      url: 'https://www.reddit.com/user/keebsmith/',
      followers: 1843,
      likes: 61377,
      verified: true,
    });
    const missing = await run('user', { query: 'nosuchuser_zz' }, [sand('error-user-not-found-404.har')]);
    expect(missing.result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const suspended = await run('user', { query: 'u/suspended_zz' }, [sand('error-user-suspended.har')]);
    expect(suspended.result).toMatchObject({ ok: false, error: { code: 'not_found', message: 'u/suspended_zz is suspended' } });
  });

  it('a subreddit is not a user', async () => {
    await expect(run('user', { query: 'r/pics' }, [sand('user-about-keebsmith.har')])).resolves.toMatchObject({ result: { ok: false, error: { code: 'invalid_request' } } });
  });
});

describe('reddit.detail', () => {
  it('a share link: the 301 names the post, whose submission page is recorded', async () => {
    const { result, requests } = await run('detail', { query: 'https://www.reddit.com/r/redditdev/s/WNauetbiNG' }, [real('resolve-share-url.har'), real('comments-submission-2gmzqe.har')], APP);
    expect(requests).toEqual(['GET https://www.reddit.com/r/redditdev/s/WNauetbiNG?raw_json=1', TOKEN, 'GET https://oauth.reddit.com/comments/2gmzqe?raw_json=1&limit=1']);
    const post = raw(resolve(FIXTURES, 'comments-submission-2gmzqe.har'), 1)[0].data.children[0].data;
    expect((result as Envelope).items).toEqual([
      {
        id: 'reddit:2gmzqe',
        type: 'text',
        provider: 'reddit',
        title: '[PRAW] HTTPS enabled PRAW testing needed',
        text: post.selftext,
        author: 'bboe',
        author_handle: 'bboe',
        author_url: 'https://www.reddit.com/user/bboe/',
        url: 'https://www.reddit.com/r/redditdev/comments/2gmzqe/praw_https_enabled_praw_testing_needed/',
        media: [],
        ts: 1410935671,
        stats: { likes: 11, comments: 2 },
        provenance: 'live',
      },
    ]);
  });

  it('the posts the write recordings read back: a link post with text, a deleted self post', async () => {
    const link = await run('detail', { query: 'https://redd.it/1kh35wk' }, [real('write-submit-link-selftext.har')], SCRIPT);
    expect(link.requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/comments/1kh35wk?raw_json=1&limit=1']);
    expect((link.result as Envelope).items[0]).toEqual({
      id: 'reddit:1kh35wk',
      type: 'text',
      provider: 'reddit',
      title: 'Test Title',
      text: 'Testing **PRAW** link submission *with markdown selftext*.',
      author: '<USERNAME>',
      author_id: '6hk60',
      author_handle: '<USERNAME>',
      author_url: 'https://www.reddit.com/user/%3CUSERNAME%3E/',
      url: 'https://www.reddit.com/r/<TEST_SUBREDDIT>/comments/1kh35wk/<TEST_SUBREDDIT>_title/',
      media: [],
      ts: 1746638832,
      stats: { likes: 1, comments: 0, shares: 0 },
      provenance: 'live',
    });
    const gone = await run('detail', { query: 't3_4b1tfm' }, [real('write-delete-submission.har')]);
    const item = (gone.result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'reddit:4b1tfm', type: 'text', text: '[deleted]', stats: { likes: 1, comments: 3 } });
    expect(item.author).toBeUndefined();
    expect(item.author_url).toBeUndefined();
  });

  it('an embedded video (imgur gifv, 2015): a video item without a stream, reddit-hosted cover', async () => {
    const file = real('replies-morechildren-3hahrw.har');
    const { result } = await run('detail', { query: 'https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/' }, [file]);
    const post = raw(file, 1)[0].data.children[0].data;
    expect((result as Envelope).items[0]).toMatchObject({
      id: 'reddit:3hahrw',
      type: 'video',
      title: 'Ba Dum Tsss',
      media: [],
      thumb: image(post.preview.images[0].resolutions[3].url),
      stats: { likes: 11702, comments: 543 },
    });
  });

  it('a comment fullname reddit has nothing for: an honest empty (the recorded /api/info answer)', async () => {
    const { result, requests } = await run('detail', { query: 't1_0' }, [real('error-empty-info-listing.har')], APP);
    expect(requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/api/info?raw_json=1&id=t1_0']);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });
  });

  it('sandbox: a v.redd.it video through its share link, a gallery, an image, a crosspost', async () => {
    const all = [sand('resolve-share-link.har'), sand('detail-video-1kq7v2a.har'), sand('detail-gallery-1kq6m0c.har'), sand('detail-image-1kq5z9d.har'), sand('detail-crosspost-1kq2t7g.har')];
    const vid = await run('detail', { query: 'https://www.reddit.com/r/MechanicalKeyboards/s/Kb7xQ2mZpL' }, all);
    expect(vid.requests).toEqual(['GET https://www.reddit.com/r/MechanicalKeyboards/s/Kb7xQ2mZpL?raw_json=1', 'GET https://www.reddit.com/comments/1kq7v2a.json?raw_json=1&limit=1']);
    const v = (vid.result as Envelope).items[0];
    expect(v).toMatchObject({ id: 'reddit:1kq7v2a', type: 'video', duration_s: 58, aspect: { width: 1280, height: 720 }, stats: { likes: 4821, comments: 312, shares: 2 } });
    expect(v.media).toEqual([{ kind: 'video', url: video('https://v.redd.it/7x2kq9r1v3wf1/CMAF_720.mp4?source=fallback'), w: 1280, h: 720, duration_s: 58 }]);
    expect(origin(v.thumb!)).toMatch(/^https:\/\/external-preview\.redd\.it\/N2x2a3E5cjF2M3dmMQ\.png\?width=640&/);

    const gal = (await run('detail', { query: 't3_1kq6m0c' }, all)).result as Envelope;
    expect(gal.items[0].media.map((m) => [m.kind, m.w, m.h])).toEqual([
      ['image', 4000, 3000],
      ['image', 3000, 4000],
      ['image', 2048, 2048],
    ]);
    const img = (await run('detail', { query: '1kq5z9d' }, all)).result as Envelope;
    expect(img.items[0].media).toEqual([{ kind: 'image', url: image('https://i.redd.it/h3k9f2m1x8wf1.jpeg'), w: 3024, h: 4032 }]);
    const xpost = (await run('detail', { query: 'https://www.reddit.com/r/oddlysatisfying/comments/1kq2t7g/x/' }, all)).result as Envelope;
    expect(xpost.items[0]).toMatchObject({ id: 'reddit:1kq2t7g', type: 'video', author: 'keebsmith', duration_s: 58 });
    for (const env of [vid.result as Envelope, gal, img, xpost]) servicesOnly(env);
  });
});

/** A one-entry HAR with a hand-written body, for shapes no fixture holds. */
function handHar(url: string, body: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'reddit-hand-')), 'hand.har');
  const entry = {
    request: { method: 'GET', url },
    response: { status: 200, headers: [{ name: 'content-type', value: 'application/json; charset=UTF-8' }], content: { mimeType: 'application/json', text: JSON.stringify(body) } },
  };
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
  return file;
}

describe('a comment permalink recorded only under its own URL', () => {
  const page = [
    { kind: 'Listing', data: { children: [{ kind: 't3', data: { id: 'pq7ab1', title: 'A thread', selftext: 'body', is_self: true, author: 'op_user', created_utc: 1700000000, score: 3, num_comments: 2, permalink: '/r/tests/comments/pq7ab1/a_thread/' } }], after: null } },
    {
      kind: 'Listing',
      data: {
        children: [
          {
            kind: 't1',
            data: {
              id: 'cm1aa', parent_id: 't3_pq7ab1', body: 'the linked comment', author: 'first', created_utc: 1700000100, score: 2,
              replies: { kind: 'Listing', data: { children: [{ kind: 't1', data: { id: 'cm2bb', parent_id: 't1_cm1aa', body: 'its reply', author: 'second', created_utc: 1700000200, score: 1, replies: '' } }] } },
            },
          },
        ],
        after: null,
      },
    },
  ];
  const url = 'https://www.reddit.com/r/tests/comments/pq7ab1/a_thread/cm1aa/';
  const har = () => handHar('https://oauth.reddit.com/r/tests/comments/pq7ab1/a_thread/cm1aa/?context=3&raw_json=1', page);

  it('detail: /comments/<id> has no recording, the permalink answers with the post', async () => {
    const { result, requests } = await run('detail', { query: url }, [har()]);
    expect(requests.at(-1)).toBe('GET https://oauth.reddit.com/r/tests/comments/pq7ab1/a_thread/cm1aa?raw_json=1');
    expect(result).toMatchObject({ ok: true, source: 'live', count: 1, items: [{ id: 'reddit:pq7ab1', title: 'A thread', text: 'body', author: 'op_user' }] });
  });

  it("comments: the permalink's thread, threaded", async () => {
    const { result } = await run('comments', { query: url }, [har()]);
    const r = result as CommentsResult;
    expect(r.source).toBe('live');
    expect(r.items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['cm1aa', undefined],
      ['cm2bb', 'cm1aa'],
    ]);
  });
});

describe('reddit.comments', () => {
  it('2gmzqe: the recorded tree, threaded', async () => {
    const { result, requests } = await run('comments', { query: 't3_2gmzqe' }, [real('comments-submission-2gmzqe.har')], APP);
    expect(requests).toEqual([TOKEN, 'GET https://oauth.reddit.com/comments/2gmzqe?raw_json=1&sort=confidence&limit=500']);
    const tree = raw(resolve(FIXTURES, 'comments-submission-2gmzqe.har'), 1)[1].data.children;
    const top = tree[0].data;
    const reply = top.replies.data.children[0].data;
    expect(result as CommentsResult).toEqual({
      source: 'live',
      total: 2,
      has_more: false,
      ms: expect.any(Number),
      items: [
        { cid: top.id, text: top.body, likes: 1, reply_total: 1, user_id: '', handle: 'paneer_burrito', user_name: 'paneer_burrito', created_at: 1411005112, source: 'reddit', url: 'https://www.reddit.com/comments/2gmzqe/_/cklfmye/' },
        { cid: reply.id, text: reply.body, likes: 1, reply_total: 0, user_id: '', handle: 'bboe', user_name: 'bboe', created_at: 1411010034, source: 'reddit', url: 'https://www.reddit.com/comments/2gmzqe/_/cklhv0f/', parent_id: 'cklfmye' },
      ],
    });
  });

  it('the share link leads to the same comments', async () => {
    const { result, requests } = await run('comments', { query: 'reddit.com/r/redditdev/s/WNauetbiNG' }, [real('resolve-share-url.har'), real('comments-submission-2gmzqe.har')]);
    expect(requests[0]).toBe('GET https://www.reddit.com/r/redditdev/s/WNauetbiNG?raw_json=1');
    expect((result as CommentsResult).items.map((c) => c.cid)).toEqual(['cklfmye', 'cklhv0f']);
  });

  it('3hahrw: the first page, then every "load more" and "continue this thread" the recording holds, parents first', async () => {
    const file = real('replies-morechildren-3hahrw.har');
    const memo = new MemoryMemo();
    const first = await run('comments', { query: 'https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/', limit: 100 }, [file], APP, memo);
    const page1 = first.result as CommentsResult;
    expect(page1).toMatchObject({ source: 'live', total: 543, has_more: true });
    expect(page1.items).toHaveLength(100);
    expect(page1.items[0]).toMatchObject({ cid: 'cu5pebp', handle: 'johnnwho', likes: 1136, reply_total: 5 });
    expect(page1.items[0].parent_id).toBeUndefined();

    const all = [...page1.items];
    const requests = [...first.requests];
    let cursor = page1.cursor;
    for (let i = 0; cursor && i < 40; i++) {
      const next = await run('comments', { query: '3hahrw', limit: 100, cursor }, [file], APP, memo);
      const r = next.result as CommentsResult;
      expect(r.error).toBeUndefined();
      all.push(...r.items);
      requests.push(...next.requests);
      cursor = r.cursor;
    }
    expect(cursor).toBeUndefined();
    expect(all).toHaveLength(541);
    const seen = new Set<string>();
    for (const c of all) {
      if (c.parent_id) expect(seen.has(c.parent_id), `${c.cid} after its parent ${c.parent_id}`).toBe(true);
      expect(seen.has(c.cid)).toBe(false);
      seen.add(c.cid);
    }
    // Every recorded expansion was asked for, with exactly the ids the recording names.
    const recorded = entries(file).slice(1).map((e: any) => `${e.request.method} ${e.request.url.replace(/\/\?/, '?')}`);
    const asked = new Set(requests.map((r) => r.replace(/\?.*$/, '')));
    for (const r of recorded) expect(asked.has(r.replace(/\?.*$/, '')), r).toBe(true);
    // A task that stops mid-page leaves the rest of that page to the next one, which asks for it again.
    expect(requests.filter((r) => r.includes('/api/morechildren')).length).toBeGreaterThanOrEqual(12);
    expect(new Set(requests.filter((r) => /\/comments\/3hahrw\/_\//.test(r))).size).toBe(6);

    const byId = new Map(all.map((c) => [c.cid, c]));
    expect(byId.get('cu5pg2h')).toMatchObject({ parent_id: 'cu5p1hh', handle: raw(file, 2).json.data.things[0].data.author });
    expect(byId.get('cu5v1tt')).toMatchObject({ parent_id: 'cu5uyz1' });
    expect(byId.get('cu5tead')?.parent_id).toBeUndefined();
  });

  it('sandbox: the whole tree in one task, expansions in reading order', async () => {
    const { result, requests } = await run('comments', { query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/linear_vs_tactile/' }, [sand('comments-1kq4x1e.har')]);
    expect(requests).toEqual([
      'GET https://www.reddit.com/comments/1kq4x1e.json?raw_json=1&sort=confidence&limit=500',
      'GET https://www.reddit.com/comments/1kq4x1e/_/lm4a003.json?raw_json=1&sort=confidence&limit=500',
      'GET https://www.reddit.com/api/morechildren.json?raw_json=1&api_type=json&children=lm4a005%2Clm4a006&link_id=t3_1kq4x1e&sort=confidence',
      'GET https://www.reddit.com/api/morechildren.json?raw_json=1&api_type=json&children=lm4a007%2Clm4a008&link_id=t3_1kq4x1e&sort=confidence',
    ]);
    const r = result as CommentsResult;
    expect(r).toMatchObject({ source: 'live', total: 11, has_more: false });
    expect(r.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['lm4a001', null],
      ['lm4a002', 'lm4a001'],
      ['lm4a003', 'lm4a002'],
      ['lm4a004', null],
      ['lm4a010', 'lm4a003'],
      ['lm4a011', 'lm4a010'],
      ['lm4a005', 'lm4a004'],
      ['lm4a009', 'lm4a005'],
      ['lm4a006', 'lm4a004'],
      ['lm4a007', null],
      ['lm4a008', null],
    ]);
  });
});

describe('reddit writes', () => {
  it('comment.create: the recorded reply to a post', async () => {
    const file = real('write-comment-reply-submission.har');
    const sent = new URLSearchParams(entries(file)[1].request.postData.text);
    const { result, requests } = await run('comment.create', { target: sent.get('thing_id'), text: sent.get('text'), confirm: true }, [file], USER);
    expect(requests).toEqual(['POST https://oauth.reddit.com/api/comment?raw_json=1']);
    expect(result as WriteResult).toEqual({ ok: true, state: 'published', url: 'https://www.reddit.com/comments/4b1tfm/_/d162ara/', target: 't3_4b1tfm', source: 'reddit', ms: expect.any(Number) });
    const script = await run('comment.create', { target: 'https://www.reddit.com/r/x/comments/4b1tfm/a_test/', text: 'Test reply', confirm: true }, [file], SCRIPT);
    expect(script.requests).toEqual([TOKEN, 'POST https://oauth.reddit.com/api/comment?raw_json=1']);
    expect(script.result).toMatchObject({ ok: true, state: 'published' });
  });

  it('delete: the recorded deletion', async () => {
    const { result, requests } = await run('delete', { target: '4b1tfm', confirm: true }, [real('write-delete-submission.har')], SCRIPT);
    expect(requests).toEqual([TOKEN, 'POST https://oauth.reddit.com/api/del?raw_json=1']);
    expect(result as WriteResult).toEqual({ ok: true, state: 'deleted', target: 't3_4b1tfm', source: 'reddit', ms: expect.any(Number) });
  });

  it('post.create: the recorded link submission with text', async () => {
    const file = real('write-submit-link-selftext.har');
    const sent = new URLSearchParams(entries(file)[1].request.postData.text);
    const params = { subreddit: sent.get('sr'), title: sent.get('title'), url: sent.get('url'), text: sent.get('text'), confirm: true };
    const { result, requests } = await run('post.create', params, [file], USER);
    expect(requests).toEqual(['POST https://oauth.reddit.com/api/submit?raw_json=1']);
    expect(result as WriteResult).toEqual({
      ok: true,
      state: 'published',
      url: raw(file, 1).json.data.url,
      target: 't3_1kh35wk',
      source: 'reddit',
      ms: expect.any(Number),
    });
    const planned = await run('post.create', { ...params, dry_run: true }, [file], USER);
    expect(planned.requests).toEqual([]);
    expect(planned.result).toEqual({ ok: true, state: 'planned', target: 'r/<TEST_SUBREDDIT>', source: 'reddit', ms: expect.any(Number) });
  });

  it('sandbox: a self post, a reply to a comment, a deleted comment', async () => {
    const self = await run('post.create', { subreddit: 'test', title: 'Sandbox self post', text: 'Posted from the crawler sandbox.', confirm: true }, [sand('write-submit-self.har')], REFRESH);
    expect(self.requests).toEqual([TOKEN, 'POST https://oauth.reddit.com/api/submit?raw_json=1']);
    expect(self.result).toMatchObject({ ok: true, state: 'published', url: 'https://www.reddit.com/r/test/comments/1kqa0b1/sandbox_self_post/', target: 't3_1kqa0b1' });
    const reply = await run('comment.create', { target: 't1_lm4a001', text: 'Thanks, trying 55g tactiles next.', confirm: true }, [sand('write-comment-reply-to-comment.har')], REFRESH);
    expect(reply.result).toMatchObject({
      ok: true,
      state: 'published',
      url: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/linear_vs_tactile_for_long_typing_sessions_looking/lm4b001/',
      target: 't1_lm4a001',
    });
    const del = await run('delete', { target: 't1_lm4b001', confirm: true }, [sand('write-delete-comment.har')], REFRESH);
    expect(del.result).toMatchObject({ ok: true, state: 'deleted', target: 't1_lm4b001' });
  });

  it("sandbox: reddit's refusals are rejected with its words; its throttle is rate_limited", async () => {
    const noexist = await run('post.create', { subreddit: 'nosuchsubzz', title: 'Hello', confirm: true }, [sand('error-write-subreddit-noexist.har')], REFRESH);
    expect(noexist.result).toMatchObject({ ok: false, state: 'rejected', target: 'r/nosuchsubzz', error: { code: 'invalid_request', message: "SUBREDDIT_NOEXIST: that community doesn't exist (sr)" } });
    const flair = await run('post.create', { subreddit: 'flairsonly', title: 'Look at this', url: 'https://example.org/board.jpg', confirm: true }, [sand('error-write-submit-validation-400.har')], REFRESH);
    expect(flair.result).toMatchObject({ ok: false, state: 'rejected', error: { message: 'SUBMIT_VALIDATION_FLAIR_REQUIRED: Your post must contain post flair. (flair)' } });
    const limited = await run('comment.create', { target: '1kq3w8f', text: 'First!', confirm: true }, [sand('error-write-comment-ratelimit.har')], REFRESH);
    expect(limited.result).toMatchObject({ ok: false, state: 'rejected', error: { code: 'rate_limited', retryable: true } });
  });

  it('without any stored login: session_expired, nothing sent', async () => {
    for (const [action, params] of [
      ['delete', { target: 't1_lm4b001' }],
      ['comment.create', { target: 't1_lm4a001', text: 'x' }],
      ['post.create', { subreddit: 'test', title: 'x' }],
    ] as const) {
      const { result, requests } = await run(action, { ...params, confirm: true }, [sand('write-delete-comment.har')]);
      expect(requests).toEqual([]);
      expect(result).toMatchObject({ ok: false, state: 'session_expired', error: { code: 'session_expired' } });
    }
  });
});

describe('npm run demo (the whole sandbox, no stored login)', () => {
  /** The examples the adapter's report lists; each must answer from sandbox/ alone. */
  const EXAMPLES: Array<[string, Record<string, unknown>, (r: any) => void]> = [
    ['search', { query: 'mechanical keyboard', limit: 5 }, (r) => expect(r).toMatchObject({ ok: true, source: 'live', count: 5 })],
    ['search', { query: 'switches', subreddit: 'MechanicalKeyboards' }, (r) => expect(r).toMatchObject({ ok: true, count: 2 })],
    ['posts', { query: 'u/keebsmith', max_items: -1 }, (r) => expect(r).toMatchObject({ ok: true, count: 4 })],
    ['posts', { query: 'r/MechanicalKeyboards', limit: 5 }, (r) => expect(r).toMatchObject({ ok: true, count: 5 })],
    ['user', { query: 'u/keebsmith' }, (r) => expect(r.data.author.handle).toBe('keebsmith')],
    ['detail', { query: 'https://www.reddit.com/r/MechanicalKeyboards/s/Kb7xQ2mZpL' }, (r) => expect(r.items[0].media[0].kind).toBe('video')],
    ['detail', { query: 'https://redd.it/1kq6m0c' }, (r) => expect(r.items[0].media).toHaveLength(3)],
    ['comments', { query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/' }, (r) => expect(r.items).toHaveLength(11)],
    ['hot', { category: 'popular', limit: 5 }, (r) => expect(r).toMatchObject({ ok: true, count: 5 })],
    ['hot', { category: 'all' }, (r) => expect(r).toMatchObject({ ok: true, count: 3 })],
    ['post.create', { subreddit: 'test', title: 'Sandbox self post', text: 'Posted from the crawler sandbox.', dry_run: true }, (r) => expect(r).toMatchObject({ ok: true, state: 'planned' })],
    ['comment.create', { target: 't1_lm4a001', text: 'Thanks, trying 55g tactiles next.', dry_run: true }, (r) => expect(r).toMatchObject({ ok: true, state: 'planned', target: 't1_lm4a001' })],
    ['delete', { target: 't1_lm4b001', dry_run: true }, (r) => expect(r).toMatchObject({ ok: true, state: 'planned', target: 't1_lm4b001' })],
  ];

  it.each(EXAMPLES.map(([a, p, check], i) => [`${i} ${a} ${JSON.stringify(p)}`, a, p, check] as const))('%s', async (_name, action, params, check) => {
    const { result } = await runAction({ source: 'reddit', action, params, replay: [resolve(process.cwd(), 'sandbox')] });
    check(result);
  });
});

describe('coverage', () => {
  it('replays every real recording', () => {
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(all.length).toBe(13);
    expect(all.filter((f) => !used.has(f))).toEqual([]);
  });

  it('replays every sandbox recording, each marked hand-made', () => {
    const all = readdirSync(SANDBOX).filter((f) => f.endsWith('.har'));
    expect(all.filter((f) => !usedSandbox.has(f))).toEqual([]);
    for (const f of all) for (const e of entries(resolve(SANDBOX, f))) expect(e.comment.startsWith('hand-made sandbox recording:'), f).toBe(true);
  });
});
