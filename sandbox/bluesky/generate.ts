// Writes the hand-made bluesky sandbox recordings next to this file: node --import tsx sandbox/bluesky/generate.ts
//
// Shapes follow the AppView/PDS lexicons (app.bsky.feed.defs#postView, #feedViewPost, #threadViewPost,
// app.bsky.actor.defs#profileViewDetailed, app.bsky.unspecced.getTrendingTopics, com.atproto.server.createSession,
// com.atproto.repo.createRecord/getRecord/deleteRecord) and the real recordings in ../shared/fixtures/bluesky.
// Every account other than bsky.app, every post, CID and token here is invented.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const HAND = 'hand-made sandbox recording: ';

type Header = { name: string; value: string };
interface Ex {
  method?: 'GET' | 'POST';
  url: string;
  reqHeaders?: Header[];
  json?: unknown;
  status?: number;
  statusText?: string;
  headers?: Header[];
  mime?: string;
  body: unknown;
  comment: string;
  started: string;
}

const JSON_MIME = 'application/json; charset=utf-8';

function har(entries: Ex[]): string {
  return (
    JSON.stringify(
      {
        log: {
          version: '1.2',
          creator: { name: 'hand-made (bluesky adapter sandbox)', version: '1' },
          entries: entries.map((e) => {
            const u = new URL(e.url);
            const mime = e.mime ?? JSON_MIME;
            const text = typeof e.body === 'string' ? e.body : JSON.stringify(e.body);
            const reqHeaders = e.reqHeaders ?? [{ name: 'Accept', value: 'application/json' }];
            return {
              startedDateTime: e.started,
              time: 0,
              request: {
                method: e.method ?? 'GET',
                url: e.url,
                httpVersion: 'HTTP/1.1',
                headers: e.json === undefined ? reqHeaders : [...reqHeaders, { name: 'Content-Type', value: 'application/json' }],
                queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
                cookies: [],
                headersSize: -1,
                bodySize: -1,
                ...(e.json === undefined ? {} : { postData: { mimeType: 'application/json', text: JSON.stringify(e.json) } }),
              },
              response: {
                status: e.status ?? 200,
                statusText: e.statusText ?? 'OK',
                httpVersion: 'HTTP/1.1',
                headers: e.headers ?? [{ name: 'Content-Type', value: mime }],
                cookies: [],
                content: { size: Buffer.byteLength(text), mimeType: mime, text },
                redirectURL: '',
                headersSize: -1,
                bodySize: -1,
              },
              cache: {},
              timings: { send: 0, wait: 0, receive: 0 },
              comment: HAND + e.comment,
            };
          }),
        },
      },
      null,
      1,
    ) + '\n'
  );
}

const write = (name: string, entries: Ex[]) => writeFileSync(`${OUT}/${name}`, har(entries));

const xrpc = (origin: string, nsid: string, params: Record<string, string | number> = {}) => {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return `${origin}/xrpc/${nsid}${q ? `?${q}` : ''}`;
};
const PUBLIC = 'https://public.api.bsky.app';
const PDS = 'https://bsky.social';

// ---- identifiers ---------------------------------------------------------------------------------------

const B32 = '234567abcdefghijklmnopqrstuvwxyz';
/** A TID for a moment: 53 bits of microseconds, then a 10-bit clock id, in base32-sortable. */
function tid(iso: string, clock = 7): string {
  let n = (BigInt(Date.parse(iso)) * 1000n << 10n) | BigInt(clock);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = B32[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}
const b32 = (seed: string, n: number) =>
  [...createHash('sha256').update(seed).digest()].map((b) => B32[b % 32]).join('').repeat(2).slice(0, n);
/** Stand-ins with the right shape: CIDv1 (dag-cbor records: bafyrei…, raw blobs: bafkrei…). */
const recordCid = (seed: string) => `bafyrei${b32(`rec:${seed}`, 52)}`;
const blobCid = (seed: string) => `bafkrei${b32(`blob:${seed}`, 52)}`;

interface Acct {
  did: string;
  handle: string;
  displayName: string;
  createdAt: string;
}
const BSKY: Acct = { did: 'did:plc:z72i7hdynmk6r22z27h6tvur', handle: 'bsky.app', displayName: 'Bluesky', createdAt: '2023-04-12T04:53:57.057Z' };
const acct = (handle: string, displayName: string, createdAt = '2023-08-01T10:00:00.000Z'): Acct => ({
  did: `did:plc:${b32(`did:${handle}`, 24)}`,
  handle,
  displayName,
  createdAt,
});
const ALICE = acct('alice-demo.bsky.social', 'Alice (demo)');
const BOB = acct('bob-demo.bsky.social', 'Bob (demo)');
const CAROL = acct('carol-demo.bsky.social', '');
const NEWS = acct('news-demo.bsky.social', 'Demo Newsroom');
const SCI = acct('sci-demo.bsky.social', 'Lab Notes (demo)');
const WRITER: Acct = { did: 'did:plc:sbxcrawlerdemo2222aaaaaa', handle: 'crawler-demo.bsky.social', displayName: 'Crawler demo', createdAt: '2024-10-01T00:00:00.000Z' };

const avatar = (a: Acct) => `https://cdn.bsky.app/img/avatar/plain/${a.did}/${blobCid(`avatar:${a.handle}`)}@jpeg`;
const basic = (a: Acct) => ({
  did: a.did,
  handle: a.handle,
  ...(a.displayName ? { displayName: a.displayName } : {}),
  avatar: avatar(a),
  associated: { chat: { allowIncoming: 'following' } },
  labels: [],
  createdAt: a.createdAt,
});

// ---- posts ---------------------------------------------------------------------------------------------

interface PostSpec {
  by: Acct;
  at: string;
  text: string;
  images?: Array<{ w: number; h: number; alt?: string }>;
  video?: { w: number; h: number };
  link?: { uri: string; title: string; description: string; thumb?: boolean };
  reply?: { root: Post; parent: Post };
  counts: [likes: number, replies: number, reposts: number, quotes: number];
}
interface Post {
  uri: string;
  cid: string;
  rkey: string;
  view: Record<string, unknown>;
}

function post(s: PostSpec): Post {
  const rkey = tid(s.at);
  const uri = `at://${s.by.did}/app.bsky.feed.post/${rkey}`;
  const cid = recordCid(uri);
  const record: Record<string, unknown> = { $type: 'app.bsky.feed.post', createdAt: s.at, langs: ['en'], text: s.text };
  let embed: Record<string, unknown> | undefined;
  if (s.images) {
    const blobs = s.images.map((_, i) => blobCid(`${uri}#img${i}`));
    record.embed = {
      $type: 'app.bsky.embed.images',
      images: s.images.map((im, i) => ({
        alt: im.alt ?? '',
        aspectRatio: { height: im.h, width: im.w },
        image: { $type: 'blob', ref: { $link: blobs[i] }, mimeType: 'image/jpeg', size: 200_000 + i * 1234 },
      })),
    };
    embed = {
      $type: 'app.bsky.embed.images#view',
      images: s.images.map((im, i) => ({
        thumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/${s.by.did}/${blobs[i]}@jpeg`,
        fullsize: `https://cdn.bsky.app/img/feed_fullsize/plain/${s.by.did}/${blobs[i]}@jpeg`,
        alt: im.alt ?? '',
        aspectRatio: { height: im.h, width: im.w },
      })),
    };
  }
  if (s.video) {
    const blob = blobCid(`${uri}#video`);
    const base = `https://video.bsky.app/watch/${encodeURIComponent(s.by.did)}/${blob}`;
    record.embed = {
      $type: 'app.bsky.embed.video',
      aspectRatio: { height: s.video.h, width: s.video.w },
      video: { $type: 'blob', ref: { $link: blob }, mimeType: 'video/mp4', size: 4_321_000 },
    };
    embed = { $type: 'app.bsky.embed.video#view', cid: blob, playlist: `${base}/playlist.m3u8`, thumbnail: `${base}/thumbnail.jpg`, aspectRatio: { height: s.video.h, width: s.video.w } };
  }
  if (s.link) {
    const blob = blobCid(`${uri}#card`);
    record.embed = {
      $type: 'app.bsky.embed.external',
      external: {
        description: s.link.description,
        ...(s.link.thumb ? { thumb: { $type: 'blob', ref: { $link: blob }, mimeType: 'image/jpeg', size: 88_000 } } : {}),
        title: s.link.title,
        uri: s.link.uri,
      },
    };
    embed = {
      $type: 'app.bsky.embed.external#view',
      external: {
        uri: s.link.uri,
        title: s.link.title,
        description: s.link.description,
        ...(s.link.thumb ? { thumb: `https://cdn.bsky.app/img/feed_thumbnail/plain/${s.by.did}/${blob}@jpeg` } : {}),
      },
    };
  }
  if (s.reply) record.reply = { parent: { cid: s.reply.parent.cid, uri: s.reply.parent.uri }, root: { cid: s.reply.root.cid, uri: s.reply.root.uri } };
  const [likeCount, replyCount, repostCount, quoteCount] = s.counts;
  const view = {
    uri,
    cid,
    author: basic(s.by),
    record,
    ...(embed ? { embed } : {}),
    replyCount,
    repostCount,
    likeCount,
    quoteCount,
    indexedAt: new Date(Date.parse(s.at) + 1500).toISOString(),
    labels: [],
  };
  return { uri, cid, rkey, view };
}

// The bsky.app author feed (two pages) and the posts the other recordings point at.
const imagePost = post({
  by: BSKY,
  at: '2024-11-20T17:05:11.000Z',
  text: 'Two new themes are rolling out today: dim and midnight. Which one is yours?',
  images: [
    { w: 1200, h: 2400, alt: 'The app in the dim theme' },
    { w: 1200, h: 2400, alt: 'The app in the midnight theme' },
  ],
  counts: [5120, 311, 402, 57],
});
const videoPost = post({
  by: BSKY,
  at: '2024-11-18T15:30:00.000Z',
  text: 'A one-minute tour of custom feeds 🎬',
  video: { w: 1920, h: 1080 },
  counts: [8800, 4, 1210, 96],
});
const aliceOriginal = post({ by: ALICE, at: '2024-11-16T09:12:44.000Z', text: 'Made my first custom feed today: only posts about sourdough.', counts: [73, 1, 12, 0] });
const bskyReply = post({
  by: BSKY,
  at: '2024-11-16T10:01:02.000Z',
  text: '@alice-demo.bsky.social love this! Feeds for every niche.',
  reply: { root: aliceOriginal, parent: aliceOriginal },
  counts: [210, 2, 3, 0],
});
const linkPost = post({
  by: BSKY,
  at: '2024-11-10T15:00:00.000Z',
  text: 'Our moderation report for the last quarter is out.',
  link: { uri: 'https://bsky.social/about/blog/moderation-report-demo', title: 'Moderation report (demo)', description: 'Numbers and notes from the trust & safety team.', thumb: true },
  counts: [2900, 188, 640, 121],
});
const olderPost = post({ by: BSKY, at: '2024-11-01T12:00:00.000Z', text: 'Welcome to everyone who joined this week! 🦋', counts: [15000, 900, 2100, 300] });

const started = '2024-11-21T08:00:00.000Z';

write('posts-author-feed-bsky.app.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getAuthorFeed', { actor: 'bsky.app', limit: 30 }),
    body: {
      feed: [
        { post: imagePost.view },
        { post: videoPost.view },
        { post: aliceOriginal.view, reason: { $type: 'app.bsky.feed.defs#reasonRepost', by: basic(BSKY), indexedAt: '2024-11-16T10:00:00.000Z' } },
        { post: bskyReply.view, reply: { root: { $type: 'app.bsky.feed.defs#postView', ...aliceOriginal.view }, parent: { $type: 'app.bsky.feed.defs#postView', ...aliceOriginal.view } } },
        { post: linkPost.view },
      ],
      cursor: '2024-11-10T15:00:00.000Z',
    },
    comment:
      'getAuthorFeed of bsky.app, page 1 (no cursor): an image post, a video post, a repost of another account (reason #reasonRepost), a reply (with its reply context) and a post with a link card; cursor = the oldest indexedAt, as the AppView pages author feeds',
    started,
  },
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getAuthorFeed', { actor: 'bsky.app', limit: 30, cursor: '2024-11-10T15:00:00.000Z' }),
    body: { feed: [{ post: olderPost.view }] },
    comment: 'getAuthorFeed of bsky.app, page 2 (the last): no cursor key, which is how the AppView ends a feed',
    started,
  },
]);

write('posts-author-feed-quiet-demo-empty.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getAuthorFeed', { actor: 'quiet-demo.bsky.social', limit: 30 }),
    body: { feed: [] },
    comment: 'getAuthorFeed of an account that has never posted: an empty feed and no cursor (an honest empty)',
    started,
  },
]);

write('error-author-feed-rate-limited-429.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getAuthorFeed', { actor: 'busy-demo.bsky.social', limit: 30 }),
    status: 429,
    statusText: 'Too Many Requests',
    headers: [
      { name: 'Content-Type', value: JSON_MIME },
      { name: 'RateLimit-Limit', value: '3000' },
      { name: 'RateLimit-Remaining', value: '0' },
      { name: 'RateLimit-Reset', value: '1732176300' },
      { name: 'RateLimit-Policy', value: '3000;w=300' },
    ],
    body: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
    comment: 'the AppView throttling an IP: HTTP 429 with the RateLimit-* headers the real answers carry (reset = unix seconds)',
    started,
  },
]);

write('error-author-feed-edge-403.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getAuthorFeed', { actor: 'walled-demo.bsky.social', limit: 30 }),
    status: 403,
    statusText: 'Forbidden',
    mime: 'text/html',
    body: '<html>\n<head><title>403 Forbidden</title></head>\n<body>\n<center><h1>403 Forbidden</h1></center>\n<p>Request forbidden by administrative rules.</p>\n</body>\n</html>\n',
    comment:
      "the public AppView's edge refusing a client (HTML 403 'Request forbidden by administrative rules.', as quoted in bluesky-social/atproto#2838) on a method that is public: a block, not a login matter",
    started,
  },
]);

write('user-profile-bsky.app.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.actor.getProfile', { actor: 'bsky.app' }),
    body: {
      did: BSKY.did,
      handle: BSKY.handle,
      displayName: BSKY.displayName,
      avatar: avatar(BSKY),
      associated: { lists: 5, feedgens: 8, starterPacks: 2, labeler: false, chat: { allowIncoming: 'none' } },
      labels: [],
      createdAt: BSKY.createdAt,
      description: 'official Bluesky account (check username👆)\n\nBugs, feature requests, feedback: support@bsky.app',
      indexedAt: '2024-11-20T00:00:00.000Z',
      banner: `https://cdn.bsky.app/img/banner/plain/${BSKY.did}/${blobCid('banner:bsky.app')}@jpeg`,
      followersCount: 27_654_321,
      followsCount: 7,
      postsCount: 640,
      pinnedPost: { cid: olderPost.cid, uri: olderPost.uri },
      verification: { verifications: [], verifiedStatus: 'none', trustedVerifierStatus: 'valid' },
    },
    comment: 'getProfile of bsky.app (app.bsky.actor.defs#profileViewDetailed with counts and a verification state); counts invented',
    started,
  },
]);

write('error-profile-not-found-400.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.actor.getProfile', { actor: 'no-such-account-demo.bsky.social' }),
    status: 400,
    statusText: 'Bad Request',
    body: { error: 'InvalidRequest', message: 'Profile not found' },
    comment: "getProfile of a handle no account holds: the AppView's 400 InvalidRequest 'Profile not found'",
    started,
  },
]);

write('resolve-handle-bsky.app.har', [
  {
    url: xrpc(PDS, 'com.atproto.identity.resolveHandle', { handle: 'bsky.app' }),
    body: { did: BSKY.did },
    comment: "resolveHandle of bsky.app on the bsky.social entryway, the same answer as the real recording in ../shared/fixtures/bluesky (kept here because the demo replays sandbox/ only)",
    started,
  },
]);

// The video post's thread: depth 0 for detail (and for a reply's strong refs), depth 10 for comments.
const r1 = post({ by: ALICE, at: '2024-11-18T15:41:00.000Z', text: 'This is so much clearer than the docs!', reply: { root: videoPost, parent: videoPost }, counts: [40, 2, 1, 0] });
const r1a = post({ by: BOB, at: '2024-11-18T15:52:30.000Z', text: 'Agreed. Is there a list of feeds somewhere?', reply: { root: videoPost, parent: r1 }, counts: [6, 1, 0, 0] });
const r1a1 = post({ by: ALICE, at: '2024-11-18T16:03:10.000Z', text: 'The Explore tab has one.', reply: { root: videoPost, parent: r1a }, counts: [3, 0, 0, 0] });
const r1b = post({ by: CAROL, at: '2024-11-18T16:20:00.000Z', text: '+1', reply: { root: videoPost, parent: r1 }, counts: [0, 0, 0, 0] });
const r2 = post({ by: CAROL, at: '2024-11-18T17:00:00.000Z', text: 'Can we get captions on these?', reply: { root: videoPost, parent: videoPost }, counts: [12, 0, 0, 0] });
const gone = `at://${BOB.did}/app.bsky.feed.post/${tid('2024-11-18T18:00:00.000Z')}`;
const hidden = `at://${ALICE.did}/app.bsky.feed.post/${tid('2024-11-18T18:30:00.000Z')}`;
const node = (p: Post, replies?: unknown[]) => ({ $type: 'app.bsky.feed.defs#threadViewPost', post: p.view, ...(replies ? { replies } : {}) });

write(`detail-post-thread-bsky.app-${videoPost.rkey}.har`, [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getPostThread', { uri: videoPost.uri, depth: 0, parentHeight: 0 }),
    body: { thread: { ...node(videoPost), replies: [] } },
    comment: 'getPostThread with depth=0 for a video post of bsky.app (app.bsky.embed.video#view: HLS playlist + thumbnail, aspectRatio)',
    started,
  },
]);

write(`comments-post-thread-bsky.app-${videoPost.rkey}.har`, [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getPostThread', { uri: videoPost.uri, depth: 10, parentHeight: 0 }),
    body: {
      thread: node(videoPost, [
        node(r1, [node(r1a, [node(r1a1, [])]), node(r1b, [])]),
        node(r2, []),
        { $type: 'app.bsky.feed.defs#notFoundPost', uri: gone, notFound: true },
        { $type: 'app.bsky.feed.defs#blockedPost', uri: hidden, blocked: true, author: { did: ALICE.did, viewer: { blockedBy: false } } },
      ]),
    },
    comment:
      'getPostThread with depth=10 for the same post: a nested reply tree (alice → bob → alice, carol under alice, carol at top level) plus a #notFoundPost and a #blockedPost reply, as the AppView marks deleted and blocked replies',
    started,
  },
]);

write('error-post-not-found-400.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getPostThread', { uri: `at://${BSKY.did}/app.bsky.feed.post/${tid('2024-01-01T00:00:00.000Z')}`, depth: 0, parentHeight: 0 }),
    status: 400,
    statusText: 'Bad Request',
    body: { error: 'NotFound', message: `Post not found: at://${BSKY.did}/app.bsky.feed.post/${tid('2024-01-01T00:00:00.000Z')}` },
    comment: "getPostThread of a deleted post: HTTP 400 {error: NotFound, message: 'Post not found: <uri>'} as logged in bluesky-social/pds#152",
    started,
  },
]);

write('trending-topics.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.unspecced.getTrendingTopics', { limit: 25 }),
    body: {
      topics: [
        { topic: 'Demo Cup Final', link: '/profile/trending.bsky.app/feed/900000001' },
        { topic: 'Northern Lights', link: '/profile/trending.bsky.app/feed/900000002' },
        { topic: '#caturday', displayName: '#caturday', link: '/hashtag/caturday' },
        { topic: 'Open Source', description: 'Posts about open source software', link: '/search?q=open%20source' },
        { topic: 'Space Launch', link: '/profile/trending.bsky.app/feed/900000005' },
      ],
      suggested: [
        { topic: 'Popular with Friends', link: '/profile/bsky.app/feed/with-friends' },
        { topic: 'Science', link: '/profile/did:plc:jfhpnnst6flqway4eaeqzj2a/feed/for-science' },
      ],
    },
    comment: 'getTrendingTopics (app.bsky.unspecced.defs#trendingTopic: topic, optional displayName/description, link relative to bsky.app); topics invented',
    started,
  },
]);

// Feed generators.
const FEED = (rkeyPath: string) => `at://${rkeyPath}`;
const discover = FEED(`${BSKY.did}/app.bsky.feed.generator/whats-hot`);
const d1 = post({ by: ALICE, at: '2024-11-20T20:00:00.000Z', text: 'Sunset over the harbour tonight 🌅', images: [{ w: 2000, h: 1333 }], counts: [1200, 40, 88, 3] });
const d2 = post({ by: BOB, at: '2024-11-20T19:10:00.000Z', text: 'Hot take: tabs, not spaces.', counts: [640, 210, 20, 31] });
const d3 = post({ by: CAROL, at: '2024-11-20T18:45:00.000Z', text: 'my dog discovering snow', video: { w: 1080, h: 1920 }, counts: [4100, 95, 300, 12] });
const d4 = post({ by: SCI, at: '2024-11-20T17:30:00.000Z', text: 'New paper: how birds navigate with magnetism.', link: { uri: 'https://example.org/papers/birds-demo', title: 'Bird navigation (demo)', description: 'A demo abstract.' }, counts: [310, 12, 70, 9] });
const d5 = post({ by: NEWS, at: '2024-11-20T16:00:00.000Z', text: 'Storm warning lifted for the coast.', counts: [95, 4, 30, 1] });
const DISCOVER_CURSOR = '1732125600000::bafyreidemocursor';
write('recommended-feed-discover.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getFeed', { feed: discover, limit: 30 }),
    body: { feed: [{ post: d1.view }, { post: d2.view }, { post: d3.view, feedContext: 'demo' }], cursor: DISCOVER_CURSOR },
    comment: 'getFeed of the Discover feed generator (whats-hot), page 1: image, text and video posts; an opaque cursor',
    started,
  },
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.getFeed', { feed: discover, limit: 30, cursor: DISCOVER_CURSOR }),
    body: { feed: [{ post: d4.view }, { post: d5.view }] },
    comment: 'getFeed of the Discover feed generator, page 2 (the last: no cursor)',
    started,
  },
]);
const tab = (file: string, uri: string, posts: Post[], what: string) =>
  write(file, [{ url: xrpc(PUBLIC, 'app.bsky.feed.getFeed', { feed: uri, limit: 30 }), body: { feed: posts.map((p) => ({ post: p.view })) }, comment: `getFeed of ${what}, one page without cursor`, started }]);
tab('recommended-feed-hot-classic.har', FEED(`${BSKY.did}/app.bsky.feed.generator/hot-classic`), [d2, d1], "What's Hot Classic (hot-classic)");
tab('recommended-feed-news.har', FEED('did:plc:kkf4naxqmweop7dv4l2iqqf5/app.bsky.feed.generator/verified-news'), [d5], 'the News feed (verified-news)');
tab('recommended-feed-science.har', FEED('did:plc:jfhpnnst6flqway4eaeqzj2a/app.bsky.feed.generator/for-science'), [d4], 'the Science feed (for-science)');

// Search: anonymous (refused) and logged in.
write('error-searchposts-anonymous-403.har', [
  {
    url: xrpc(PUBLIC, 'app.bsky.feed.searchPosts', { q: 'bluesky', limit: 24 }),
    status: 403,
    statusText: 'Forbidden',
    mime: 'text/html',
    body: '<html>\n<head><title>403 Forbidden</title></head>\n<body>\n<center><h1>403 Forbidden</h1></center>\n<p>Request forbidden by administrative rules.</p>\n</body>\n</html>\n',
    comment:
      "anonymous searchPosts on the public AppView without a cursor: refused with 403 'Request forbidden by administrative rules.' since 2025-01 (bluesky-social/atproto#3423: anonymous search disabled, log in to search)",
    started,
  },
]);

const jwt = (claims: Record<string, unknown>) =>
  [{ typ: claims.scope === 'com.atproto.refresh' ? 'refresh+jwt' : 'at+jwt', alg: 'ES256K' }, claims]
    .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
    .concat('c2FuZGJveC1zaWduYXR1cmU')
    .join('.');
const FAR = 4_102_444_800; // 2100-01-01: the sandbox session never lapses on its own
const session = (n: number) => ({
  did: WRITER.did,
  didDoc: {
    '@context': ['https://www.w3.org/ns/did/v1'],
    id: WRITER.did,
    alsoKnownAs: [`at://${WRITER.handle}`],
    service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://demo.us-east.host.bsky.network' }],
  },
  handle: WRITER.handle,
  email: 'crawler-demo@example.org',
  emailConfirmed: true,
  emailAuthFactor: false,
  accessJwt: jwt({ scope: 'com.atproto.appPass', sub: WRITER.did, iat: 1732176000 + n, exp: FAR, aud: 'did:web:demo.us-east.host.bsky.network' }),
  refreshJwt: jwt({ scope: 'com.atproto.refresh', sub: WRITER.did, aud: 'did:web:bsky.social', jti: `sandbox-${n}`, iat: 1732176000 + n, exp: FAR }),
  active: true,
});
write('session-crawler-demo.har', [
  {
    method: 'POST',
    url: xrpc(PDS, 'com.atproto.server.createSession'),
    json: { identifier: WRITER.handle, password: 'xxxx-xxxx-xxxx-xxxx' },
    body: session(0),
    comment: 'createSession with an app password on bsky.social (tokens are stand-ins: unsigned JWT-shaped strings whose exp is 2100)',
    started,
  },
  {
    method: 'POST',
    url: xrpc(PDS, 'com.atproto.server.refreshSession'),
    reqHeaders: [{ name: 'Accept', value: 'application/json' }],
    body: { ...session(1), email: undefined, emailConfirmed: undefined, emailAuthFactor: undefined },
    comment: 'refreshSession with the refresh JWT as bearer: a fresh token pair',
    started,
  },
]);

const s1 = post({ by: ALICE, at: '2024-11-19T11:00:00.000Z', text: 'Bluesky custom feeds are the best part of bluesky', counts: [55, 3, 4, 0] });
const s2 = post({ by: BOB, at: '2024-11-19T10:00:00.000Z', text: 'Moved my photos over to Bluesky 📷', images: [{ w: 1600, h: 1600 }], counts: [21, 1, 0, 0] });
const s3 = post({ by: CAROL, at: '2024-11-19T09:00:00.000Z', text: 'bluesky video test', video: { w: 720, h: 1280 }, counts: [8, 0, 1, 0] });
const s4 = post({ by: NEWS, at: '2024-11-18T09:00:00.000Z', text: 'Why newsrooms are joining Bluesky', link: { uri: 'https://example.org/news/bluesky-demo', title: 'Newsrooms on Bluesky (demo)', description: 'A demo article.', thumb: true }, counts: [140, 9, 33, 5] });
write('search-posts-bluesky-logged-in.har', [
  {
    url: xrpc(PDS, 'app.bsky.feed.searchPosts', { q: 'bluesky', limit: 25 }),
    reqHeaders: [{ name: 'Accept', value: 'application/json' }],
    body: { cursor: '25', hitsTotal: 1234, posts: [s1.view, s2.view, s3.view] },
    comment: 'searchPosts on the PDS with the session token (Authorization not recorded), page 1: posts are #postView, the cursor is an offset',
    started,
  },
  {
    url: xrpc(PDS, 'app.bsky.feed.searchPosts', { q: 'bluesky', limit: 25, cursor: 25 }),
    body: { hitsTotal: 1234, posts: [s4.view] },
    comment: 'searchPosts page 2 (the last: no cursor)',
    started,
  },
]);

// Writes as crawler-demo.bsky.social.
const created = post({ by: WRITER, at: '2024-11-21T08:00:00.000Z', text: 'Hello from the crawler sandbox', counts: [0, 0, 0, 0] });
const commit = (seed: string) => ({ cid: recordCid(`commit:${seed}`), rev: tid('2024-11-21T08:00:01.000Z', 1) });
write('write-post-create.har', [
  {
    method: 'POST',
    url: xrpc(PDS, 'com.atproto.repo.createRecord'),
    json: { repo: WRITER.did, collection: 'app.bsky.feed.post', record: { $type: 'app.bsky.feed.post', text: 'Hello from the crawler sandbox', createdAt: '2024-11-21T08:00:00.000Z' } },
    body: { uri: created.uri, cid: created.cid, commit: commit('post'), validationStatus: 'valid' },
    comment: 'createRecord of an app.bsky.feed.post with the session token (Authorization not recorded): the new record\'s uri and cid',
    started,
  },
]);
const replyRkey = tid('2024-11-21T08:05:00.000Z');
write('write-comment-create.har', [
  {
    method: 'POST',
    url: xrpc(PDS, 'com.atproto.repo.createRecord'),
    json: {
      repo: WRITER.did,
      collection: 'app.bsky.feed.post',
      record: {
        $type: 'app.bsky.feed.post',
        text: 'Great tour, thanks!',
        createdAt: '2024-11-21T08:05:00.000Z',
        reply: { root: { uri: videoPost.uri, cid: videoPost.cid }, parent: { uri: videoPost.uri, cid: videoPost.cid } },
      },
    },
    body: { uri: `at://${WRITER.did}/app.bsky.feed.post/${replyRkey}`, cid: recordCid(`reply:${replyRkey}`), commit: commit('reply'), validationStatus: 'valid' },
    comment: "createRecord of a reply to bsky.app's video post: record.reply holds strong refs {uri, cid} to the thread root and the parent (here the same post)",
    started,
  },
]);
write('write-delete.har', [
  {
    url: xrpc(PDS, 'com.atproto.repo.getRecord', { repo: WRITER.did, collection: 'app.bsky.feed.post', rkey: created.rkey }),
    body: { uri: created.uri, cid: created.cid, value: created.view.record },
    comment: 'getRecord of the post about to be deleted (it exists)',
    started,
  },
  {
    method: 'POST',
    url: xrpc(PDS, 'com.atproto.repo.deleteRecord'),
    json: { repo: WRITER.did, collection: 'app.bsky.feed.post', rkey: created.rkey },
    body: { commit: commit('delete') },
    comment: 'deleteRecord of that post: the answer carries only the repository commit',
    started,
  },
]);
const missingRkey = tid('2024-11-02T00:00:00.000Z');
write('error-delete-record-not-found.har', [
  {
    url: xrpc(PDS, 'com.atproto.repo.getRecord', { repo: WRITER.did, collection: 'app.bsky.feed.post', rkey: missingRkey }),
    status: 400,
    statusText: 'Bad Request',
    body: { error: 'RecordNotFound', message: `Could not locate record: at://${WRITER.did}/app.bsky.feed.post/${missingRkey}` },
    comment: "getRecord of a post that is not in the repository: 400 RecordNotFound (so no delete is sent)",
    started,
  },
]);

process.stdout.write(
  `wrote the bluesky sandbox; video post ${videoPost.rkey}, created ${created.rkey}, missing ${missingRkey}, writer ${WRITER.did}\n`,
);
