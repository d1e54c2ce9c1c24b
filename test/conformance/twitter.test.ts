import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { memoryGuest, runAction } from '../helpers/run-action.js';
import { probeCtx } from '../helpers/probe-ctx.js';
import { twitter } from '../../src/platforms/twitter/index.js';
import { readAnswer } from '../../src/platforms/twitter/api.js';
import { syndicationToken } from '../../src/platforms/twitter/detail.js';

/*
 * Every twitter recording, replayed through the real catalog validation, adapter and normalization. The
 * real ones (fixtures/twitter: twscrape and FxEmbed mocks of 2023-2026 with reconstructed request URLs,
 * and error bodies quoted from issues) carry query ids of their day and, for older ones, the twitter.com
 * host: the adapter's replay routes make both irrelevant, as they are to the answer. The hand-made
 * sandbox (sandbox/twitter, written by generate.ts) covers what no real recording does: second pages,
 * People search, the media tab, replies with nesting and a ShowMoreThreads page, the guest token, the
 * embed fallback, tombstones, stale ids and features, a spent window, a block page, a lapsed login, the
 * probe, the x.com page and signing chunk for x-client-transaction-id, and the bundle for refresh.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/twitter');
const SANDBOX = resolve(process.cwd(), 'sandbox/twitter');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const entry = (file: string, i = 0): any => JSON.parse(readFileSync(file, 'utf8')).log.entries[i];
const body = (file: string, i = 0): any => JSON.parse(entry(file, i).response.content.text);
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;
const LOGIN = { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' };
const KEYS = { credentials: { consumer_key: 'ck-sandbox', consumer_secret: 'cs-sandbox', access_token: '12-at-sandbox', access_token_secret: 'ats-sandbox' } };

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'twitter', action, params, replay, session: LOGIN, ...extra });

/** The tweets of a timeline answer in order, as the recording holds them. */
function rawTweets(b: any): any[] {
  const out: any[] = [];
  const walk = (o: any): void => {
    if (!o || typeof o !== 'object') return;
    if (Array.isArray(o)) return o.forEach(walk);
    if (o.itemContent?.__typename === 'TimelineTweet' && !o.itemContent.promotedMetadata) {
      let r = o.itemContent.tweet_results?.result;
      if (r?.__typename === 'TweetWithVisibilityResults') r = r.tweet;
      if (r?.__typename === 'Tweet') out.push(r);
      return;
    }
    Object.values(o).forEach(walk);
  };
  walk(b);
  return out;
}
const original = (t: any): any => t.legacy.retweeted_status_result?.result ?? t;
const userName = (t: any): any => t.core.user_results.result.core?.screen_name ?? t.core.user_results.result.legacy?.screen_name;

describe('twitter on real recordings', () => {
  it('search: SearchTimeline (2026-08) gives the posts with authors, stats, pictures at name=orig, and the Bottom cursor', async () => {
    const file = real('search-latest-tesla.har');
    const raw = body(file);
    const tweets = rawTweets(raw);
    const { result, requests } = await run('search', { query: 'tesla lang:en min_faves:100 until:2026-07-08', limit: 40 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items.map((i) => i.id)).toEqual([...new Set(tweets.map((t) => `twitter:${original(t).rest_id}`))]);
    const t0 = tweets[0];
    const first = env.items[0]!;
    expect(first).toMatchObject({
      type: 'image',
      author: t0.core.user_results.result.core.name,
      author_id: t0.core.user_results.result.rest_id,
      author_handle: 'piloly',
      author_url: 'https://x.com/piloly',
      url: `https://x.com/piloly/status/${t0.rest_id}`,
      ts: Math.floor(Date.parse('2026-07-08T21:59:10Z') / 1000),
      stats: { likes: t0.legacy.favorite_count, comments: t0.legacy.reply_count, shares: t0.legacy.retweet_count, views: Number(t0.views.count) },
    });
    // The long post's note text, not the 280-character cut; no t.co link of the pictures.
    expect(first.text).toBe(t0.note_tweet?.note_tweet_results.result.text ?? first.text);
    expect(first.text).not.toMatch(/https:\/\/t\.co\//);
    const photos = t0.legacy.extended_entities.media;
    expect(first.media.map((m) => origin(m.url))).toEqual(photos.map((m: any) => m.media_url_https.replace(/\.(\w+)$/, '?format=$1&name=orig')));
    expect(first.media[0]).toMatchObject({ kind: 'image', w: photos[0].original_info.width, h: photos[0].original_info.height });
    expect(origin(first.thumb!)).toMatch(/name=small$/);
    // The query went as SearchTimeline variables; the page's Bottom cursor asked for the next one.
    const sent = new URL(requests.find((r) => r.includes('/SearchTimeline'))!.slice(4));
    expect(JSON.parse(sent.searchParams.get('variables')!)).toMatchObject({ rawQuery: 'tesla lang:en min_faves:100 until:2026-07-08', product: 'Latest', count: 20, querySource: 'typed_query' });
    expect(JSON.parse(sent.searchParams.get('features')!).view_counts_everywhere_api_enabled).toBe(true);
    const bottom = raw.data.search_by_raw_query.search_timeline.timeline.instructions[0].entries.find((e: any) => e.content.cursorType === 'Bottom').content.value;
    const second = requests.filter((r) => r.includes('/SearchTimeline'))[1];
    expect(JSON.parse(new URL(second!.slice(4)).searchParams.get('variables')!).cursor).toBe(bottom);
  });

  it('search: the 2026-03 answer (FxEmbed, other query id) skips the People module of a Latest search', async () => {
    const file = real('search-latest-neo.har');
    const tweets = rawTweets(body(file));
    const { result } = await run('search', { query: 'neo', limit: 50 }, [file]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(tweets.map((t) => `twitter:${original(t).rest_id}`));
    expect(env.items.every((i) => !i.id.startsWith('twitter:user:'))).toBe(true);
    expect(env.items[0]).toMatchObject({ author_handle: '99tulips', stats: { likes: 58833, views: 2896022 } });
  });

  it('search: a denylisted query (code 214) is an honest empty whose warning quotes X', async () => {
    const { result } = await run('search', { query: '<a denylisted query>' }, [real('error-search-denylisted-query.har')]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'empty', count: 0 });
    expect(env.warnings!.join(' ')).toContain('Query is denylisted in Search Content Control tool');
  });

  it('posts: UserTweets (2026-08) gives the pinned post first, then the timeline; modules of suggested accounts are left out', async () => {
    const file = real('posts-user-tweets-xdevelopers.har');
    const raw = body(file);
    const tweets = rawTweets(raw);
    const { result } = await run('posts', { query: 'id:2244994945', limit: 100 }, [file]);
    const env = result as Envelope;
    const ids = [...new Set(tweets.map((t) => `twitter:${original(t).rest_id}`))];
    expect(env.items.map((i) => i.id)).toEqual(ids);
    expect(env.items[0]!.id).toBe('twitter:2019881223666233717');
    const rt = tweets.find((t) => t.legacy.retweeted_status_result);
    if (rt) {
      // A repost is the reposted post, under its own author.
      const o = rt.legacy.retweeted_status_result.result;
      const item = env.items.find((i) => i.id === `twitter:${o.rest_id}`)!;
      expect(item.author_handle).toBe(userName(o));
    }
    for (const item of env.items) expect(item.url).toBe(`https://x.com/${item.author_handle}/status/${item.id.slice(8)}`);
  });

  it('posts: UserTweets (FxEmbed 2026-03) with a video: the highest-bitrate mp4, duration, poster as thumb; cursor null matches a first page', async () => {
    const file = real('posts-user-tweets-783214.har');
    const t = rawTweets(body(file))[0];
    const m = t.legacy.extended_entities.media[0];
    const best = m.video_info.variants.filter((v: any) => v.content_type === 'video/mp4').sort((a: any, b: any) => b.bitrate - a.bitrate)[0];
    const { result, warnings } = await run('posts', { query: 'https://x.com/i/user/783214' }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ id: `twitter:${t.rest_id}`, type: 'video', duration_s: m.video_info.duration_millis / 1000, aspect: { width: m.original_info.width, height: m.original_info.height } });
    expect(origin(item.media[0]!.url)).toBe(best.url);
    expect(new URL(item.media[0]!.url, 'http://x').searchParams.get('kind')).toBe('video');
    expect(origin(item.thumb!)).toBe(`${m.media_url_https.replace(/\.jpg$/, '')}?format=jpg&name=small`);
    // The recording ends at its first page: the walk says where.
    expect(warnings.join(' ')).toMatch(/stopped after 1 page/);
  });

  it('posts: a community timeline (CommunityTweetsTimeline)', async () => {
    const file = real('posts-community-tweets-1501272736215322629.har');
    const tweets = rawTweets(body(file));
    const { result, requests } = await run('posts', { query: 'https://x.com/i/communities/1501272736215322629', limit: 100 }, [file]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual([...new Set(tweets.map((t) => `twitter:${original(t).rest_id}`))]);
    expect(JSON.parse(new URL(requests.find((r) => r.includes('CommunityTweetsTimeline'))!.slice(4)).searchParams.get('variables')!)).toMatchObject({ communityId: '1501272736215322629', rankingMode: 'Recency' });
  });

  it('posts: HTTP 429 with code 88 is rate_limited, and the spent window refuses the next call without a request', async () => {
    const [memo, guest] = [new MemoryMemo(), memoryGuest()];
    const file = real('error-rate-limit-88.har');
    const { result } = await run('posts', { query: 'id:2244994945' }, [file], { memo, guest });
    expect((result as Envelope).error).toMatchObject({ code: 'rate_limited' });
    expect((result as Envelope).error!.message).toContain('Rate limit exceeded');
    const again = await run('posts', { query: 'id:2244994945' }, [file], { memo, guest });
    expect((again.result as Envelope).error!.code).toBe('rate_limited');
    expect((again.result as Envelope).error!.message).toMatch(/15-minute window for UserTweets; it reopens at/);
    expect(again.requests.filter((r) => r.includes('/UserTweets'))).toEqual([]);
  });

  it('user: UserByScreenName (2026 shape) gives name, handle, bio, avatar without _normal, counts, verified', async () => {
    const file = real('user-xdevelopers.har');
    const u = body(file).data.user.result;
    const { result } = await run('user', { query: '@xdevelopers' }, [file]);
    const r = result as CreatorResult;
    expect(r.data!.author).toMatchObject({ id: u.rest_id, source: 'twitter', handle: 'XDevelopers', name: 'Developers', bio: u.profile_bio.description, url: 'https://x.com/XDevelopers', followers: u.relationship_counts.followers, following: u.relationship_counts.following, posts: u.tweet_counts.tweets, verified: true });
    expect(r.data!.author.likes).toBeUndefined();
    expect(origin(r.data!.author.avatar!)).toBe(u.avatar.image_url.replace('_normal', ''));
  });

  it('user: when UserByScreenName does not answer, AboutAccountQuery gives the identity without counts', async () => {
    const file = real('user-about-account-xdevelopers.har');
    const { result, requests } = await run('user', { query: 'https://twitter.com/xdevelopers' }, [file]);
    const a = (result as CreatorResult).data!.author;
    expect(a).toMatchObject({ id: '2244994945', handle: 'XDevelopers', name: 'Developers', verified: true });
    expect(a.followers).toBeUndefined();
    expect(requests.some((r) => r.includes('/AboutAccountQuery?'))).toBe(true);
  });

  it('user: a suspended account (UserUnavailable, 2026) is not_found with X’s words', async () => {
    const { result } = await run('user', { query: 'testsuspendeduser' }, [real('error-user-suspended-unavailable.har')]);
    expect((result as CreatorResult).error).toMatchObject({ code: 'not_found' });
    expect((result as CreatorResult).error!.message).toContain('User is suspended');
  });

  it('user: the pre-2023 suspended answer (code 63 with partial data) is not_found', async () => {
    const { result } = await run('user', { query: 'USER_NOT_RECORDED' }, [real('error-user-suspended-63-legacy.har')]);
    expect((result as CreatorResult).error).toMatchObject({ code: 'not_found' });
    expect((result as CreatorResult).error!.message).toMatch(/suspended.*\(63\)/);
  });

  it('user: a locked account (326) is session_expired naming the profile and the unlock page, never a block', async () => {
    const { result } = await run('user', { query: 'USER_NOT_RECORDED' }, [real('error-graphql-account-locked-326.har')]);
    const err = (result as CreatorResult).error!;
    expect(err.code).toBe('session_expired');
    expect(err.message).toContain('profile "default"');
    expect(err.message).toContain('https://twitter.com/account/access');
  });

  it('the login-flow 326 (onboarding/task.json, not an endpoint the adapter calls) maps the same through the answer reader', () => {
    const e = entry(real('error-account-locked-326-login.har'));
    const res = { status: e.response.status, url: e.request.url, redirects: [], headers: { 'content-type': 'application/json' }, body: Buffer.from(e.response.content.text), text: () => e.response.content.text, json: () => JSON.parse(e.response.content.text) };
    expect(() => readAnswer(res, { what: 'login', route: 'login', op: 'onboarding', profile: 'p1' })).toThrow(expect.objectContaining({ code: 'session_expired', message: expect.stringContaining('locked the account of profile "p1"') }));
  });

  it('detail: TweetDetail (with a login) gives the focal post with its stats and views', async () => {
    const file = real('detail-tweet-1649191520250245121.har');
    const focal = rawTweets(body(file)).find((t) => t.rest_id === '1649191520250245121');
    const { result, requests } = await run('detail', { query: 'https://twitter.com/XDevelopers/status/1649191520250245121?s=20' }, [file]);
    const env = result as Envelope;
    expect(env.items).toHaveLength(1);
    expect(env.items[0]).toMatchObject({ id: 'twitter:1649191520250245121', type: 'text', text: focal.legacy.full_text, author_handle: 'XDevelopers', ts: 1682032873, stats: { likes: focal.legacy.favorite_count, comments: focal.legacy.reply_count, shares: focal.legacy.retweet_count, views: Number(focal.views.count) } });
    expect(JSON.parse(new URL(requests.find((r) => r.includes('/TweetDetail'))!.slice(4)).searchParams.get('variables')!).focalTweetId).toBe('1649191520250245121');
  });

  it('detail: the thread recording (referrer profile) answers the same post', async () => {
    const { result } = await run('detail', { query: 'x.com/XDevelopers/status/1649191520250245121' }, [real('detail-tweet-thread-1649191520250245121.har')]);
    expect((result as Envelope).items[0]!.id).toBe('twitter:1649191520250245121');
  });

  it('detail: a 2023 video post on twitter.com (other query id): mp4 of the highest bitrate, 1080x1920', async () => {
    const file = real('detail-tweet-with-video-1671508600538161153.har');
    const focal = rawTweets(body(file)).find((t) => t.rest_id === '1671508600538161153');
    const m = focal.legacy.extended_entities.media[0];
    const best = m.video_info.variants.filter((v: any) => v.content_type === 'video/mp4').sort((a: any, b: any) => b.bitrate - a.bitrate)[0];
    const { result } = await run('detail', { query: 'https://mobile.twitter.com/TheFigen_/status/1671508600538161153/video/1' }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ type: 'video', duration_s: m.video_info.duration_millis / 1000, aspect: { width: 1080, height: 1920 } });
    expect(origin(item.media[0]!.url)).toBe(best.url);
  });

  it('detail: anonymous, TweetResultByRestId with a guest token (the activation is not recorded: the read goes without one)', async () => {
    const file = real('detail-tweet-result-by-rest-id-20.har');
    const t = body(file).data.tweetResult.result;
    const { result, requests } = await run('detail', { query: 'https://x.com/jack/status/20' }, [file], { session: {} });
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ id: 'twitter:20', type: 'text', text: 'just setting up my twttr', author: 'jack', author_id: '12', author_handle: 'jack', ts: 1142974214, stats: { likes: t.legacy.favorite_count, comments: t.legacy.reply_count, shares: t.legacy.retweet_count } });
    expect(item.stats.views).toBeUndefined();
    expect(requests[0]).toBe('POST https://api.x.com/1.1/guest/activate.json');
    expect(requests.some((r) => r.includes('/TweetDetail'))).toBe(false);
  });

  it('comments: the replies after the focal post, in conversation order; a reply to a reply names its parent', async () => {
    const file = real('replies-tweet-1649191520250245121.har');
    const raw = body(file);
    const tweets = rawTweets(raw).filter((t) => t.rest_id !== '1649191520250245121');
    const { result, requests } = await run('comments', { query: '1649191520250245121', limit: 100 }, [file]);
    const res = result as CommentsResult;
    expect(res.source).toBe('live');
    expect(res.items.map((c) => c.cid)).toEqual(tweets.map((t) => t.rest_id));
    const focal = rawTweets(raw).find((t) => t.rest_id === '1649191520250245121');
    expect(res.total).toBe(focal.legacy.reply_count);
    const first = res.items[0]!;
    expect(first).toMatchObject({ cid: '1649191521323995138', user_id: '2244994945', handle: 'XDevelopers', user_name: 'Developers', source: 'twitter', url: 'https://x.com/XDevelopers/status/1649191521323995138' });
    expect(first.parent_id).toBeUndefined();
    expect(res.items[1]).toMatchObject({ cid: '1649191522485817345', parent_id: '1649191521323995138' });
    expect(res.items[2]).toMatchObject({ cid: '1649191523697979392', parent_id: '1649191522485817345' });
    // The Bottom cursor was followed (the recording ends there).
    const bottom = raw.data.threaded_conversation_with_injections_v2.instructions[1].entries.at(-1).content.value;
    expect(requests.filter((r) => r.includes('/TweetDetail')).length).toBe(2);
    expect(JSON.parse(new URL(requests.filter((r) => r.includes('/TweetDetail'))[1]!.slice(4)).searchParams.get('variables')!).cursor).toBe(bottom);
  });

  it('trending: the sports tab of 2025-03 gives ranked words with post counts and search links', async () => {
    const file = real('trending-sport-2025-03.har');
    const { result, requests } = await run('trending', { board: 'sports' }, [file]);
    const t = result as TrendResult;
    expect(t.data!.trends.slice(0, 2)).toEqual([
      { word: 'Hield', source: 'twitter', rank: 1, hot_value: 1699, url: 'https://x.com/search?q=Hield' },
      { word: 'Marchand', source: 'twitter', rank: 2, hot_value: 3157, url: 'https://x.com/search?q=Marchand' },
    ]);
    expect(t.data!.trends).toHaveLength(7);
    expect(JSON.parse(new URL(requests.find((r) => r.includes('GenericTimelineById'))!.slice(4)).searchParams.get('variables')!).timelineId).toBe('VGltZWxpbmU6DAC2CwABAAAABnNwb3J0cwAA');
  });

  it('trending: the 2026 sports tab (AI story trends in a module, an NFL frame skipped)', async () => {
    const file = real('trending-sport.har');
    const { result } = await run('trending', { board: 'sports' }, [file]);
    const trends = (result as TrendResult).data!.trends;
    const mod = body(file).data.timeline.timeline.instructions[2].entries[1].content.items;
    expect(trends.map((t) => t.word)).toEqual(mod.map((i: any) => i.item.itemContent.name));
    expect(trends[0]).toEqual({ word: 'Football Legend Kevin Keegan Dies at 75 After Cancer Battle', source: 'twitter', rank: 1, hot_value: 152000, url: 'https://x.com/i/trending/2079212121376645555' });
    expect(trends.find((t) => t.hot_value === 4_000_000)).toBeDefined();
  });

  it('writes: the API v2 cassette (tweepy, 2021) through post.create and delete with OAuth 1.0a keys', async () => {
    const file = real('write-create-delete-tweet.har');
    const created = await run('post.create', { text: 'Test Tweet', confirm: true }, [file], { session: KEYS });
    expect(created.result).toMatchObject({ ok: true, state: 'published', url: 'https://x.com/i/web/status/1456012973835788293', source: 'twitter' });
    expect(created.requests).toEqual(['POST https://api.x.com/2/tweets']);
    const deleted = await run('delete', { target: 'https://twitter.com/me/status/1456012973835788293', confirm: true }, [file], { session: KEYS });
    expect(deleted.result).toMatchObject({ ok: true, state: 'deleted', target: 'https://x.com/i/web/status/1456012973835788293' });
    expect(deleted.requests).toEqual(['DELETE https://api.x.com/2/tweets/1456012973835788293']);
    // A plan touches nothing; without keys the run is session_expired naming the credentials to add.
    const planned = await run('post.create', { text: 'Test Tweet', dry_run: true }, [file], { session: KEYS });
    expect(planned).toMatchObject({ result: { ok: true, state: 'planned' }, requests: [] });
    const keyless = await run('post.create', { text: 'Test Tweet', confirm: true }, [file]);
    expect(keyless.result).toMatchObject({ ok: false, state: 'session_expired', error: { message: expect.stringContaining('--credential consumer_key=…') } });
    expect(keyless.requests).toEqual([]);
  });
});

describe('twitter on the hand-made sandbox', () => {
  it('search walks its pages; a promoted post is left out; a long post reads whole; the page past the end stops the walk', async () => {
    const { result, requests, warnings } = await run('search', { query: 'harbor fog', limit: 10 }, [sand('search-harbor-fog.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.type)).toEqual(['video', 'image', 'text']);
    expect(env.items[2]!.text).toMatch(/^Storm notes, part one: .* kept off the pier\.$/);
    expect(env.items[1]!.text).toBe('Thick fog rolled in over the breakwater at dawn. Visibility under 200 m until about 9. Tide table: https://tides.example.org/today');
    expect(env.next_cursor).toBeUndefined();
    expect(requests.filter((r) => r.includes('/SearchTimeline'))).toHaveLength(3);
    expect(warnings).toEqual([]);
  });

  it('search product People: accounts as cards (user:<id>, profile link, avatar)', async () => {
    const { result } = await run('search', { query: 'harbor', product: 'People' }, [sand('search-people-harbor.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => [i.id, i.url, i.title])).toEqual([
      ['twitter:user:1580000000000000001', 'https://x.com/harborweather', 'Harbor Weather'],
      ['twitter:user:1580000000000000002', 'https://x.com/lighthousekeep', 'The Lighthouse Keeper'],
    ]);
    expect(origin(env.items[0]!.thumb!)).toBe('https://pbs.twimg.com/profile_images/1780000000000000001/hWthr9Kq.jpg');
  });

  it('search: the empty-query variant of code 214 is an honest empty too; a query over 512 characters never goes out', async () => {
    const { result } = await run('search', { query: 'lang:en' }, [sand('error-search-empty-query-214.har')]);
    expect((result as Envelope).source).toBe('empty');
    expect((result as Envelope).warnings!.join(' ')).toContain('ERROR_EMPTY_QUERY');
    const long = await run('search', { query: 'a'.repeat(513) }, [SANDBOX]);
    expect((long.result as Envelope).error!.code).toBe('invalid_request');
    expect(long.requests).toEqual([]);
  });

  it('posts by handle: looked up once, walked to the end; pinned first, a repost as the original under its author', async () => {
    const memo = new MemoryMemo();
    const { result, requests } = await run('posts', { query: '@harborweather', max_items: -1 }, [sand('posts-harborweather.har')], { memo });
    const env = result as Envelope;
    expect(env.items.map((i) => i.author_handle)).toEqual(['harborweather', 'harborweather', 'harborweather', 'lighthousekeep', 'harborweather', 'harborweather']);
    expect(env.items[0]!.text).toMatch(/^Welcome!/);
    expect(env.items[3]!.text).toBe('Lamp cleaned, brass polished, logbook signed. Another quiet night.');
    expect(env.next_cursor).toBeUndefined();
    expect(requests.filter((r) => r.includes('/UserByScreenName'))).toHaveLength(1);
    // The handle's id is remembered: a second walk asks for the timeline only.
    const again = await run('posts', { query: 'harborweather', limit: 2 }, [sand('posts-harborweather.har')], { memo });
    expect(again.requests.some((r) => r.includes('/UserByScreenName'))).toBe(false);
  });

  it('posts tab media: UserMedia, posts inside a grid module', async () => {
    const { result, requests } = await run('posts', { query: 'id:1580000000000000001', tab: 'media' }, [sand('posts-media-harborweather.har')]);
    expect((result as Envelope).items.map((i) => i.type)).toEqual(['video', 'image']);
    expect(requests.some((r) => r.includes('/UserMedia?'))).toBe(true);
  });

  it('posts tab with_replies: the account’s replies, without the other accounts’ posts they answer', async () => {
    const { result } = await run('posts', { query: 'id:1580000000000000001', tab: 'with_replies' }, [sand('posts-replies-harborweather.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => [i.author_handle, i.text])).toEqual([
      ['harborweather', 'Sunset from the east pier, the last ferry crossing the light.'],
      ['harborweather', '@lighthousekeep Thank you! You have the better view up there.'],
    ]);
  });

  it('user: the sandbox account', async () => {
    const { result } = await run('user', { query: 'https://x.com/harborweather/with_replies' }, [sand('user-harborweather.har')]);
    expect((result as CreatorResult).data!.author).toMatchObject({ handle: 'harborweather', followers: 48210, following: 312, posts: 5120, verified: true });
  });

  it('detail anonymous: a t.co link (one redirect), a guest token minted and sent, the best mp4', async () => {
    const { result, requests } = await runAction({ source: 'x', action: 'detail', params: { query: 'https://t.co/hArb0rLnk' }, replay: [sand('resolve-tco.har'), sand('detail-guest-video.har')] });
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ type: 'video', duration_s: 31.4, aspect: { width: 1080, height: 1920 } });
    expect(origin(item.media[0]!.url)).toMatch(/\/720x1280\/hIgHhArb0r\.mp4\?tag=16$/);
    expect(requests.slice(0, 2)).toEqual(['GET https://t.co/hArb0rLnk', 'POST https://api.x.com/1.1/guest/activate.json']);
  });

  it('a t.co page that redirects by meta refresh (what browsers get) leads to the post too', async () => {
    const { probeCtx: pc } = await import('../helpers/probe-ctx.js');
    const { resolveTweetId } = await import('../../src/platforms/twitter/refs.js');
    const ctx = pc(twitter, [], undefined, { url: 'https://t.co/mEtaRfsh', body: '<head><meta name="referrer" content="always"><noscript><META http-equiv="refresh" content="0;URL=https://x.com/jack/status/20?s=20&amp;t=x"></noscript><title>https://x.com/jack/status/20</title></head>' });
    expect(await resolveTweetId(ctx, 'https://t.co/mEtaRfsh')).toBe('20');
  });

  it('detail anonymous: a spent guest window (429) falls back to the embed endpoint, which says what it lacks', async () => {
    const file = sand('detail-embed-fallback.har');
    const id = entry(file, 2).request.url.match(/id=(\d+)/)[1];
    const { result, requests, warnings } = await run('detail', { query: id }, [file], { session: {} });
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ id: `twitter:${id}`, type: 'image', author_handle: 'harborweather', text: 'New tide boards are up at the harbor office window.', stats: { likes: 77, comments: 5 } });
    expect(item.stats.views).toBeUndefined();
    expect(origin(item.media[0]!.url)).toBe('https://pbs.twimg.com/media/HtIdEbOaRd5x?format=jpg&name=orig');
    const embed = new URL(requests.find((r) => r.includes('cdn.syndication'))!.slice(4));
    expect(embed.searchParams.get('token')).toBe(syndicationToken(id));
    expect(warnings.join(' ')).toMatch(/embed endpoint, which omits views/);
  });

  it('detail: a tombstone is not_found with X’s text; an unknown id is not_found; an age-gated post without a login asks for one', async () => {
    const tomb = await run('detail', { query: entry(sand('error-detail-tombstone.har')).request.url.match(/tweetId%22%3A%22(\d+)/)[1] }, [sand('error-detail-tombstone.har')], { session: {} });
    expect((tomb.result as Envelope).error).toMatchObject({ code: 'not_found', message: expect.stringContaining('This Post was deleted by the Post author') });
    const unknown = await run('detail', { query: '1234567890123456789' }, [sand('error-detail-unknown-id.har')], { session: {} });
    expect((unknown.result as Envelope).error!.code).toBe('not_found');
    const nsfwFile = sand('error-detail-nsfw-logged-out.har');
    const nsfw = await run('detail', { query: entry(nsfwFile).request.url.match(/tweetId%22%3A%22(\d+)/)[1] }, [nsfwFile], { session: {} });
    expect((nsfw.result as Envelope).error).toMatchObject({ code: 'session_expired', message: expect.stringContaining('npx crawler profiles add twitter default') });
  });

  it('detail with a login reads TweetDetail; comments walk the ShowMoreThreads page; nested replies name their parent', async () => {
    const file = sand('detail-conversation-video.har');
    const { result } = await run('detail', { query: 'https://vxtwitter.com/harborweather/status/2045936718443446274' }, [file]);
    expect((result as Envelope).items[0]!.id).toBe('twitter:2045936718443446274');
    const { result: c, requests } = await run('comments', { query: 'https://fxtwitter.com/harborweather/status/2045936718443446274', limit: 50 }, [file]);
    const res = c as CommentsResult;
    expect(res.items.map((x) => [x.handle, x.parent_id])).toEqual([
      ['lighthousekeep', undefined],
      ['harborweather', res.items[0]!.cid],
      ['ferrydeck', undefined],
      ['ferrydeck', undefined],
    ]);
    expect(res.total).toBe(4);
    expect(res.has_more).toBe(false);
    expect(requests.filter((r) => r.includes('/TweetDetail'))).toHaveLength(2);
  });

  it('trending: the trending tab (a promoted trend left out) and the explore page', async () => {
    const { result } = await run('trending', {}, [sand('trending-trending.har')]);
    expect((result as TrendResult).data!.trends.map((t) => [t.word, t.hot_value])).toEqual([['#HarborFog', 12400], ['Spring tide', 3180], ['Ferry strike', 1_200_000]]);
    expect((result as TrendResult).data!.trends[0]!.url).toBe('https://x.com/search?q=%23HarborFog');
    const explore = await run('trending', { board: 'explore' }, [sand('trending-explore.har')]);
    expect((explore.result as TrendResult).data!.trends).toEqual([{ word: 'Lighthouse', source: 'twitter', rank: 1, hot_value: 8022, url: 'https://x.com/search?q=Lighthouse' }]);
  });

  it('a stale query id (404 twice, the second with a fresh transaction id) names the operation, its id and the refresh command', async () => {
    const { result, requests } = await run('user', { query: 'staleids' }, [sand('error-stale-queryid-404.har')]);
    const err = (result as CreatorResult).error!;
    expect(err.code).toBe('upstream_error');
    expect(err.message).toContain('UserByScreenName (queryId Gb-d6r0vxPOADdG62OEBpQ)');
    expect(err.message).toContain('npx crawler platforms refresh twitter');
    expect(err.message).toContain('CRAWLER_TWITTER_OPS');
    expect(requests.filter((r) => r.includes('/UserByScreenName'))).toHaveLength(2);
  });

  it('missing feature switches (336) name the flags to refresh', async () => {
    const { result } = await run('search', { query: 'newflags' }, [sand('error-features-336.har')]);
    const err = (result as Envelope).error!;
    expect(err.code).toBe('upstream_error');
    expect(err.message).toContain('SearchTimeline: X wants feature flags rweb_video_screen_enabled, responsive_web_grok_imagine_annotation_enabled');
    expect(err.message).toContain('npx crawler platforms refresh twitter');
  });

  it('a window answered with remaining 0 is kept: the answer stands, the next call of that operation is refused until reset', async () => {
    const [memo, guest] = [new MemoryMemo(), memoryGuest()];
    const file = sand('error-window-spent.har');
    const first = await run('user', { query: 'lighthousekeep' }, [file], { memo, guest });
    expect((first.result as CreatorResult).ok).toBe(true);
    // The recorded reset (2026-04-20T09:30Z) may lie in this clock's past: then the window is at most 15 minutes away.
    // Kept in the account's persisted state, so the account's next task sees it on any process of a fleet.
    const reset = guest.get<number>('twitter:window:default:login:UserByScreenName')!;
    const now = Date.now() / 1000;
    expect(reset).toBe(1776677400 > now ? 1776677400 : reset);
    expect(reset - now).toBeGreaterThan(0);
    expect(reset - now).toBeLessThanOrEqual(Math.max(900, 1776677400 - now));
    const second = await run('user', { query: 'lighthousekeep' }, [file], { memo, guest });
    expect((second.result as CreatorResult).error!.code).toBe('rate_limited');
    expect(second.requests.some((r) => r.includes('/UserByScreenName'))).toBe(false);
  });

  it('LoadShed is a retryable upstream error; a Cloudflare page is blocked; code 32 is session_expired', async () => {
    const shed = await run('user', { query: 'busyday' }, [sand('error-loadshed.har')]);
    expect((shed.result as CreatorResult).error).toMatchObject({ code: 'upstream_error', retryable: true, message: expect.stringContaining('LoadShed') });
    const cf = await run('user', { query: 'walled' }, [sand('error-cloudflare-403.har')]);
    expect((cf.result as CreatorResult)).toMatchObject({ source: 'blocked', error: { code: 'blocked', message: expect.stringContaining('Cloudflare') } });
    const lapsed = await run('user', { query: 'lapsed' }, [sand('error-session-32.har')]);
    expect((lapsed.result as CreatorResult).error).toMatchObject({ code: 'session_expired', message: expect.stringContaining('Could not authenticate you') });
  });

  it('x-client-transaction-id: derived once from x.com/home and its signing chunk, sent on every GraphQL call', async () => {
    const memo = new MemoryMemo();
    const files = [sand('home-page.har'), sand('trending-trending.har'), sand('trending-explore.har')];
    const { requests } = await run('trending', {}, files, { memo });
    expect(requests.slice(0, 2)).toEqual(['GET https://x.com/home', 'GET https://abs.twimg.com/responsive-web/client-web/ondemand.s.4f1d2a9a.js']);
    const again = await run('trending', { board: 'explore' }, files, { memo });
    expect(again.requests.some((r) => r.includes('x.com/home'))).toBe(false);
    expect(memo.get<{ animationKey: string }>('twitter:xclid:default')!.animationKey).toBe('a790710d99999999999980851eb851eb8520851eb851eb8520d999999999999800');
  });

  it('probe: account/settings.json with a screen name is ok; without a login, session_expired; code 32 too', async () => {
    expect(await twitter.probe!(probeCtx(twitter, [sand('probe-settings.har')], LOGIN.cookies))).toBe('ok');
    expect(await twitter.probe!(probeCtx(twitter, [], undefined))).toBe('session_expired');
    expect(await twitter.probe!(probeCtx(twitter, [], LOGIN.cookies, { url: 'https://x.com/i/api/1.1/account/settings.json', status: 401, body: { errors: [{ code: 32, message: 'Could not authenticate you.' }] } }))).toBe('session_expired');
  });

  it('refresh: query ids, feature switches with the page values and the bearer from the hand-made page and bundle', async () => {
    const ctx = probeCtx(twitter, [sand('refresh-bundle.har')], LOGIN.cookies);
    const fresh = await twitter.ops!.refresh(ctx);
    expect(fresh.SearchTimeline).toMatchObject({
      queryId: 'NewSearchId_sandbox01',
      features: { rweb_video_screen_enabled: true, view_counts_everywhere_api_enabled: true, responsive_web_grok_imagine_annotation_enabled: true, a_brand_new_switch: false },
      fieldToggles: { withArticleRichContentState: false },
      variables: { querySource: 'typed_query' },
    });
    expect(Object.keys((fresh.SearchTimeline as any).features)).toHaveLength(4);
    expect((fresh.TweetDetail as any).queryId).toBe('NewDetailId_sandbox01');
    expect((fresh.UserTweets as any).queryId).toBe('NewTimelineId_sandbox');
    expect((fresh.UserByScreenName as any).queryId).toBe('NewUserId_sandbox0002');
    // Operations the bundle did not name keep their data, and say so.
    expect(fresh.UserMedia).toEqual(twitter.ops!.defaults.UserMedia);
    expect(fresh.bearer).toBe('AAAAAAAAAAAAAAAAAAAAASandboxBearerTokenForTheHandMadeBundle%3DxYz0123456789');
    expect(fresh.CreateTweet).toBeUndefined();
  });

  it('writes: a reply names its target; duplicate content is rejected with X’s words; revoked keys are session_expired; another’s post is not deleted', async () => {
    const reply = await run('comment.create', { target: '2045936718443446274', text: '@harborweather Lovely light tonight.', confirm: true }, [sand('write-reply.har')], { session: { credentials: { oauth2_user_token: 'user-token' } } });
    expect(reply.result).toMatchObject({ ok: true, state: 'published', target: 'https://x.com/i/web/status/2045936718443446274' });
    expect((reply.result as any).url).toMatch(/^https:\/\/x\.com\/i\/web\/status\/\d+$/);
    const dup = await run('post.create', { text: 'same again', confirm: true }, [sand('write-duplicate-403.har')], { session: KEYS });
    expect(dup.result).toMatchObject({ ok: false, state: 'rejected', error: { code: 'invalid_request', message: expect.stringContaining('duplicate content') } });
    const revoked = await run('post.create', { text: 'hello', confirm: true }, [sand('write-unauthorized-401.har')], { session: KEYS });
    expect(revoked.result).toMatchObject({ ok: false, state: 'session_expired' });
    const notOwn = await run('delete', { target: '2045247174865846277', confirm: true }, [sand('write-delete-not-own.har')], { session: KEYS });
    expect(notOwn.result).toMatchObject({ ok: false, state: 'rejected', error: { message: expect.stringContaining('deleted: false') } });
  });
});

describe('twitter without a login', () => {
  it.each(['search', 'posts', 'user', 'comments', 'trending'])('%s is session_expired naming the profile and the command, before any request', async (action) => {
    const params = action === 'search' ? { query: 'x' } : action === 'trending' ? {} : action === 'comments' ? { query: '20' } : { query: '@jack' };
    const { result, requests } = await run(action, params, [SANDBOX], { session: {} });
    const err = (result as { error?: { code: string; message: string } }).error!;
    expect(err.code).toBe('session_expired');
    expect(err.message).toContain(`npx crawler profiles add twitter default --cookie 'auth_token=…; ct0=…'`);
    expect(requests).toEqual([]);
  });
  it('a login with auth_token but no ct0 says which cookie is missing', async () => {
    const { result } = await run('user', { query: '@jack' }, [SANDBOX], { session: { cookies: 'auth_token=abc' } });
    expect((result as CreatorResult).error!.message).toContain('no ct0 cookie');
  });
});

describe('twitter bad input', () => {
  it.each([
    ['detail', { query: 'https://www.youtube.com/watch?v=abc' }],
    ['detail', { query: 'https://x.com/jack' }],
    ['comments', { query: 'not a tweet' }],
    ['user', { query: 'https://x.com/home' }],
    ['user', { query: 'https://x.com/i/communities/123' }],
    ['posts', { query: 'https://x.com/i/communities/123', tab: 'media' }],
  ])('%s %j is invalid_request before any request', async (action, params) => {
    const { result, requests } = await run(action, params, [SANDBOX]);
    expect((result as { error?: { code: string } }).error?.code).toBe('invalid_request');
    expect(requests).toEqual([]);
  });
  it.each([
    ['trending', { board: 'weekly' }],
    ['search', { query: 'x', product: 'Photos' }],
    ['posts', { query: '@jack', tab: 'likes' }],
  ])('%s %j is refused by the catalog (enum)', async (action, params) => {
    await expect(run(action, params, [SANDBOX])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).filter((f) => !usedSandbox.has(f))).toEqual([]);
});
