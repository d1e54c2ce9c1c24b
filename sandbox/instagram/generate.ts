// Writes the hand-made Instagram sandbox recordings next to this file: node --import tsx sandbox/instagram/generate.ts
//
// Shapes follow the real answers in ../shared/fixtures/instagram (web_profile_info's user with GraphQL post
// nodes, the REST media items of media/<pk>/info and clips/user, the comment and user answers) and the
// research notes (global-platforms.md §2): the logged-out post query's data.xig_polaris_media.if_not_gated_logged_out,
// the comment and reply connections xdt_api__v1__media__media_id__comments__connection and
// …__parent_comment_id__child_comments__connection, the account search's xdt_api__v1__fbsearch__non_profiled_serp,
// the profile feed's xdt_api__v1__feed__user_timeline_graphql_connection, the hashtag sections, the home
// page's __eqmc LSD token and the bundles' `__d("<Name>_instagramRelayOperation",…)` modules, and the
// error answers the notes quote (1675002 "Incorrect Query", feedback_required, login and challenge
// redirects). The account, posts, people and numbers are invented.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHar } from '../har-writer.js';
import { pkToShortcode } from '../../src/platforms/instagram/refs.js';
import { OPS_DEFAULTS } from '../../src/platforms/instagram/ops.js';
import { jazoest } from '../../src/platforms/instagram/write.js';

const OUT = dirname(fileURLToPath(import.meta.url));
const WWW = 'https://www.instagram.com';
const I = 'https://i.instagram.com';
const STARTED = '2026-09-20T09:00:00.000Z';
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const JS_TYPE = 'application/x-javascript; charset=utf-8';

type Json = Record<string, unknown>;
type Header = { name: string; value: string };
interface Exchange {
  method?: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
  status?: number;
  headers?: Header[];
  mime?: string;
  body: string;
  comment: string;
}

function har(file: string, entries: Exchange[]): void {
  writeHar({
    dir: OUT,
    file,
    creator: 'hand-made (instagram adapter sandbox)',
    started: STARTED,
    entries: entries.map((e) => {
      const post = e.form ? new URLSearchParams(e.form).toString() : undefined;
      return {
        ...e,
        method: e.method ?? (post ? 'POST' : 'GET'),
        statusText: e.status && e.status >= 300 ? String(e.status) : 'OK',
        mime: e.mime ?? JSON_TYPE,
        requestHeaders: [{ name: 'X-IG-App-ID', value: OPS_DEFAULTS.app_id! }, ...(post ? [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }] : [])],
        post: post ? { mimeType: 'application/x-www-form-urlencoded', text: post } : undefined,
      };
    }),
  });
}

const json = (v: unknown): string => JSON.stringify(v, null, 1);
const q = (url: string, params: Record<string, string>): string => `${url}?${new URLSearchParams(params).toString()}`;

// ---- the invented account and its posts -------------------------------------------------------------

const USER_ID = '52418700001';
const USERNAME = 'harborcook';
const img = (n: string, host = 'scontent-lhr8-1', size = 'p1080x1080') =>
  `https://${host}.cdninstagram.com/v/t51.2885-15/${n}_n.jpg?stp=dst-jpg_e35_${size}&_nc_ht=${host}.cdninstagram.com&_nc_cat=1&oh=00_sandbox&oe=6A1F0000&_nc_sid=sbx`;
const vid = (n: string, tag: string, host = 'scontent-lhr8-2') =>
  `https://${host}.cdninstagram.com/o1/v/t16/f2/m86/${n}_video_dashinit.mp4?efg=${tag}&_nc_ht=${host}.cdninstagram.com&oh=00_sandbox&oe=6A1F0000&_nc_sid=sbx`;
const AVATAR = img('1100000001', 'scontent-lhr8-1', 's150x150').replace('t51.2885-15', 't51.2885-19');

const owner = { pk: USER_ID, id: USER_ID, username: USERNAME, full_name: 'Harbor Cook', is_private: false, is_verified: false, profile_pic_url: AVATAR };

interface Part {
  kind: 'image' | 'video';
  n: string;
  w: number;
  h: number;
  seconds?: number;
}
interface Post {
  pk: string;
  caption: string;
  takenAt: number;
  likes: number;
  comments: number;
  views?: number;
  parts: Part[];
  clips?: boolean;
}

const POSTS: Post[] = [
  { pk: '3600000000000000101', caption: 'Grilled mackerel on the quay at dawn #harborfood', takenAt: 1789900000, likes: 5120, comments: 3, views: 88012, clips: true, parts: [{ kind: 'video', n: '2000000101', w: 1080, h: 1920, seconds: 21.5 }] },
  { pk: '3600000000000000102', caption: 'Market morning: what we bought, and the smoker at work', takenAt: 1789800000, likes: 2304, comments: 12, parts: [{ kind: 'image', n: '2000000102', w: 1080, h: 1350 }, { kind: 'video', n: '2000000112', w: 720, h: 1280, seconds: 9.2 }, { kind: 'image', n: '2000000122', w: 1080, h: 1080 }] },
  { pk: '3600000000000000103', caption: 'Brown crab, butter, nothing else #harborfood', takenAt: 1789700000, likes: 990, comments: 1, parts: [{ kind: 'image', n: '2000000103', w: 1440, h: 1440 }] },
  { pk: '3600000000000000104', caption: 'Net mending lesson', takenAt: 1789600000, likes: 410, comments: 0, parts: [{ kind: 'image', n: '2000000104', w: 1080, h: 1350 }] },
  { pk: '3600000000000000105', caption: 'Storm over the breakwater', takenAt: 1789500000, likes: 3300, comments: 7, views: 40210, parts: [{ kind: 'video', n: '2000000105', w: 1080, h: 1920, seconds: 14.25 }] },
];
export const P = Object.fromEntries(POSTS.map((p, i) => [`p${i + 1}`, { ...p, code: pkToShortcode(p.pk) }])) as Record<string, Post & { code: string }>;
const GATED_PK = '3600000000000000106';

function candidates(part: Part): Json {
  return {
    candidates: [
      { width: part.w, height: part.h, url: img(part.n, 'scontent-lhr8-1', `p${part.w}x${part.h}`) },
      { width: 640, height: Math.round((640 * part.h) / part.w), url: img(part.n, 'scontent-lhr8-1', 'p640x640') },
      { width: 320, height: Math.round((320 * part.h) / part.w), url: img(part.n, 'scontent-lhr8-1', 'p320x320') },
    ],
  };
}

function videoVersions(part: Part): Json[] {
  // The app lists its preferred rendition first; the largest is the one to play.
  return [
    { type: 101, width: Math.round(part.w * 0.66), height: Math.round(part.h * 0.66), url: vid(part.n, 'vts_720') },
    { type: 102, width: part.w, height: part.h, url: vid(part.n, 'vts_1080') },
    { type: 103, width: Math.round(part.w * 0.44), height: Math.round(part.h * 0.44), url: vid(part.n, 'vts_480') },
  ];
}

/** A REST / Relay media item (the shape of media/<pk>/info items[] and clips items[].media). */
function mediaItem(p: Post): Json {
  const carousel = p.parts.length > 1;
  const first = p.parts[0]!;
  const base: Json = {
    taken_at: p.takenAt,
    pk: p.pk,
    id: `${p.pk}_${USER_ID}`,
    code: pkToShortcode(p.pk),
    media_type: carousel ? 8 : first.kind === 'video' ? 2 : 1,
    product_type: carousel ? 'carousel_container' : p.clips ? 'clips' : first.kind === 'video' ? 'feed' : 'feed',
    user: owner,
    caption: { pk: `1790${p.pk.slice(-6)}0000000`, text: p.caption, created_at: p.takenAt, user_id: USER_ID },
    like_count: p.likes,
    comment_count: p.comments,
    original_width: first.w,
    original_height: first.h,
  };
  if (carousel) {
    base.carousel_media_count = p.parts.length;
    base.carousel_media = p.parts.map((part, i) => ({
      id: `${BigInt(p.pk) - BigInt(i + 1)}_${USER_ID}`,
      media_type: part.kind === 'video' ? 2 : 1,
      original_width: part.w,
      original_height: part.h,
      image_versions2: candidates(part),
      ...(part.kind === 'video' ? { video_versions: videoVersions(part), video_duration: part.seconds } : {}),
    }));
    return base;
  }
  base.image_versions2 = candidates(first);
  if (first.kind === 'video') {
    base.video_versions = videoVersions(first);
    base.video_duration = first.seconds;
    base.play_count = p.views;
    base.view_count = p.views ? Math.round(p.views / 3) : undefined;
  }
  return base;
}

/** A GraphQL post node (web_profile_info's edge_owner_to_timeline_media, the query_hash feeds). */
function graphNode(p: Post): Json {
  const node = (part: Part, id: string): Json => ({
    __typename: part.kind === 'video' ? 'GraphVideo' : 'GraphImage',
    id,
    dimensions: { height: part.h, width: part.w },
    display_url: img(part.n, 'scontent-lhr8-1', `p${part.w}x${part.h}`),
    is_video: part.kind === 'video',
    ...(part.kind === 'video'
      ? {
          video_url: vid(part.n, 'vts_1080'),
          video_view_count: p.views ?? 0,
          dash_info: { is_dash_eligible: true, video_dash_manifest: `<?xml version="1.0" encoding="UTF-8"?>\n<MPD mediaPresentationDuration="PT${part.seconds}S"></MPD>`, number_of_qualities: 3 },
        }
      : {}),
  });
  const first = p.parts[0]!;
  const carousel = p.parts.length > 1;
  return {
    ...node(first, p.pk),
    __typename: carousel ? 'GraphSidecar' : first.kind === 'video' ? 'GraphVideo' : 'GraphImage',
    is_video: !carousel && first.kind === 'video',
    shortcode: pkToShortcode(p.pk),
    owner: { id: USER_ID, username: USERNAME },
    edge_media_to_caption: { edges: [{ node: { text: p.caption } }] },
    edge_media_to_comment: { count: p.comments },
    comments_disabled: false,
    taken_at_timestamp: p.takenAt,
    edge_liked_by: { count: p.likes },
    edge_media_preview_like: { count: p.likes },
    thumbnail_src: img(first.n, 'scontent-lhr8-1', 'c0.180.1080.1080a_s640x640'),
    ...(p.clips ? { product_type: 'clips' } : {}),
    ...(carousel ? { edge_sidecar_to_children: { edges: p.parts.map((part, i) => ({ node: node(part, String(BigInt(p.pk) - BigInt(i + 1))) })) } } : {}),
  };
}

const PAGE2_CURSOR = 'QVFCc2FuZGJveC1oYXJib3Jjb29rLXBhZ2UtMg==';

function webUser(over: Json = {}): Json {
  return {
    biography: 'Fish, fire and the harbor at dawn. Sandbox account.',
    bio_links: [],
    edge_followed_by: { count: 48210 },
    edge_follow: { count: 310 },
    full_name: 'Harbor Cook',
    id: USER_ID,
    is_private: false,
    is_verified: false,
    profile_pic_url: AVATAR,
    profile_pic_url_hd: AVATAR.replace('s150x150', 's320x320'),
    username: USERNAME,
    edge_owner_to_timeline_media: { count: 5, page_info: { has_next_page: true, end_cursor: PAGE2_CURSOR }, edges: [P.p1!, P.p2!, P.p3!].map((p) => ({ node: graphNode(p) })) },
    ...over,
  };
}

// ---- site pages and bundles (guest tokens, refresh) --------------------------------------------------

export const LSD = 'AVrSandboxLsd0Token';
export const CSRF = 'SbxCsrfTokenHarbor01';
const BUNDLE_HOME = 'https://static.cdninstagram.com/rsrc.php/v4/yS/r/SandboxHome1.js';
const BUNDLE_MAP = 'https://static.cdninstagram.com/rsrc.php/v4iM3/yB/l/en_US/SandboxMap2.js';
const BUNDLE_PROFILE = 'https://static.cdninstagram.com/rsrc.php/v4/yP/r/SandboxProfile3.js';
/** What refresh should find: one id changed against the built-in ones, the rest the same. */
export const BUNDLE_IDS = {
  PolarisLoggedOutDesktopWWWPostRootContentQuery: OPS_DEFAULTS.PolarisLoggedOutDesktopWWWPostRootContentQuery!,
  PolarisPostCommentsPaginationQuery: '28082902984733691',
  PolarisSearchBoxNonProfiledRefetchableQuery: OPS_DEFAULTS.PolarisSearchBoxNonProfiledRefetchableQuery!,
  PolarisProfilePostsQuery: '9066276850131169',
};

const homeHtml = `<!DOCTYPE html><html class="_9dls" lang="en" dir="ltr"><head><meta charset="utf-8" /><title>Instagram</title>
<link rel="preload" href="${BUNDLE_HOME}" as="script" crossorigin="anonymous" nonce="sbx" />
<script src="${BUNDLE_HOME}" async="" crossorigin="anonymous" nonce="sbx"></script>
<script type="application/json" id="__eqmc" nonce="sbx">{"u":"\\/ajax\\/qm\\/?__a=1&__user=0","e":"AZs4ndb0x","s":"\\/","w":0,"f":"AZsbx","l":"${LSD}"}</script>
</head><body><div id="mount_0_0_Sb"></div>
<script type="application/json" data-content-len="420" data-sjs>{"require":[["ScheduledServerJS","handle",null,[{"__bbox":{"define":[["LSD",[],{"token":"${LSD}"},323],["InstagramSecurityConfig",[],{"csrf_token":"${CSRF}"},2920],["DGWWebConfig",[],{"appId":"${OPS_DEFAULTS.app_id}","appVersion":"0"},4325],["RelayAPIConfigDefaults",[],{"customHeaders":{"X-IG-App-ID":"${OPS_DEFAULTS.app_id}","X-IG-D":"www"}},926]]}}]]]}</script>
<script type="application/json" data-sjs>{"require":[["Bootloader","handlePayload",[],[{"rsrcMap":{"sbXm2":{"type":"js","src":"${BUNDLE_MAP.replace(/\//g, '\\/')}"}}}]]]}</script>
<script>window.__igConfig={"APP_ID":"${OPS_DEFAULTS.app_id}","ASBD_ID":"359341"};</script>
</body></html>`;

const profileHtml = `<!DOCTYPE html><html lang="en"><head><title>Instagram (@instagram) • Instagram photos and videos</title>
<link rel="preload" href="${BUNDLE_PROFILE}" as="script" crossorigin="anonymous" nonce="sbx" />
<link rel="preload" href="${BUNDLE_HOME}" as="script" crossorigin="anonymous" nonce="sbx" />
</head><body><script type="application/json" data-sjs>{"require":[["DGWWebConfig",[],{"appId":"${OPS_DEFAULTS.app_id}"},4325]]}</script></body></html>`;

const relayModule = (name: string, id: string, strict = false) =>
  `__d("${name}_instagramRelayOperation",[],(function(a,b,c,d,e,f){${strict ? '"use strict";' : ''}e.exports="${id}"}),null);`;

const homeBundle = `;/*FB_PKG_DELIM*/
__d("PolarisPostRootQuery.graphql",[],(function(a,b,c,d,e,f){"use strict";var g={kind:"PreloadableConcreteRequest",params:{id:b("PolarisPostRootQuery_instagramRelayOperation"),metadata:{},name:"PolarisPostRootQuery",operationKind:"query",text:null}};e.exports=g}),null);
${relayModule('PolarisLoggedOutDesktopWWWPostRootContentQuery', BUNDLE_IDS.PolarisLoggedOutDesktopWWWPostRootContentQuery)}
__d("XIGSharedConstants",[],(function(a,b,c,d,e,f){a=Object.freeze({MAX_CAPTION_LENGTH:2200});f["default"]=a}),66);
${relayModule('PolarisPostCommentsPaginationQuery', BUNDLE_IDS.PolarisPostCommentsPaginationQuery)}
${relayModule('PolarisSearchBoxNonProfiledRefetchableQuery', BUNDLE_IDS.PolarisSearchBoxNonProfiledRefetchableQuery, true)}
${relayModule('PolarisSomethingUnrelatedQuery', '1234567890123456')}`;

const mapBundle = `;/*FB_PKG_DELIM*/
__d("PolarisStoriesV3TrayQuery_instagramRelayOperation",[],(function(a,b,c,d,e,f){e.exports="24938203759175601"}),null);`;

const profileBundle = `;/*FB_PKG_DELIM*/
__d("PolarisProfilePostsQuery_instagramRelayOperation",[],(function(t,n,r,o,a,i){a.exports="${BUNDLE_IDS.PolarisProfilePostsQuery}"}),null);
__d("PolarisProfilePostsTabContentQuery_connection_instagramRelayOperation",[],(function(a,b,c,d,e,f){e.exports="9310670392322965"}),null);`;

har('site-pages.har', [
  {
    url: `${WWW}/`,
    mime: HTML_TYPE,
    body: homeHtml,
    headers: [
      { name: 'Set-Cookie', value: `csrftoken=${CSRF}; Domain=.instagram.com; expires=Mon, 20-Sep-2027 09:00:00 GMT; Max-Age=31449600; Path=/; Secure` },
      { name: 'Set-Cookie', value: 'mid=ZsbxAAABAAHarbor0sandbox; Domain=.instagram.com; Max-Age=63072000; Path=/; Secure; HttpOnly' },
      { name: 'Set-Cookie', value: 'ig_did=5A1B0000-0000-4000-8000-0000000000SB; Domain=.instagram.com; Max-Age=31536000; Path=/; Secure; HttpOnly' },
    ],
    comment: "the logged-out home page: __eqmc JSON with the LSD token, the csrftoken cookie, the web app's APP_ID and the bundles it loads (script src, an escaped resource map)",
  },
  { url: `${WWW}/instagram/`, mime: HTML_TYPE, body: profileHtml, comment: 'a profile page: preload links to the bundle holding the profile feed operations' },
  { url: BUNDLE_HOME, mime: JS_TYPE, body: homeBundle, comment: 'a Relay bundle: `<Name>_instagramRelayOperation` modules export each doc_id (one of them newer than the built-in id)' },
  { url: BUNDLE_MAP, mime: JS_TYPE, body: mapBundle, comment: 'a lazily loaded bundle named in the resource map, holding an operation the adapter does not use' },
  { url: BUNDLE_PROFILE, mime: JS_TYPE, body: profileBundle, comment: 'the profile bundle: PolarisProfilePostsQuery in its (t,n,r,o,a,i) minified form' },
]);

// ---- user, posts -------------------------------------------------------------------------------------

har('user-harborcook.har', [
  { url: q(`${WWW}/api/v1/users/web_profile_info/`, { username: USERNAME }), body: json({ data: { user: webUser() }, status: 'ok' }), comment: 'web_profile_info (shape of fixtures/instagram/user-web-profile-info-instagram.har): the account and its first posts (a reel, a carousel, a photo) with end_cursor' },
]);

har('posts-harborcook-page2.har', [
  {
    url: q(`${WWW}/graphql/query/`, { query_hash: OPS_DEFAULTS.query_hash_owner_timeline!, variables: JSON.stringify({ id: USER_ID, first: 12, after: PAGE2_CURSOR }) }),
    body: json({ data: { user: { edge_owner_to_timeline_media: { count: 5, page_info: { has_next_page: false, end_cursor: null }, edges: [P.p4!, P.p5!].map((p) => ({ node: graphNode(p) })) } } }, status: 'ok' }),
    comment: "the timeline feed's second page by id and end_cursor (shape of fixtures/instagram/posts-graphql-owner-timeline-robertdowneyjr.har); the last page",
  },
]);

har('posts-feed-harborcook.har', [
  {
    url: `${WWW}/graphql/query/`,
    form: {
      fb_api_req_friendly_name: 'PolarisProfilePostsQuery',
      variables: JSON.stringify({ data: { count: 12, include_relationship_info: true, latest_besties_reel_media: true, latest_reel_media: true }, username: USERNAME, __relay_internal__pv__PolarisFeedShareMenurelayprovider: false }),
      doc_id: OPS_DEFAULTS.PolarisProfilePostsQuery!,
      server_timestamps: 'true',
    },
    body: json({ data: { xdt_api__v1__feed__user_timeline_graphql_connection: { edges: [P.p1!, P.p2!, P.p3!].map((p) => ({ node: mediaItem(p), cursor: `${p.pk}_${USER_ID}` })), page_info: { has_next_page: false, end_cursor: null, has_previous_page: false, start_cursor: null } } }, extensions: { is_final: true }, status: 'ok' }),
    comment: "a logged-in session's profile feed (PolarisProfilePostsQuery; root xdt_api__v1__feed__user_timeline_graphql_connection, media items as in media/<pk>/info)",
  },
]);

har('reels-harborcook.har', [
  {
    url: `${I}/api/v1/clips/user/`,
    form: { target_user_id: USER_ID, page_size: '12', include_feed_video: 'true' },
    body: json({ items: [{ media: mediaItem(P.p1!) }, { media: mediaItem(P.p5!) }], paging_info: { max_id: 'QVFEc2FuZGJveC1yZWVscw==', more_available: false }, status: 'ok' }),
    comment: 'the reels tab (shape of fixtures/instagram/posts-clips-user-reels.har): items[].media with video_versions, paging_info',
  },
]);

// ---- detail ----------------------------------------------------------------------------------------

const ruling = (pk: string, body: Json): Exchange => ({
  url: q(`${WWW}/api/v1/web/get_ruling_for_content/`, { content_type: 'MEDIA', target_id: pk }),
  body: json(body),
  comment: `the logged-out accessibility check yt-dlp makes before the post query (${body.status === 'ok' ? 'granted' : 'refused, with its title and description'})`,
});
const polarisCall = (pk: string) => ({
  lsd: LSD,
  fb_api_caller_class: 'RelayModern',
  fb_api_req_friendly_name: 'PolarisLoggedOutDesktopWWWPostRootContentQuery',
  server_timestamps: 'true',
  variables: JSON.stringify({ media_id: pk }),
  doc_id: OPS_DEFAULTS.PolarisLoggedOutDesktopWWWPostRootContentQuery!,
});

har(`detail-polaris-${P.p1!.code}.har`, [
  ruling(P.p1!.pk, { status: 'ok' }),
  {
    url: `${WWW}/api/graphql`,
    form: polarisCall(P.p1!.pk),
    body: json({ data: { xig_polaris_media: { __typename: 'XIGPolarisMedia', pk: P.p1!.pk, code: P.p1!.code, if_not_gated_logged_out: { __typename: 'XIGPolarisVideoMedia', ...mediaItem(P.p1!) } } }, extensions: { is_final: true } }),
    comment: 'the logged-out post query (PolarisLoggedOutDesktopWWWPostRootContentQuery): data.xig_polaris_media.if_not_gated_logged_out holds the media item, three video renditions',
  },
]);

const pageBlob = (polaris: Json) =>
  JSON.stringify({ require: [['ScheduledServerJS', 'handle', null, [{ __bbox: { require: [['RelayPrefetchedStreamCache', 'next', [], ['adp_PolarisPostRootQueryRelayPreloader_sbx', { __bbox: { complete: true, result: { data: { xig_polaris_media: polaris } } } }]]] } }]]] });

har(`detail-page-${P.p2!.code}.har`, [
  ruling(P.p2!.pk, { status: 'ok' }),
  {
    url: `${WWW}/api/graphql`,
    form: polarisCall(P.p2!.pk),
    mime: HTML_TYPE,
    body: '<!DOCTYPE html><html lang="en"><head><title>Instagram</title></head><body><div id="splash-screen"></div></body></html>',
    comment: 'the logged-out post query answered with a web page instead of JSON (what Instagram does to clients it does not trust, yt-dlp)',
  },
  {
    url: `${WWW}/p/${P.p2!.code}/`,
    mime: HTML_TYPE,
    body: `<!DOCTYPE html><html><head><title>Harbor Cook on Instagram</title></head><body><script type="application/json" data-content-len="3100" data-sjs>${pageBlob({ __typename: 'XIGPolarisMedia', pk: P.p2!.pk, code: P.p2!.code, if_not_gated_logged_out: mediaItem(P.p2!) })}</script></body></html>`,
    comment: "the post page: its data-sjs RelayPrefetchedStreamCache carries xig_polaris_media (yt-dlp's fallback); a carousel of an image, a video and an image",
  },
]);

har(`detail-gated-${pkToShortcode(GATED_PK)}.har`, [
  ruling(GATED_PK, { title: 'Restricted Video', description: 'You must be 18 years old or over to see this video.' }),
  {
    url: `${WWW}/api/graphql`,
    form: polarisCall(GATED_PK),
    body: json({ data: { xig_polaris_media: { __typename: 'XIGPolarisMedia', pk: GATED_PK, code: pkToShortcode(GATED_PK), if_not_gated_logged_out: null } }, extensions: { is_final: true } }),
    comment: 'an age-gated post: the ruling refuses with "Restricted Video", the post query gives no logged-out media',
  },
]);

har(`detail-rest-${P.p3!.code}.har`, [
  { url: `${WWW}/api/v1/media/${P.p3!.pk}/info/`, body: json({ items: [mediaItem(P.p3!)], num_results: 1, more_available: false, auto_load_more_enabled: false, status: 'ok' }), comment: "a logged-in session's media/<pk>/info/ (items[] as in fixtures/instagram/detail-media-a1-CAnqPB-Jzcj.har)" },
]);

har('resolve-share-link.har', [
  {
    url: `${WWW}/share/reel/BAsbxHarbor1/`,
    status: 302,
    mime: HTML_TYPE,
    headers: [{ name: 'Location', value: `${WWW}/reel/${P.p1!.code}/?igsh=c2J4aGFyYm9y` }],
    body: '',
    comment: 'a /share/ link: a redirect to the reel',
  },
]);

// ---- comments and replies ---------------------------------------------------------------------------

const person = (pk: string, username: string, full_name: string) => ({ pk, id: pk, username, full_name, is_verified: false, profile_pic_url: img(`11000${pk.slice(-5)}`, 'scontent-lhr8-1', 's150x150').replace('t51.2885-15', 't51.2885-19') });
const TIDE = person('52418700002', 'harbor.weather', 'Harbor Weather');
const GULL = person('52418700004', 'gullwatcher', 'Gull Watcher');
const commentNode = (pk: string, text: string, who: Json, created: number, likes: number, children: number, parent: string | null = null) => ({
  pk,
  id: pk,
  text,
  created_at: created,
  user: who,
  comment_like_count: likes,
  child_comment_count: children,
  parent_comment_id: parent,
  is_covered: false,
  restricted_status: null,
});
export const C = { c1: '18010000000000001', c2: '18010000000000002', c3: '18010000000000003', r1: '18010000000000011', r2: '18010000000000012', c21: '18010000000000021', r21: '18010000000000022' };
const COMMENTS_CURSOR = JSON.stringify({ cached_comments_cursor: C.c2, bifilter_token: 'KDkBABgAKABQAA==' });
const commentsCall = (pk: string, after?: string) => ({
  lsd: LSD,
  fb_api_caller_class: 'RelayModern',
  fb_api_req_friendly_name: 'PolarisPostCommentsPaginationQuery',
  server_timestamps: 'true',
  variables: JSON.stringify({ media_id: pk, first: 24, ...(after ? { after } : {}), before: null, last: null, sort_order: 'popular', __relay_internal__pv__PolarisIsLoggedInrelayprovider: false }),
  doc_id: OPS_DEFAULTS.PolarisPostCommentsPaginationQuery!,
});

har(`comments-${P.p1!.code}.har`, [
  {
    url: `${WWW}/api/graphql`,
    form: commentsCall(P.p1!.pk),
    body: json({
      data: {
        xdt_api__v1__media__media_id__comments__connection: {
          edges: [
            { node: commentNode(C.c1, 'What do you season it with?', TIDE, 1789900600, 14, 2), cursor: '' },
            { node: commentNode(C.c2, 'The light on the water 🌊', GULL, 1789901200, 3, 0), cursor: '' },
          ],
          page_info: { end_cursor: COMMENTS_CURSOR, has_next_page: true, has_previous_page: false, start_cursor: null },
        },
      },
      extensions: { is_final: true },
    }),
    comment: "the post's comments (PolarisPostCommentsPaginationQuery, logged out with the home page's lsd): the first page, end_cursor a serialized {cached_comments_cursor, bifilter_token}",
  },
  {
    url: `${WWW}/api/graphql`,
    form: commentsCall(P.p1!.pk, COMMENTS_CURSOR),
    body: json({
      data: { xdt_api__v1__media__media_id__comments__connection: { edges: [{ node: commentNode(C.c3, 'Saving this for the weekend', TIDE, 1789902000, 0, 0) }], page_info: { end_cursor: null, has_next_page: false } } },
      extensions: { is_final: true },
    }),
    comment: 'the second and last page of comments',
  },
]);

har(`replies-${C.c1}.har`, [
  {
    url: `${WWW}/api/graphql`,
    form: {
      lsd: LSD,
      fb_api_caller_class: 'RelayModern',
      fb_api_req_friendly_name: 'PolarisPostChildCommentsQuery',
      server_timestamps: 'true',
      variables: JSON.stringify({ media_id: P.p1!.pk, parent_comment_id: C.c1 }),
      doc_id: OPS_DEFAULTS.PolarisPostChildCommentsQuery!,
    },
    body: json({
      data: {
        xdt_api__v1__media__media_id__comments__parent_comment_id__child_comments__connection: {
          edges: [
            { node: commentNode(C.r1, '@harbor.weather sea salt, lemon, a little smoke', owner as Json, 1789900900, 9, 0, C.c1) },
            { node: commentNode(C.r2, '@harborcook trying it tonight', TIDE, 1789901500, 1, 0, C.c1) },
          ],
          page_info: { end_cursor: null, has_next_page: false },
        },
      },
      extensions: { is_final: true },
    }),
    comment: "one comment's replies (PolarisPostChildCommentsQuery, {media_id, parent_comment_id}); each names its parent_comment_id",
  },
]);

// The app API answers ids as bare numbers past 2^53: written by hand so they stay that way.
const restComment = (pk: string, text: string, who: typeof TIDE, created: number, likes: number, children: number) =>
  `{"pk":${pk},"user_id":${who.pk},"text":${JSON.stringify(text)},"type":0,"created_at":${created},"created_at_utc":${created},"content_type":"comment","status":"Active","user":{"pk":${who.pk},"username":"${who.username}","full_name":"${who.full_name}","is_private":false,"is_verified":false,"profile_pic_url":"${who.profile_pic_url}"},"comment_like_count":${likes},"child_comment_count":${children}}`;

har(`comments-rest-${P.p3!.code}.har`, [
  {
    url: q(`${I}/api/v1/media/${P.p3!.pk}/comments/`, { can_support_threading: 'true', permalink_enabled: 'false' }),
    body: `{"comment_likes_enabled":true,"comments":[${restComment(C.c21, 'Best crab of the summer', TIDE, 1789700900, 3, 1)}],"comment_count":1,"caption":null,"has_more_comments":false,"next_min_id":null,"status":"ok"}`,
    comment: "a logged-in session's comments/ list (the app API instaloader falls back to): pks as bare numbers",
  },
  {
    url: q(`${I}/api/v1/media/${P.p3!.pk}/comments/${C.c21}/child_comments/`, { max_id: '' }),
    body: `{"parent_comment":${restComment(C.c21, 'Best crab of the summer', TIDE, 1789700900, 3, 1)},"child_comments":[${restComment(C.r21, '@harbor.weather agreed!', GULL, 1789701000, 0, 0)}],"child_comment_count":1,"has_more_tail_child_comments":false,"has_more_head_child_comments":false,"status":"ok"}`,
    comment: "that comment's child_comments/ answer",
  },
]);

// ---- search ----------------------------------------------------------------------------------------

har('search-users-harbor.har', [
  {
    url: `${WWW}/api/graphql`,
    form: { lsd: LSD, fb_api_caller_class: 'RelayModern', fb_api_req_friendly_name: 'PolarisSearchBoxNonProfiledRefetchableQuery', server_timestamps: 'true', variables: JSON.stringify({ hasQuery: true, query: 'harbor' }), doc_id: OPS_DEFAULTS.PolarisSearchBoxNonProfiledRefetchableQuery! },
    body: json({ data: { xdt_api__v1__fbsearch__non_profiled_serp: { users: [owner, TIDE], inform_module: null } }, extensions: { is_final: true } }),
    comment: 'account search (PolarisSearchBoxNonProfiledRefetchableQuery, {hasQuery, query}): xdt_api__v1__fbsearch__non_profiled_serp.users',
  },
]);

har('search-topsearch-gull.har', [
  {
    url: q(`${WWW}/web/search/topsearch/`, { context: 'blended', query: 'gull', include_reel: 'false' }),
    body: json({ users: [{ position: 0, user: GULL }], places: [], hashtags: [{ position: 1, hashtag: { name: 'gulls', id: '17841500000000001', media_count: 18000 } }], has_more: false, rank_token: '0.sbx', status: 'ok' }),
    comment: "the blended top search (instaloader TopSearchResults, gallery-dl user_by_search): users[].user; the account search's fallback",
  },
]);

const SECTIONS_CURSOR = 'QVFBc2FuZGJveC10YWctcGFnZS0y';
har('search-hashtag-harborfood.har', [
  {
    url: `${WWW}/api/v1/tags/harborfood/sections/`,
    form: { include_persistent: '0', surface: 'grid', tab: 'recent' },
    body: json({ sections: [{ layout_type: 'media_grid', feed_type: 'media', layout_content: { medias: [{ media: mediaItem(P.p1!) }, { media: mediaItem(P.p3!) }] } }], more_available: true, next_max_id: SECTIONS_CURSOR, next_page: 1, next_media_ids: [], status: 'ok' }),
    comment: "a logged-in session's hashtag grid (tags/<tag>/sections/, gallery-dl): sections[].layout_content.medias[].media, next_max_id and next_page",
  },
  {
    url: `${WWW}/api/v1/tags/harborfood/sections/`,
    form: { include_persistent: '0', surface: 'grid', tab: 'recent', max_id: SECTIONS_CURSOR, page: '1' },
    body: json({ sections: [{ layout_type: 'media_grid', feed_type: 'media', layout_content: { medias: [{ media: mediaItem(P.p2!) }] } }], more_available: false, status: 'ok' }),
    comment: 'the second and last page of the hashtag grid',
  },
]);

// ---- login probe, writes ---------------------------------------------------------------------------

har('probe-user-info.har', [
  { url: `${I}/api/v1/users/${USER_ID}/info/`, body: `{"user":{"pk":${USER_ID},"username":"${USERNAME}","full_name":"Harbor Cook","is_private":false,"is_verified":false,"media_count":5,"follower_count":48210,"following_count":310},"status":"ok"}`, comment: "a live login's own users/<pk>/info/" },
  {
    url: `${I}/api/v1/users/52418700009/info/`,
    status: 403,
    body: json({ message: 'login_required', error_title: "You've Been Logged Out", error_body: 'Please log back in.', logout_reason: 8, status: 'fail' }),
    comment: 'a lapsed login: 403 login_required (instagrapi maps it to LoginRequired)',
  },
]);

/** The csrftoken cookie of the logged-in profile the write tests use. */
export const WRITER_CSRF = 'SbxWriterCsrf0001';
har('write-comment.har', [
  {
    url: `${WWW}/api/v1/web/comments/${P.p1!.pk}/add/`,
    form: { comment_text: 'Looks delicious', jazoest: jazoest(WRITER_CSRF) },
    body: json({ id: '18010000000000031', from: { id: '52418700004', username: 'gullwatcher', full_name: 'Gull Watcher', profile_picture: GULL.profile_pic_url }, text: 'Looks delicious', created_time: 1790000000, status: 'ok' }),
    comment: 'the web comment write (shape of fixtures/instagram/write-comment-add.har: {id, from, text, created_time, status})',
  },
  {
    url: `${WWW}/api/v1/web/comments/${P.p3!.pk}/add/`,
    form: { comment_text: 'Looks delicious', jazoest: jazoest(WRITER_CSRF) },
    status: 400,
    body: json({ message: 'Comments on this post have been limited.', status: 'fail' }),
    comment: 'a refused comment (the post limits comments)',
  },
]);

// ---- error answers -----------------------------------------------------------------------------------

har('error-profile-not-found.har', [
  { url: q(`${WWW}/api/v1/users/web_profile_info/`, { username: 'nosuchharbor' }), status: 404, body: json({ data: { user: null }, status: 'ok' }), comment: 'web_profile_info for a name nobody has: HTTP 404 (instaloader #2244)' },
]);

har('error-login-redirect.har', [
  {
    url: q(`${WWW}/api/v1/users/web_profile_info/`, { username: 'walledharbor' }),
    status: 302,
    mime: HTML_TYPE,
    headers: [{ name: 'Location', value: `${WWW}/accounts/login/?next=%2Fapi%2Fv1%2Fusers%2Fweb_profile_info%2F%3Fusername%3Dwalledharbor` }],
    body: '',
    comment: 'a logged-out request sent to the login page (gallery-dl, instaloader: login required)',
  },
]);

har('error-private-account.har', [
  {
    url: q(`${WWW}/api/v1/users/web_profile_info/`, { username: 'privateharbor' }),
    body: json({ data: { user: webUser({ id: '52418700005', username: 'privateharbor', full_name: 'Private Harbor', is_private: true, followed_by_viewer: false, edge_owner_to_timeline_media: { count: 40, page_info: { has_next_page: false, end_cursor: null }, edges: [] } }) }, status: 'ok' }),
    comment: 'a private account: the grid counts 40 posts and shows none',
  },
]);

const INCORRECT_QUERY = { errors: [{ message: 'execution error', code: 1675002, summary: 'Incorrect Query', description: 'The query provided was invalid.', extensions: {}, severity: 'CRITICAL' }], status: 'ok' };
har(`error-stale-comments-${P.p3!.code}.har`, [
  { url: `${WWW}/api/graphql`, form: commentsCall(P.p3!.pk), body: json(INCORRECT_QUERY), comment: 'a doc_id Instagram no longer runs: "execution error", code 1675002 "Incorrect Query" (the answer quoted in gallery-dl #7202)' },
  {
    url: q(`${WWW}/graphql/query/`, { query_hash: OPS_DEFAULTS.query_hash_comments!, variables: JSON.stringify({ shortcode: P.p3!.code, first: 12 }) }),
    body: json(INCORRECT_QUERY),
    comment: 'the legacy comment feed refused the same way',
  },
]);

har('error-feedback-required.har', [
  {
    url: q(`${WWW}/graphql/query/`, { query_hash: OPS_DEFAULTS.query_hash_tagged!, variables: JSON.stringify({ id: USER_ID, first: 12 }) }),
    status: 400,
    body: json({ message: 'feedback_required', spam: true, feedback_title: 'Try Again Later', feedback_message: 'We limit how often you can do certain things on Instagram to protect our community. Tell us if you think we made a mistake.', feedback_url: '', feedback_action: 'report_problem', feedback_appeal_label: 'Let us know', restriction_enrollment_data: '', status: 'fail' }),
    comment: 'a throttled feed: feedback_required "Try Again Later" (the answer quoted in gallery-dl #7202)',
  },
]);

har('error-checkpoint-redirect.har', [
  {
    url: `${I}/api/v1/users/52418700003/info/`,
    status: 302,
    mime: HTML_TYPE,
    headers: [{ name: 'Location', value: `${WWW}/challenge/?next=/api/v1/users/52418700003/info/` }],
    body: '',
    comment: "a logged-in request sent to a checkpoint (gallery-dl: redirect to the challenge page)",
  },
]);
