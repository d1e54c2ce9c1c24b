// Writes the hand-made TikTok sandbox recordings next to this file: node --import tsx sandbox/tiktok/generate.ts
//
// Shapes follow the real answers in ../shared/fixtures/tiktok (the 2026 web search and comment answers, the
// camelCase itemStruct of the web detail) and the research notes (cn-platforms.md §2: page rehydration JSON
// __UNIVERSAL_DATA_FOR_REHYDRATION__ → __DEFAULT_SCOPE__['webapp.video-detail' | 'webapp.user-detail'] with
// statusCode 10204 / 10216 / 10222, /api/post/item_list/ and /api/recommend/item_list/ answering
// {itemList, cursor, hasMore}, share links answering a redirect). The creators, posts and numbers are invented.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHar } from '../har-writer.js';

const OUT = dirname(fileURLToPath(import.meta.url));
const WEB = 'https://www.tiktok.com';
const STARTED = '2026-05-04T10:00:00.000Z';
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

type Header = { name: string; value: string };
interface Exchange {
  method?: 'GET' | 'POST';
  url: string;
  json?: unknown;
  status?: number;
  statusText?: string;
  headers?: Header[];
  mime?: string;
  body: string;
  comment: string;
}

function har(file: string, entries: Exchange[]): void {
  writeHar({
    dir: OUT,
    file,
    creator: 'hand-made (tiktok adapter sandbox)',
    started: STARTED,
    entries: entries.map((e) => {
      const post = e.json === undefined ? undefined : JSON.stringify(e.json);
      return {
        ...e,
        mime: e.mime ?? JSON_TYPE,
        requestHeaders: [{ name: 'Referer', value: `${WEB}/` }, ...(post ? [{ name: 'Content-Type', value: 'application/json' }] : [])],
        post: post ? { mimeType: 'application/json', text: post } : undefined,
      };
    }),
  });
}

/** The web client's own params as the real recordings keep them (signature and fingerprint params left out). */
const api = (path: string, params: Array<[string, string]>): string => {
  const q = new URLSearchParams([['aid', '1988'], ['app_language', 'en'], ['app_name', 'tiktok_web'], ['device_platform', 'web_pc'], ...params]);
  return `${WEB}${path}?${q.toString()}`;
};
const json = (v: unknown): string => JSON.stringify(v, null, 1);

/** A page as TikTok serves it: the rehydration JSON in its script tag ("</" escaped as the site does). */
function page(scope: Record<string, unknown>): string {
  const data = JSON.stringify({ __DEFAULT_SCOPE__: { 'webapp.app-context': { language: 'en', region: 'US', user: {} }, ...scope } }).replace(/<\//g, '<\\u002F');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>TikTok - Make Your Day</title></head><body><div id="app"></div><script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${data}</script></body></html>`;
}

// ---- people and posts ---------------------------------------------------------------------------

interface Creator {
  id: string;
  handle: string;
  name: string;
  secUid: string;
  bio: string;
  verified: boolean;
  followers: number;
  following: number;
  hearts: number;
  videos: number;
  private?: boolean;
}

const sec = (seed: string): string => `MS4wLjABAAAA${(seed.repeat(64) + 'x'.repeat(64)).slice(0, 64)}`;
const HARBOR: Creator = {
  id: '7012345678901234567',
  handle: 'harborcook',
  name: 'Harbor Cook',
  secUid: sec('hArB0rC00k-Sandbox_'),
  bio: 'Fish stews from a very small galley.\nNew video every Sunday',
  verified: true,
  followers: 482_100,
  following: 87,
  hearts: 9_310_000,
  videos: 214,
};
const QUIET: Creator = {
  id: '7012345678901230222',
  handle: 'quietharbor',
  name: 'Quiet Harbor',
  secUid: sec('qU1etH4rb0r_'),
  bio: 'friends only',
  verified: false,
  followers: 112,
  following: 140,
  hearts: 0,
  videos: 0,
  private: true,
};
const DECKHAND: Creator = {
  id: '7012345678901234999',
  handle: 'deckhand.dani',
  name: 'Dani on deck',
  secUid: sec('d3ckH4ndD4n1_'),
  bio: 'knots, nets, noodles',
  verified: false,
  followers: 9_870,
  following: 310,
  hearts: 120_400,
  videos: 58,
};

const avatar = (c: Creator, size: number): string =>
  `https://p16-common-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/${c.id.slice(-8)}sandbox~tplv-tiktokx-cropcenter:${size}:${size}.jpeg?dr=9640&x-expires=1778000000&x-signature=sandbox${size}`;

function webAuthor(c: Creator) {
  return {
    id: c.id,
    uniqueId: c.handle,
    nickname: c.name,
    avatarThumb: avatar(c, 100),
    avatarMedium: avatar(c, 720),
    avatarLarger: avatar(c, 1080),
    signature: c.bio,
    verified: c.verified,
    secUid: c.secUid,
    secret: false,
    ftc: false,
    relation: 0,
    openFavorite: false,
    commentSetting: 0,
    duetSetting: 0,
    stitchSetting: 0,
    privateAccount: c.private ?? false,
    downloadSetting: 0,
  };
}

function snakeUser(c: Creator) {
  const pic = (size: number) => ({ uri: `tos-useast5-avt-0068-tx/${c.id.slice(-8)}sandbox`, url_list: [avatar(c, size)], width: 720, height: 720, url_prefix: null });
  return {
    uid: c.id,
    nickname: c.name,
    signature: c.bio,
    avatar_thumb: pic(100),
    avatar_medium: pic(720),
    avatar_larger: pic(1080),
    follow_status: 0,
    follower_count: c.followers,
    following_count: c.following,
    aweme_count: c.videos,
    total_favorited: c.hearts,
    custom_verify: '',
    unique_id: c.handle,
    enterprise_verify_reason: c.verified ? 'verified account' : '',
    sec_uid: c.secUid,
    room_id: 0,
    search_highlight: null,
  };
}

interface PostSpec {
  id: string;
  desc: string;
  createTime: number;
  author: Creator;
  likes: number;
  comments: number;
  shares: number;
  plays: number;
  duration?: number;
  w?: number;
  h?: number;
  images?: Array<{ w: number; h: number }>;
  title?: string;
}

const cdn = (kind: string, key: string): string =>
  `https://v16-webapp-prime.us.tiktok.com/video/tos/useast5/tos-useast5-pve-0068-tx/${key}/?a=1988&bti=c2FuZGJveA&ch=0&cr=3&dr=0&lr=all&cd=0%7C0%7C0%7C&cv=1&br=${kind}&mime_type=video_mp4&qs=0&rc=sandbox&expire=1778000000&l=20260504100000SANDBOX&ply_type=2&policy=2&signature=sandbox${key.slice(-6)}&tk=tt_chain_token`;
const cover = (id: string, what: string): string =>
  `https://p16-common-sign.tiktokcdn-us.com/tos-useast5-p-0068-tx/${id.slice(-10)}${what}~tplv-tiktokx-origin.image?dr=9636&x-expires=1778000000&x-signature=sandbox`;

function webItem(p: PostSpec) {
  const stats = { diggCount: p.likes, shareCount: p.shares, commentCount: p.comments, playCount: p.plays, collectCount: Math.round(p.likes / 20) };
  const w = p.w ?? 576;
  const h = p.h ?? 1024;
  const vid = `v14044g50000sandbox${p.id.slice(-6)}`;
  const rendition = (gear: string, bitrate: number, codec: string, rw: number, rh: number, key: string) => ({
    GearName: gear,
    Bitrate: bitrate,
    QualityType: 14,
    PlayAddr: {
      Uri: vid,
      UrlList: [cdn(String(Math.round(bitrate / 500)), key), cdn(String(Math.round(bitrate / 500)), key).replace('v16-webapp', 'v19-webapp'), `${WEB}/aweme/v1/play/?faid=1988&file_id=${key}&is_play_url=1&item_id=${p.id}&line=0&ply_type=2&tk=tt_chain_token&video_id=${vid}`],
      DataSize: Math.round((bitrate / 8) * (p.duration ?? 10)),
      Width: rw,
      Height: rh,
      UrlKey: `${vid}_${codec === 'h264' ? 'h264' : 'bytevc1'}_${rh > rw ? rw : rh}p_${bitrate}`,
      FileHash: `sandbox${key}`,
    },
    CodecType: codec,
  });
  const video = p.images
    ? { id: '', height: h, width: w, duration: p.duration ?? 0, ratio: '540p', cover: cover(p.id, 'cover'), originCover: cover(p.id, 'origin'), dynamicCover: '' }
    : {
        id: p.id,
        height: h,
        width: w,
        duration: p.duration,
        ratio: '540p',
        cover: cover(p.id, 'cover'),
        originCover: cover(p.id, 'origin'),
        dynamicCover: cover(p.id, 'dynamic'),
        playAddr: cdn('2000', `o${p.id.slice(-8)}h264normal`),
        downloadAddr: cdn('3000', `o${p.id.slice(-8)}download`),
        bitrate: 1_000_000,
        encodedType: 'normal',
        format: 'mp4',
        videoQuality: 'normal',
        codecType: 'h264',
        definition: '540p',
        bitrateInfo: [
          rendition('adapt_lower_720_1', 1_400_000, 'h265_hvc1', 720, Math.round((720 * h) / w), `o${p.id.slice(-8)}h265hd`),
          rendition('normal_540_0', 1_000_000, 'h264', w, h, `o${p.id.slice(-8)}h264normal`),
          rendition('lowest_540_0', 450_000, 'h264', w, h, `o${p.id.slice(-8)}h264low`),
        ],
        videoID: vid,
      };
  return {
    id: p.id,
    desc: p.desc,
    createTime: p.createTime,
    video,
    author: webAuthor(p.author),
    music: { id: `7${p.id.slice(1, -1)}9`, title: 'original sound', authorName: p.author.name, original: true, duration: p.duration ?? 15 },
    challenges: [],
    stats,
    statsV2: Object.fromEntries(Object.entries({ ...stats, repostCount: 0 }).map(([k, v]) => [k, String(v)])),
    ...(p.images
      ? {
          imagePost: {
            images: p.images.map((img, i) => ({
              imageURL: { urlList: [cover(p.id, `img${i}`), cover(p.id, `img${i}`).replace('p16-', 'p19-')] },
              imageWidth: img.w,
              imageHeight: img.h,
            })),
            cover: { imageURL: { urlList: [cover(p.id, 'img0')] }, imageWidth: p.images[0]!.w, imageHeight: p.images[0]!.h },
            shareCover: { imageURL: { urlList: [cover(p.id, 'share')] }, imageWidth: 720, imageHeight: 720 },
            title: p.title ?? '',
          },
        }
      : {}),
    originalItem: false,
    officalItem: false,
    textExtra: [],
    secret: false,
    forFriend: false,
    digged: false,
    itemCommentStatus: 0,
    privateItem: false,
    duetEnabled: true,
    stitchEnabled: true,
    shareEnabled: true,
    isAd: false,
    authorStats: { followingCount: p.author.following, followerCount: p.author.followers, heartCount: p.author.hearts, videoCount: p.author.videos, diggCount: 0, heart: p.author.hearts },
  };
}

const STEW: PostSpec = { id: '7345678901234567890', desc: 'Three-fish stew in a 2 m² galley 🐟 #cooking #boatlife', createTime: 1777800000, author: HARBOR, likes: 48_200, comments: 5, shares: 1_310, plays: 512_000, duration: 41 };
const KNOTS: PostSpec = {
  id: '7345678901234567891',
  desc: 'Every knot on this boat, one slide each #sailing',
  title: 'Knots of the week',
  createTime: 1777700000,
  author: HARBOR,
  likes: 9_800,
  comments: 112,
  shares: 640,
  plays: 88_000,
  duration: 19,
  w: 1080,
  h: 1440,
  images: [
    { w: 1080, h: 1440 },
    { w: 1080, h: 1440 },
    { w: 1080, h: 1350 },
  ],
};
const BREAD: PostSpec = { id: '7345678901234567892', desc: 'No-oven harbour bread #baking', createTime: 1777600000, author: HARBOR, likes: 21_000, comments: 300, shares: 420, plays: 230_000, duration: 58, w: 720, h: 1280 };
const NOODLES: PostSpec = { id: '7345678901234567893', desc: 'Deck noodles at 6 knots', createTime: 1777650000, author: DECKHAND, likes: 3_100, comments: 44, shares: 12, plays: 40_200, duration: 27 };
const SQUID: PostSpec = { id: '7345678901234567894', desc: 'Squid ink risotto, one pan', createTime: 1777550000, author: HARBOR, likes: 15_500, comments: 98, shares: 210, plays: 150_000, duration: 64 };

// ---- search -------------------------------------------------------------------------------------

const searchExtra = (logid: string) => ({ extra: { now: 1777890000000, logid, fatal_item_ids: [], search_request_id: '' }, log_pb: { impr_id: logid }, backtrace: '' });

har('search-general-harbor-cooking.har', [
  {
    url: api('/api/search/general/full/', [['keyword', 'harbor cooking'], ['offset', '0']]),
    body: json({
      status_code: 0,
      data: [
        { type: 1, item: webItem(STEW), common: { doc_id_str: STEW.id } },
        { type: 4, user_list: [{ user_info: snakeUser(HARBOR), position: null, items: null }], has_top_user: 0, view_more: true, card_title: 'Users', common: { doc_id_str: '1' } },
        { type: 1, item: webItem(NOODLES), common: { doc_id_str: NOODLES.id } },
      ],
      qc: '',
      cursor: 3,
      has_more: 1,
      ad_info: {},
      ...searchExtra('20260504100000SANDBOXSEARCH01'),
    }),
    comment: 'general search, first page: a post, a user card row (type 4), a post; cursor 3, has_more 1 (shape of the 2026 web recording)',
  },
  {
    url: api('/api/search/general/full/', [['keyword', 'harbor cooking'], ['offset', '3'], ['search_id', '20260504100000SANDBOXSEARCH01']]),
    body: json({ status_code: 0, data: [{ type: 1, item: webItem(BREAD), common: { doc_id_str: BREAD.id } }], qc: '', cursor: 4, has_more: 0, ...searchExtra('20260504100000SANDBOXSEARCH02') }),
    comment: 'general search, second page (offset 3 with the first page\'s search id): the last post, has_more 0',
  },
]);

har('search-video-harbor-cooking.har', [
  {
    url: api('/api/search/item/full/', [['keyword', 'harbor cooking'], ['cursor', '0']]),
    body: json({ status_code: 0, item_list: [webItem(STEW), webItem(KNOTS)], cursor: 2, has_more: 0, ...searchExtra('20260504100000SANDBOXSEARCH03') }),
    comment: 'video search (item_list of camelCase items, as TikTok-Api search.py reads it); one page',
  },
]);

har('search-user-harbor.har', [
  {
    url: api('/api/search/user/full/', [['keyword', 'harbor'], ['cursor', '0']]),
    body: json({ status_code: 0, user_list: [{ user_info: snakeUser(HARBOR) }, { user_info: snakeUser(QUIET) }], cursor: 2, has_more: 0, rid: '20260504100000SANDBOXSEARCH04', ...searchExtra('20260504100000SANDBOXSEARCH04') }),
    comment: 'user search (user_list[].user_info, snake_case as in the user card of the 2026 general search recording); one page',
  },
]);

har('error-search-empty.har', [
  {
    url: api('/api/search/general/full/', [['keyword', 'zqxjkvwy harbor'], ['offset', '0']]),
    body: json({ status_code: 0, data: [], qc: '', cursor: 0, has_more: 0, ...searchExtra('20260504100000SANDBOXSEARCH05') }),
    comment: 'a search with no hits: status_code 0, an empty data list, has_more 0 (an honest empty)',
  },
]);

// ---- creators -----------------------------------------------------------------------------------

function userDetail(c: Creator, statusCode = 0) {
  const stats = { followerCount: c.followers, followingCount: c.following, heart: c.hearts, heartCount: c.hearts, videoCount: c.videos, diggCount: 0, friendCount: 0 };
  return {
    userInfo: { user: webAuthor(c), stats, statsV2: Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, String(v)])), itemList: [] },
    shareMeta: { title: `${c.name} on TikTok`, desc: `@${c.handle} ${c.followers} Followers` },
    statusCode,
    statusMsg: '',
    needFix: false,
  };
}

har('user-page-harborcook.har', [
  {
    url: `${WEB}/@harborcook`,
    mime: HTML_TYPE,
    body: page({ 'webapp.user-detail': userDetail(HARBOR) }),
    comment: "a profile page: webapp.user-detail {userInfo {user, stats, statsV2}, statusCode 0} (yt-dlp tiktok.py reads the same scope)",
  },
]);

har('error-user-private-account-quietharbor.har', [
  {
    url: `${WEB}/@quietharbor`,
    mime: HTML_TYPE,
    body: page({ 'webapp.user-detail': userDetail(QUIET, 10222) }),
    comment: 'a private account: webapp.user-detail statusCode 10222 with the public profile card still present (yt-dlp #14585)',
  },
]);

har('error-user-not-found-nosuchharbor.har', [
  {
    url: `${WEB}/@nosuchharbor`,
    mime: HTML_TYPE,
    body: page({ 'webapp.user-detail': { userInfo: {}, shareMeta: {}, statusCode: 10221, statusMsg: '' } }),
    comment: 'an unknown handle: webapp.user-detail statusCode 10221 ("invalid profile", TikTok-Api #403) and no user',
  },
]);

har('error-user-api-refused.har', [
  {
    url: api('/api/user/detail/', [['secUid', sec('r3fus3d_')]]),
    body: '{"statusCode":-1,"userInfo":{}}',
    comment: 'the user detail API refusing a signature: {statusCode:-1, userInfo:{}} (carcabot/tiktok-signature #129)',
  },
]);

// ---- posts --------------------------------------------------------------------------------------

har('posts-harborcook.har', [
  {
    url: api('/api/post/item_list/', [['secUid', HARBOR.secUid], ['count', '30'], ['cursor', '0']]),
    body: json({ cursor: '1777650000000', extra: { fatal_item_ids: [], logid: '20260504100000SANDBOXPOSTS01', now: 1777890000000 }, hasMore: true, hasMorePrevious: false, itemList: [webItem(STEW), webItem(KNOTS)], log_pb: { impr_id: '20260504100000SANDBOXPOSTS01' }, statusCode: 0, status_code: 0, status_msg: '' }),
    comment: "a creator's posts, first page: itemList (a video, a photo carousel), cursor, hasMore (TikTok-Api user.py)",
  },
  {
    url: api('/api/post/item_list/', [['secUid', HARBOR.secUid], ['count', '30'], ['cursor', '1777650000000']]),
    body: json({ cursor: '1777500000000', extra: { fatal_item_ids: [], logid: '20260504100000SANDBOXPOSTS02', now: 1777890000000 }, hasMore: false, hasMorePrevious: false, itemList: [webItem(BREAD), webItem(SQUID)], log_pb: { impr_id: '20260504100000SANDBOXPOSTS02' }, statusCode: 0, status_code: 0, status_msg: '' }),
    comment: "a creator's posts, last page (hasMore false)",
  },
]);

har('error-posts-429.har', [
  {
    url: api('/api/post/item_list/', [['secUid', DECKHAND.secUid], ['count', '30'], ['cursor', '0']]),
    status: 429,
    statusText: 'Too Many Requests',
    headers: [{ name: 'Retry-After', value: '30' }],
    body: '',
    comment: 'the post list throttled: HTTP 429 with Retry-After',
  },
]);

// ---- detail -------------------------------------------------------------------------------------

const videoDetail = (p: PostSpec, statusCode = 0, statusMsg = '') => ({
  itemInfo: statusCode ? {} : { itemStruct: webItem(p) },
  shareMeta: statusCode ? {} : { title: `${p.author.name} on TikTok`, desc: p.desc },
  statusCode,
  statusMsg,
});

har('detail-page-video-7345678901234567890.har', [
  {
    url: `${WEB}/@harborcook/video/7345678901234567890`,
    mime: HTML_TYPE,
    body: page({ 'webapp.video-detail': videoDetail(STEW) }),
    comment: "a video's page: webapp.video-detail {itemInfo.itemStruct, statusCode 0} (yt-dlp tiktok.py); bitrateInfo with H.265 720p and H.264 540p renditions",
  },
]);

har('detail-page-photo-7345678901234567891.har', [
  {
    url: `${WEB}/@harborcook/photo/7345678901234567891`,
    mime: HTML_TYPE,
    body: page({ 'webapp.video-detail': videoDetail(KNOTS) }),
    comment: "a photo carousel's page: itemStruct.imagePost.images[].imageURL.urlList, a music-only video object",
  },
]);

har('detail-api-7345678901234567892.har', [
  {
    url: api('/api/item/detail/', [['itemId', '7345678901234567892']]),
    body: json({ extra: { fatal_item_ids: [], logid: '20260504100000SANDBOXDETAIL1', now: 1777890000000 }, itemInfo: { itemStruct: webItem(BREAD) }, log_pb: { impr_id: '20260504100000SANDBOXDETAIL1' }, shareMeta: { desc: BREAD.desc, title: 'Harbor Cook on TikTok' }, statusCode: 0, statusMsg: '', status_code: 0, status_msg: '' }),
    comment: 'the item detail API (itemInfo.itemStruct, as the 2020 web recording): answers when the page is not available',
  },
]);

har('error-page-ip-blocked-7345678901234560204.har', [
  {
    url: `${WEB}/@_/video/7345678901234560204`,
    mime: HTML_TYPE,
    body: page({ 'webapp.video-detail': videoDetail(STEW, 10204) }),
    comment: 'webapp.video-detail statusCode 10204: "Your IP address is blocked" (yt-dlp tiktok.py)',
  },
]);

har('error-page-private-post-7345678901234560216.har', [
  {
    url: `${WEB}/@_/video/7345678901234560216`,
    mime: HTML_TYPE,
    body: page({ 'webapp.video-detail': videoDetail(STEW, 10216) }),
    comment: 'webapp.video-detail statusCode 10216: a private post (yt-dlp tiktok.py)',
  },
]);

har('error-login-redirect-7345678901234560301.har', [
  {
    url: `${WEB}/@_/video/7345678901234560301`,
    status: 302,
    statusText: 'Found',
    mime: HTML_TYPE,
    headers: [{ name: 'Location', value: `${WEB}/login?redirect_url=https%3A%2F%2Fwww.tiktok.com%2F%40_%2Fvideo%2F7345678901234560301` }],
    body: '',
    comment: 'a post page redirecting to /login (yt-dlp tiktok.py: "TikTok is requiring login for access to this content")',
  },
  {
    url: `${WEB}/login?redirect_url=https%3A%2F%2Fwww.tiktok.com%2F%40_%2Fvideo%2F7345678901234560301`,
    mime: HTML_TYPE,
    body: '<!DOCTYPE html><html><head><title>Log in | TikTok</title></head><body><div id="login"></div></body></html>',
    comment: 'the login page the redirect leads to',
  },
]);

har('error-waf-challenge-7345678901234560403.har', [
  {
    url: `${WEB}/@_/video/7345678901234560403`,
    mime: HTML_TYPE,
    headers: [{ name: 'Set-Cookie', value: '_wafchallengeid=sandboxchallenge; Path=/; Max-Age=60' }],
    body: '<!DOCTYPE html><html><head><title>Please wait...</title></head><body><script>/* _wafchallengeid: solve and reload */</script></body></html>',
    comment: 'a WAF challenge page instead of the post page (research notes: _wafchallengeid); no rehydration data',
  },
  {
    url: api('/api/item/detail/', [['itemId', '7345678901234560403']]),
    body: json({ itemInfo: { itemStruct: webItem({ ...SQUID, id: '7345678901234560403' }) }, statusCode: 0, statusMsg: '' }),
    comment: 'the item detail API answering the post the challenged page did not show',
  },
]);

har('signature-refused-then-page-7345678901234560777.har', [
  {
    url: api('/api/item/detail/', [['itemId', '7345678901234560777'], ['X-Bogus', 'DFSzswVOsandboxNATIVE0000001']]),
    mime: 'text/plain; charset=utf-8',
    body: '',
    comment: 'item detail signed natively (X-Bogus only): HTTP 200 with an empty body, the refusal the fixture error-empty-200-block.har shows',
  },
  {
    url: api('/api/item/detail/', [['itemId', '7345678901234560777'], ['X-Bogus', 'DFSzswVOsandboxNATIVE0000002']]),
    mime: 'text/plain; charset=utf-8',
    body: '',
    comment: 'the same request again with a fresh guest identity: still empty',
  },
  {
    url: api('/api/item/detail/', [['itemId', '7345678901234560777'], ['X-Bogus', 'DFSzswVOsandboxPAGE000000001'], ['X-Gnarly', 'sandboxGnarlyFromTheTikTokPage']]),
    body: json({ itemInfo: { itemStruct: webItem({ ...NOODLES, id: '7345678901234560777' }) }, statusCode: 0, statusMsg: '' }),
    comment: "the request signed by the page's frontierSign (X-Bogus and X-Gnarly): answered",
  },
]);

// ---- comments -----------------------------------------------------------------------------------

function comment(cid: string, text: string, who: Creator, at: number, likes: number, opts: { replyTo?: string; replyToReply?: string; replies?: unknown[]; replyTotal?: number } = {}) {
  return {
    aweme_id: STEW.id,
    cid,
    create_time: at,
    digg_count: likes,
    reply_id: opts.replyTo ?? '0',
    reply_to_reply_id: opts.replyToReply ?? '0',
    reply_comment: opts.replies ?? null,
    reply_comment_total: opts.replyTotal ?? 0,
    status: 1,
    stick_position: 0,
    text,
    text_extra: [],
    user: { avatar_thumb: snakeUser(who).avatar_thumb, nickname: who.name, sec_uid: who.secUid, uid: who.id, unique_id: who.handle },
    user_buried: false,
    user_digged: 0,
  };
}
const C1 = '7345679000000000001';
const R1 = comment('7345679000000000101', 'the trick is a lid that fits', HARBOR, 1777810000, 40, { replyTo: C1 });
const R2 = comment('7345679000000000102', 'what lid? I have a towel', DECKHAND, 1777811000, 3, { replyTo: C1, replyToReply: R1.cid });

har('comments-7345678901234567890.har', [
  {
    url: api('/api/comment/list/', [['aweme_id', STEW.id], ['count', '20'], ['cursor', '0']]),
    body: json({
      alias_comment_deleted: false,
      comments: [
        comment(C1, 'how does this not spill at sea 😅', DECKHAND, 1777805000, 310, { replies: [R1], replyTotal: 2 }),
        comment('7345679000000000002', 'saving this for my next trip', QUIET, 1777806000, 12),
      ],
      cursor: 2,
      extra: { api_debug_info: null, fatal_item_ids: null, now: 1777890000000 },
      has_filtered_comments: 0,
      has_more: 0,
      log_pb: { impr_id: '20260504100000SANDBOXCMT01' },
      reply_style: 2,
      status_code: 0,
      status_msg: '',
      top_gifts: null,
      total: 5,
    }),
    comment: "a post's comments (snake_case, as the 2026 web recording): the first comment inlines one reply (reply_comment); has_more 0",
  },
]);

har('comments-replies-7345679000000000001.har', [
  {
    url: api('/api/comment/list/reply/', [['item_id', STEW.id], ['comment_id', C1], ['count', '20'], ['cursor', '0']]),
    body: json({ comments: [R1, R2], cursor: 2, extra: { now: 1777890000000 }, has_more: 0, log_pb: { impr_id: '20260504100000SANDBOXCMT02' }, status_code: 0, status_msg: '', total: 2 }),
    comment: 'one thread\'s replies (/api/comment/list/reply/, TikTok-Api comment.py): reply_id names the top comment, reply_to_reply_id the reply answered',
  },
]);

har('error-comments-login-expired.har', [
  {
    url: api('/api/comment/list/', [['aweme_id', '7345678901234560008'], ['count', '20'], ['cursor', '0']]),
    body: '{"status_code":8,"status_msg":"Login expired"}',
    comment: 'the expired-login answer {"status_code":8,"status_msg":"Login expired"} (cn-platforms.md §2)',
  },
]);

// ---- recommended ---------------------------------------------------------------------------------

har('recommended-fyp.har', [
  {
    url: api('/api/recommend/item_list/', [['from_page', 'fyp'], ['count', '30']]),
    body: json({ extra: { fatal_item_ids: [], logid: '20260504100000SANDBOXFYP001', now: 1777890000000 }, hasMore: true, itemList: [webItem(NOODLES), webItem(SQUID), webItem(KNOTS)], log_pb: { impr_id: '20260504100000SANDBOXFYP001' }, statusCode: 0, status_code: 0, status_msg: '' }),
    comment: 'the For You feed: itemList, hasMore (TikTok-Api trending.py)',
  },
]);

// ---- share links, guest cookie, login probe ------------------------------------------------------

har('resolve-share-links.har', [
  {
    url: 'https://vm.tiktok.com/ZMsandbox1/',
    status: 301,
    statusText: 'Moved Permanently',
    mime: HTML_TYPE,
    headers: [{ name: 'Location', value: `${WEB}/@harborcook/video/7345678901234567890?_r=1&_t=ZM-sandbox` }],
    body: '',
    comment: 'a vm.tiktok.com share link redirecting to the canonical post URL (yt-dlp TikTokVMIE)',
  },
  {
    url: 'https://vt.tiktok.com/ZSsandbox2/',
    status: 301,
    statusText: 'Moved Permanently',
    mime: HTML_TYPE,
    headers: [{ name: 'Location', value: `${WEB}/@harborcook?_r=1&_t=ZS-sandbox` }],
    body: '',
    comment: 'a vt.tiktok.com share link to a profile',
  },
  {
    url: `${WEB}/t/ZTsandbox3/`,
    status: 301,
    statusText: 'Moved Permanently',
    mime: HTML_TYPE,
    headers: [{ name: 'Location', value: `${WEB}/@harborcook/photo/7345678901234567891?_r=1` }],
    body: '',
    comment: 'a www.tiktok.com/t/ share link to a photo post',
  },
]);

har('ttwid-check.har', [
  {
    method: 'POST',
    url: `${WEB}/ttwid/check/`,
    json: { aid: 1988, service: 'www.tiktok.com', union: false, unionHost: '', needFid: false, fid: '', migrate_priority: 0 },
    headers: [{ name: 'Set-Cookie', value: 'ttwid=1%7Csandbox-ttwid-value%7C1777890000%7Csandbox; Path=/; Domain=tiktok.com; Max-Age=31536000; HttpOnly; Secure' }],
    body: '{"status_code":0}',
    comment: 'the guest ttwid cookie minted by POST /ttwid/check/ (TDL ttWid.py: aid 1988)',
  },
]);

har('probe-account-info-logged-in.har', [
  {
    url: `${WEB}/passport/web/account/info/?aid=1988&app_language=en&app_name=tiktok_web`,
    body: json({ data: { user_id: 7012345678901234567, user_id_str: HARBOR.id, username: HARBOR.handle, screen_name: HARBOR.name, sec_user_id: HARBOR.secUid }, message: 'success' }),
    comment: 'passport/web/account/info for a live login: data names the user',
  },
]);

har('probe-account-info-logged-out.har', [
  {
    url: `${WEB}/passport/web/account/info/?aid=1988&app_language=en&app_name=tiktok_web`,
    body: json({ data: { captcha: '', description: 'session expired, please sign in again', error_code: 4 }, message: 'error' }),
    comment: 'passport/web/account/info without a live login: message "error" with data.error_code',
  },
]);
