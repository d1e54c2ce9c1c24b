import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import * as cheerio from 'cheerio';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { isReplayMiss } from '../../src/crawl/errors.js';
import { compileRules, routeKey } from '../../src/crawl/replay/match.js';
import { CommentsResultSchema, CreatorResultSchema, EnvelopeSchema, TrendResultSchema } from '../../src/domain/results.js';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';
import { runAction, type RunActionInput } from '../helpers/run-action.js';

/*
 * Property-based robustness of the platform adapters against answers in shapes they were not written for.
 * Each case replays a recording the conformance tests use; every run mutates one answer the baseline run
 * actually requested (JSON: delete a key, null a value, retype it, empty it; HTML: drop an element or an
 * attribute, blank a text; any body: truncate it, or swap it for an HTML error page or nothing) and runs the
 * action. A typed outcome is required: a result that passes the domain schemas (possibly empty, partial with
 * a warning, or an error envelope with a known code). An escaping exception, a hang, a schema-invalid result,
 * a value made up from a missing field ("undefined", "[object Object]", NaN in a string), or a JS runtime
 * error passed on as an error message is a failure. A ReplayMiss is tolerated (a mutated id or cursor leads
 * to a request nothing recorded) unless its URL was built from a missing value.
 *
 * JSON mutations mostly target paths the adapter read in an unmutated baseline run (JSON.parse is traced
 * there), the rest any node at a random depth. Failures are collected per case (distinct message → the
 * first input that produced it) and reported together. Recordings are read in place; mutated copies live
 * in a temp dir for the duration of the file. FUZZ_RUNS=400 / FUZZ_SEED=n explore further by hand;
 * FUZZ_DEBUG=1 prints each case's outcome counts.
 */

const FIX = resolve(process.cwd(), '../shared/fixtures');
const SBX = resolve(process.cwd(), 'sandbox');
/** Fixed so a failure reproduces (case i runs with SEED + i). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_611);
const RUNS = 40;
// npm test runs 60% of the nominal budget (the suite's time is shared); FUZZ_RUNS explores further by hand.
const SCALE = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) / RUNS : 0.6;
/** A run that takes longer than this is a hang (a replayed crawl answers in milliseconds). */
const HANG_MS = 8_000;

type Session = RunActionInput['session'];
interface Case {
  source: string;
  action: string;
  params: Record<string, unknown>;
  /** Recordings (files or directories), as the conformance tests pass them. */
  replay: string[];
  session?: Session;
  /** Fewer runs for very large recordings (each run re-serializes the answer). */
  runs?: number;
}

const fx = (p: string) => join(FIX, p);
const sb = (p: string) => join(SBX, p);
const creds = (credentials: Record<string, string>): Session => ({ credentials });

const BILI_NAV = fx('bilibili/error-101-nav-not-logged-in.har');
const REDDIT_APP = creds({ client_id: 'app-id', client_secret: 'app-secret' });
const REDDIT_REFRESH = creds({ client_id: 'app-id', refresh_token: 'refresh' });
const BSKY_LOGIN = creds({ identifier: 'crawler-demo.bsky.social', app_password: 'xxxx-xxxx-xxxx-xxxx' });
const MASTO_DEV = creds({ instance: 'http://localhost:3000' });
const MASTO_LOGIN = creds({ access_token: 'sandbox-token' });

const CASES: Case[] = [
  // weibo: m.weibo.cn JSON, the desktop weibo.com API, and the HTML of s.weibo.com and the detail page
  { source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 11 }, replay: [fx('weibo/posts-arknights-timeline.har')] },
  { source: 'weibo', action: 'posts', params: { query: '7723001456', max_items: 40 }, replay: [sb('weibo/posts-7723001456-timeline.har')] },
  { source: 'weibo', action: 'posts', params: { query: '6279793937' }, replay: [sb('weibo/pc-posts-mymblog-6279793937.har')] },
  { source: 'weibo', action: 'user', params: { query: 'https://weibo.com/u/6279793937' }, replay: [fx('weibo/user-arknights-profile.har')] },
  { source: 'weibo', action: 'user', params: { query: 'https://weibo.com/u/6279793937' }, replay: [sb('weibo/pc-user-profile-info-6279793937.har')] },
  { source: 'weibo', action: 'detail', params: { query: 'HyZVegYAP' }, replay: [fx('weibo/detail-statuses-show-HyZVegYAP.har')] },
  {
    source: 'weibo',
    action: 'detail',
    params: { query: '4649031014551911' },
    replay: [fx('weibo/detail-html-4649031014551911.har'), fx('weibo/detail-statuses-extend-4649031014551911.har')],
  },
  {
    source: 'weibo',
    action: 'detail',
    params: { query: 'https://weibo.com/6279793937/Kkzwhj69V' },
    replay: [sb('weibo/detail-statuses-show-Kkzwhj69V.har'), fx('weibo/detail-statuses-extend-4649031014551911.har')],
  },
  { source: 'weibo', action: 'detail', params: { query: 'https://weibo.com/6279793937/Klpl5yu8T' }, replay: [sb('weibo/pc-detail-statuses-show-Klpl5yu8T.har')] },
  { source: 'weibo', action: 'comments', params: { query: '4645748019299849', limit: 50 }, replay: [sb('weibo/comments-hotflow-4645748019299849.har')] },
  {
    source: 'weibo',
    action: 'comments',
    params: { query: '4645748019299849', replies_of: '4645751278535701', limit: 10 },
    replay: [sb('weibo/replies-hotflowchild-4645751278535701.har')],
  },
  { source: 'weibo', action: 'comments', params: { query: 'Klpl5yu8T', limit: 50 }, replay: [sb('weibo/pc-comments-buildcomments-4651022958219023.har')] },
  { source: 'weibo', action: 'hot', params: { category: 'hotposts', limit: 30 }, replay: [sb('weibo/hot-hotposts.har')] },
  { source: 'weibo', action: 'search', params: { query: '明日方舟' }, replay: [sb('weibo/search-arknights.har')] },
  { source: 'weibo', action: 'trending', params: {}, replay: [fx('weibo/hot-realtimehot-getindex-2025-04-01.har')] },
  { source: 'weibo', action: 'trending', params: { board: 'realtimehot' }, replay: [fx('weibo/trending-s-weibo-top-summary-realtimehot-2021-09-22.har')] },
  {
    source: 'weibo',
    action: 'trending',
    params: { board: 'topicband' },
    replay: [fx('weibo/error-empty-hot-topic-container-2025-04-01.har'), fx('weibo/trending-s-weibo-top-summary-topicband-2021-09-22.har')],
  },
  { source: 'weibo', action: 'trending', params: {}, replay: [sb('weibo/pc-hotsearch.har')] },

  // bilibili
  { source: 'bilibili', action: 'search', params: { query: '火影忍者', limit: 42 }, replay: [fx('bilibili/search-video-huoying.har'), BILI_NAV] },
  { source: 'bilibili', action: 'search', params: { query: '洛天依', limit: 10 }, replay: [SBX + '/bilibili'] },
  { source: 'bilibili', action: 'posts', params: { query: 'https://space.bilibili.com/53456', limit: 2 }, replay: [fx('bilibili/posts-space-arc-search-53456.har'), BILI_NAV] },
  { source: 'bilibili', action: 'posts', params: { query: '946974', max_items: -1 }, replay: [SBX + '/bilibili'] },
  { source: 'bilibili', action: 'posts', params: { query: 'https://b23.tv/Sp4ce9x', tab: 'dynamics' }, replay: [SBX + '/bilibili'] },
  { source: 'bilibili', action: 'posts', params: { query: '161775300', tab: 'dynamics', limit: 12 }, replay: [fx('bilibili/posts-161775300-dynamics.har'), BILI_NAV], runs: 25 },
  { source: 'bilibili', action: 'user', params: { query: '2' }, replay: [fx('bilibili/user-card-mid2.har')] },
  { source: 'bilibili', action: 'user', params: { query: 'UID:2' }, replay: [fx('bilibili/user-wbi-acc-info-mid2.har'), BILI_NAV] },
  {
    source: 'bilibili',
    action: 'user',
    params: { query: '332704117' },
    replay: [fx('bilibili/user-relation-stat-332704117.har'), sb('bilibili/user-wbi-acc-info-332704117.har'), BILI_NAV],
  },
  { source: 'bilibili', action: 'detail', params: { query: 'BV117411r7R1' }, replay: [fx('bilibili/detail-view-BV117411r7R1.har'), sb('bilibili/detail-playurl-BV117411r7R1.har')] },
  { source: 'bilibili', action: 'detail', params: { query: 'av170001' }, replay: [fx('bilibili/detail-view-detail-BV17x411w7KC.har')] },
  { source: 'bilibili', action: 'detail', params: { query: 'BV1y7411Q7Eq' }, replay: [fx('bilibili/detail-playurl-flv-BV1y7411Q7Eq.har'), sb('bilibili/detail-view-BV1y7411Q7Eq.har')] },
  {
    source: 'bilibili',
    action: 'detail',
    params: { query: 'https://m.bilibili.com/video/BV1rp4y1e745' },
    replay: [fx('bilibili/detail-playurl-dash-BV1rp4y1e745.har'), sb('bilibili/detail-view-BV1rp4y1e745.har')],
  },
  { source: 'bilibili', action: 'detail', params: { query: 'https://b23.tv/3kNp9Xq' }, replay: [SBX + '/bilibili'] },
  { source: 'bilibili', action: 'comments', params: { query: 'av2', limit: 5 }, replay: [fx('bilibili/comments-reply-av2-sort1-page1.har')] },
  { source: 'bilibili', action: 'comments', params: { query: 'https://www.bilibili.com/video/av2', limit: 5 }, replay: [fx('bilibili/comments-hot-av2.har')] },
  { source: 'bilibili', action: 'comments', params: { query: 'BV1xx411c7mD', sort: 'time', limit: 2 }, replay: [fx('bilibili/comments-wbi-main-av2-mode2.har'), BILI_NAV] },
  { source: 'bilibili', action: 'comments', params: { query: 'av201022189', replies_of: '3030790837', limit: 5 }, replay: [fx('bilibili/replies-reply-av201022189-root3030790837.har')] },
  { source: 'bilibili', action: 'hot', params: { limit: 2 }, replay: [fx('bilibili/hot-popular-ps2-pn1.har'), BILI_NAV] },
  { source: 'bilibili', action: 'hot', params: { category: 'douga', limit: 100 }, replay: [fx('bilibili/hot-ranking-v2-tid1-all.har'), BILI_NAV] },
  { source: 'bilibili', action: 'recommended', params: { limit: 20 }, replay: [SBX + '/bilibili'] },
  { source: 'bilibili', action: 'trending', params: {}, replay: [fx('bilibili/trending-search-square-limit4.har')] },
  { source: 'bilibili', action: 'trending', params: {}, replay: [fx('bilibili/trending-app-search-ranking.har')] },
  { source: 'bilibili', action: 'trending', params: { board: 'hotword' }, replay: [fx('bilibili/trending-hotword.har')] },

  // youtube
  { source: 'youtube', action: 'search', params: { query: 'sourdough bread', limit: 40 }, replay: [sb('youtube/search-sourdough-bread.har')] },
  { source: 'youtube', action: 'search', params: { query: 'test', limit: 15 }, replay: [fx('youtube/search-videos-test.har')], runs: 15 },
  { source: 'youtube', action: 'posts', params: { query: '@sandboxkitchen', max_items: -1 }, replay: [sb('youtube/posts-sandboxkitchen.har')] },
  { source: 'youtube', action: 'posts', params: { query: 'UCTwECeGqMZee77BjdoYtI2Q', limit: 30 }, replay: [fx('youtube/posts-channel-videos-creativecommons.har')], runs: 15 },
  { source: 'youtube', action: 'user', params: { query: 'https://www.youtube.com/@sandboxkitchen' }, replay: [sb('youtube/posts-sandboxkitchen.har')] },
  { source: 'youtube', action: 'detail', params: { query: 'SbxKitchen1' }, replay: [sb('youtube/detail-SbxKitchen1.har')] },
  { source: 'youtube', action: 'detail', params: { query: 'SbxLiveSoon' }, replay: [sb('youtube/detail-upcoming-SbxLiveSoon.har')] },
  { source: 'youtube', action: 'detail', params: { query: 'tjz2u2DiveM' }, replay: [fx('youtube/detail-player-tjz2u2DiveM.har')] },
  { source: 'youtube', action: 'detail', params: { query: 'https://www.youtube.com/shorts/tjz2u2DiveM' }, replay: [fx('youtube/detail-watch-tjz2u2DiveM.har')], runs: 20 },
  { source: 'youtube', action: 'comments', params: { query: 'SbxKitchen1' }, replay: [sb('youtube/detail-SbxKitchen1.har'), sb('youtube/comments-SbxKitchen1.har')] },
  { source: 'youtube', action: 'comments', params: { query: 'SbxLegacyCm' }, replay: [sb('youtube/comments-legacy-SbxLegacyCm.har')] },
  { source: 'youtube', action: 'comments', params: { query: 'xaQJbozY_Is', replies: 'none', limit: 20 }, replay: [fx('youtube/comments-video-xaQJbozY_Is.har')], runs: 12 },
  { source: 'youtube', action: 'hot', params: { category: 'gaming' }, replay: [sb('youtube/hot-gaming.har')] },
  { source: 'youtube', action: 'trending', params: {}, replay: [fx('youtube/error-trending-invalid-argument.har'), sb('youtube/hot-gaming.har')] },

  // reddit
  { source: 'reddit', action: 'hot', params: {}, replay: [sb('reddit/hot-popular.har')] },
  { source: 'reddit', action: 'hot', params: { category: 'MechanicalKeyboards' }, replay: [sb('reddit/hot-mechanicalkeyboards.har')] },
  { source: 'reddit', action: 'hot', params: { category: 'popular', limit: 100 }, replay: [fx('reddit/hot-popular.har')], session: REDDIT_APP, runs: 12 },
  { source: 'reddit', action: 'posts', params: { query: 'u/keebsmith', max_items: -1 }, replay: [sb('reddit/posts-user-keebsmith.har')] },
  { source: 'reddit', action: 'posts', params: { query: 'r/MechanicalKeyboards' }, replay: [sb('reddit/posts-subreddit-new.har')] },
  { source: 'reddit', action: 'search', params: { query: 'mechanical keyboard' }, replay: [sb('reddit/search-mechanical-keyboard.har')] },
  { source: 'reddit', action: 'search', params: { query: 'praw oauth search' }, replay: [fx('reddit/search-all-praw.har')], session: REDDIT_APP },
  { source: 'reddit', action: 'user', params: { query: '@keebsmith' }, replay: [sb('reddit/user-about-keebsmith.har')] },
  { source: 'reddit', action: 'user', params: { query: 'u/Lil_SpazBot' }, replay: [fx('reddit/user-about-lil_spazbot.har')], session: REDDIT_REFRESH },
  {
    source: 'reddit',
    action: 'detail',
    params: { query: 'https://www.reddit.com/r/MechanicalKeyboards/s/Kb7xQ2mZpL' },
    replay: [sb('reddit/resolve-share-link.har'), sb('reddit/detail-video-1kq7v2a.har')],
  },
  { source: 'reddit', action: 'detail', params: { query: 't3_1kq6m0c' }, replay: [sb('reddit/detail-gallery-1kq6m0c.har')] },
  { source: 'reddit', action: 'detail', params: { query: '1kq5z9d' }, replay: [sb('reddit/detail-image-1kq5z9d.har')] },
  { source: 'reddit', action: 'detail', params: { query: 'https://www.reddit.com/r/oddlysatisfying/comments/1kq2t7g/x/' }, replay: [sb('reddit/detail-crosspost-1kq2t7g.har')] },
  {
    source: 'reddit',
    action: 'detail',
    params: { query: 'https://www.reddit.com/r/redditdev/s/WNauetbiNG' },
    replay: [fx('reddit/resolve-share-url.har'), fx('reddit/comments-submission-2gmzqe.har')],
    session: REDDIT_APP,
  },
  { source: 'reddit', action: 'comments', params: { query: 't3_2gmzqe' }, replay: [fx('reddit/comments-submission-2gmzqe.har')], session: REDDIT_APP },
  {
    source: 'reddit',
    action: 'comments',
    params: { query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/linear_vs_tactile/', limit: 50 },
    replay: [sb('reddit/comments-1kq4x1e.har')],
  },

  // bluesky
  { source: 'bluesky', action: 'posts', params: { query: 'did:plc:ys5aypbbeqmwn42edy5t3sho', limit: 30 }, replay: [fx('bluesky/posts-author-feed-mkbhd.har')] },
  { source: 'bluesky', action: 'posts', params: { query: '@bsky.app', max_items: 20 }, replay: [sb('bluesky/posts-author-feed-bsky.app.har')] },
  {
    source: 'bluesky',
    action: 'detail',
    params: { query: 'at://did:plc:kvwvcn5iqfooopmyzvb4qzba/app.bsky.feed.post/3kaheyt6vpc22' },
    replay: [fx('bluesky/detail-post-thread-3kaheyt6vpc22.har')],
  },
  {
    source: 'bluesky',
    action: 'detail',
    params: { query: 'https://bsky.app/profile/bsky.app/post/3lbaafjknk22b' },
    replay: [fx('bluesky/resolve-handle-bsky.app.har'), sb('bluesky/detail-post-thread-bsky.app-3lbaafjknk22b.har')],
  },
  {
    source: 'bluesky',
    action: 'comments',
    params: { query: 'https://bsky.app/profile/bsky.app/post/3lbaafjknk22b', limit: 50 },
    replay: [sb('bluesky/resolve-handle-bsky.app.har'), sb('bluesky/comments-post-thread-bsky.app-3lbaafjknk22b.har')],
  },
  { source: 'bluesky', action: 'user', params: { query: '@test.marshal.dev' }, replay: [fx('bluesky/user-follows-test.marshal.dev.har')] },
  { source: 'bluesky', action: 'user', params: { query: 'https://bsky.app/profile/bsky.app' }, replay: [sb('bluesky/user-profile-bsky.app.har')] },
  {
    source: 'bluesky',
    action: 'search',
    params: { query: 'bluesky', limit: 30 },
    replay: [sb('bluesky/session-crawler-demo.har'), sb('bluesky/search-posts-bluesky-logged-in.har')],
    session: BSKY_LOGIN,
  },
  { source: 'bluesky', action: 'recommended', params: { limit: 30 }, replay: [sb('bluesky/recommended-feed-discover.har')] },
  { source: 'bluesky', action: 'trending', params: {}, replay: [sb('bluesky/trending-topics.har')] },

  // mastodon
  { source: 'mastodon', action: 'detail', params: { query: '117020583223442465' }, replay: [fx('mastodon/detail-status.har')], session: MASTO_DEV },
  { source: 'mastodon', action: 'posts', params: { query: '117020565966271181', limit: 5 }, replay: [fx('mastodon/posts-account-statuses-paged.har')], session: MASTO_DEV },
  { source: 'mastodon', action: 'user', params: { query: 'mastodonpy_test' }, replay: [fx('mastodon/user-account-lookup.har')], session: MASTO_DEV },
  { source: 'mastodon', action: 'search', params: { query: 'mastodonpy_test', type: 'accounts' }, replay: [fx('mastodon/search-accounts.har')], session: MASTO_DEV },
  { source: 'mastodon', action: 'hot', params: { limit: 8 }, replay: [fx('mastodon/hot-public-timeline-anonymous.har')], session: MASTO_DEV },
  { source: 'mastodon', action: 'posts', params: { query: '@river_otter@mastodon.social', max_items: -1 }, replay: [SBX + '/mastodon'] },
  { source: 'mastodon', action: 'user', params: { query: 'https://mastodon.social/@river_otter' }, replay: [SBX + '/mastodon'] },
  { source: 'mastodon', action: 'detail', params: { query: 'https://mastodon.social/@river_otter/113500000000000300' }, replay: [SBX + '/mastodon'] },
  { source: 'mastodon', action: 'comments', params: { query: 'https://mastodon.social/@river_otter/113500000000000400' }, replay: [SBX + '/mastodon'] },
  { source: 'mastodon', action: 'search', params: { query: 'otter', type: 'accounts', limit: 20 }, replay: [SBX + '/mastodon'] },
  { source: 'mastodon', action: 'search', params: { query: 'otter', limit: 20 }, replay: [SBX + '/mastodon'], session: MASTO_LOGIN },
  { source: 'mastodon', action: 'hot', params: {}, replay: [SBX + '/mastodon'] },
  { source: 'mastodon', action: 'trending', params: {}, replay: [SBX + '/mastodon'] },
  { source: 'mastodon', action: 'recommended', params: { category: 'federated' }, replay: [SBX + '/mastodon'] },

  // telegram: t.me/s HTML
  { source: 'telegram', action: 'posts', params: { query: 'topwar_official', limit: 12 }, replay: [fx('telegram/posts-channel-topwar_official-before-71009.har')], runs: 30 },
  { source: 'telegram', action: 'user', params: { query: 'https://t.me/topwar_official' }, replay: [fx('telegram/posts-channel-topwar_official-before-71009.har')], runs: 30 },
  { source: 'telegram', action: 'detail', params: { query: 'https://t.me/fighter_bomber/11226' }, replay: [fx('telegram/detail-message-link-preview-video-fighter_bomber-11226.har')] },
  { source: 'telegram', action: 'detail', params: { query: 't.me/s/anna_news/46908' }, replay: [fx('telegram/detail-message-photo-and-video-anna_news-46908.har')] },
  { source: 'telegram', action: 'detail', params: { query: '@oper_goblin/939' }, replay: [fx('telegram/detail-message-voice-oper_goblin-939.har')] },
  {
    source: 'telegram',
    action: 'posts',
    params: { query: 'harborweather', max_items: 100 },
    replay: [sb('telegram/posts-channel-harborweather-1-newest.har'), sb('telegram/posts-channel-harborweather-2-before-201.har')],
  },
  { source: 'telegram', action: 'user', params: { query: 'https://telegram.me/quietharbor' }, replay: [sb('telegram/user-channel-quietharbor-no-preview.har')] },
  { source: 'telegram', action: 'search', params: { query: 'storm', channel: 'harborweather' }, replay: [sb('telegram/search-harborweather-storm.har')] },
  { source: 'telegram', action: 'detail', params: { query: 'https://t.me/quietharbor/7' }, replay: [sb('telegram/detail-message-quietharbor-7-embed.har')] },
  { source: 'telegram', action: 'detail', params: { query: 'harborweather/205' }, replay: [sb('telegram/detail-message-harborweather-205.har')] },
  // douyin: web JSON (search, comments), the share API, the share page's _ROUTER_DATA, the app's boards
  { source: 'douyin', action: 'search', params: { query: '猫咪', limit: 18 }, replay: [fx('douyin/search-general-maomi.har')] },
  { source: 'douyin', action: 'comments', params: { query: '7565738211130035491', limit: 20 }, replay: [fx('douyin/comments-7565738211130035491.har')] },
  { source: 'douyin', action: 'posts', params: { query: 'MS4wLjABAAAAAI3oSIRdM9cE-AflbGPjaw_xUg6xajgGJtM_yX4hkCY', limit: 25 }, replay: [fx('douyin/posts-legacy-iesdouyin-data.har')] },
  { source: 'douyin', action: 'hot', params: {}, replay: [fx('douyin/hot-search-app-2021-01-14.har')] },
  { source: 'douyin', action: 'trending', params: { board: 'music' }, replay: [fx('douyin/hot-music-chart-2025-06-01.har')] },
  { source: 'douyin', action: 'detail', params: { query: '7300000000000000001' }, replay: [sb('douyin/detail-web-7300000000000000001.har')] },
  { source: 'douyin', action: 'detail', params: { query: '7300000000000000002' }, replay: [sb('douyin/detail-share-7300000000000000002.har')] },
  { source: 'douyin', action: 'user', params: { query: 'MS4wLjABAAAAsandboxTravelerX9kQ2mV7pL4nR8sT1uW3yZ5aB6cD0eF' }, replay: [sb('douyin/user-web-traveler.har')] },
  { source: 'douyin', action: 'posts', params: { query: 'MS4wLjABAAAAsandboxTravelerX9kQ2mV7pL4nR8sT1uW3yZ5aB6cD0eF', max_items: 10 }, replay: [sb('douyin/posts-web-traveler.har')] },
  { source: 'douyin', action: 'comments', params: { query: '7300000000000000001', replies_of: '7300000000000100001' }, replay: [sb('douyin/replies-7300000000000100001.har')] },
  { source: 'douyin', action: 'trending', params: { board: 'brand', brand_category: 2 }, replay: [sb('douyin/trending-brand.har')] },
  { source: 'douyin', action: 'trending', params: { board: 'live' }, replay: [sb('douyin/trending-live.har')] },
  // tiktok: web JSON, rehydration pages; kuaishou: GraphQL, REST, apollo state; toutiao: boards, RENDER_DATA, search HTML
  { source: 'tiktok', action: 'search', params: { query: 'TikTok', limit: 12 }, replay: [fx('tiktok/search-general-tiktok.har')] },
  { source: 'tiktok', action: 'comments', params: { query: '7603296357641735445', limit: 19 }, replay: [fx('tiktok/comments-7603296357641735445.har')] },
  { source: 'tiktok', action: 'detail', params: { query: '6832324357851778309' }, replay: [fx('tiktok/detail-item-6832324357851778309.har')] },
  { source: 'tiktok', action: 'detail', params: { query: 'https://www.tiktok.com/@harborcook/video/7345678901234567890' }, replay: [sb('tiktok/detail-page-video-7345678901234567890.har')] },
  { source: 'tiktok', action: 'user', params: { query: '@harborcook' }, replay: [sb('tiktok/user-page-harborcook.har')] },
  { source: 'tiktok', action: 'posts', params: { query: '@harborcook', max_items: -1 }, replay: [SBX + '/tiktok'] },
  { source: 'kuaishou', action: 'posts', params: { query: '3x27q2f82gnxn4e', limit: 1 }, replay: [fx('kuaishou/posts-3x27q2f82gnxn4e-visionProfilePhotoList.har')] },
  { source: 'kuaishou', action: 'search', params: { query: '美食', limit: 5 }, replay: [sb('kuaishou/search-meishi.har')] },
  { source: 'kuaishou', action: 'detail', params: { query: '3xs9d8k2mf4nq6e' }, replay: [sb('kuaishou/detail-3xs9d8k2mf4nq6e.har')] },
  { source: 'kuaishou', action: 'detail', params: { query: '3xp4tq7wz3hb5ca' }, replay: [sb('kuaishou/detail-share-page-3xp4tq7wz3hb5ca.har')] },
  { source: 'kuaishou', action: 'comments', params: { query: '3xs9d8k2mf4nq6e' }, replay: [sb('kuaishou/comments-3xs9d8k2mf4nq6e.har')] },
  { source: 'kuaishou', action: 'hot', params: {}, replay: [sb('kuaishou/hot-home.har')] },
  { source: 'toutiao', action: 'hot', params: {}, replay: [fx('toutiao/hot-board-app-2021-01-14.har')] },
  { source: 'toutiao', action: 'trending', params: {}, replay: [sb('toutiao/hot-web.har')] },
  { source: 'toutiao', action: 'search', params: { query: '人工智能', limit: 2 }, replay: [sb('toutiao/search-rengongzhineng.har'), sb('toutiao/ttwid-register.har')] },
  { source: 'toutiao', action: 'detail', params: { query: 'https://www.toutiao.com/video/7505382061495176511/' }, replay: [sb('toutiao/detail-video.har'), sb('toutiao/ttwid-register.har')] },
  { source: 'toutiao', action: 'detail', params: { query: 'https://www.toutiao.com/w/1832590417768457/' }, replay: [sb('toutiao/detail-micro.har')] },
  { source: 'toutiao', action: 'comments', params: { query: '7506218830561436223' }, replay: [sb('toutiao/comments-article.har')] },
  // xiaohongshu: edith JSON and __INITIAL_STATE__ pages; zhihu: v4 JSON, app search, js-initialData; tieba: GBK/UTF-8 HTML and JSON
  { source: 'xiaohongshu', action: 'search', params: { query: '旅行', limit: 10 }, replay: [SBX + '/xiaohongshu'], session: { cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530; webId=89daffcfb24ae99c9b86c49c47aa5f14' } },
  { source: 'xiaohongshu', action: 'detail', params: { query: 'https://www.xiaohongshu.com/explore/6745c0a2000000001e01f2a2?xsec_token=ABsbxN2videoToken0123456789abcdefGHIJKLmno_-%3D&xsec_source=pc_search' }, replay: [sb('xiaohongshu/detail-feed-video.har')], session: { cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530; webId=89daffcfb24ae99c9b86c49c47aa5f14' } },
  { source: 'xiaohongshu', action: 'user', params: { query: 'https://www.xiaohongshu.com/user/profile/5f1e2d3c000000000101a1b1' }, replay: [SBX + '/xiaohongshu'] },
  { source: 'xiaohongshu', action: 'comments', params: { query: '66696f98000000000d00f289', limit: 100 }, replay: [fx('xiaohongshu/comments-66696f98000000000d00f289.har')], session: { cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530; webId=89daffcfb24ae99c9b86c49c47aa5f14' } },
  { source: 'zhihu', action: 'search', params: { query: '咖啡', limit: 3 }, replay: [SBX + '/zhihu'] },
  { source: 'zhihu', action: 'user', params: { query: 'https://www.zhihu.com/people/houziliaorenwu' }, replay: [SBX + '/zhihu', FIX + '/zhihu'] },
  { source: 'zhihu', action: 'detail', params: { query: 'answer:1900000000000000001' }, replay: [SBX + '/zhihu'] },
  { source: 'zhihu', action: 'hot', params: { category: 'total', limit: 50 }, replay: [FIX + '/zhihu', SBX + '/zhihu'] },
  { source: 'zhihu', action: 'comments', params: { query: 'https://www.zhihu.com/answer/1900000000000000001' }, replay: [SBX + '/zhihu'] },
  { source: 'tieba', action: 'search', params: { query: '东南亚', limit: 10 }, replay: [FIX + '/tieba', SBX + '/tieba'] },
  { source: 'tieba', action: 'posts', params: { query: '沙盒旅行', max_items: 10 }, replay: [SBX + '/tieba'] },
  { source: 'tieba', action: 'detail', params: { query: '9117905169' }, replay: [FIX + '/tieba', SBX + '/tieba'] },
  { source: 'tieba', action: 'comments', params: { query: '7000000001', replies_of: '160000000002', limit: 10 }, replay: [SBX + '/tieba'] },
  { source: 'tieba', action: 'hot', params: {}, replay: [SBX + '/tieba'] },
  // instagram: web_profile_info, Relay and query_hash GraphQL, REST; threads: Meta GraphQL; facebook: m. pages; pinterest: resource API
  { source: 'instagram', action: 'user', params: { query: 'instagram' }, replay: [fx('instagram/user-web-profile-info-instagram.har')] },
  { source: 'instagram', action: 'posts', params: { query: '@instagram', limit: 12 }, replay: [fx('instagram/user-web-profile-info-instagram.har')] },
  { source: 'instagram', action: 'comments', params: { query: 'https://www.instagram.com/p/CIvZJcurJaW/', limit: 12 }, replay: [fx('instagram/comments-graphql-CIvZJcurJaW-paged.har')] },
  { source: 'instagram', action: 'detail', params: { query: 'DH1xO0naABl' }, replay: [SBX + '/instagram'] },
  { source: 'instagram', action: 'posts', params: { query: 'harborcook', max_items: -1 }, replay: [SBX + '/instagram'] },
  { source: 'threads', action: 'detail', params: { query: 'https://www.threads.net/@mosseri/post/CuXRXDdNOtH?xmt=abc' }, replay: [FIX + '/threads'] },
  { source: 'threads', action: 'posts', params: { query: 'https://www.threads.net/@harbor.lights', max_items: -1 }, replay: [SBX + '/threads'] },
  { source: 'threads', action: 'comments', params: { query: '3712000000000000001', limit: 5 }, replay: [SBX + '/threads'] },
  { source: 'facebook', action: 'posts', params: { query: 'Nintendo', limit: 2 }, replay: [fx('facebook/posts-page-nintendo.har')] },
  { source: 'facebook', action: 'detail', params: { query: 'https://www.facebook.com/story.php?story_fbid=3065154550235644&id=119240841493711' }, replay: [FIX + '/facebook'] },
  { source: 'facebook', action: 'comments', params: { query: 'https://m.facebook.com/Nintendo/posts/4187481031336318', limit: 30 }, replay: [fx('facebook/comments-post-nintendo-4187481031336318.har')] },
  { source: 'pinterest', action: 'search', params: { query: 'nature aesthetic', limit: 25 }, replay: [fx('pinterest/search-pins-nature-aesthetic.har')] },
  { source: 'pinterest', action: 'detail', params: { query: '672584525610478245' }, replay: [fx('pinterest/detail-pin-672584525610478245.har')] },
  { source: 'pinterest', action: 'posts', params: { query: 'https://www.pinterest.com/harborlight/', max_items: 10 }, replay: [SBX + '/pinterest'] },
  { source: 'pinterest', action: 'recommended', params: { query: '981234567890120001' }, replay: [SBX + '/pinterest'] },
  // twitter: GraphQL timelines with a login, guest TweetResultByRestId, the embed answer
  { source: 'twitter', action: 'posts', params: { query: 'id:2244994945', limit: 100 }, replay: [fx('twitter/posts-user-tweets-xdevelopers.har')], session: { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' } },
  { source: 'twitter', action: 'user', params: { query: '@xdevelopers' }, replay: [fx('twitter/user-xdevelopers.har')], session: { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' } },
  { source: 'twitter', action: 'detail', params: { query: 'https://twitter.com/XDevelopers/status/1649191520250245121?s=20' }, replay: [fx('twitter/detail-tweet-1649191520250245121.har')], session: { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' } },
  { source: 'twitter', action: 'comments', params: { query: '1649191520250245121', limit: 100 }, replay: [fx('twitter/replies-tweet-1649191520250245121.har')], session: { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' } },
  { source: 'twitter', action: 'detail', params: { query: 'https://x.com/harborweather/status/2045936718443446274' }, replay: [SBX + '/twitter'] },
  { source: 'twitter', action: 'search', params: { query: 'neo', limit: 50 }, replay: [fx('twitter/search-latest-neo.har')], session: { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' } },
  { source: 'twitter', action: 'trending', params: { board: 'sports' }, replay: [fx('twitter/trending-sport.har')], session: { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' } },
];

// ---------------------------------------------------------------------------------------------------
// Recordings

interface HarFile {
  path: string;
  har: { log: { entries: Array<{ request: { method: string; url: string }; response: { content?: { text?: string; encoding?: string; mimeType?: string } } }> } };
}
const harCache = new Map<string, HarFile>();
function loadHar(path: string): HarFile {
  let f = harCache.get(path);
  if (!f) {
    f = { path, har: JSON.parse(readFileSync(path, 'utf8')) };
    harCache.set(path, f);
  }
  return f;
}
function expand(paths: string[]): string[] {
  return paths.flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).filter((n) => n.endsWith('.har')).sort().map((n) => join(p, n)) : [p]));
}
function bodyText(entry: HarFile['har']['log']['entries'][number]): string {
  const c = entry.response.content ?? {};
  if (typeof c.text !== 'string') return '';
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64').toString('utf8') : c.text;
}
/** The route replay matches on (with the platform's route aliases: a rotating GraphQL query id). */
const endpoint = (method: string, url: string): string => {
  const u = new URL(url);
  return `${u.protocol} ${routeKey(method.toUpperCase(), u, compileRules(registry.forHost(u.hostname)?.replay))}`;
};

type Kind = 'json' | 'html' | 'text';
interface Target {
  file: number;
  entry: number;
  text: string;
  kind: Kind;
  /** JSON: node paths grouped by depth (1 = the root's children). */
  byDepth?: Array<Array<Array<string | number>>>;
  /** JSON: existing paths the adapter read in the baseline run (where a mutation bites). */
  read: Array<Array<string | number>>;
}

function kindOf(text: string): Kind {
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      JSON.parse(t);
      return 'json';
    } catch {
      /* fall through */
    }
  }
  return /<[a-z!]/i.test(t) ? 'html' : 'text';
}

function jsonPaths(root: unknown): Array<Array<Array<string | number>>> {
  const byDepth: Array<Array<Array<string | number>>> = [];
  const walk = (v: unknown, path: Array<string | number>) => {
    if (path.length) (byDepth[path.length - 1] ??= []).push(path);
    if (Array.isArray(v)) v.forEach((c, i) => walk(c, [...path, i]));
    else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
  };
  walk(root, []);
  return byDepth;
}

/**
 * Runs fn with JSON.parse wrapped so that parsing one of the given bodies returns a proxy recording every
 * existing property path the caller reads. Mutations then favour those paths: in a 500 kB answer most
 * nodes are never looked at.
 */
async function tracingReads<T>(bodies: Map<string, Set<string>>, fn: () => Promise<T>): Promise<T> {
  const parse = JSON.parse;
  const wrap = (v: unknown, path: Array<string | number>, seen: Set<string>, cache: WeakMap<object, object>): unknown => {
    if (!v || typeof v !== 'object') return v;
    const hit = cache.get(v);
    if (hit) return hit;
    const isArray = Array.isArray(v);
    const proxy = new Proxy(v, {
      get(target, key, receiver) {
        const child = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !Object.prototype.hasOwnProperty.call(target, key) || (isArray && key === 'length')) return child;
        const p = [...path, isArray ? Number(key) : key];
        seen.add(JSON.stringify(p));
        return wrap(child, p, seen, cache);
      },
    });
    cache.set(v, proxy);
    return proxy;
  };
  JSON.parse = function (text: string, reviver?: Parameters<typeof JSON.parse>[1]) {
    const value = parse(text, reviver);
    const seen = typeof text === 'string' ? bodies.get(text) : undefined;
    return seen ? wrap(value, [], seen, new WeakMap()) : value;
  } as typeof JSON.parse;
  try {
    return await fn();
  } finally {
    JSON.parse = parse;
  }
}

// ---------------------------------------------------------------------------------------------------
// Mutations

const NODE_OPS = ['delete', 'null', 'retype', 'empty'] as const;
const HTML_OPS = ['remove-element', 'remove-attr', 'blank-text', 'junk-text'] as const;
const BODY_OPS = ['truncate', 'html-page', 'empty-body', 'json-literal'] as const;
type Op =
  | { op: (typeof NODE_OPS)[number] | (typeof HTML_OPS)[number]; depth: number; pick: number; variant: number }
  | { op: (typeof BODY_OPS)[number]; at: number; variant: number };

const ERROR_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
const JSON_LITERALS = ['null', '[]', '{}', '"error"', '0', 'true'];

const nodeOp = fc.record({ op: fc.constantFrom(...NODE_OPS, ...HTML_OPS), depth: fc.nat(), pick: fc.nat(), variant: fc.nat(5) }) as fc.Arbitrary<Op>;
const bodyOp = fc.record({ op: fc.constantFrom(...BODY_OPS), at: fc.double({ min: 0, max: 1, noNaN: true }), variant: fc.nat(5) }) as fc.Arbitrary<Op>;
const mutation = fc.record({
  target: fc.nat(),
  ops: fc.oneof({ weight: 5, arbitrary: fc.array(nodeOp, { minLength: 1, maxLength: 3 }) }, { weight: 1, arbitrary: bodyOp.map((o) => [o]) }),
});
type Mutation = { target: number; ops: Op[] };

function retype(v: unknown, variant: number): unknown {
  if (typeof v === 'string') return [12345, 0, {}, [], true, -1][variant];
  if (typeof v === 'number') return ['1.2万', 'abc', -7, 2.5, 1e300, '-'][variant];
  if (typeof v === 'boolean') return ['true', 1, 'false', 0, {}, null][variant];
  if (Array.isArray(v)) return [{}, '', 'x', 0, { 0: v[0] }, null][variant];
  if (v && typeof v === 'object') return [[], 'x', '', 0, [v], true][variant];
  return [{}, 'x', 0, [], '', false][variant];
}
function emptied(v: unknown): unknown {
  if (typeof v === 'string') return '';
  if (typeof v === 'number') return 0;
  if (Array.isArray(v)) return [];
  if (v && typeof v === 'object') return {};
  return '';
}

/** Applies the mutation to one body; returns the new body and a one-line description. */
function mutate(t: Target, ops: Op[]): { body: string; what: string } {
  const first = ops[0];
  if ('at' in first) {
    switch (first.op) {
      case 'truncate': {
        const n = Math.floor(t.text.length * first.at);
        return { body: t.text.slice(0, n), what: `truncate body at ${n}/${t.text.length}` };
      }
      case 'html-page':
        return { body: ERROR_PAGE, what: 'body replaced by an HTML error page' };
      case 'empty-body':
        return { body: '', what: 'empty body' };
      case 'json-literal': {
        const lit = JSON_LITERALS[first.variant % JSON_LITERALS.length];
        return { body: lit, what: `body replaced by ${lit}` };
      }
    }
  }
  if (t.kind === 'json') return mutateJson(t, ops);
  if (t.kind === 'html') return mutateHtml(t, ops);
  const n = Math.floor(t.text.length / 2);
  return { body: t.text.slice(0, n), what: `truncate text body at ${n}` };
}

function mutateJson(t: Target, ops: Op[]): { body: string; what: string } {
  const root = JSON.parse(t.text);
  const byDepth = (t.byDepth ??= jsonPaths(root));
  const what: string[] = [];
  for (const o of ops) {
    if ('at' in o || !byDepth.length) continue;
    // Mostly a path the adapter read; now and then any node, shallow and deep levels alike.
    const level = t.read.length && o.depth % 4 !== 0 ? t.read : byDepth[o.depth % byDepth.length];
    const path = level[o.pick % level.length];
    let parent: any = root;
    for (const k of path.slice(0, -1)) parent = parent?.[k];
    const key = path[path.length - 1];
    if (!parent || typeof parent !== 'object' || !(key in parent)) continue; // gone with an earlier op
    const shown = path.join('.');
    const node = parent[key];
    const op = (HTML_OPS as readonly string[]).includes(o.op) ? NODE_OPS[o.variant % NODE_OPS.length] : o.op;
    if (op === 'delete') {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      what.push(`delete ${shown}`);
    } else if (op === 'null') {
      parent[key] = null;
      what.push(`${shown} = null`);
    } else if (op === 'retype') {
      parent[key] = retype(node, o.variant);
      what.push(`${shown} = ${JSON.stringify(parent[key])} (was ${Array.isArray(node) ? 'array' : typeof node})`);
    } else {
      parent[key] = emptied(node);
      what.push(`${shown} = ${JSON.stringify(parent[key])} (emptied)`);
    }
  }
  return { body: JSON.stringify(root), what: what.join('; ') || 'no-op' };
}

function mutateHtml(t: Target, ops: Op[]): { body: string; what: string } {
  const $ = cheerio.load(t.text);
  const all = $('*').toArray();
  const classed = all.filter((el) => 'attribs' in el && Object.keys(el.attribs).length > 0);
  const what: string[] = [];
  for (const o of ops) {
    if ('at' in o) continue;
    // Mostly elements with attributes (what selectors hit), now and then any element.
    const pool = o.depth % 4 === 0 || !classed.length ? all : classed;
    const el = pool[o.pick % pool.length];
    if (!el || !$(el).parent().length) continue; // removed with an earlier op
    const attrs = 'attribs' in el ? el.attribs : {};
    const name = `<${'name' in el ? el.name : '?'}${attrs.class ? `.${attrs.class.split(/\s+/).join('.')}` : ''}>`;
    const op = (NODE_OPS as readonly string[]).includes(o.op) ? HTML_OPS[o.variant % HTML_OPS.length] : o.op;
    if (op === 'remove-element') {
      $(el).remove();
      what.push(`remove ${name}`);
    } else if (op === 'remove-attr') {
      const keys = Object.keys(attrs);
      if (!keys.length) continue;
      const k = keys[o.variant % keys.length];
      $(el).removeAttr(k);
      what.push(`remove ${name}[${k}]`);
    } else if (op === 'blank-text') {
      $(el).text('');
      what.push(`blank ${name}`);
    } else {
      const junk = ['x', '12abc', '-', 'N/A', '∞', '1.2.3'][o.variant];
      $(el).text(junk);
      what.push(`${name} text = ${JSON.stringify(junk)}`);
    }
  }
  return { body: $.html(), what: what.join('; ') || 'no-op' };
}

// ---------------------------------------------------------------------------------------------------
// Outcome check

const registry = new Registry();
const catalog = buildCatalog(registry);
const SCHEMAS: Record<string, ZodType> = { items: EnvelopeSchema, comments: CommentsResultSchema, creator: CreatorResultSchema, trends: TrendResultSchema };
/** The text of a JS runtime error: a crash caught and passed on as if it were the platform's fault. */
const RUNTIME = /Cannot (read|set) properties|Cannot convert undefined or null|Cannot use 'in' operator|Cannot destructure|is not a function|is not iterable|Maximum call stack|Invalid (array length|time value)|\bof (undefined|null)\b/;
/** A value built from a missing or mistyped field rather than read from the answer. */
const INVENTED = /\bundefined\b|\[object |\bNaN\b|=null(&|$)/;

function inventedStrings(v: unknown, path = '', out: string[] = []): string[] {
  if (typeof v === 'string') {
    if (INVENTED.test(v)) out.push(`${path || '.'}: ${JSON.stringify(v.slice(0, 160))}`);
  } else if (Array.isArray(v)) v.forEach((c, i) => inventedStrings(c, `${path}[${i}]`, out));
  else if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) inventedStrings(c, path ? `${path}.${k}` : k, out);
  return out;
}

function srcFrame(e: unknown): string {
  const stack = (e as Error)?.stack ?? '';
  const line = stack.split('\n').find((l) => l.includes('/src/'));
  return line ? ` at ${line.trim().replace(/^at /, '').replace(/.*\/(src\/[^)]+)\)?$/, '$1')}` : '';
}

async function check(c: Case, replay: string[]): Promise<{ failure?: string; requests: string[]; outcome?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no outcome after ${HANG_MS} ms`), { name: 'Hang' })), HANG_MS);
  });
  let out: Awaited<ReturnType<typeof runAction>>;
  try {
    out = await Promise.race([runAction({ source: c.source, action: c.action, params: c.params, replay, session: c.session }), hang]);
  } catch (e) {
    // A mutated id or cursor can lead the crawl to a request no recording answers: not a crash, unless
    // the request was built from a missing value.
    if (isReplayMiss(e) && !INVENTED.test((e as { url: string }).url)) return { requests: [], outcome: 'replay-miss' };
    return { failure: `rejected with ${(e as Error)?.name}: ${(e as Error)?.message?.slice(0, 300)}${srcFrame(e)}`, requests: [] };
  } finally {
    clearTimeout(timer);
  }
  const shape = catalog.get(c.source, c.action)!.def.shape;
  const parsed = SCHEMAS[shape].safeParse(out.result);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`);
    return { failure: `schema-invalid ${shape} result: ${issues.join(' | ')}`, requests: out.requests };
  }
  // Error messages and warnings may quote a missing field; the data must not be made from one, nor a request.
  const { error: _error, warnings, ...data } = out.result as { error?: unknown; warnings?: string[] };
  const invented = [...inventedStrings(data), ...(warnings ?? []).filter((w) => /no recording matches/.test(w) && INVENTED.test(w))];
  if (invented.length) return { failure: `invented values: ${invented.slice(0, 3).join(' | ')}`, requests: out.requests };
  const swallowed = [(out.result as { error?: { message: string } }).error?.message ?? '', ...(warnings ?? [])].filter((m) => RUNTIME.test(m));
  if (swallowed.length) return { failure: `a runtime error passed on as a typed outcome: ${swallowed[0].slice(0, 300)}`, requests: out.requests };
  const r = out.result as { error?: { code: string }; items?: unknown[]; warnings?: string[] };
  return { requests: out.requests, outcome: r.error ? `error:${r.error.code}` : r.warnings?.length ? 'ok+warning' : 'ok' };
}

// ---------------------------------------------------------------------------------------------------

const TMP = mkdtempSync(join(tmpdir(), 'fuzz-answers-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const label = (c: Case, i: number) => `#${i} ${c.source}.${c.action} ${JSON.stringify(c.params)} ← ${c.replay.map((p) => basename(p)).join(', ')}`;

describe('adapters answer mutated platform answers with a typed outcome', () => {
  CASES.forEach((c, i) => {
    it(label(c, i), { timeout: 60_000 * Math.max(1, SCALE) }, async () => {
      const files = expand(c.replay);
      const reads = new Map<string, Set<string>>();
      for (const f of files) for (const e of loadHar(f).har.log.entries) if (bodyText(e)) reads.set(bodyText(e), new Set());
      const baseline = await tracingReads(reads, () => check(c, files));
      expect(baseline.failure, 'the unmutated recording must pass').toBeUndefined();
      expect(baseline.requests.length, 'the baseline run must request something').toBeGreaterThan(0);
      const served = new Set(baseline.requests.map((r) => endpoint(r.split(' ')[0], r.slice(r.indexOf(' ') + 1))));
      const targets: Target[] = [];
      files.forEach((path, fi) => {
        loadHar(path).har.log.entries.forEach((e, ei) => {
          const text = bodyText(e);
          if (!text.length || !served.has(endpoint(e.request.method, e.request.url))) return;
          const read = [...(reads.get(text) ?? [])].sort().map((p) => JSON.parse(p) as Array<string | number>);
          targets.push({ file: fi, entry: ei, text, kind: kindOf(text), read });
        });
      });
      expect(targets.length, 'some requested answer has a body to mutate').toBeGreaterThan(0);

      const failures = new Map<string, string>();
      const outcomes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(mutation, async (m: Mutation) => {
          const t = targets[m.target % targets.length];
          const { body, what } = mutate(t, m.ops);
          const src = loadHar(files[t.file]);
          const entries = src.har.log.entries.slice();
          const e = entries[t.entry];
          entries[t.entry] = { ...e, response: { ...e.response, content: { ...e.response.content, text: body, encoding: undefined } } };
          const tmp = join(TMP, `${i}-${t.file}.har`);
          writeFileSync(tmp, JSON.stringify({ ...src.har, log: { ...src.har.log, entries } }));
          const replay = files.map((f, fi) => (fi === t.file ? tmp : f));
          const { failure, outcome } = await check(c, replay);
          outcomes.set(outcome ?? 'FAIL', (outcomes.get(outcome ?? 'FAIL') ?? 0) + 1);
          if (failure && !failures.has(failure)) failures.set(failure, `${basename(files[t.file])}#${t.entry}: ${what}`);
          return true;
        }),
        { seed: SEED + i, numRuns: Math.max(1, Math.round((c.runs ?? RUNS) * SCALE)) },
      );
      if (process.env.FUZZ_DEBUG) console.log(`${label(c, i)}\n  outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`);
      const report = [...failures].map(([failure, input]) => `${failure}\n      input: ${input}`);
      expect(report, `${label(c, i)}: ${report.length} distinct failure(s)`).toEqual([]);
    });
  });
});
