// Writes the hand-made twitter sandbox recordings next to this file: node --import tsx sandbox/twitter/generate.ts
//
// Shapes follow the real answers in ../shared/fixtures/twitter (SearchTimeline, UserTweets, TweetDetail,
// TweetResultByRestId, UserByScreenName, GenericTimelineById of 2025-2026: the 2026 user shape with core /
// avatar / relationship_counts, legacy tweets with extended_entities, timeline instructions and cursor
// entries), the syndication and guest-token answers as global-platforms.md §1 describes them, and x.com's
// page and bundle as the published x-client-transaction-id and query-id tools read them (twscrape xclid.py
// and scripts/update-gql-ops.py). Accounts, posts, numbers, keys and hashes are invented.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const STARTED = '2026-04-20T09:00:00.000Z';
const GQL = 'https://x.com/i/api/graphql';
const EPOCH = 1288834974657n;

type Header = { name: string; value: string };
interface Exchange {
  method?: 'GET' | 'POST';
  url: string;
  status?: number;
  headers?: Header[];
  mime?: string;
  body: string;
  comment: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const json = (v: unknown): string => JSON.stringify(v);

function har(file: string, entries: Exchange[]): void {
  const doc = {
    log: {
      version: '1.2',
      creator: { name: 'hand-made (twitter adapter sandbox)', version: '1' },
      entries: entries.map((e) => {
        const u = new URL(e.url);
        const mime = e.mime ?? JSON_TYPE;
        return {
          startedDateTime: STARTED,
          time: 0,
          comment: `hand-made: ${e.comment}`,
          request: { method: e.method ?? 'GET', url: e.url, httpVersion: 'HTTP/1.1', headers: [], queryString: [...u.searchParams].map(([name, value]) => ({ name, value })), cookies: [], headersSize: -1, bodySize: 0 },
          response: {
            status: e.status ?? 200,
            statusText: '',
            httpVersion: 'HTTP/1.1',
            headers: [{ name: 'content-type', value: mime }, ...(e.headers ?? [])],
            cookies: [],
            content: { size: Buffer.byteLength(e.body), mimeType: mime, text: e.body },
            redirectURL: '',
            headersSize: -1,
            bodySize: -1,
          },
        };
      }),
    },
  };
  writeFileSync(join(OUT, file), `${JSON.stringify(doc, null, 1)}\n`);
}

/** A GraphQL GET as the web client sends it (features left out, as FxEmbed's mocks record them). */
function gqlUrl(queryId: string, op: string, variables: Record<string, unknown>): string {
  return `${GQL}/${queryId}/${op}?variables=${encodeURIComponent(json(variables))}`;
}

const window = (limit: number, remaining: number, reset = 1776676500): Header[] => [
  { name: 'x-rate-limit-limit', value: String(limit) },
  { name: 'x-rate-limit-remaining', value: String(remaining) },
  { name: 'x-rate-limit-reset', value: String(reset) },
];

// ---------------------------------------------------------------------------------------------
// People and posts.

const snowflake = (iso: string, seq: number): string => (((BigInt(Date.parse(iso)) - EPOCH) << 22n) | BigInt(seq)).toString();
/** "Sun, 19 Apr 2026 06:10:00 GMT" → "Sun Apr 19 06:10:00 +0000 2026", X's created_at form. */
const createdAt = (iso: string): string => {
  const [wd, day, mon, year, time] = new Date(iso).toUTCString().replace(',', '').split(' ');
  return `${wd} ${mon} ${day} ${time} +0000 ${year}`;
};

interface Person {
  id: string;
  handle: string;
  name: string;
  bio: string;
  followers: number;
  following: number;
  posts: number;
  avatar: string;
  blue?: boolean;
}

const HARBOR: Person = { id: '1580000000000000001', handle: 'harborweather', name: 'Harbor Weather', bio: 'Tides, fog and light over the old harbor. Posted by a volunteer crew.', followers: 48210, following: 312, posts: 5120, avatar: 'https://pbs.twimg.com/profile_images/1780000000000000001/hWthr9Kq_normal.jpg', blue: true };
const KEEPER: Person = { id: '1580000000000000002', handle: 'lighthousekeep', name: 'The Lighthouse Keeper', bio: 'Keeper of a lamp that no ship needs any more.', followers: 9120, following: 801, posts: 2210, avatar: 'https://pbs.twimg.com/profile_images/1780000000000000002/kPr3Lh7x_normal.jpg' };
const FERRY: Person = { id: '1580000000000000003', handle: 'ferrydeck', name: 'Ferry Deck', bio: 'The 7:40 crossing, every day.', followers: 1204, following: 95, posts: 830, avatar: 'https://pbs.twimg.com/profile_images/1780000000000000003/fDck81Za_normal.png' };

function user(p: Person): Record<string, unknown> {
  return {
    __typename: 'User',
    id: Buffer.from(`User:${p.id}`).toString('base64'),
    rest_id: p.id,
    affiliates_highlighted_label: {},
    avatar: { image_url: p.avatar },
    core: { created_at: 'Tue Oct 11 08:00:00 +0000 2022', name: p.name, screen_name: p.handle },
    is_blue_verified: !!p.blue,
    privacy: { protected: false },
    profile_bio: { description: p.bio, entities: { description: {} } },
    relationship_counts: { followers: p.followers, following: p.following },
    tweet_counts: { media_tweets: Math.floor(p.posts / 4), tweets: p.posts },
    action_counts: { favorites_count: 1234 },
    verification: { verified: false },
    location: { location: 'Old harbor' },
  };
}

interface PostSpec {
  id: string;
  iso: string;
  by: Person;
  text: string;
  likes: number;
  replies: number;
  reposts: number;
  views?: number;
  media?: Array<Record<string, unknown>>;
  replyTo?: { id: string; handle: string; userId: string };
  conversation?: string;
  retweetOf?: Record<string, unknown>;
  note?: string;
}

function photo(id: string, file: string, w: number, h: number): Record<string, unknown> {
  return {
    display_url: 'pic.x.com/hArb0rPic1',
    expanded_url: `https://x.com/harborweather/status/${id}/photo/1`,
    id_str: id,
    indices: [120, 143],
    media_key: `3_${id}`,
    media_url_https: `https://pbs.twimg.com/media/${file}.jpg`,
    type: 'photo',
    url: 'https://t.co/hArb0rPic1',
    original_info: { height: h, width: w, focus_rects: [] },
    sizes: { large: { h, w, resize: 'fit' }, thumb: { h: 150, w: 150, resize: 'crop' } },
    ext_media_availability: { status: 'Available' },
  };
}

function video(id: string, w: number, h: number, ms: number): Record<string, unknown> {
  return {
    display_url: 'pic.x.com/hArb0rVid1',
    expanded_url: `https://x.com/harborweather/status/${id}/video/1`,
    id_str: id,
    indices: [98, 121],
    media_key: `13_${id}`,
    media_url_https: `https://pbs.twimg.com/amplify_video_thumb/${id}/img/Fg0gHaRb0rThmb.jpg`,
    type: 'video',
    url: 'https://t.co/hArb0rVid1',
    original_info: { height: h, width: w, focus_rects: [] },
    video_info: {
      aspect_ratio: [9, 16],
      duration_millis: ms,
      variants: [
        { content_type: 'application/x-mpegURL', url: `https://video.twimg.com/amplify_video/${id}/pl/fGhArb0rPl.m3u8?tag=16` },
        { bitrate: 632000, content_type: 'video/mp4', url: `https://video.twimg.com/amplify_video/${id}/vid/avc1/320x568/lOw0hArb0r.mp4?tag=16` },
        { bitrate: 2176000, content_type: 'video/mp4', url: `https://video.twimg.com/amplify_video/${id}/vid/avc1/720x1280/hIgHhArb0r.mp4?tag=16` },
        { bitrate: 950000, content_type: 'video/mp4', url: `https://video.twimg.com/amplify_video/${id}/vid/avc1/480x852/mId0hArb0r.mp4?tag=16` },
      ],
    },
    ext_media_availability: { status: 'Available' },
  };
}

function tweet(s: PostSpec): Record<string, unknown> {
  const mediaLink = s.media?.length ? ` ${String(s.media[0]!.url)}` : '';
  return {
    __typename: 'Tweet',
    rest_id: s.id,
    core: { user_results: { result: user(s.by) } },
    edit_control: { edit_tweet_ids: [s.id], editable_until_msecs: '1776677000000', is_edit_eligible: true, edits_remaining: '5' },
    is_translatable: false,
    views: s.views === undefined ? { state: 'Enabled' } : { count: String(s.views), state: 'EnabledWithCount' },
    source: '<a href="https://mobile.twitter.com" rel="nofollow">Twitter Web App</a>',
    ...(s.note ? { note_tweet: { is_expandable: true, note_tweet_results: { result: { id: 'Tm90ZVR3ZWV0OjE=', text: s.note, entity_set: { hashtags: [], symbols: [], urls: [], user_mentions: [] } } } } } : {}),
    legacy: {
      bookmark_count: 3,
      bookmarked: false,
      created_at: createdAt(s.iso),
      conversation_id_str: s.conversation ?? s.id,
      display_text_range: [0, s.text.length],
      entities: { hashtags: [], symbols: [], user_mentions: [], urls: [{ display_url: 'tides.example.org', expanded_url: 'https://tides.example.org/today', url: 'https://t.co/t1desT0day', indices: [0, 0] }], ...(s.media ? { media: s.media } : {}) },
      ...(s.media ? { extended_entities: { media: s.media } } : {}),
      favorite_count: s.likes,
      favorited: false,
      full_text: `${s.text}${mediaLink}`,
      is_quote_status: false,
      lang: 'en',
      quote_count: 2,
      reply_count: s.replies,
      retweet_count: s.reposts,
      retweeted: false,
      user_id_str: s.by.id,
      id_str: s.id,
      ...(s.replyTo ? { in_reply_to_status_id_str: s.replyTo.id, in_reply_to_user_id_str: s.replyTo.userId, in_reply_to_screen_name: s.replyTo.handle } : {}),
      ...(s.retweetOf ? { retweeted_status_result: { result: s.retweetOf } } : {}),
    },
  };
}

const tweetItem = (entryId: string, result: unknown, extra: Record<string, unknown> = {}) => ({
  entryId,
  sortIndex: entryId.replace(/\D/g, '').slice(-19) || '1',
  content: { entryType: 'TimelineTimelineItem', __typename: 'TimelineTimelineItem', itemContent: { itemType: 'TimelineTweet', __typename: 'TimelineTweet', tweet_results: { result }, tweetDisplayType: 'Tweet', ...extra } },
});
const cursorEntry = (type: 'Top' | 'Bottom' | 'ShowMoreThreads', value: string) => ({
  entryId: `cursor-${type.toLowerCase()}-${value.length}`,
  sortIndex: '0',
  content: { entryType: 'TimelineTimelineCursor', __typename: 'TimelineTimelineCursor', value, cursorType: type },
});
const moduleEntry = (entryId: string, items: Array<{ id: string; result: unknown }>) => ({
  entryId,
  sortIndex: '1',
  content: {
    entryType: 'TimelineTimelineModule',
    __typename: 'TimelineTimelineModule',
    displayType: 'VerticalConversation',
    items: items.map((it) => ({ entryId: `${entryId}-tweet-${it.id}`, item: { itemContent: { itemType: 'TimelineTweet', __typename: 'TimelineTweet', tweet_results: { result: it.result }, tweetDisplayType: 'Tweet' } } })),
  },
});
const addEntries = (entries: unknown[]) => ({ type: 'TimelineAddEntries', entries });

// The posts of the sandbox.
const T = {
  fog: snowflake('2026-04-19T06:10:00Z', 1),
  video: snowflake('2026-04-19T18:45:00Z', 2),
  pinned: snowflake('2026-03-02T12:00:00Z', 3),
  long: snowflake('2026-04-18T07:30:00Z', 4),
  keeperOriginal: snowflake('2026-04-17T21:05:00Z', 5),
  retweet: snowflake('2026-04-18T08:00:00Z', 6),
  older: snowflake('2026-04-12T09:15:00Z', 7),
  reply1: snowflake('2026-04-19T19:02:00Z', 8),
  reply2: snowflake('2026-04-19T19:20:00Z', 9),
  reply3: snowflake('2026-04-19T19:31:00Z', 10),
  reply4: snowflake('2026-04-19T20:10:00Z', 11),
  deleted: snowflake('2026-04-10T10:00:00Z', 12),
  nsfw: snowflake('2026-04-11T10:00:00Z', 13),
  embed: snowflake('2026-04-16T15:40:00Z', 14),
};
const M = { fogPhoto: snowflake('2026-04-19T06:09:00Z', 21), vid: snowflake('2026-04-19T18:44:00Z', 22), embedPhoto: snowflake('2026-04-16T15:39:00Z', 23) };

const fogPost = tweet({ id: T.fog, iso: '2026-04-19T06:10:00Z', by: HARBOR, text: 'Thick fog rolled in over the breakwater at dawn. Visibility under 200 m until about 9. Tide table: https://t.co/t1desT0day', likes: 812, replies: 14, reposts: 96, views: 40210, media: [photo(M.fogPhoto, 'HfOg0HaRb0rAb1', 2048, 1365)] });
const videoPost = tweet({ id: T.video, iso: '2026-04-19T18:45:00Z', by: HARBOR, text: 'Sunset from the east pier, the last ferry crossing the light.', likes: 2450, replies: 4, reposts: 310, views: 128900, media: [video(M.vid, 1080, 1920, 31400)] });
const pinnedPost = tweet({ id: T.pinned, iso: '2026-03-02T12:00:00Z', by: HARBOR, text: 'Welcome! We post the harbor forecast every morning and the odd sunset.', likes: 120, replies: 6, reposts: 11, views: 8801 });
const longPost = tweet({ id: T.long, iso: '2026-04-18T07:30:00Z', by: HARBOR, text: 'Storm notes, part one: the gusts reached 96 km/h at the harbor mouth overnight, and the…', likes: 301, replies: 22, reposts: 40, views: 21050, note: 'Storm notes, part one: the gusts reached 96 km/h at the harbor mouth overnight, and the swell came over the outer wall twice. The crew logged the readings every ten minutes; the full series is on the club board. Thanks to everyone who kept off the pier.' });
const keeperPost = tweet({ id: T.keeperOriginal, iso: '2026-04-17T21:05:00Z', by: KEEPER, text: 'Lamp cleaned, brass polished, logbook signed. Another quiet night.', likes: 640, replies: 9, reposts: 77, views: 15300 });
const retweetPost = tweet({ id: T.retweet, iso: '2026-04-18T08:00:00Z', by: HARBOR, text: 'RT @lighthousekeep: Lamp cleaned, brass polished, logbook signed. Another quiet night.', likes: 0, replies: 0, reposts: 77, retweetOf: keeperPost });
const olderPost = tweet({ id: T.older, iso: '2026-04-12T09:15:00Z', by: HARBOR, text: 'Spring tide this weekend: the slipway floods at high water.', likes: 205, replies: 3, reposts: 18, views: 9870 });

// Replies under the video post: two to the post, one to a reply, one more for the next page.
const reply1 = tweet({ id: T.reply1, iso: '2026-04-19T19:02:00Z', by: KEEPER, text: '@harborweather Saw it from the lamp room. Best one this month.', likes: 44, replies: 1, reposts: 0, views: 900, replyTo: { id: T.video, handle: HARBOR.handle, userId: HARBOR.id }, conversation: T.video });
const reply2 = tweet({ id: T.reply2, iso: '2026-04-19T19:20:00Z', by: HARBOR, text: '@lighthousekeep Thank you! You have the better view up there.', likes: 12, replies: 0, reposts: 0, views: 410, replyTo: { id: T.reply1, handle: KEEPER.handle, userId: KEEPER.id }, conversation: T.video });
const reply3 = tweet({ id: T.reply3, iso: '2026-04-19T19:31:00Z', by: FERRY, text: '@harborweather That was us! Waving from the deck.', likes: 30, replies: 0, reposts: 1, views: 620, replyTo: { id: T.video, handle: HARBOR.handle, userId: HARBOR.id }, conversation: T.video });
const reply4 = tweet({ id: T.reply4, iso: '2026-04-19T20:10:00Z', by: FERRY, text: '@harborweather Same time tomorrow?', likes: 3, replies: 0, reposts: 0, views: 120, replyTo: { id: T.video, handle: HARBOR.handle, userId: HARBOR.id }, conversation: T.video });

const IDS = {
  SearchTimeline: 'BGd0T_j7oVwlW5U79tO_0A',
  UserTweets: 'eoJ5zbv51Z_KVl81v9PmLQ',
  UserMedia: '2DC9TKrcUzwGC_QskSVl5w',
  UserByScreenName: 'Gb-d6r0vxPOADdG62OEBpQ',
  TweetDetail: '559hs_YZNV4IgA3Z6zIIuw',
  TweetResultByRestId: 'f2sagi1jweVHFkTUIHzmMQ',
  GenericTimelineById: 'BrGScxnisMdTXyeLScaEhQ',
  ExplorePage: 'gvPZTpBkahm30iCwpnszng',
};
const timeline = (instructions: unknown[]) => ({ timeline: { instructions, metadata: { scribeConfig: { page: 'profileBest' } } } });

// ---------------------------------------------------------------------------------------------
// Search.

const SEARCH_CURSOR = 'DAADDAABCgABHCzSandboxBottom1';
har('search-harbor-fog.har', [
  {
    url: gqlUrl(IDS.SearchTimeline, 'SearchTimeline', { rawQuery: 'harbor fog', count: 20, querySource: 'typed_query', product: 'Latest' }),
    headers: window(50, 47),
    body: json({ data: { search_by_raw_query: { search_timeline: timeline([addEntries([tweetItem(`tweet-${T.video}`, videoPost), tweetItem(`tweet-${T.fog}`, fogPost), { entryId: `promoted-tweet-${T.older}`, sortIndex: '2', content: { __typename: 'TimelineTimelineItem', itemContent: { __typename: 'TimelineTweet', tweet_results: { result: olderPost }, promotedMetadata: { advertiser_results: {} } } } }, cursorEntry('Top', 'DAADDAABCgABHCzSandboxTop1'), cursorEntry('Bottom', SEARCH_CURSOR)])]) } } }),
    comment: 'SearchTimeline Latest for "harbor fog", first page: a video post, a photo post, a promoted post (left out), Top and Bottom cursors',
  },
  {
    url: gqlUrl(IDS.SearchTimeline, 'SearchTimeline', { rawQuery: 'harbor fog', count: 20, querySource: 'typed_query', product: 'Latest', cursor: SEARCH_CURSOR }),
    headers: window(50, 46),
    body: json({ data: { search_by_raw_query: { search_timeline: timeline([addEntries([tweetItem(`tweet-${T.long}`, longPost), cursorEntry('Top', 'DAADDAABCgABHCzSandboxTop2'), cursorEntry('Bottom', 'DAADDAABCgABHCzSandboxBottom2')])]) } } }),
    comment: 'SearchTimeline Latest for "harbor fog", second page: a long post (note_tweet text)',
  },
  {
    url: gqlUrl(IDS.SearchTimeline, 'SearchTimeline', { rawQuery: 'harbor fog', count: 20, querySource: 'typed_query', product: 'Latest', cursor: 'DAADDAABCgABHCzSandboxBottom2' }),
    headers: window(50, 45),
    body: json({ data: { search_by_raw_query: { search_timeline: timeline([addEntries([cursorEntry('Top', 'DAADDAABCgABHCzSandboxTop3'), cursorEntry('Bottom', 'DAADDAABCgABHCzSandboxBottom3')])]) } } }),
    comment: 'SearchTimeline past the last result: only cursors (X keeps handing them out)',
  },
]);

har('search-people-harbor.har', [
  {
    url: gqlUrl(IDS.SearchTimeline, 'SearchTimeline', { rawQuery: 'harbor', count: 20, querySource: 'typed_query', product: 'People' }),
    body: json({ data: { search_by_raw_query: { search_timeline: timeline([addEntries([HARBOR, KEEPER].map((p) => ({ entryId: `user-${p.id}`, sortIndex: '1', content: { __typename: 'TimelineTimelineItem', itemContent: { __typename: 'TimelineUser', itemType: 'TimelineUser', userDisplayType: 'User', user_results: { result: user(p) } } } })).concat([cursorEntry('Bottom', 'DAADDAABCgABHCzPeopleEnd') as never]))]) } } }),
    comment: 'SearchTimeline People for "harbor": two TimelineUser entries',
  },
  {
    url: gqlUrl(IDS.SearchTimeline, 'SearchTimeline', { rawQuery: 'harbor', count: 20, querySource: 'typed_query', product: 'People', cursor: 'DAADDAABCgABHCzPeopleEnd' }),
    body: json({ data: { search_by_raw_query: { search_timeline: timeline([addEntries([cursorEntry('Bottom', 'DAADDAABCgABHCzPeopleEnd2')])]) } } }),
    comment: 'SearchTimeline People past the last account: a cursor only',
  },
]);

har('error-search-empty-query-214.har', [
  {
    url: gqlUrl(IDS.SearchTimeline, 'SearchTimeline', { rawQuery: 'lang:en', count: 20, querySource: 'typed_query', product: 'Latest' }),
    body: json({ errors: [{ message: 'BadRequest: SearchQueryParsingException(ERROR_EMPTY_QUERY)', locations: [{ line: 3, column: 5 }], path: ['search_by_raw_query', 'search_timeline', 'timeline'], extensions: { name: 'BadRequestError', source: 'Client', code: 214, kind: 'Validation' }, code: 214, kind: 'Validation', name: 'BadRequestError', source: 'Client' }], data: {} }),
    comment: 'SearchTimeline refusing a query of operators only (FxEmbed keeps this ERROR_EMPTY_QUERY variant of code 214)',
  },
]);

// ---------------------------------------------------------------------------------------------
// Accounts and timelines.

const userAnswer = (p: Person) => json({ data: { user: { result: { ...user(p), legacy: {}, pinned_items: { tweet_ids_str: [T.pinned] } } } } });
har('user-harborweather.har', [
  { url: gqlUrl(IDS.UserByScreenName, 'UserByScreenName', { screen_name: 'harborweather', withSafetyModeUserFields: true }), headers: window(95, 93), body: userAnswer(HARBOR), comment: 'UserByScreenName for harborweather (2026 shape: core, avatar, relationship_counts, tweet_counts)' },
]);

const POSTS_CURSOR = 'DAAHCgABHCzSandboxPosts1';
har('posts-harborweather.har', [
  { url: gqlUrl(IDS.UserByScreenName, 'UserByScreenName', { screen_name: 'harborweather', withSafetyModeUserFields: true }), headers: window(95, 92), body: userAnswer(HARBOR), comment: 'UserByScreenName, the handle to the numeric id UserTweets wants' },
  {
    url: gqlUrl(IDS.UserTweets, 'UserTweets', { userId: HARBOR.id, count: 20, includePromotedContent: true, withQuickPromoteEligibilityTweetFields: true, withVoice: true, withV2Timeline: true }),
    headers: window(50, 49),
    body: json({ data: { user: { result: { __typename: 'User', timeline: timeline([{ type: 'TimelineClearCache' }, { type: 'TimelinePinEntry', entry: tweetItem(`tweet-${T.pinned}`, pinnedPost) }, addEntries([tweetItem(`tweet-${T.video}`, videoPost), tweetItem(`tweet-${T.fog}`, fogPost), tweetItem(`tweet-${T.retweet}`, retweetPost), tweetItem(`tweet-${T.long}`, longPost), cursorEntry('Top', 'DAAHCgABHCzSandboxTop'), cursorEntry('Bottom', POSTS_CURSOR)])]) } } } }),
    comment: 'UserTweets first page: the pinned post (TimelinePinEntry), a video, a photo, a repost of @lighthousekeep, a long post',
  },
  {
    url: gqlUrl(IDS.UserTweets, 'UserTweets', { userId: HARBOR.id, count: 20, includePromotedContent: true, withQuickPromoteEligibilityTweetFields: true, withVoice: true, withV2Timeline: true, cursor: POSTS_CURSOR }),
    headers: window(50, 48),
    body: json({ data: { user: { result: { __typename: 'User', timeline: timeline([addEntries([tweetItem(`tweet-${T.older}`, olderPost), cursorEntry('Top', 'DAAHCgABHCzSandboxTop2'), cursorEntry('Bottom', 'DAAHCgABHCzSandboxPosts2')])]) } } } }),
    comment: 'UserTweets second page',
  },
  {
    url: gqlUrl(IDS.UserTweets, 'UserTweets', { userId: HARBOR.id, count: 20, includePromotedContent: true, withQuickPromoteEligibilityTweetFields: true, withVoice: true, withV2Timeline: true, cursor: 'DAAHCgABHCzSandboxPosts2' }),
    headers: window(50, 47),
    body: json({ data: { user: { result: { __typename: 'User', timeline: timeline([addEntries([cursorEntry('Top', 'DAAHCgABHCzSandboxTop3'), cursorEntry('Bottom', 'DAAHCgABHCzSandboxPosts3')])]) } } } }),
    comment: 'UserTweets past the end: cursors only',
  },
]);

har('posts-media-harborweather.har', [
  {
    url: gqlUrl(IDS.UserMedia, 'UserMedia', { userId: HARBOR.id, count: 20, includePromotedContent: false, withClientEventToken: false, withBirdwatchNotes: false, withVoice: true, withV2Timeline: true }),
    headers: window(500, 499),
    body: json({ data: { user: { result: { __typename: 'User', timeline: timeline([addEntries([{ entryId: 'profile-grid-0', sortIndex: '1', content: { __typename: 'TimelineTimelineModule', entryType: 'TimelineTimelineModule', displayType: 'VerticalGrid', items: [{ entryId: `profile-grid-0-tweet-${T.video}`, item: { itemContent: { __typename: 'TimelineTweet', tweet_results: { result: videoPost } } } }, { entryId: `profile-grid-0-tweet-${T.fog}`, item: { itemContent: { __typename: 'TimelineTweet', tweet_results: { result: fogPost } } } }] } }, cursorEntry('Bottom', 'DAAHCgABHCzSandboxMediaEnd')])]) } } } }),
    comment: 'UserMedia (media tab, by id: no lookup): posts in a profile-grid module',
  },
  {
    url: gqlUrl(IDS.UserMedia, 'UserMedia', { userId: HARBOR.id, count: 20, includePromotedContent: false, withClientEventToken: false, withBirdwatchNotes: false, withVoice: true, withV2Timeline: true, cursor: 'DAAHCgABHCzSandboxMediaEnd' }),
    body: json({ data: { user: { result: { __typename: 'User', timeline: timeline([{ type: 'TimelineAddToModule', moduleEntryId: 'profile-grid-0', moduleItems: [] }, addEntries([cursorEntry('Bottom', 'DAAHCgABHCzSandboxMediaEnd2')])]) } } } }),
    comment: 'UserMedia past the end',
  },
]);

har('posts-replies-harborweather.har', [
  {
    url: gqlUrl('wc5DRl4VaW5lSqJ8YbftZQ', 'UserTweetsAndReplies', { userId: HARBOR.id, count: 20, includePromotedContent: true, withCommunity: true, withVoice: true, withV2Timeline: true }),
    headers: window(50, 49),
    body: json({ data: { user: { result: { __typename: 'User', timeline: timeline([addEntries([tweetItem(`tweet-${T.video}`, videoPost), { entryId: `profile-conversation-${T.reply2}`, sortIndex: '1', content: { __typename: 'TimelineTimelineModule', entryType: 'TimelineTimelineModule', displayType: 'VerticalConversation', items: [{ entryId: `profile-conversation-${T.reply2}-tweet-${T.reply1}`, item: { itemContent: { __typename: 'TimelineTweet', tweet_results: { result: reply1 } } } }, { entryId: `profile-conversation-${T.reply2}-tweet-${T.reply2}`, item: { itemContent: { __typename: 'TimelineTweet', tweet_results: { result: reply2 } } } }] } }])]) } } } }),
    comment: "UserTweetsAndReplies (replies tab): a post, then a reply of the account shown under the other account's post it answers",
  },
]);

// ---------------------------------------------------------------------------------------------
// One post: anonymous (guest token, embed endpoint) and with the login (TweetDetail, its replies).

const GUEST_TOKEN = '1913000000000000042';
const detailUrl = (id: string, extra: Record<string, unknown> = {}) => gqlUrl(IDS.TweetDetail, 'TweetDetail', { focalTweetId: id, referrer: 'tweet', with_rux_injections: false, rankingMode: 'Relevance', includePromotedContent: true, ...extra });
const restIdUrl = (id: string) => gqlUrl(IDS.TweetResultByRestId, 'TweetResultByRestId', { tweetId: id, withCommunity: false, includePromotedContent: false, withVoice: false });

har('detail-guest-video.har', [
  { method: 'POST', url: 'https://api.x.com/1.1/guest/activate.json', body: json({ guest_token: GUEST_TOKEN }), comment: 'guest token activation (its answer only carries the token)' },
  { url: restIdUrl(T.video), headers: window(500, 499), body: json({ data: { tweetResult: { result: videoPost } } }), comment: 'TweetResultByRestId with the guest token: a video post' },
]);

const CONVO_CURSOR = 'PAAAAPAtPDwcFoCAsandboxShowMore';
const conversation = (entries: unknown[]) => json({ data: { threaded_conversation_with_injections_v2: { instructions: [{ type: 'TimelineClearCache' }, addEntries(entries), { type: 'TimelineTerminateTimeline', direction: 'Top' }] } } });
har('detail-conversation-video.har', [
  {
    url: detailUrl(T.video),
    headers: window(150, 149),
    body: conversation([tweetItem(`tweet-${T.video}`, videoPost), moduleEntry(`conversationthread-${T.reply1}`, [{ id: T.reply1, result: reply1 }, { id: T.reply2, result: reply2 }]), moduleEntry(`conversationthread-${T.reply3}`, [{ id: T.reply3, result: reply3 }]), { entryId: `cursor-showmorethreads-${CONVO_CURSOR.length}`, sortIndex: '0', content: { __typename: 'TimelineTimelineItem', entryType: 'TimelineTimelineItem', itemContent: { __typename: 'TimelineTimelineCursor', itemType: 'TimelineTimelineCursor', cursorType: 'ShowMoreThreads', value: CONVO_CURSOR, displayTreatment: { actionText: 'Show more replies' } } } }]),
    comment: 'TweetDetail of the video post with the login: the focal post, a thread of two replies (the second answers the first), one more reply, a ShowMoreThreads cursor',
  },
  {
    url: detailUrl(T.video, { with_rux_injections: true, cursor: CONVO_CURSOR }),
    headers: window(150, 148),
    body: json({ data: { threaded_conversation_with_injections_v2: { instructions: [addEntries([moduleEntry(`conversationthread-${T.reply4}`, [{ id: T.reply4, result: reply4 }])])] } } }),
    comment: 'TweetDetail, the rest of the replies (the ShowMoreThreads cursor), no further cursor',
  },
]);

har('detail-embed-fallback.har', [
  { method: 'POST', url: 'https://api.x.com/1.1/guest/activate.json', body: json({ guest_token: GUEST_TOKEN }), comment: 'guest token activation' },
  { url: restIdUrl(T.embed), status: 429, headers: window(500, 0, 1776676900), body: json({ errors: [{ code: 88, message: 'Rate limit exceeded.' }] }), comment: "TweetResultByRestId refused: the guest window is spent (x-rate-limit-remaining 0)" },
  {
    url: `https://cdn.syndication.twimg.com/tweet-result?id=${T.embed}&lang=en&token=4dsandbox`,
    body: json({ __typename: 'Tweet', lang: 'en', favorite_count: 77, possibly_sensitive: false, created_at: '2026-04-16T15:40:00.000Z', display_text_range: [0, 52], entities: { hashtags: [], urls: [], user_mentions: [], symbols: [] }, id_str: T.embed, text: 'New tide boards are up at the harbor office window. https://t.co/eMb3dPic1', user: { id_str: HARBOR.id, name: HARBOR.name, profile_image_url_https: HARBOR.avatar, screen_name: HARBOR.handle, verified: false, is_blue_verified: true }, edit_control: { edit_tweet_ids: [T.embed], editable_until_msecs: '1776354000000', is_edit_eligible: true, edits_remaining: '5' }, mediaDetails: [{ display_url: 'pic.x.com/eMb3dPic1', expanded_url: `https://x.com/harborweather/status/${T.embed}/photo/1`, ext_media_availability: { status: 'Available' }, indices: [52, 75], media_url_https: 'https://pbs.twimg.com/media/HtIdEbOaRd5x.jpg', original_info: { height: 1200, width: 1600 }, sizes: {}, type: 'photo', url: 'https://t.co/eMb3dPic1' }], photos: [{ backgroundColor: { red: 200, green: 204, blue: 207 }, cropCandidates: [], expandedUrl: `https://x.com/harborweather/status/${T.embed}/photo/1`, url: 'https://pbs.twimg.com/media/HtIdEbOaRd5x.jpg', width: 1600, height: 1200 }], conversation_count: 5, news_action_type: 'conversation', isEdited: false, isStaleEdit: false }),
    comment: 'the embed endpoint (cdn.syndication.twimg.com/tweet-result) for the same post: text, user, mediaDetails, favorite_count, conversation_count',
  },
]);

har('error-detail-tombstone.har', [
  { url: restIdUrl(T.deleted), body: json({ data: { tweetResult: { result: { __typename: 'TweetTombstone', tombstone: { __typename: 'TextTombstone', text: { rtl: false, text: 'This Post was deleted by the Post author. Learn more', entities: [{ fromIndex: 41, toIndex: 51, ref: { type: 'TimelineUrl', url: 'https://help.twitter.com/rules-and-policies/notices-on-twitter', urlType: 'ExternalUrl' } }] } } } } } }),
    comment: 'TweetResultByRestId for a deleted post: a TweetTombstone with its text' },
]);

har('error-detail-nsfw-logged-out.har', [
  { url: restIdUrl(T.nsfw), body: json({ data: { tweetResult: { result: { __typename: 'TweetUnavailable', reason: 'NsfwLoggedOut' } } } }), comment: 'TweetResultByRestId without a login for an age-restricted post (yt-dlp and FxEmbed handle reason NsfwLoggedOut)' },
]);

har('error-detail-unknown-id.har', [
  { url: restIdUrl('1234567890123456789'), body: json({ data: { tweetResult: {} } }), comment: 'TweetResultByRestId for an id X does not know: an empty tweetResult' },
]);

har('resolve-tco.har', [
  { url: 'https://t.co/hArb0rLnk', status: 301, headers: [{ name: 'location', value: `https://x.com/harborweather/status/${T.video}` }], mime: 'text/html; charset=utf-8', body: '', comment: "t.co short link: a 301 to the post (only the redirect is asked for)" },
]);

// ---------------------------------------------------------------------------------------------
// Trends.

const trend = (name: string, context: string, meta: string) => ({
  entryId: `trend-${name.replace(/\W/g, '')}`,
  sortIndex: '1',
  content: { __typename: 'TimelineTimelineItem', entryType: 'TimelineTimelineItem', itemContent: { __typename: 'TimelineTrend', itemType: 'TimelineTrend', name, trend_url: { url: `twitter://search/?query=${encodeURIComponent(name)}&src=trend_click&pc=true&vertical=trends`, urlType: 'DeepLink' }, trend_metadata: { domain_context: context, meta_description: meta, url: { url: `twitter://search/?query=${encodeURIComponent(name)}&src=trend_click&pc=true&vertical=trends`, urlType: 'DeepLink' } } } },
});
har('trending-trending.har', [
  {
    url: gqlUrl(IDS.GenericTimelineById, 'GenericTimelineById', { timelineId: 'VGltZWxpbmU6DAC2CwABAAAACHRyZW5kaW5nAAA', count: 20, withQuickPromoteEligibilityTweetFields: true }),
    body: json({ data: { timeline: { timeline: { instructions: [{ type: 'TimelineClearCache' }, addEntries([trend('#HarborFog', 'Trending in Weather', '12.4K posts'), trend('Spring tide', 'Trending', '3,180 posts'), { entryId: 'trend-promoted', sortIndex: '1', content: { __typename: 'TimelineTimelineItem', itemContent: { __typename: 'TimelineTrend', name: 'Buy a boat', promoted_metadata: { advertiser_results: {} } } } }, trend('Ferry strike', 'Trending in News', '1.2M posts')])] } } } }),
    comment: 'GenericTimelineById, the trending tab: three trends with post counts, one promoted (left out)',
  },
]);
har('trending-explore.har', [
  {
    url: gqlUrl(IDS.ExplorePage, 'ExplorePage', { cursor: '' }),
    body: json({ data: { explore_page: { body: { initialTimeline: { id: 'trending', timeline: { timeline: { instructions: [addEntries([trend('Lighthouse', 'Trending in Travel', '8,022 posts')])] } } }, timelines: [{ id: 'trending', timeline: { id: 'VGltZWxpbmU6DAC2CwABAAAACHRyZW5kaW5nAAA' } }] } } } }),
    comment: 'ExplorePage: the initial timeline of the Explore page (FxEmbed trends.ts reads it the same way)',
  },
]);

// ---------------------------------------------------------------------------------------------
// Refusals: stale ids, stale features, a spent window, overload, a block page, a lapsed login.

har('error-stale-queryid-404.har', [
  { url: gqlUrl(IDS.UserByScreenName, 'UserByScreenName', { screen_name: 'staleids', withSafetyModeUserFields: true }), status: 404, body: '', comment: 'an unknown GraphQL query id: HTTP 404 with an empty body (twscrape issue #306, twitter-cli PR #82)' },
]);
har('error-features-336.har', [
  { url: gqlUrl(IDS.SearchTimeline, 'SearchTimeline', { rawQuery: 'newflags', count: 20, querySource: 'typed_query', product: 'Latest' }), status: 400, body: json({ errors: [{ message: 'The following features cannot be null: rweb_video_screen_enabled, responsive_web_grok_imagine_annotation_enabled', code: 336, kind: 'Validation', name: 'BadRequestError', source: 'Client' }] }), comment: "missing feature switches: code 336 'The following features cannot be null' (twscrape queue_client.py)" },
]);
har('error-window-spent.har', [
  { url: gqlUrl(IDS.UserByScreenName, 'UserByScreenName', { screen_name: 'lighthousekeep', withSafetyModeUserFields: true }), headers: window(95, 0, 1776677400), body: userAnswer(KEEPER), comment: 'UserByScreenName answering with the last request of the window (x-rate-limit-remaining 0, reset given)' },
]);
har('error-loadshed.har', [
  { url: gqlUrl(IDS.UserByScreenName, 'UserByScreenName', { screen_name: 'busyday', withSafetyModeUserFields: true }), body: json({ errors: [{ code: -1, message: 'LoadShed' }], data: {} }), comment: "X overloaded: '(-1) LoadShed' (twscrape retries these without penalty)" },
]);
har('error-cloudflare-403.har', [
  { url: gqlUrl(IDS.UserByScreenName, 'UserByScreenName', { screen_name: 'walled', withSafetyModeUserFields: true }), status: 403, mime: 'text/html; charset=UTF-8', headers: [{ name: 'cf-ray', value: '8f00sandbox-AMS' }], body: '<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body>Sorry, you have been blocked</body></html>', comment: 'a block page: text/html with status 403 and a cf-ray header (twscrape: "Blocked by Cloudflare")' },
]);
har('error-session-32.har', [
  { url: gqlUrl(IDS.UserByScreenName, 'UserByScreenName', { screen_name: 'lapsed', withSafetyModeUserFields: true }), status: 401, body: json({ errors: [{ code: 32, message: 'Could not authenticate you.' }] }), comment: "a lapsed login: '(32) Could not authenticate you' (twscrape)" },
]);
har('probe-settings.har', [
  { url: 'https://x.com/i/api/1.1/account/settings.json', body: json({ protected: false, screen_name: 'harborweather', always_use_https: true, language: 'en', discoverable_by_email: false }), comment: 'account/settings.json with a live login: the account screen name' },
]);

// ---------------------------------------------------------------------------------------------
// Writes through the official API v2 (shapes of tweepy's recorded cassette and X's API v2 problem bodies).

const V2 = 'https://api.x.com/2/tweets';
const v2Window = (limit: number, remaining: number): Header[] => [{ name: 'x-rate-limit-limit', value: String(limit) }, { name: 'x-rate-limit-remaining', value: String(remaining) }, { name: 'x-rate-limit-reset', value: '1776676500' }];
const REPLY_ID = snowflake('2026-04-20T09:00:00Z', 31);
har('write-reply.har', [
  { method: 'POST', url: V2, status: 201, headers: [{ name: 'location', value: `https://api.x.com/2/tweets/${REPLY_ID}` }, ...v2Window(200, 199)], body: json({ data: { edit_history_tweet_ids: [REPLY_ID], id: REPLY_ID, text: '@harborweather Lovely light tonight.' } }), comment: 'POST /2/tweets with reply.in_reply_to_tweet_id: 201 and the new post' },
]);
har('write-duplicate-403.har', [
  { method: 'POST', url: V2, status: 403, headers: v2Window(200, 198), body: json({ detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', title: 'Forbidden', status: 403 }), comment: 'POST /2/tweets refused: duplicate content (an API v2 problem body)' },
]);
har('write-unauthorized-401.har', [
  { method: 'POST', url: V2, status: 401, body: json({ title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }), comment: 'POST /2/tweets with revoked keys: 401' },
]);
har('write-delete-not-own.har', [
  { method: 'DELETE', url: `${V2}/${T.keeperOriginal}`, headers: v2Window(50, 48), body: json({ data: { deleted: false } }), comment: "DELETE /2/tweets/:id of another account's post: 200 with deleted false" },
]);

// ---------------------------------------------------------------------------------------------
// x.com's page and bundles: the x-client-transaction-id inputs, and the query ids to refresh.

/** Deterministic bytes (a fixed LCG): the invented key, frames and indices. */
function bytes(n: number, seed: number): number[] {
  const out: number[] = [];
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(s >>> 24);
  }
  return out;
}
const KEY = Buffer.from(bytes(48, 7)).toString('base64');
const frame = (i: number): string => {
  const rows = Array.from({ length: 16 }, (_, r) => bytes(11, 1000 + i * 16 + r).join(' '));
  return `<svg id="loading-x-anim-${i}" width="24" height="24" viewBox="0 0 24 24"><g><path d="M0 0h24v24H0z" fill="none"></path><path d="M 10,30 C ${rows.join(' C ')}" fill="#1d9bf0"></path></g></svg>`;
};
const HOME = `<!DOCTYPE html><html dir="ltr" lang="en"><head><meta charset="utf-8"/><meta name="twitter-site-verification" content="${KEY}"/><title>Home / X</title>
<link rel="preload" as="script" crossorigin="anonymous" href="https://abs.twimg.com/responsive-web/client-web/main.5a1b2c3d.js" nonce=""/></head>
<body><div id="react-root"></div><div id="placeholder" aria-hidden="true">${[0, 1, 2, 3].map(frame).join('')}</div>
<script>window.__SCRIPTS_LOADED__={};_.u=e=>""+(({1008:"bundle.Explore",20113:"ondemand.s",33215:"api"})[e]||e)+"."+({1008:"9c0e8b1",20113:"4f1d2a9",33215:"7e3a5c2"})[e]+"a.js";</script></body></html>`;
const ONDEMAND = `"use strict";(self.webpackChunk_twitter_responsive_web=self.webpackChunk_twitter_responsive_web||[]).push([["ondemand.s"],{20113:(e,t,n)=>{n.d(t,{default:()=>i});var r=n(5521);function i(e){var t=e.split(""),o=[];return o.push((t[12], 16)),o.push(parseInt(t[23], 16)),o.push(parseInt(t[2], 16)),o.push(parseInt(t[5], 16)),r.h(o)}}}]);`;
har('home-page.har', [
  { url: 'https://x.com/home', mime: 'text/html; charset=utf-8', body: HOME, comment: "x.com/home as the transaction-id tools read it: the twitter-site-verification key, four loading-x-anim frames (16 rows of 11 numbers each), the chunk maps naming ondemand.s" },
  { url: 'https://abs.twimg.com/responsive-web/client-web/ondemand.s.4f1d2a9a.js', mime: 'application/javascript; charset=utf-8', body: ONDEMAND, comment: 'the signing chunk: its (x[N], 16) expressions give the key-byte indices 12, 23, 2, 5' },
]);

const LANDING = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/><title>X. It's what's happening</title>
<link rel="preload" as="script" crossorigin="anonymous" href="https://abs.twimg.com/responsive-web/client-web/main.5a1b2c3d.js"/>
<script nonce="">window.__INITIAL_STATE__={"featureSwitch":{"defaultConfig":{"rweb_video_screen_enabled":{"value":false},"view_counts_everywhere_api_enabled":{"value":true},"responsive_web_grok_imagine_annotation_enabled":{"value":true},"some_numeric_setting":{"value":42}},"user":{"config":{"rweb_video_screen_enabled":{"value":true}}}},"settings":{"remote":{"settings":{}}}};window.__META_DATA__={"env":"prod"};</script></head>
<body><script>_.u=e=>""+(({33215:"api",1008:"bundle.Explore",4242:"loader.Foo"})[e]||e)+"."+({33215:"7e3a5c2",1008:"9c0e8b1",4242:"1a2b3c4"})[e]+"a.js";</script></body></html>`;
const MAIN_JS = `(self.webpackChunk_twitter_responsive_web=self.webpackChunk_twitter_responsive_web||[]).push([["main"],{
10001:e=>{e.exports={queryId:"NewSearchId_sandbox01",operationName:"SearchTimeline",operationType:"query",metadata:{featureSwitches:["rweb_video_screen_enabled","view_counts_everywhere_api_enabled","responsive_web_grok_imagine_annotation_enabled","a_brand_new_switch"],fieldToggles:["withArticleRichContentState"]}}},
10002:e=>{e.exports={queryId:"NewUserId_sandbox0002",operationName:"UserByScreenName",operationType:"query",metadata:{featureSwitches:["hidden_profile_subscriptions_enabled"],fieldToggles:["withAuxiliaryUserLabels"]}}},
10003:e=>{e.exports={queryId:"CreateTweetId_sandbox",operationName:"CreateTweet",operationType:"mutation",metadata:{featureSwitches:[],fieldToggles:[]}}},
20001:(e,t,n)=>{const a="Bearer",o="AAAAAAAAAAAAAAAAAAAAASandboxBearerTokenForTheHandMadeBundle%3DxYz0123456789";}}]);`;
const API_JS = `(self.webpackChunk_twitter_responsive_web=self.webpackChunk_twitter_responsive_web||[]).push([["api"],{
30001:e=>{e.exports={queryId:"NewDetailId_sandbox01",operationName:"TweetDetail",operationType:"query",metadata:{featureSwitches:["view_counts_everywhere_api_enabled"],fieldToggles:["withArticleRichContentState","withGrokAnalyze"]}}},
30002:e=>{e.exports={queryId:"NewTimelineId_sandbox",operationName:"UserTweets",operationType:"query",metadata:{featureSwitches:["view_counts_everywhere_api_enabled"],fieldToggles:[]}}}}]);`;
har('refresh-bundle.har', [
  { url: 'https://x.com/', mime: 'text/html; charset=utf-8', body: LANDING, comment: "x.com's page as update-gql-ops.py reads it: main.<hash>.js linked, the chunk maps naming the api chunk, __INITIAL_STATE__ with featureSwitch values" },
  { url: 'https://abs.twimg.com/responsive-web/client-web/main.5a1b2c3d.js', mime: 'application/javascript; charset=utf-8', body: MAIN_JS, comment: 'main.<hash>.js: queryId/operationName pairs with their featureSwitches and fieldToggles, and the web bearer token' },
  { url: 'https://abs.twimg.com/responsive-web/client-web/api.7e3a5c2a.js', mime: 'application/javascript; charset=utf-8', body: API_JS, comment: 'the api chunk: more operations' },
  { url: 'https://abs.twimg.com/responsive-web/client-web/bundle.Explore.9c0e8b1a.js', mime: 'application/javascript; charset=utf-8', body: '(self.webpackChunk_twitter_responsive_web||[]).push([["bundle.Explore"],{}]);', comment: 'a bundle chunk without operations' },
]);

process.stdout.write(`wrote the twitter sandbox to ${OUT}\n`);
