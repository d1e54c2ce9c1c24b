// Writes the hand-made Pinterest sandbox recordings next to this file: node --import tsx sandbox/pinterest/generate.ts
//
// Shapes follow the real answers in ../shared/fixtures/pinterest (the 2024 BaseSearchResource pages: envelope
// {resource_response{status, code, message, endpoint_name, data, bookmark, http_status}, client_context,
// resource{name, options{bookmarks…}}, request_identifier} and grid pins; the PinResource "detailed" pin) and
// the facts in research/global-platforms.md §5: UserResource fields as go-pinterest-bot models them
// (follower_count, following_count, pin_count, about, image_xlarge_url, verified_identity), feeds answering a
// list in resource_response.data, video_list keys (V_720P, V_HLSV4, V_EXP*), idea pins' story_pin_data pages
// and blocks and carousel_slots as gallery-dl reads them, resource_response.error {status, http_status, code,
// message} as pinterest-dl reads it, the url_shortener 302. The people, pins, boards and numbers are invented.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHar } from '../har-writer.js';

const OUT = dirname(fileURLToPath(import.meta.url));
const WWW = 'https://www.pinterest.com';
const STARTED = '2026-06-02T09:00:00.000Z';
const JSON_TYPE = 'application/json; charset=utf-8';

type Header = { name: string; value: string };
interface Exchange {
  method?: 'GET' | 'POST' | 'HEAD';
  url: string;
  /** Form fields of a POST. */
  form?: Record<string, string>;
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
    creator: 'hand-made (pinterest adapter sandbox)',
    started: STARTED,
    entries: entries.map((e) => {
      const post = e.form ? new URLSearchParams(e.form).toString() : undefined;
      return {
        ...e,
        method: e.method ?? (post ? 'POST' : 'GET'),
        mime: e.mime ?? JSON_TYPE,
        requestHeaders: [
          { name: 'X-Requested-With', value: 'XMLHttpRequest' },
          { name: 'X-Pinterest-AppState', value: 'active' },
          ...(post ? [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded; charset=UTF-8' }] : []),
        ],
        post: post ? { mimeType: 'application/x-www-form-urlencoded', text: post } : undefined,
      };
    }),
  });
}

// ---- requests as the web sends them ---------------------------------------------------------------

type Options = Record<string, unknown>;
const data = (options: Options): string => JSON.stringify({ options, context: {} });
const get = (resource: string, sourceUrl: string, options: Options): string =>
  `${WWW}/resource/${resource}/get/?source_url=${encodeURIComponent(sourceUrl)}&data=${encodeURIComponent(data(options))}&_=1780390800000`;
const post = (resource: string, sourceUrl: string, options: Options, bookmark: string): Pick<Exchange, 'url' | 'form'> => ({
  url: `${WWW}/resource/${resource}/get/`,
  form: { source_url: sourceUrl, data: data({ ...options, bookmarks: [bookmark] }) },
});

const searchOptions = (query: string, scope: string): Options => ({ article: '', appliedProductFilters: '---', price_max: null, price_min: null, query, scope, auto_correction_disabled: '', top_pin_id: '', filters: '', page_size: '25' });
const userPinsOptions = (user: string): Options => ({ is_own_profile_pins: false, username: user, field_set_key: 'grid_item', pin_filter: null });
const createdOptions = (user: string): Options => ({ exclude_add_pin_rep: true, field_set_key: 'grid_item', is_own_profile_pins: false, username: user });
const boardFeedOptions = (id: string, path: string): Options => ({ board_id: id, board_url: path, page_size: 25, currentFilter: -1, field_set_key: 'react_grid_pin', filter_section_pins: true, sort: 'default', layout: 'default', redux_normalize_feed: true });
const relatedOptions = (id: string): Options => ({ pin_id: id, context_pin_ids: [], page_size: 25, search_query: '', source: 'deep_linking', top_level_source: 'deep_linking', top_level_source_depth: 1, is_pdp: false });

/** The envelope every resource answers with; the bookmark is echoed in resource.options as the real ones do. */
function envelope(name: string, endpoint: string, options: Options, body: unknown, bookmark?: string, path = '/'): string {
  return JSON.stringify({
    resource_response: { status: 'success', code: 0, message: 'ok', endpoint_name: endpoint, data: body, ...(bookmark ? { bookmark } : {}), x_pinterest_sli_endpoint_name: endpoint, http_status: 200 },
    client_context: { app_version: 'c0ffee1', browser_locale: 'en-US', country: 'US', is_authenticated: false, path, user: { unauth_id: 'sandbox0unauth0id0000000000000000', ip_country: 'US', ip_region: 'CA' }, visible_url: path },
    resource: { name, options: { bookmarks: [bookmark ?? '-end-'], ...options } },
    request_identifier: '5000000000000000001',
  });
}
const failure = (http: number, code: number, message: string): string =>
  JSON.stringify({ resource_response: { status: 'failure', http_status: http, code, message, error: { status: 'failure', http_status: http, code, message } }, client_context: { is_authenticated: false } });

// ---- people, boards, pins ----------------------------------------------------------------------

interface Person {
  id: string;
  username: string;
  full_name: string;
}
const HARBOR: Person = { id: '812345678901234001', username: 'harborlight', full_name: 'Harbor Light Studio' };
const DUNE: Person = { id: '812345678901234002', username: 'dune_walker', full_name: 'Dune Walker' };

const user = (p: Person) => ({
  node_id: Buffer.from(`user:${p.id}`).toString('base64'),
  id: p.id,
  username: p.username,
  full_name: p.full_name,
  image_medium_url: `https://i.pinimg.com/75x75_RS/5a/nd/b0/5andb0x${p.id.slice(-6)}.jpg`,
  image_small_url: `https://i.pinimg.com/30x30_RS/5a/nd/b0/5andb0x${p.id.slice(-6)}.jpg`,
  follower_count: 0,
  verified_identity: {},
  is_verified_merchant: false,
});

const sig = (n: number): string => `5a${String(n).padStart(30, '0')}`;
const img = (s: string, w: number, h: number) => {
  const path = `${s.slice(0, 2)}/${s.slice(2, 4)}/${s.slice(4, 6)}/${s}.jpg`;
  const scaled = (width: number) => ({ width, height: Math.round((h * width) / w), url: `https://i.pinimg.com/${width}x/${path}` });
  return { '170x': scaled(236), '236x': scaled(236), '474x': scaled(474), '736x': scaled(736), orig: { width: w, height: h, url: `https://i.pinimg.com/originals/${path}` } };
};

interface PinSpec {
  id: string;
  by: Person;
  title: string;
  description?: string;
  created: string;
  picture: number;
  w: number;
  h: number;
  reactions?: Record<string, number>;
  board: { name: string; slug: string };
  extra?: Record<string, unknown>;
}

/** A grid pin (search, feeds) in the recorded key set. */
function pin(p: PinSpec): Record<string, unknown> {
  return {
    node_id: Buffer.from(`pin:${p.id}`).toString('base64'),
    type: 'pin',
    id: p.id,
    title: p.title,
    grid_title: p.title,
    description: p.description ?? ' ',
    created_at: p.created,
    image_signature: sig(p.picture),
    images: img(sig(p.picture), p.w, p.h),
    dominant_color: '#4c656c',
    board: { node_id: Buffer.from(`board:${p.id}`).toString('base64'), name: p.board.name, url: `/${p.by.username}/${p.board.slug}/` },
    pinner: user(p.by),
    aggregated_pin_data: { node_id: Buffer.from(`aggregatedpindata:${p.id}`).toString('base64'), has_xy_tags: false },
    reaction_counts: p.reactions ?? {},
    is_promoted: false,
    videos: null,
    story_pin_data: null,
    carousel_data: null,
    link: null,
    ...p.extra,
  };
}

const video = (key: string, w: number, h: number, ms: number) => {
  const base = `${key}/c0/ff/ee/c0ffee${key}`;
  const thumbnail = `https://i.pinimg.com/videos/thumbnails/originals/${base}.0000000.jpg`;
  return {
    id: `51${key}`,
    video_list: {
      V_HLSV4: { url: `https://v1.pinimg.com/videos/mc/hls/${base}.m3u8`, width: w, height: h, duration: ms, thumbnail, captions_urls: {} },
      V_720P: { url: `https://v1.pinimg.com/videos/mc/720p/${base}.mp4`, width: 720, height: Math.round((h * 720) / w), duration: ms, thumbnail, captions_urls: {} },
      V_EXP4: { url: `https://v1.pinimg.com/videos/mc/expMp4/${base}_t2.mp4`, width: w, height: h, duration: ms, thumbnail, captions_urls: {} },
    },
  };
};

const BOARD = { name: 'Lighthouses at dusk', slug: 'lighthouses-at-dusk' };
const PIN_IMAGE = pin({ id: '981234567890120001', by: HARBOR, title: 'Harbor lights after rain', description: 'Long exposure from the north pier.', created: 'Mon, 04 May 2026 18:20:00 +0000', picture: 1, w: 1200, h: 1800, reactions: { '1': 412, '5': 3, '11': 2 }, board: BOARD });
const PIN_VIDEO = pin({
  id: '981234567890120002',
  by: HARBOR,
  title: 'Fog rolling over the breakwater',
  created: 'Tue, 05 May 2026 06:10:00 +0000',
  picture: 2,
  w: 1080,
  h: 1920,
  reactions: { '1': 1503, '7': 4 },
  board: BOARD,
  extra: { videos: video('a1', 1080, 1920, 14_500) },
});
const PIN_IDEA = pin({
  id: '981234567890120003',
  by: DUNE,
  title: '3 knots for harbor lines',
  description: 'Bowline, cleat hitch, figure eight.',
  created: 'Wed, 06 May 2026 12:00:00 +0000',
  picture: 3,
  w: 1080,
  h: 1920,
  reactions: { '1': 88 },
  board: { name: 'Knots', slug: 'knots' },
  extra: {
    story_pin_data_id: '5123456789000003',
    story_pin_data: {
      id: '5123456789000003',
      page_count: 3,
      pages: [
        { id: 'p1', image_signature: sig(31), blocks: [{ type: 'story_pin_image_block', image_signature: sig(31), image: { images: { originals: { url: `https://i.pinimg.com/originals/5a/00/00/${sig(31)}.jpg`, width: 1080, height: 1920 }, '736x': { url: `https://i.pinimg.com/736x/5a/00/00/${sig(31)}.jpg`, width: 736, height: 1308 } } } }] },
        { id: 'p2', blocks: [{ type: 'story_pin_video_block', video: video('b2', 1080, 1920, 9_000) }, { type: 'story_pin_paragraph_block', text: 'Cleat hitch: two turns, then lock.' }] },
        { id: 'p3', image_signature: sig(33), blocks: [{ type: 'story_pin_image_block', image_signature: sig(33), image: { images: { originals: { url: `https://i.pinimg.com/originals/5a/00/00/${sig(33)}.jpg`, width: 1080, height: 1920 } } } }, { type: 'story_pin_static_sticker_block' }] },
      ],
    },
  },
});
const PIN_CAROUSEL = pin({
  id: '981234567890120004',
  by: DUNE,
  title: 'Tide pool finds',
  created: 'Thu, 07 May 2026 15:45:00 +0000',
  picture: 4,
  w: 1000,
  h: 1000,
  board: { name: 'Shore', slug: 'shore' },
  extra: {
    carousel_data: {
      id: '4400000000000004',
      carousel_slots: [
        { id: '4400000000000041', images: { '345x': { url: `https://i.pinimg.com/345x/5a/00/00/${sig(41)}.jpg`, width: 345, height: 345 } } },
        { id: '4400000000000042', images: { '345x': { url: `https://i.pinimg.com/345x/5a/00/00/${sig(42)}.jpg`, width: 345, height: 345 } } },
      ],
    },
  },
});
const PIN_AD = pin({ id: '981234567890120099', by: DUNE, title: 'Sponsored raincoats', created: 'Fri, 08 May 2026 09:00:00 +0000', picture: 99, w: 800, h: 1200, board: { name: 'Ads', slug: 'ads' }, extra: { is_promoted: true, promoter: user(DUNE) } });
const PIN_OLD = pin({ id: '981234567890120005', by: HARBOR, title: '', description: 'Night ferry, 2019', created: 'Sat, 12 Oct 2019 21:00:00 +0000', picture: 5, w: 1600, h: 1067, reactions: {}, board: BOARD });

/** The PinResource "detailed" field set adds counts and the creator (detail-pin-672584525610478245.har). */
const detailed = (p: Record<string, unknown>, saves: number, comments: number) => ({
  ...p,
  aggregated_pin_data: { id: '5100000000000000001', aggregated_stats: { saves, done: 0 }, comment_count: comments, is_shop_the_look: false },
  comment_count: comments,
  repin_count: 0,
  share_count: 0,
  native_creator: p.pinner,
  closeup_unified_description: p.description,
  seo_url: `/pin/${String(p.id)}/`,
  is_video: !!p.videos,
});

const B1 = 'Y2JVSG81V2sxcmNHRlpWM1J5VFVad1YxWlVSbGhXTVVZMldWVlZNVll4U2xoa1JGWlhVbXh3VkZadGMzZGtNREZXVm14T1dGTkZTbEZXYlhSclRVVTFSMVZZYUZaaWEzQnpXVlJPVTJWV1pISlhhM1JYVm10V05sVldVbE5YUmxwelUyeE9ZVll6YUROV2JHUkhUbXhXY2s5WGJGZFdNMk40fE5FV3w=';
const B2 = 'Y2JVSG81V2sxcmNHRlpWM1J5VFVad1YxWlVSbGhXTVVZMldUQlZNVll4U2xoa2VrSlhVbnBXTTFsWGN6RldhemxYVm14a1YxSllRbEJYVm1SNlpVVTFSMVZ1VGxaaVdFSlBWbXhvVTJWV1pISlhhM1JYVm10V05sVldVbE5XVjBwVlVtdGtZVlpzY0hwV01GcFBWbFpPY2s5V1RsTldSbG96fE5FV3w=';

// ---- search --------------------------------------------------------------------------------------

{
  const q = 'harbor lights';
  const src = `/search/pins/?q=${encodeURIComponent(q)}&rs=typed`;
  const opts = searchOptions(q, 'pins');
  har('search-pins-harbor-lights.har', [
    {
      url: get('BaseSearchResource', src, opts),
      body: envelope('BaseSearchResource', 'v3_search_pins', opts, { nag: {}, should_append_global_search: false, results: [PIN_IMAGE, PIN_AD, PIN_VIDEO, PIN_IDEA], sensitivity: {}, tabs: [], query_l1_vertical_ids: [] }, B1, src),
      comment: 'BaseSearchResource first page for "harbor lights" (scope pins): a picture pin, an ad (is_promoted), a video pin (V_720P and HLS), an idea pin; bookmark for page 2',
    },
    {
      ...post('BaseSearchResource', src, opts, B1),
      body: envelope('BaseSearchResource', 'v3_search_pins', {}, { nag: {}, results: [PIN_CAROUSEL, PIN_OLD] }, undefined, '/resource/BaseSearchResource/get/'),
      comment: 'BaseSearchResource follow-up page as a form POST (the shape of search-pins-next-page-bookmark.har): a carousel pin and an old pin; bookmark -end-',
    },
  ]);
}

{
  const q = 'lighthouse';
  const src = `/search/boards/?q=${q}&rs=typed`;
  const opts = searchOptions(q, 'boards');
  const board = (id: string, by: Person, name: string, slug: string, pins: number, cover: number) => ({
    node_id: Buffer.from(`board:${id}`).toString('base64'),
    type: 'board',
    id,
    name,
    url: `/${by.username}/${slug}/`,
    description: `${name}, collected by ${by.full_name}`,
    pin_count: pins,
    follower_count: 120,
    privacy: 'public',
    owner: user(by),
    image_cover_url: `https://i.pinimg.com/200x150/5a/00/00/${sig(cover)}.jpg`,
    image_cover_hd_url: `https://i.pinimg.com/400x300/5a/00/00/${sig(cover)}.jpg`,
    pin_thumbnail_urls: [`https://i.pinimg.com/150x150/5a/00/00/${sig(cover)}.jpg`],
    created_at: 'Sun, 01 Mar 2026 10:00:00 +0000',
  });
  har('search-boards-lighthouse.har', [
    {
      url: get('BaseSearchResource', src, opts),
      body: envelope('BaseSearchResource', 'v3_search_boards', opts, { results: [board('813000000000000101', HARBOR, BOARD.name, BOARD.slug, 3, 51), board('813000000000000102', DUNE, 'Lighthouse maps', 'lighthouse-maps', 41, 52)] }, undefined, src),
      comment: 'BaseSearchResource for "lighthouse" with scope boards: board objects (type board, owner, cover URLs, pin_count)',
    },
  ]);
}

{
  const q = 'zzqxv nothing';
  const src = `/search/pins/?q=${encodeURIComponent(q)}&rs=typed`;
  const opts = searchOptions(q, 'pins');
  har('search-pins-empty.har', [
    { url: get('BaseSearchResource', src, opts), body: envelope('BaseSearchResource', 'v3_search_pins', opts, { nag: {}, results: [] }, undefined, src), comment: 'BaseSearchResource with no results: an empty list and bookmark -end- (an honest empty)' },
  ]);
}

// ---- user, posts ---------------------------------------------------------------------------------

har('user-harborlight.har', [
  {
    url: get('UserResource', `/${HARBOR.username}/`, { username: HARBOR.username, field_set_key: 'profile' }),
    body: envelope(
      'UserResource',
      'v3_get_user_handler',
      { username: HARBOR.username, field_set_key: 'profile' },
      {
        ...user(HARBOR),
        type: 'user',
        about: 'Coastal photographs, mostly after dark.',
        image_xlarge_url: `https://i.pinimg.com/280x280_RS/5a/nd/b0/5andb0x${HARBOR.id.slice(-6)}.jpg`,
        image_large_url: `https://i.pinimg.com/140x140_RS/5a/nd/b0/5andb0x${HARBOR.id.slice(-6)}.jpg`,
        follower_count: 18_400,
        following_count: 212,
        pin_count: 1_377,
        board_count: 14,
        video_pin_count: 61,
        website_url: 'https://harborlight.example',
        verified_identity: { name: HARBOR.full_name, verified: true },
        domain_verified: true,
      },
      undefined,
      `/${HARBOR.username}/`,
    ),
    comment: 'UserResource (field_set_key profile) for harborlight: counts, about, xlarge avatar, verified_identity',
  },
]);

har('error-user-not-found.har', [
  { url: get('UserResource', '/nosuchpinner/', { username: 'nosuchpinner', field_set_key: 'profile' }), status: 404, statusText: 'Not Found', body: failure(404, 30, 'User not found.'), comment: 'UserResource for a username that does not exist: HTTP 404 with resource_response.error' },
]);

{
  const opts = userPinsOptions(HARBOR.username);
  const src = `/${HARBOR.username}/pins/`;
  har('posts-user-harborlight.har', [
    { url: get('UserPinsResource', src, opts), body: envelope('UserPinsResource', 'v3_users_pins', opts, [PIN_IMAGE, PIN_VIDEO], B2, src), comment: "UserPinsResource first page: the profile's Pins tab, a list in resource_response.data" },
    { ...post('UserPinsResource', src, opts, B2), body: envelope('UserPinsResource', 'v3_users_pins', opts, [PIN_OLD]), comment: 'UserPinsResource follow-up (form POST with the bookmark): the last pin; bookmark -end-' },
  ]);
}

{
  const opts = createdOptions(HARBOR.username);
  const src = `/${HARBOR.username}/_created/`;
  har('posts-created-harborlight.har', [
    { url: get('UserActivityPinsResource', src, opts), body: envelope('UserActivityPinsResource', 'v3_users_activity_pins', opts, [PIN_VIDEO]), comment: 'UserActivityPinsResource: pins the user created (one), bookmark -end-' },
  ]);
}

{
  const path = `/${HARBOR.username}/${BOARD.slug}/`;
  const id = '813000000000000101';
  har('posts-board-lighthouses.har', [
    {
      url: get('BoardResource', path, { username: HARBOR.username, slug: BOARD.slug, field_set_key: 'detailed' }),
      body: envelope('BoardResource', 'v3_get_board', { username: HARBOR.username, slug: BOARD.slug, field_set_key: 'detailed' }, { type: 'board', id, name: BOARD.name, url: path, pin_count: 3, section_count: 0, privacy: 'public', owner: user(HARBOR) }, undefined, path),
      comment: 'BoardResource (username + slug, field_set_key detailed): the board id',
    },
    {
      url: get('BoardFeedResource', path, boardFeedOptions(id, path)),
      body: envelope('BoardFeedResource', 'v3_board_feed', boardFeedOptions(id, path), [PIN_IMAGE, PIN_VIDEO, PIN_OLD, { type: 'board_section', id: '5000000000000077', title: 'Winter' }], undefined, path),
      comment: "BoardFeedResource with the full option set: the board's three pins and a non-pin entry; bookmark -end-",
    },
  ]);
}

har('error-board-secret.har', [
  {
    url: get('BoardResource', '/harborlight/private-plans/', { username: 'harborlight', slug: 'private-plans', field_set_key: 'detailed' }),
    status: 404,
    statusText: 'Not Found',
    body: failure(404, 40, 'Board not found.'),
    comment: 'BoardResource for a secret board without its owner’s login: 404, as for a missing board (gallery-dl#2855)',
  },
]);

har('error-login-required.har', [
  {
    url: get('UserPinsResource', '/lockedpinner/pins/', userPinsOptions('lockedpinner')),
    status: 401,
    statusText: 'Unauthorized',
    body: failure(401, 3, 'Authorization failed.'),
    comment: 'a resource that wants a login answers 401 with resource_response.error "Authorization failed." (the error shape pinterest-dl reads)',
  },
]);

{
  const opts = userPinsOptions(DUNE.username);
  const src = `/${DUNE.username}/pins/`;
  har('error-csrf-refused-then-ok.har', [
    { url: get('UserPinsResource', src, opts), body: envelope('UserPinsResource', 'v3_users_pins', opts, [PIN_IDEA], B2, src), comment: 'UserPinsResource first page of dune_walker with a bookmark' },
    { ...post('UserPinsResource', src, opts, B2), status: 403, statusText: 'Forbidden', mime: 'text/html; charset=utf-8', body: '<h1>Forbidden (403)</h1><p>CSRF verification failed. Request aborted.</p>', comment: 'the follow-up POST refused: CSRF verification failed (Django wording)' },
    { ...post('UserPinsResource', src, opts, B2), body: envelope('UserPinsResource', 'v3_users_pins', opts, [PIN_CAROUSEL]), comment: 'the same POST again, with a freshly minted token, answered' },
  ]);
}

har('error-search-429.har', [
  {
    url: get('BaseSearchResource', '/search/pins/?q=too%20fast&rs=typed', searchOptions('too fast', 'pins')),
    status: 429,
    statusText: 'Too Many Requests',
    headers: [{ name: 'Retry-After', value: '60' }],
    body: failure(429, 429, 'Too many requests. Please try again later.'),
    comment: 'a throttled resource call: HTTP 429 with Retry-After',
  },
]);

har('error-search-html-wall.har', [
  {
    url: get('BaseSearchResource', '/search/pins/?q=walled&rs=typed', searchOptions('walled', 'pins')),
    mime: 'text/html; charset=utf-8',
    body: '<!DOCTYPE html><html><head><title>Pinterest</title></head><body><div id="__PWS_ROOT__"></div><p>Please verify you are a human</p></body></html>',
    comment: 'a web page where the resource JSON belongs (an interstitial): blocked, never empty',
  },
]);

// ---- detail, recommended, short links ------------------------------------------------------------

har('detail-pin-981234567890120002.har', [
  {
    url: get('PinResource', '/pin/981234567890120002/', { id: '981234567890120002', field_set_key: 'detailed' }),
    body: envelope('PinResource', 'v3_get_pin', { id: '981234567890120002', field_set_key: 'detailed' }, detailed(PIN_VIDEO, 2_310, 17), undefined, '/pin/981234567890120002/'),
    comment: 'PinResource (field_set_key detailed) of a video pin: video_list with V_720P, V_HLSV4, V_EXP4; saves and comment counts',
  },
]);

har('detail-pin-981234567890120003.har', [
  {
    url: get('PinResource', '/pin/981234567890120003/', { id: '981234567890120003', field_set_key: 'detailed' }),
    body: envelope('PinResource', 'v3_get_pin', { id: '981234567890120003', field_set_key: 'detailed' }, detailed(PIN_IDEA, 140, 2), undefined, '/pin/981234567890120003/'),
    comment: 'PinResource of an idea pin: story_pin_data pages with image, video, text and sticker blocks',
  },
]);

har('error-pin-not-found.har', [
  { url: get('PinResource', '/pin/981234567890129999/', { id: '981234567890129999', field_set_key: 'detailed' }), status: 404, statusText: 'Not Found', body: failure(404, 50, 'Pin not found.'), comment: 'PinResource for a deleted pin: 404 with resource_response.error' },
]);

har('recommended-981234567890120001.har', [
  {
    url: get('RelatedModulesResource', '/pin/981234567890120001/', relatedOptions('981234567890120001')),
    body: envelope('RelatedModulesResource', 'v3_related_modules', relatedOptions('981234567890120001'), [PIN_VIDEO, { type: 'story', id: 'more_ideas_header', title: 'More to explore' }, PIN_CAROUSEL, PIN_AD], undefined, '/pin/981234567890120001/'),
    comment: 'RelatedModulesResource: a list mixing pins, a story header and an ad; bookmark -end-',
  },
]);

har('recommended-fallback-981234567890120005.har', [
  {
    url: get('RelatedModulesResource', '/pin/981234567890120005/', relatedOptions('981234567890120005')),
    status: 403,
    statusText: 'Forbidden',
    mime: 'text/plain',
    body: 'Invalid Resource Request',
    comment: 'RelatedModulesResource refusing its options with the plain-text 403 of gallery-dl#6513',
  },
  {
    url: get('RelatedPinFeedResource', '/pin/981234567890120005/', { pin: '981234567890120005', add_vase: true, pins_only: true }),
    body: envelope('RelatedPinFeedResource', 'v3_related_pins_for_pin', { pin: '981234567890120005', add_vase: true, pins_only: true }, [PIN_IMAGE, PIN_IDEA], undefined, '/pin/981234567890120005/'),
    comment: "RelatedPinFeedResource (gallery-dl pin_related's options): the older related feed answers",
  },
]);

har('resolve-short-links.har', [
  {
    method: 'HEAD',
    url: 'https://api.pinterest.com/url_shortener/4xYzSbx/redirect/',
    status: 302,
    statusText: 'Found',
    mime: 'text/html; charset=utf-8',
    headers: [{ name: 'Location', value: 'https://www.pinterest.com/pin/981234567890120002/sent/?invite_code=5a0sandbox0code&sender=812345678901234001&sfo=1' }],
    body: '',
    comment: 'pin.it/4xYzSbx: the url_shortener redirect to a shared pin page (sent/ with invite params)',
  },
  {
    method: 'HEAD',
    url: 'https://api.pinterest.com/url_shortener/9bRdSbx/redirect/',
    status: 302,
    statusText: 'Found',
    mime: 'text/html; charset=utf-8',
    headers: [{ name: 'Location', value: 'https://www.pinterest.co.uk/harborlight/lighthouses-at-dusk/?invite_code=5a1sandbox1code&sender=812345678901234001' }],
    body: '',
    comment: 'pin.it/9bRdSbx: a shared board on a country domain',
  },
  {
    method: 'HEAD',
    url: 'https://api.pinterest.com/url_shortener/0nowhere/redirect/',
    status: 302,
    statusText: 'Found',
    mime: 'text/html; charset=utf-8',
    headers: [{ name: 'Location', value: 'https://www.pinterest.com/' }],
    body: '',
    comment: 'an unknown code sends the caller to the home page',
  },
]);

// ---- login probe ---------------------------------------------------------------------------------

har('probe-settings.har', [
  {
    url: get('UserSettingsResource', '/settings/', {}),
    body: JSON.stringify({
      resource_response: { status: 'success', code: 0, message: 'ok', endpoint_name: 'v3_get_user_settings', data: { id: HARBOR.id, username: HARBOR.username, email: 'sandbox@example.invalid', country: 'US', locale: 'en-US' }, http_status: 200 },
      client_context: { is_authenticated: true, user: { id: HARBOR.id, username: HARBOR.username } },
      resource: { name: 'UserSettingsResource', options: { bookmarks: ['-end-'] } },
    }),
    comment: "UserSettingsResource with a live login: the account's username; client_context.is_authenticated true",
  },
]);
