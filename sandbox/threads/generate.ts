// Writes the hand-made threads sandbox recordings next to this file: node --import tsx sandbox/threads/generate.ts
//
// Nothing here was recorded. The 2026 www.threads.com shapes follow what FxEmbed reads from them
// (providers/threads/{client,processor,conversation,profile}.ts@85ba21c6e4: data.data.edges[].node.thread_items,
// page_info, data.mediaData.edges, data.user, text_post_app_info.text_fragments) and the post records of the
// real 2023 recordings in ../shared/fixtures/threads; the app's search answers follow FxEmbed's
// private-processor.ts (rows under `media`, page_token, rank_token); the page and bundle follow the measured
// module shape in Casberi's Threads self-test (2026). Every account, post, token and URL here is invented.
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { variablesText } from '../../src/platforms/threads/api.js';
import { OPS_DEFAULTS, type OperationName } from '../../src/platforms/threads/ops.js';
import { pkToCode } from '../../src/platforms/threads/refs.js';

const OUT = dirname(fileURLToPath(import.meta.url));
const HAND = 'hand-made sandbox recording: ';
const STARTED = '2026-09-14T10:00:00.000Z';

type Header = { name: string; value: string };
interface Ex {
  method?: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
  status?: number;
  headers?: Header[];
  mime?: string;
  body: unknown;
  comment: string;
}

const JSON_MIME = 'application/json; charset=utf-8';

function har(entries: Ex[]): string {
  return `${JSON.stringify(
    {
      log: {
        version: '1.2',
        creator: { name: 'hand-made (threads adapter sandbox)', version: '1' },
        entries: entries.map((e) => {
          const u = new URL(e.url);
          const mime = e.mime ?? JSON_MIME;
          const text = typeof e.body === 'string' ? e.body : JSON.stringify(e.body);
          const body = e.form ? new URLSearchParams(e.form).toString() : undefined;
          return {
            startedDateTime: STARTED,
            time: 0,
            comment: `${HAND}${e.comment}`,
            request: {
              method: e.method ?? 'GET',
              url: e.url,
              httpVersion: 'HTTP/1.1',
              headers: body ? [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }] : [],
              queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
              cookies: [],
              headersSize: -1,
              bodySize: body ? body.length : 0,
              ...(body ? { postData: { mimeType: 'application/x-www-form-urlencoded', text: body } } : {}),
            },
            response: {
              status: e.status ?? 200,
              statusText: e.status && e.status !== 200 ? String(e.status) : 'OK',
              httpVersion: 'HTTP/1.1',
              headers: [{ name: 'Content-Type', value: mime }, ...(e.headers ?? [])],
              cookies: [],
              content: { size: Buffer.byteLength(text), mimeType: mime, text },
              redirectURL: '',
              headersSize: -1,
              bodySize: -1,
            },
          };
        }),
      },
    },
    null,
    2,
  )}\n`;
}

const write = (name: string, entries: Ex[]): void => writeFileSync(`${OUT}/${name}`, har(entries));

// ---------------------------------------------------------------------------------------------
// Invented people and posts.

const HARBOR = { pk: '63100000001', username: 'harbor.lights', full_name: 'Harbor Lights' };
const TIDE = { pk: '63100000002', username: 'tidepool.notes', full_name: 'Tidepool Notes' };
const PIER = { pk: '63100000003', username: 'north.pier', full_name: '' };

const pic = (n: string) => `https://scontent-lax3-1.cdninstagram.com/v/t51.2885-19/${n}_n.jpg?stp=dst-jpg_s150x150&_nc_ht=scontent-lax3-1.cdninstagram.com&oh=00_Sandbox&oe=6A1F0000`;
const userRec = (u: typeof HARBOR, verified = false) => ({ pk: u.pk, id: u.pk, username: u.username, full_name: u.full_name, profile_pic_url: pic(`4700${u.pk}`), is_verified: verified });

const image = (name: string, w: number, h: number) => ({
  candidates: [
    { url: `https://scontent-lax3-1.cdninstagram.com/v/t51.2885-15/${name}_n.jpg?stp=dst-jpg_e35_s640x640&_nc_ht=scontent-lax3-1.cdninstagram.com&oh=00_Sandbox&oe=6A1F0000`, width: 640, height: Math.round((640 * h) / w) },
    { url: `https://scontent-lax3-1.cdninstagram.com/v/t51.2885-15/${name}_n.jpg?stp=dst-jpg_e35&_nc_ht=scontent-lax3-1.cdninstagram.com&oh=00_Sandbox&oe=6A1F0000`, width: w, height: h },
  ],
});
const video = (name: string, w: number, h: number) => [
  { type: 101, url: `https://instagram.flax3-2.fna.fbcdn.net/o1/v/t16/f2/m86/${name}.mp4?efg=sandbox&_nc_ht=instagram.flax3-2.fna.fbcdn.net&oh=00_Sandbox&oe=6A1F0000`, width: w, height: h },
  { type: 102, url: `https://instagram.flax3-2.fna.fbcdn.net/o1/v/t16/f2/m86/${name}_low.mp4?efg=sandbox&oe=6A1F0000`, width: Math.round(w / 2), height: Math.round(h / 2) },
];

interface PostSpec {
  pk: string;
  user: typeof HARBOR;
  text: string;
  taken_at: number;
  likes: number;
  replies: number;
  reposts?: number;
  media?: 'image' | 'video' | 'carousel';
}

function post(s: PostSpec) {
  const base = {
    pk: s.pk,
    id: `${s.pk}_${s.user.pk}`,
    code: pkToCode(s.pk),
    user: userRec(s.user, s.user === HARBOR),
    taken_at: s.taken_at,
    like_count: s.likes,
    caption: { text: s.text },
    text_post_app_info: {
      direct_reply_count: s.replies,
      repost_count: s.reposts ?? 0,
      quote_count: 0,
      is_post_unavailable: false,
      reply_to_author: null,
      share_info: { quoted_post: null, reposted_post: null },
      link_preview_attachment: null,
      text_fragments: { fragments: [{ fragment_type: 'plaintext', plaintext: s.text, mention_fragment: null, link_fragment: null }] },
    },
    original_width: 612,
    original_height: 612,
    image_versions2: { candidates: [] as unknown[] },
    video_versions: [] as unknown[],
    carousel_media: null as unknown,
    media_type: 19,
    has_audio: null as boolean | null,
    like_and_view_counts_disabled: false,
  };
  if (s.media === 'image') Object.assign(base, { media_type: 1, original_width: 1440, original_height: 1800, image_versions2: image(`img${s.pk}`, 1440, 1800) });
  if (s.media === 'video') Object.assign(base, { media_type: 2, original_width: 1080, original_height: 1920, image_versions2: image(`cover${s.pk}`, 1080, 1920), video_versions: video(`vid${s.pk}`, 1080, 1920), has_audio: true, video_duration: 14.6 });
  if (s.media === 'carousel') {
    Object.assign(base, {
      media_type: 8,
      original_width: 1080,
      original_height: 1350,
      carousel_media: [
        { pk: `${s.pk}1`, original_width: 1080, original_height: 1350, image_versions2: image(`slide1${s.pk}`, 1080, 1350), video_versions: null },
        { pk: `${s.pk}2`, original_width: 720, original_height: 1280, image_versions2: image(`slide2cover${s.pk}`, 720, 1280), video_versions: video(`slide2${s.pk}`, 720, 1280), video_duration: 8.2 },
      ],
    });
  }
  return base;
}

const thread = (posts: ReturnType<typeof post>[], cursor?: string) => ({
  node: { __typename: 'XDTThread', id: posts[0]!.pk, thread_type: 'thread', thread_items: posts.map((p, i) => ({ __typename: 'XDTThreadItem', post: p, line_type: i < posts.length - 1 ? 'line' : 'none' })) },
  cursor: cursor ?? `QVFE${posts[0]!.pk.slice(-6)}sandbox`,
  __typename: 'XDTThreadEdge',
});

function gql(name: OperationName, variables: Record<string, unknown>) {
  const op = OPS_DEFAULTS[name] as { doc_id: string; providers?: Record<string, boolean>; url?: string };
  return {
    method: 'POST' as const,
    url: op.url ?? OPS_DEFAULTS.web.url,
    form: {
      lsd: 'AVqSandboxLsdToken01',
      fb_api_caller_class: 'RelayModern',
      fb_api_req_friendly_name: name,
      variables: variablesText(variables, op.providers, false),
      server_timestamps: 'true',
      doc_id: op.doc_id,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The page: session tokens for every web query, and the bundles `platforms refresh` reads.

const BUNDLE_A = 'https://static.cdninstagram.com/rsrc.php/v4/yQ/r/SandboxBundleA.js';
const BUNDLE_B = 'https://static.cdninstagram.com/rsrc.php/v4iG/yB/l/en_US-j/SandboxBundleB.js';
const BUNDLE_C = 'https://static.cdninstagram.com/rsrc.php/v4/yx/r/SandboxBundleC.js';
const HOME = `<!DOCTYPE html><html lang="en"><head><title>Threads</title>
<link rel="preload" href="${BUNDLE_A}" as="script" crossorigin="anonymous">
<script src="${BUNDLE_A}" async crossorigin="anonymous"></script>
</head><body>
<script type="application/json" data-sjs>{"require":[["ScheduledServerJS","handle",null,[{"__bbox":{"define":[["LSD",[],{"token":"AVqSandboxLsdToken01"},323],["SiteData",[],{"server_revision":1029000000},317]]}}]]]}</script>
<script type="application/json" data-sjs>{"rsrcMap":{"SndbxB1":{"type":"js","src":"${BUNDLE_B.replace(/\//g, '\\/')}"}}}</script>
</body></html>`;
const PROFILE_PAGE = `<!DOCTYPE html><html lang="en"><head><title>Threads (@threads)</title>
<script src="${BUNDLE_A}" async></script><script src="${BUNDLE_C}" async></script>
</head><body><script type="application/json" data-sjs>{"props":{"user_id":"63000000000"}}</script></body></html>`;

write('session-page.har', [
  {
    url: 'https://www.threads.com/',
    mime: 'text/html; charset="utf-8"',
    headers: [
      { name: 'Set-Cookie', value: 'csrftoken=SandboxCsrfToken01; Domain=.threads.com; Path=/; Secure; SameSite=Lax' },
      { name: 'Set-Cookie', value: 'mid=ZSandboxMid01; Domain=.threads.com; Path=/; Secure; HttpOnly' },
      { name: 'Set-Cookie', value: 'ig_did=SANDBOX-IGDID-01; Domain=.threads.com; Path=/; Secure; HttpOnly' },
    ],
    body: HOME,
    comment: 'the logged-out home page: LSD token in its bootstrap JSON, csrftoken/mid/ig_did cookies, bundles as script tags and in a resource map (escaped slashes)',
  },
]);

const fresh = { post: '36120000000000001', hover: '27120000000000002', profile: '28120000000000003', tab: '29120000000000004' };
const gqlModule = (name: string, providers: string[]) => `__d("${name}.graphql",["${name}_threadsRelayOperation",${providers.map((p) => `"${p}"`).join(',')}],(function(a,b,c,d,e,f){e.exports={kind:"PreloadableConcreteRequest",params:{id:b("${name}_threadsRelayOperation"),name:"${name}",operationKind:"query"}}}),null);`;
const opModule = (name: string, id: string, site = 'threads') => `__d("${name}_${site}RelayOperation",[],(function(t,n,r,o,a,i){a.exports="${id}"}),null);`;
write('refresh-pages-and-bundles.har', [
  { url: 'https://www.threads.com/@threads', mime: 'text/html; charset="utf-8"', body: PROFILE_PAGE, comment: 'a profile page listing two bundles, one of them also on the home page' },
  {
    url: BUNDLE_A,
    mime: 'application/javascript; charset=utf-8',
    body: [
      '/*FB_PKG_DELIM*/',
      opModule('BarcelonaPostPageDirectQuery', '99999999999999999', 'facebook'),
      opModule('BarcelonaPostPageDirectQuery', fresh.post),
      gqlModule('BarcelonaPostPageDirectQuery', Object.keys(OPS_DEFAULTS.BarcelonaPostPageDirectQuery.providers).concat('BarcelonaHasSandboxNewFlagrelayprovider')),
      opModule('BarcelonaUsernameHovercardImplDirectQuery', fresh.hover),
      gqlModule('BarcelonaUsernameHovercardImplDirectQuery', Object.keys(OPS_DEFAULTS.BarcelonaUsernameHovercardImplDirectQuery.providers)),
    ].join('\n'),
    comment: 'a bundle with the post page and hovercard operations, a facebook.com module of the same query name (another site, not taken) and the queries\' provider lists',
  },
  {
    url: BUNDLE_B,
    mime: 'application/javascript; charset=utf-8',
    body: [opModule('BarcelonaProfilePageDirectQuery', fresh.profile), gqlModule('BarcelonaProfilePageDirectQuery', Object.keys(OPS_DEFAULTS.BarcelonaProfilePageDirectQuery.providers))].join('\n'),
    comment: 'the bundle the home page names only in its resource map',
  },
  {
    url: BUNDLE_C,
    mime: 'application/javascript; charset=utf-8',
    body: [opModule('BarcelonaProfileThreadsTabRefetchableDirectQuery', fresh.tab), gqlModule('BarcelonaProfileThreadsTabRefetchableDirectQuery', Object.keys(OPS_DEFAULTS.BarcelonaProfileThreadsTabRefetchableDirectQuery.providers))].join('\n'),
    comment: 'the profile page\'s bundle with the threads tab operation',
  },
]);

// ---------------------------------------------------------------------------------------------
// A post, its replies (two pages), one reply's own replies.

const FOCAL = post({ pk: '3712000000000000001', user: HARBOR, text: 'Low tide this morning: the whole reef was out.', taken_at: 1789380000, likes: 5120, replies: 48, reposts: 37, media: 'carousel' });
const FOLLOWUP = post({ pk: '3712000000000000002', user: HARBOR, text: 'More from the north end later today.', taken_at: 1789380300, likes: 640, replies: 3 });
const R1 = post({ pk: '3712000000000000101', user: TIDE, text: 'Those anemones!', taken_at: 1789381000, likes: 88, replies: 2 });
const R1A = post({ pk: '3712000000000000102', user: HARBOR, text: 'Right by the second pool.', taken_at: 1789381200, likes: 21, replies: 1 });
const R1B = post({ pk: '3712000000000000103', user: TIDE, text: 'Going tomorrow.', taken_at: 1789381500, likes: 4, replies: 0 });
const R2 = post({ pk: '3712000000000000201', user: PIER, text: 'What time was low water?', taken_at: 1789382000, likes: 12, replies: 1 });
const R3 = post({ pk: '3712000000000000301', user: TIDE, text: 'Saved for the weekend.', taken_at: 1789390000, likes: 3, replies: 0 });
const REPLY_CURSOR = 'QVFIUmSandboxRepliesPage2';
const postVars = (pk: string, extra: Record<string, unknown> = {}) => ({ postID: pk, sort_order: 'TOP', ...extra });

write(`detail-post-page-${FOCAL.pk}.har`, [
  {
    ...gql('BarcelonaPostPageDirectQuery', postVars(FOCAL.pk)),
    body: {
      data: { data: { edges: [thread([FOCAL, FOLLOWUP]), thread([R1, R1A, R1B]), thread([R2])], page_info: { has_next_page: true, end_cursor: REPLY_CURSOR } } },
      extensions: { is_final: true },
    },
    comment: 'BarcelonaPostPageDirectQuery: the focal thread (a carousel of an image and a video, then the author\'s follow-up) and the first reply threads, with a next page',
  },
]);
write(`comments-post-page-${FOCAL.pk}-page2.har`, [
  {
    ...gql('BarcelonaPostPageDirectQuery', postVars(FOCAL.pk, { after: REPLY_CURSOR, first: 20 })),
    body: { data: { data: { edges: [thread([R3])], page_info: { has_next_page: false, end_cursor: null } } }, extensions: { is_final: true } },
    comment: 'BarcelonaPostPageDirectQuery with after: the last reply thread, no further page',
  },
]);
const R1_REPLY = post({ pk: '3712000000000000104', user: PIER, text: 'Which pool is the second one?', taken_at: 1789381700, likes: 1, replies: 0 });
write(`comments-replies-of-${R1.pk}.har`, [
  {
    ...gql('BarcelonaPostPageDirectQuery', postVars(R1.pk, { first: 20 })),
    body: { data: { data: { edges: [thread([FOCAL, R1]), thread([R1_REPLY])], page_info: { has_next_page: false, end_cursor: null } } }, extensions: { is_final: true } },
    comment: "BarcelonaPostPageDirectQuery for a reply: its thread (the post it answers, then it), then its own replies",
  },
]);

// ---------------------------------------------------------------------------------------------
// A profile: hovercard (handle → id), profile page, threads tab (two pages).

const HOVER_USER = { ...userRec(HARBOR, true), follower_count: 48210, text_post_app_is_private: false };
write(`user-hovercard-${HARBOR.username}.har`, [
  {
    ...gql('BarcelonaUsernameHovercardImplDirectQuery', { username: HARBOR.username }),
    body: { data: { user: HOVER_USER }, extensions: { is_final: true } },
    comment: 'BarcelonaUsernameHovercardImplDirectQuery: the handle\'s user (xdt_text_app_user_by_username)',
  },
]);
write(`user-profile-page-${HARBOR.pk}.har`, [
  {
    ...gql('BarcelonaProfilePageDirectQuery', { canSeeFeedsTab: true, userID: HARBOR.pk }),
    body: {
      data: {
        user: {
          ...HOVER_USER,
          biography: '',
          text_app_biography: { text_fragments: { fragments: [{ fragment_type: 'plaintext', plaintext: 'Tide pools, piers and the odd storm. ' }, { fragment_type: 'mention', plaintext: '@tidepool.notes', mention_fragment: { mentioned_user: { username: 'tidepool.notes', id: TIDE.pk } } }] } },
          hd_profile_pic_versions: [
            { width: 320, height: 320, url: pic(`4700${HARBOR.pk}_s320`) },
            { width: 640, height: 640, url: pic(`4700${HARBOR.pk}_s640`) },
          ],
          bio_links: [{ url: 'https://harbor-lights.example/' }],
        },
      },
      extensions: { is_final: true },
    },
    comment: 'BarcelonaProfilePageDirectQuery: the user (xdt_text_app_user) with its text_app_biography fragments and HD avatars',
  },
]);
const P1 = post({ pk: '3712000000000001001', user: HARBOR, text: 'Fog rolling over the breakwater.', taken_at: 1789300000, likes: 910, replies: 12, media: 'video' });
const P2 = post({ pk: '3712000000000001002', user: HARBOR, text: 'Storm count: three this week.', taken_at: 1789200000, likes: 402, replies: 30, reposts: 5 });
const P2B = post({ pk: '3712000000000001003', user: HARBOR, text: 'And a fourth on the way.', taken_at: 1789200100, likes: 120, replies: 2 });
const P3 = post({ pk: '3712000000000001004', user: HARBOR, text: 'The old lighthouse lens, up close.', taken_at: 1789100000, likes: 2200, replies: 41, media: 'image' });
const TAB_CURSOR = 'QVFIUmSandboxTabPage2';
const tabVars = (after: string | null) => ({ after, allow_page_info_for_lox_user: true, before: null, first: 20, last: null, userID: HARBOR.pk });
write(`posts-threads-tab-${HARBOR.pk}.har`, [
  {
    ...gql('BarcelonaProfileThreadsTabRefetchableDirectQuery', tabVars(null)),
    body: { data: { mediaData: { edges: [thread([P1]), thread([P2, P2B])], page_info: { has_next_page: true, end_cursor: TAB_CURSOR } } }, extensions: { is_final: true } },
    comment: 'BarcelonaProfileThreadsTabRefetchableDirectQuery: a video post and a self-thread of two, with a next page',
  },
  {
    ...gql('BarcelonaProfileThreadsTabRefetchableDirectQuery', tabVars(TAB_CURSOR)),
    body: { data: { mediaData: { edges: [thread([P3])], page_info: { has_next_page: false, end_cursor: null } } }, extensions: { is_final: true } },
    comment: 'BarcelonaProfileThreadsTabRefetchableDirectQuery with after: the last page (an image post)',
  },
]);

// ---------------------------------------------------------------------------------------------
// Search with a login (the app's private API), and the login probe.

const APP = OPS_DEFAULTS.app.url;
const S1 = post({ pk: '3712000000000002001', user: TIDE, text: 'Tide pool etiquette, a short thread.', taken_at: 1789000000, likes: 301, replies: 9, media: 'image' });
const S2 = post({ pk: '3712000000000002002', user: PIER, text: 'Best tide pools north of the pier?', taken_at: 1788990000, likes: 17, replies: 22 });
const S3 = post({ pk: '3712000000000002003', user: HARBOR, text: 'Tide pool season is open.', taken_at: 1788980000, likes: 1500, replies: 60 });
const searchUrl = (extra: string) => `${APP}/fbsearch/text_app/serp/?query=tide%20pools&search_surface=ig_text_search_serp_top&recent=0&is_from_pull_to_refresh=0${extra}`;
write('search-posts-tide-pools.har', [
  {
    url: searchUrl(''),
    body: { media: [{ thread_items: [{ post: S1 }] }, S2], page_token: 'SandboxSerpToken2', rank_token: '6f1c2d3e-sandbox-rank', has_more: true, status: 'ok' },
    comment: 'fbsearch/text_app/serp/ (top): rows under media, a thread and a bare post, page_token and rank_token for the next page',
  },
  {
    url: searchUrl('&page_token=SandboxSerpToken2&page_num=1&rank_token=6f1c2d3e-sandbox-rank'),
    body: { media: [{ thread_items: [{ post: S3 }] }], has_more: false, rank_token: '6f1c2d3e-sandbox-rank', status: 'ok' },
    comment: 'fbsearch/text_app/serp/ second page: has_more false ends it',
  },
]);
write('search-users-harbor.har', [
  {
    url: `${APP}/users/search/?q=harbor&search_surface=user_search_page`,
    body: {
      num_results: 2,
      users: [
        { ...userRec(HARBOR, true), pk: Number(HARBOR.pk), pk_id: HARBOR.pk, follower_count: 48210, has_onboarded_to_text_post_app: true, is_private: false },
        { pk: 63100000009, pk_id: '63100000009', username: 'harbor.instagram.only', full_name: 'Only On Instagram', has_onboarded_to_text_post_app: false, is_verified: false, profile_pic_url: pic('4700999') },
      ],
      has_more: false,
      rank_token: 'a1b2c3d4-sandbox',
      status: 'ok',
    },
    comment: 'users/search/ (the Instagram-wide index): a Threads account and an Instagram-only one',
  },
]);
write('probe-current-user.har', [
  {
    url: `${APP}/accounts/current_user/?edit=true`,
    body: { user: { pk: 63100000007, pk_id: '63100000007', username: 'sandbox.viewer', full_name: 'Sandbox Viewer' }, status: 'ok' },
    comment: 'accounts/current_user/ of a live login',
  },
]);

// ---------------------------------------------------------------------------------------------
// What Threads answers when it will not: each for its own post or user, so none shadows another.

write('error-stale-doc-id.har', [
  {
    ...gql('BarcelonaPostPageDirectQuery', postVars('3712000000000009001')),
    body: { errors: [{ message: `The GraphQL document with ID ${OPS_DEFAULTS.BarcelonaPostPageDirectQuery.doc_id} was not found.`, severity: 'CRITICAL' }], extensions: { is_final: true } },
    comment: 'an unknown doc_id (the answer shape measured in 2026 by Casberi\'s Threads self-test)',
  },
]);
write('error-token-refused.har', [
  {
    ...gql('BarcelonaPostPageDirectQuery', postVars('3712000000000009002')),
    mime: 'text/html; charset="utf-8"',
    body: '<!DOCTYPE html><html class="_9dls" lang="en"><head><title>Threads</title></head><body></body></html>',
    comment: 'a page in place of JSON: the session\'s lsd/csrftoken were refused (measured behaviour, Casberi self-test)',
  },
]);
write('error-rate-limited.har', [
  {
    ...gql('BarcelonaPostPageDirectQuery', postVars('3712000000000009003')),
    status: 429,
    body: { errors: [{ message: 'Rate limit exceeded', severity: 'CRITICAL', code: 1675004 }], extensions: { is_final: true } },
    comment: 'HTTP 429 from the web GraphQL',
  },
]);
write('error-post-not-found.har', [
  {
    ...gql('BarcelonaPostPageDirectQuery', postVars('3712000000000009004')),
    body: { data: { data: { edges: [], page_info: { has_next_page: false, end_cursor: null } } }, extensions: { is_final: true } },
    comment: 'a deleted post: no edges (FxEmbed reads this as 404)',
  },
]);
write('error-user-not-found.har', [
  {
    ...gql('BarcelonaUsernameHovercardImplDirectQuery', { username: 'no.such.sandbox.user' }),
    body: { data: { user: null }, extensions: { is_final: true } },
    comment: 'an unknown handle: data.user null',
  },
]);
write('error-app-login-required.har', [
  {
    url: `${APP}/text_feed/63100000005/profile/?count=15`,
    status: 403,
    body: { message: 'login_required', logout_reason: 2, status: 'fail' },
    comment: 'the private API with a login it no longer knows (instagrapi maps 403 login_required to LoginRequired)',
  },
]);
write('error-app-please-wait.har', [
  {
    url: `${APP}/users/search/?q=wait&search_surface=user_search_page`,
    status: 429,
    body: { message: 'Please wait a few minutes before you try again.', require_login: true, status: 'fail' },
    comment: 'the throttle answer (pgrimaud issue #375; instagrapi PleaseWaitFewMinutes)',
  },
]);
write('error-app-checkpoint.har', [
  {
    url: `${APP}/users/search/?q=checkpoint&search_surface=user_search_page`,
    status: 400,
    body: { message: 'checkpoint_required', checkpoint_url: 'https://www.instagram.com/challenge/?next=/api/v1/users/search/', lock: true, status: 'fail' },
    comment: 'a checkpoint (instagrapi private.py: challenge/checkpoint answers are HTTP 400)',
  },
]);

process.stdout.write(`wrote the threads sandbox to ${OUT}\n`);
