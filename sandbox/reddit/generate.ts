// Writes the hand-made reddit sandbox recordings next to this file: node --import tsx sandbox/reddit/generate.ts
//
// Shapes follow the real answers in ../shared/fixtures/reddit (Listing / t3 / t1 / t2 / more, json.errors,
// x-ratelimit-* headers, the share-link 301) and reddit's documented anonymous www.reddit.com/<path>.json
// twins of the OAuth endpoints. The communities' posts, people and numbers are invented.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHar } from '../har-writer.js';

const OUT = dirname(fileURLToPath(import.meta.url));
const WWW = 'https://www.reddit.com';
const OAUTH = 'https://oauth.reddit.com';
const STARTED = '2026-04-20T09:00:00.000Z';

type Header = { name: string; value: string };
interface Exchange {
  method?: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
  status?: number;
  statusText?: string;
  headers?: Header[];
  mime?: string;
  body: string;
  comment: string;
}

const json = (v: unknown): string => JSON.stringify(v);
const budget = (remaining = '596.0', reset = '412', used = '4'): Header[] => [
  { name: 'x-ratelimit-remaining', value: remaining },
  { name: 'x-ratelimit-reset', value: reset },
  { name: 'x-ratelimit-used', value: used },
];
const JSON_TYPE = 'application/json; charset=UTF-8';

function har(file: string, entries: Exchange[]): void {
  writeHar({
    dir: OUT,
    file,
    creator: 'hand-made (reddit adapter sandbox)',
    started: STARTED,
    responseHeaders: [{ name: 'Date', value: 'Mon, 20 Apr 2026 09:00:00 GMT' }],
    entries: entries.map((e) => {
      const form = e.form ? new URLSearchParams(e.form).toString() : undefined;
      return {
        ...e,
        mime: e.mime ?? JSON_TYPE,
        requestHeaders: form ? [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }] : [],
        post: form ? { mimeType: 'application/x-www-form-urlencoded', text: form } : undefined,
      };
    }),
  });
}

const q = (base: string, params: Record<string, string>): string => `${base}?${new URLSearchParams(params).toString()}`;

// ---- things -----------------------------------------------------------------------------------------

const SUB = { name: 'MechanicalKeyboards', id: 't5_2ugo7', subscribers: 1_412_337 };
const slug = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, '')
    .trim()
    .split(/\s+/)
    .slice(0, 8)
    .join('_');

interface Picture {
  base: string;
  w: number;
  h: number;
  host?: string;
}

/** preview.images[0] as reddit lists it: the source plus 108/216/320/640/960/1080 renditions that fit. */
function preview(p: Picture, sig: string) {
  const host = p.host ?? 'preview.redd.it';
  const widths = [108, 216, 320, 640, 960, 1080].filter((w) => w < p.w);
  return {
    images: [
      {
        source: { url: `https://${host}/${p.base}?auto=webp&s=${sig}0`, width: p.w, height: p.h },
        resolutions: widths.map((w, i) => ({ url: `https://${host}/${p.base}?width=${w}&crop=smart&auto=webp&s=${sig}${i + 1}`, width: w, height: Math.round((p.h * w) / p.w) })),
        variants: {},
        id: p.base.replace(/\..*$/, ''),
      },
    ],
    enabled: false,
  };
}

interface PostSpec {
  id: string;
  title: string;
  author: string;
  authorId: string;
  created: number;
  score: number;
  comments: number;
  crossposts?: number;
  sub?: typeof SUB;
  selftext?: string;
  url?: string;
  domain?: string;
  hint?: string;
  preview?: ReturnType<typeof preview>;
  video?: { id: string; w: number; h: number; duration: number };
  gallery?: Array<{ media: string; w: number; h: number; ext: string }>;
  thumbnail?: string;
  crosspostOf?: ReturnType<typeof post>;
}

function post(s: PostSpec) {
  const sub = s.sub ?? SUB;
  const permalink = `/r/${sub.name}/comments/${s.id}/${slug(s.title)}/`;
  const isSelf = !s.url && !s.video && !s.gallery && !s.crosspostOf;
  const url = s.video ? `https://v.redd.it/${s.video.id}` : s.gallery ? `${WWW}/gallery/${s.id}` : s.crosspostOf ? s.crosspostOf.permalink : (s.url ?? `${WWW}${permalink}`);
  const reddit_video = s.video
    ? {
        bitrate_kbps: 2400,
        fallback_url: `https://v.redd.it/${s.video.id}/CMAF_720.mp4?source=fallback`,
        has_audio: true,
        height: s.video.h,
        width: s.video.w,
        scrubber_media_url: `https://v.redd.it/${s.video.id}/CMAF_96.mp4`,
        dash_url: `https://v.redd.it/${s.video.id}/DASHPlaylist.mpd?a=1779267600%2CZmFrZQ%3D%3D&v=1&f=sd`,
        duration: s.video.duration,
        hls_url: `https://v.redd.it/${s.video.id}/HLSPlaylist.m3u8?a=1779267600%2CZmFrZQ%3D%3D&v=1&f=sd`,
        is_gif: false,
        transcoding_status: 'completed',
      }
    : undefined;
  const media_metadata = s.gallery
    ? Object.fromEntries(
        s.gallery.map((g, i) => [
          g.media,
          {
            status: 'valid',
            e: 'Image',
            m: `image/${g.ext === 'jpg' ? 'jpg' : g.ext}`,
            p: [108, 216, 320, 640, 960]
              .filter((w) => w < g.w)
              .map((w, j) => ({ y: Math.round((g.h * w) / g.w), x: w, u: `https://preview.redd.it/${g.media}.${g.ext}?width=${w}&crop=smart&auto=webp&s=g${i}${j}` })),
            s: { y: g.h, x: g.w, u: `https://preview.redd.it/${g.media}.${g.ext}?width=${g.w}&format=pjpg&auto=webp&s=g${i}s` },
            id: g.media,
          },
        ]),
      )
    : null;
  return {
    approved_at_utc: null,
    subreddit: sub.name,
    selftext: s.selftext ?? '',
    author_fullname: s.authorId,
    saved: false,
    gilded: 0,
    clicked: false,
    title: s.title,
    link_flair_richtext: [],
    subreddit_name_prefixed: `r/${sub.name}`,
    hidden: false,
    pwls: 6,
    downs: 0,
    thumbnail_height: s.thumbnail ? 105 : null,
    hide_score: false,
    name: `t3_${s.id}`,
    quarantine: false,
    upvote_ratio: 0.97,
    ups: s.score,
    total_awards_received: 0,
    media_embed: {},
    thumbnail_width: s.thumbnail ? 140 : null,
    is_original_content: false,
    user_reports: [],
    secure_media: reddit_video ? { reddit_video } : null,
    is_reddit_media_domain: Boolean(s.video || s.hint === 'image'),
    is_meta: false,
    secure_media_embed: {},
    score: s.score,
    approved_by: null,
    thumbnail: s.thumbnail ?? (isSelf ? 'self' : 'default'),
    edited: false,
    gildings: {},
    ...(s.hint ? { post_hint: s.hint } : {}),
    is_self: isSelf,
    subreddit_type: 'public',
    created: s.created,
    link_flair_type: 'text',
    wls: 6,
    removed_by_category: null,
    author_flair_type: 'text',
    domain: s.domain ?? (isSelf ? `self.${sub.name}` : new URL(url, WWW).hostname.replace(/^www\./, '')),
    allow_live_comments: false,
    selftext_html: s.selftext ? `<!-- SC_OFF --><div class="md"><p>${s.selftext.split('\n\n')[0]}</p>\n</div><!-- SC_ON -->` : null,
    likes: null,
    suggested_sort: null,
    ...(s.url || s.video || s.gallery ? { url_overridden_by_dest: url } : {}),
    view_count: null,
    archived: false,
    no_follow: false,
    is_crosspostable: true,
    pinned: false,
    over_18: false,
    ...(s.preview ? { preview: s.preview } : {}),
    ...(s.gallery ? { is_gallery: true, media_metadata, gallery_data: { items: s.gallery.map((g, i) => ({ media_id: g.media, id: 470_000_100 + i })) } } : {}),
    ...(s.crosspostOf ? { crosspost_parent_list: [s.crosspostOf], crosspost_parent: s.crosspostOf.name } : {}),
    all_awardings: [],
    awarders: [],
    media_only: false,
    can_gild: false,
    spoiler: false,
    locked: false,
    treatment_tags: [],
    visited: false,
    distinguished: null,
    subreddit_id: sub.id,
    author_is_blocked: false,
    id: s.id,
    is_robot_indexable: true,
    author: s.author,
    num_comments: s.comments,
    send_replies: true,
    contest_mode: false,
    mod_reports: [],
    author_patreon_flair: false,
    permalink,
    stickied: false,
    url,
    subreddit_subscribers: sub.subscribers,
    created_utc: s.created,
    num_crossposts: s.crossposts ?? 0,
    media: reddit_video ? { reddit_video } : null,
    is_video: Boolean(s.video),
  };
}

const VIDEO = post({
  id: '1kq7v2a',
  title: 'Lubing 90 linear switches in one sitting (timelapse)',
  author: 'keebsmith',
  authorId: 't2_8f3k2x1q',
  created: 1776590400,
  score: 4821,
  comments: 312,
  crossposts: 2,
  hint: 'hosted:video',
  video: { id: '7x2kq9r1v3wf1', w: 1280, h: 720, duration: 58 },
  preview: preview({ base: 'N2x2a3E5cjF2M3dmMQ.png', w: 1280, h: 720, host: 'external-preview.redd.it' }, 'v'),
  thumbnail: 'https://external-preview.redd.it/N2x2a3E5cjF2M3dmMQ.png?width=140&height=78&crop=140:78,smart&format=jpg&auto=webp&s=vt',
});
const GALLERY = post({
  id: '1kq6m0c',
  title: 'Finished my first 65% build: brass plate, tactile switches',
  author: 'switch_sommelier',
  authorId: 't2_4qz7n2m0',
  created: 1776583200,
  score: 2210,
  comments: 148,
  gallery: [
    { media: 'a8c2k4m6p1wf1', w: 4000, h: 3000, ext: 'jpg' },
    { media: 'b9d3l5n7q2wf1', w: 3000, h: 4000, ext: 'jpg' },
    { media: 'c1e4m6o8r3wf1', w: 2048, h: 2048, ext: 'png' },
  ],
  selftext: 'Parts list in the comments. Took me a weekend and two burnt fingers.',
  thumbnail: 'https://preview.redd.it/a8c2k4m6p1wf1.jpg?width=140&height=105&crop=140:105,smart&auto=webp&s=gt',
});
const IMAGE = post({
  id: '1kq5z9d',
  title: 'Desk setup after the move, finally',
  author: 'keebsmith',
  authorId: 't2_8f3k2x1q',
  created: 1776576000,
  score: 1533,
  comments: 87,
  hint: 'image',
  url: 'https://i.redd.it/h3k9f2m1x8wf1.jpeg',
  preview: preview({ base: 'h3k9f2m1x8wf1.jpeg', w: 3024, h: 4032 }, 'i'),
  thumbnail: 'https://preview.redd.it/h3k9f2m1x8wf1.jpeg?width=140&height=140&crop=1:1,smart&auto=webp&s=it',
});
const SELF = post({
  id: '1kq4x1e',
  title: 'Linear vs tactile for long typing sessions? Looking for experiences',
  author: 'keebsmith',
  authorId: 't2_8f3k2x1q',
  created: 1776568800,
  score: 356,
  comments: 11,
  selftext:
    'I write for a living (6+ hours a day) and my wrists are not happy.\n\nHas anyone switched from linear to tactile switches (or the other way) and noticed a difference in fatigue? Spring weight recommendations welcome.',
});
const LINK = post({
  id: '1kq3w8f',
  title: 'A short history of the Model M buckling spring',
  author: 'thock_enjoyer',
  authorId: 't2_2m9r5t8w',
  created: 1776561600,
  score: 978,
  comments: 64,
  hint: 'link',
  url: 'https://keyboard-history.example.org/articles/model-m-buckling-spring',
  preview: preview({ base: 'S2V5Ym9hcmRoaXN0b3J5.jpeg', w: 1200, h: 630, host: 'external-preview.redd.it' }, 'l'),
  thumbnail: 'https://external-preview.redd.it/S2V5Ym9hcmRoaXN0b3J5.jpeg?width=140&height=73&crop=140:73,smart&auto=webp&s=lt',
});
const CROSSPOST = post({
  id: '1kq2t7g',
  title: 'Crossposting my switch lubing timelapse here too',
  author: 'keebsmith',
  authorId: 't2_8f3k2x1q',
  created: 1776594000,
  score: 412,
  comments: 23,
  sub: { name: 'oddlysatisfying', id: 't5_2x93b', subscribers: 9_102_443 },
  crosspostOf: VIDEO,
  domain: 'v.redd.it',
  thumbnail: VIDEO.thumbnail,
});

const listing = (children: Array<{ kind: string; data: unknown }>, after: string | null = null) =>
  json({ kind: 'Listing', data: { after, dist: children.length, modhash: null, geo_filter: '', children, before: null } });
const t3 = (data: unknown) => ({ kind: 't3', data });

// ---- comments ---------------------------------------------------------------------------------------

interface CommentSpec {
  id: string;
  parent: string;
  author: string;
  authorId: string;
  body: string;
  score: number;
  created: number;
  depth: number;
  replies?: Array<{ kind: string; data: unknown }>;
}

function comment(s: CommentSpec, link = SELF) {
  return {
    kind: 't1',
    data: {
      subreddit_id: SUB.id,
      approved_at_utc: null,
      author_is_blocked: false,
      edited: false,
      author_flair_type: 'text',
      total_awards_received: 0,
      subreddit: SUB.name,
      likes: null,
      replies: s.replies ? { kind: 'Listing', data: { after: null, dist: null, modhash: null, geo_filter: '', children: s.replies, before: null } } : '',
      user_reports: [],
      saved: false,
      id: s.id,
      archived: false,
      no_follow: false,
      author: s.author,
      can_mod_post: false,
      created_utc: s.created,
      send_replies: true,
      parent_id: s.parent,
      score: s.score,
      author_fullname: s.authorId,
      removal_reason: null,
      body: s.body,
      downs: 0,
      is_submitter: s.author === link.author,
      body_html: `<div class="md"><p>${s.body}</p>\n</div>`,
      gildings: {},
      stickied: false,
      score_hidden: false,
      permalink: `${link.permalink}${s.id}/`,
      subreddit_type: 'public',
      locked: false,
      name: `t1_${s.id}`,
      created: s.created,
      link_id: link.name,
      subreddit_name_prefixed: `r/${SUB.name}`,
      controversiality: 0,
      depth: s.depth,
      ups: s.score,
    },
  };
}

const more = (id: string, parent: string, children: string[], count: number, depth: number) => ({
  kind: 'more',
  data: { count, name: `t1_${id}`, id, parent_id: parent, depth, children },
});

const C = (n: number) => `lm4a${String(n).padStart(3, '0')}`;
const people = [
  ['switch_sommelier', 't2_4qz7n2m0'],
  ['lubed_linears', 't2_9x2c4v6b'],
  ['thock_enjoyer', 't2_2m9r5t8w'],
  ['keebsmith', 't2_8f3k2x1q'],
  ['ergo_or_bust', 't2_7p1o3i5u'],
] as const;
const who = (n: number) => ({ author: people[n % people.length][0], authorId: people[n % people.length][1] });

const c = (n: number, parent: string, depth: number, body: string, score: number, replies?: Array<{ kind: string; data: unknown }>) =>
  comment({ id: C(n), parent, depth, body, score, created: 1776569400 + n * 300, ...who(n), replies });

const TREE = [
  c(1, SELF.name, 0, 'Tactile with a light spring (around 55g) fixed it for me. The bump tells you the key registered, so you stop bottoming out.', 214, [
    c(2, `t1_${C(1)}`, 1, 'Same here. Bottoming out was the real problem, not the switch type.', 88, [
      c(3, `t1_${C(2)}`, 2, 'O-rings helped me before I swapped switches.', 31, [more('_', `t1_${C(3)}`, [], 0, 3)]),
    ]),
  ]),
  c(4, SELF.name, 0, 'Honestly a wrist rest and a lower board mattered more than the switches.', 97, [more(C(5), `t1_${C(4)}`, [C(5), C(6)], 3, 1)]),
  more(C(7), SELF.name, [C(7), C(8)], 2, 0),
];

const MORE_C4 = [
  c(5, `t1_${C(4)}`, 1, 'Agreed, tenting made the biggest difference for me.', 40),
  c(6, `t1_${C(4)}`, 1, 'Which wrist rest do you use?', 12),
  c(9, `t1_${C(5)}`, 2, 'Tenting plus a split board is the endgame.', 9),
];
const MORE_TOP = [c(7, SELF.name, 0, 'Try silent linears with 62g springs.', 18), c(8, SELF.name, 0, 'Typing speed went up when I moved to tactiles, fatigue stayed the same.', 7)];
const CONTINUED = [
  c(3, `t1_${C(2)}`, 2, 'O-rings helped me before I swapped switches.', 31, [
    c(10, `t1_${C(3)}`, 3, 'O-rings ruin the feel for me, but to each their own.', 6, [c(11, `t1_${C(10)}`, 4, 'Thinner ones (40A) are much better than the thick red ones.', 4)]),
  ]),
];

// ---- files ------------------------------------------------------------------------------------------

const anon = 'anonymous www.reddit.com .json twin of the OAuth listing';

har('search-mechanical-keyboard.har', [
  {
    url: q(`${WWW}/r/all/search.json`, { q: 'mechanical keyboard', sort: 'relevance', t: 'all', limit: '100', raw_json: '1' }),
    headers: budget(),
    body: listing([t3(VIDEO), t3(GALLERY), t3(IMAGE)], IMAGE.name),
    comment: `site-wide search, page 1 (${anon}); after names the last post`,
  },
  {
    url: q(`${WWW}/r/all/search.json`, { q: 'mechanical keyboard', sort: 'relevance', t: 'all', limit: '100', raw_json: '1', after: IMAGE.name }),
    headers: budget('595.0', '411', '5'),
    body: listing([t3(SELF), t3(LINK)]),
    comment: `site-wide search, page 2, the last one: after is null (${anon})`,
  },
]);

har('search-subreddit-switches.har', [
  {
    url: q(`${WWW}/r/MechanicalKeyboards/search.json`, { q: 'switches', sort: 'relevance', t: 'all', limit: '100', raw_json: '1', restrict_sr: 'true' }),
    headers: budget(),
    body: listing([t3(VIDEO), t3(SELF)]),
    comment: `search restricted to one subreddit with restrict_sr (${anon})`,
  },
]);

har('error-empty-search.har', [
  {
    url: q(`${WWW}/r/all/search.json`, { q: 'zxqv no such words anywhere', sort: 'relevance', t: 'all', limit: '100', raw_json: '1' }),
    headers: budget(),
    body: listing([]),
    comment: 'a search reddit has no results for: an empty Listing with after null, as error-empty-info-listing.har shows for /api/info',
  },
]);

har('posts-user-keebsmith.har', [
  {
    url: q(`${WWW}/user/keebsmith/submitted.json`, { sort: 'new', limit: '100', raw_json: '1' }),
    headers: budget(),
    body: listing([t3(CROSSPOST), t3(VIDEO), t3(IMAGE)], IMAGE.name),
    comment: `a user's submissions, newest first, page 1 (${anon})`,
  },
  {
    url: q(`${WWW}/user/keebsmith/submitted.json`, { sort: 'new', limit: '100', raw_json: '1', after: IMAGE.name }),
    headers: budget('595.0', '410', '5'),
    body: listing([t3(SELF)]),
    comment: `a user's submissions, page 2, the last one (${anon})`,
  },
]);

har('posts-subreddit-new.har', [
  {
    url: q(`${WWW}/r/MechanicalKeyboards/new.json`, { limit: '100', raw_json: '1' }),
    headers: budget(),
    body: listing([t3(VIDEO), t3(GALLERY), t3(IMAGE), t3(SELF), t3(LINK)]),
    comment: `a subreddit's new posts, one page (${anon})`,
  },
]);

har('hot-popular.har', [
  {
    url: q(`${WWW}/r/popular/hot.json`, { limit: '100', raw_json: '1' }),
    headers: budget(),
    body: listing([t3(VIDEO), t3(CROSSPOST), t3(GALLERY), t3(LINK), t3(IMAGE), t3(SELF)]),
    comment: `r/popular hot, one page (${anon}); the real OAuth answer is ../shared/fixtures/reddit/hot-popular.har`,
  },
]);

har('hot-all.har', [
  {
    url: q(`${WWW}/r/all/hot.json`, { limit: '100', raw_json: '1' }),
    headers: budget(),
    body: listing([t3(IMAGE), t3(VIDEO), t3(LINK)]),
    comment: `r/all hot, one page (${anon})`,
  },
]);

har('hot-mechanicalkeyboards.har', [
  {
    url: q(`${WWW}/r/MechanicalKeyboards/hot.json`, { limit: '100', raw_json: '1' }),
    headers: budget(),
    body: listing([t3(GALLERY), t3(VIDEO), t3(SELF)]),
    comment: `a community's hot listing, named by params.category or params.subreddit (${anon})`,
  },
]);

const ABOUT = {
  kind: 't2',
  data: {
    is_employee: false,
    is_friend: false,
    subreddit: {
      default_set: true,
      user_is_contributor: false,
      banner_img: '',
      user_is_banned: false,
      free_form_reports: true,
      community_icon: null,
      show_media: true,
      icon_color: '',
      display_name: 'u_keebsmith',
      header_img: null,
      title: 'Keeb Smith',
      previous_names: [],
      over_18: false,
      icon_size: [256, 256],
      icon_img: 'https://styles.redditmedia.com/t5_8k2j4m/styles/profileIcon_k3b5m7n9p1.png?width=256&height=256&crop=256:256,smart&s=ab12',
      description: '',
      subscribers: 1843,
      is_default_icon: false,
      display_name_prefixed: 'u/keebsmith',
      name: 't5_8k2j4m',
      is_default_banner: true,
      url: '/user/keebsmith/',
      quarantine: false,
      user_is_moderator: false,
      accept_followers: true,
      public_description: 'Building keyboards badly since 2019. Lube, film, repeat.',
      subreddit_type: 'user',
      user_is_subscriber: false,
    },
    snoovatar_size: null,
    awardee_karma: 120,
    id: '8f3k2x1q',
    verified: true,
    is_gold: false,
    is_mod: false,
    awarder_karma: 0,
    has_verified_email: true,
    icon_img: 'https://styles.redditmedia.com/t5_8k2j4m/styles/profileIcon_k3b5m7n9p1.png?width=256&height=256&crop=256:256,smart&s=ab12',
    hide_from_robots: false,
    link_karma: 48210,
    pref_show_snoovatar: false,
    is_blocked: false,
    total_karma: 61377,
    accept_chats: true,
    name: 'keebsmith',
    created: 1561939200,
    created_utc: 1561939200,
    snoovatar_img: '',
    comment_karma: 13047,
    accept_followers: true,
    has_subscribed: true,
    accept_pms: true,
  },
};

har('user-about-keebsmith.har', [
  { url: q(`${WWW}/user/keebsmith/about.json`, { raw_json: '1' }), headers: budget(), body: json(ABOUT), comment: `a user's profile (${anon}; shape of user-about-lil_spazbot.har)` },
]);

const detailBody = (p: ReturnType<typeof post>, comments: Array<{ kind: string; data: unknown }>) =>
  json([JSON.parse(listing([t3(p)])), { kind: 'Listing', data: { after: null, dist: null, modhash: null, geo_filter: '', children: comments, before: null } }]);

har('detail-video-1kq7v2a.har', [
  {
    url: q(`${WWW}/comments/1kq7v2a.json`, { raw_json: '1', limit: '1' }),
    headers: budget(),
    body: detailBody(VIDEO, [
      comment({ id: 'lm3z001', parent: VIDEO.name, author: 'lubed_linears', authorId: 't2_9x2c4v6b', body: 'The brush technique at 0:41 is clean.', score: 301, created: 1776591000, depth: 0 }, VIDEO),
      more('lm3z002', VIDEO.name, ['lm3z002', 'lm3z003'], 311, 0),
    ]),
    comment: 'a v.redd.it video post through the submission page with limit=1 (anonymous twin of /comments/<id>)',
  },
]);

har('detail-gallery-1kq6m0c.har', [
  {
    url: q(`${WWW}/comments/1kq6m0c.json`, { raw_json: '1', limit: '1' }),
    headers: budget(),
    body: detailBody(GALLERY, []),
    comment: 'a gallery post (gallery_data + media_metadata) through the submission page (anonymous twin of /comments/<id>)',
  },
]);

har('detail-image-1kq5z9d.har', [
  {
    url: q(`${WWW}/comments/1kq5z9d.json`, { raw_json: '1', limit: '1' }),
    headers: budget(),
    body: detailBody(IMAGE, []),
    comment: 'a single i.redd.it image post through the submission page (anonymous twin of /comments/<id>)',
  },
]);

har('detail-crosspost-1kq2t7g.har', [
  {
    url: q(`${WWW}/comments/1kq2t7g.json`, { raw_json: '1', limit: '1' }),
    headers: budget(),
    body: detailBody(CROSSPOST, []),
    comment: 'a crosspost: the video lives in crosspost_parent_list (anonymous twin of /comments/<id>)',
  },
]);

har('comments-1kq4x1e.har', [
  {
    url: q(`${WWW}/comments/1kq4x1e.json`, { raw_json: '1', sort: 'confidence', limit: '500' }),
    headers: budget(),
    body: detailBody(SELF, TREE),
    comment: 'a self post and its comment tree with one "load more" (more with children), one "continue this thread" (more id "_", count 0) and a top-level more',
  },
  {
    url: q(`${WWW}/api/morechildren.json`, { raw_json: '1', api_type: 'json', children: `${C(5)},${C(6)}`, link_id: SELF.name, sort: 'confidence' }),
    headers: budget('595.0', '400', '5'),
    body: json({ json: { errors: [], data: { things: MORE_C4.map((t) => ({ ...t, data: { ...t.data, replies: '' } })) } } }),
    comment: 'morechildren expands the replies of lm4a004: a flat things list, each naming its parent (shape of replies-morechildren-3hahrw.har)',
  },
  {
    url: q(`${WWW}/api/morechildren.json`, { raw_json: '1', api_type: 'json', children: `${C(7)},${C(8)}`, link_id: SELF.name, sort: 'confidence' }),
    headers: budget('594.0', '399', '6'),
    body: json({ json: { errors: [], data: { things: MORE_TOP } } }),
    comment: 'morechildren expands the top-level "load more"',
  },
  {
    url: q(`${WWW}/comments/1kq4x1e/_/${C(3)}.json`, { raw_json: '1', sort: 'confidence', limit: '500' }),
    headers: budget('593.0', '398', '7'),
    body: detailBody(SELF, CONTINUED),
    comment: '"continue this thread": the parent comment\'s own page, with its deeper replies',
  },
]);

har('resolve-share-link.har', [
  {
    url: q(`${WWW}/r/MechanicalKeyboards/s/Kb7xQ2mZpL`, { raw_json: '1' }),
    status: 301,
    statusText: 'Moved Permanently',
    mime: 'text/html; charset=utf-8',
    headers: [
      { name: 'Cache-Control', value: 'private, max-age=3600' },
      {
        name: 'location',
        value: `${WWW}${VIDEO.permalink}?share_id=Zk3mQ8xPq2RtY7vB1nLcA&utm_content=1&utm_medium=android_app&utm_name=androidcss&utm_source=share&utm_term=1`,
      },
    ],
    body: `<a href="${WWW}${VIDEO.permalink}?share_id=Zk3mQ8xPq2RtY7vB1nLcA&amp;utm_content=1&amp;utm_medium=android_app&amp;utm_name=androidcss&amp;utm_source=share&amp;utm_term=1">Moved Permanently</a>.\n\n`,
    comment: 'an app share link answers 301 to the permalink (shape of resolve-share-url.har)',
  },
]);

// ---- error answers ----------------------------------------------------------------------------------

har('error-429-too-many-requests.har', [
  {
    url: q(`${WWW}/r/wallstreetbets/hot.json`, { limit: '100', raw_json: '1' }),
    status: 429,
    statusText: 'Too Many Requests',
    mime: 'text/html; charset=utf-8',
    headers: [...budget('0', '7', '100'), { name: 'retry-after', value: '7' }],
    body: '<!doctype html><html><head><title>Too Many Requests</title></head><body><h1>whoa there, pardner!</h1><p>we\'re sorry, but you appear to be a bot and we\'ve seen too many requests from you lately.</p></body></html>',
    comment: 'reddit throttling an anonymous client: HTTP 429 with a spent x-ratelimit budget',
  },
]);

har('error-blocked-network-security.har', [
  {
    url: q(`${WWW}/r/AskHistorians/hot.json`, { limit: '100', raw_json: '1' }),
    status: 403,
    statusText: 'Forbidden',
    mime: 'text/html; charset=utf-8',
    body: '<!DOCTYPE html><html><head><title>Blocked</title></head><body><p>You\'ve been blocked by network security.</p><p>To continue, log in to your Reddit account or use your developer token.</p><p>If you think you\'ve been blocked by mistake, file a ticket below and we\'ll look into it.</p></body></html>',
    comment: "reddit's edge refusing an anonymous client: an HTML 403 page, not the JSON 403 of a private community",
  },
]);

har('error-private-subreddit-403.har', [
  {
    url: q(`${WWW}/r/secretclubhouse/new.json`, { limit: '100', raw_json: '1' }),
    status: 403,
    statusText: 'Forbidden',
    body: json({ reason: 'private', message: 'Forbidden', error: 403 }),
    comment: 'a private community: JSON 403 with reason private (error-quarantined-403.har is the same answer without a reason)',
  },
]);

har('error-nonexistent-subreddit-redirect.har', [
  {
    url: q(`${WWW}/r/nosuchsubzz/hot.json`, { limit: '100', raw_json: '1' }),
    status: 302,
    statusText: 'Found',
    headers: [{ name: 'location', value: `${WWW}/subreddits/search.json?q=nosuchsubzz&raw_json=1&limit=100` }],
    body: '',
    comment: 'a subreddit that does not exist: reddit redirects to the subreddit search instead of answering 404',
  },
]);

har('error-user-not-found-404.har', [
  {
    url: q(`${WWW}/user/nosuchuser_zz/about.json`, { raw_json: '1' }),
    status: 404,
    statusText: 'Not Found',
    body: json({ message: 'Not Found', error: 404 }),
    comment: 'an account that does not exist (or was deleted): JSON 404',
  },
]);

har('error-user-suspended.har', [
  {
    url: q(`${WWW}/user/suspended_zz/about.json`, { raw_json: '1' }),
    body: json({ kind: 't2', data: { name: 'suspended_zz', is_suspended: true, awardee_karma: 0, awarder_karma: 0, is_blocked: false, total_karma: 0 } }),
    comment: 'a suspended account: HTTP 200 with is_suspended and hardly anything else',
  },
]);

har('error-ratelimit-budget-spent.har', [
  {
    url: q(`${WWW}/user/budgetbot/submitted.json`, { sort: 'new', limit: '100', raw_json: '1' }),
    headers: budget('0.0', '300', '100'),
    body: listing([t3({ ...SELF, id: '1kp9a1a', name: 't3_1kp9a1a', author: 'budgetbot', author_fullname: 't2_5b5b5b5b', permalink: '/r/MechanicalKeyboards/comments/1kp9a1a/budget/' })], 't3_1kp9a1a'),
    comment: 'a good page whose x-ratelimit-remaining is 0: the next request must wait 300 s for the window',
  },
]);

// ---- writes (oauth.reddit.com, user token) ----------------------------------------------------------

const TOKEN: Exchange = {
  method: 'POST',
  url: `${WWW}/api/v1/access_token`,
  form: { grant_type: 'refresh_token', refresh_token: '<REFRESH_TOKEN>' },
  body: json({ access_token: '<ACCESS_TOKEN>', token_type: 'bearer', expires_in: 86400, refresh_token: '<REFRESH_TOKEN>', scope: 'identity edit read submit' }),
  comment: 'the token exchange before a write (shape of user-about-lil_spazbot.har entry 0)',
};

har('write-submit-self.har', [
  TOKEN,
  {
    method: 'POST',
    url: `${OAUTH}/api/submit?raw_json=1`,
    form: { api_type: 'json', kind: 'self', sr: 'test', title: 'Sandbox self post', resubmit: 'true', sendreplies: 'true', text: 'Posted from the crawler sandbox.' },
    headers: budget('999.0', '540', '1'),
    body: json({ json: { errors: [], data: { url: `${WWW}/r/test/comments/1kqa0b1/sandbox_self_post/`, drafts_count: 0, id: '1kqa0b1', name: 't3_1kqa0b1' } } }),
    comment: 'a self post submitted (shape of write-submit-link-selftext.har)',
  },
]);

har('write-comment-reply-to-comment.har', [
  TOKEN,
  {
    method: 'POST',
    url: `${OAUTH}/api/comment?raw_json=1`,
    form: { api_type: 'json', thing_id: `t1_${C(1)}`, text: 'Thanks, trying 55g tactiles next.' },
    headers: budget('998.0', '530', '2'),
    body: json({
      json: {
        errors: [],
        data: { things: [comment({ id: 'lm4b001', parent: `t1_${C(1)}`, author: 'keebsmith', authorId: 't2_8f3k2x1q', body: 'Thanks, trying 55g tactiles next.', score: 1, created: 1776600000, depth: 1 })] },
      },
    }),
    comment: 'a reply to a comment (shape of write-comment-reply-submission.har, with the permalink newer answers carry)',
  },
]);

har('write-delete-comment.har', [
  TOKEN,
  {
    method: 'POST',
    url: `${OAUTH}/api/del?raw_json=1`,
    form: { api_type: 'json', id: 't1_lm4b001' },
    headers: budget('997.0', '520', '3'),
    body: '{}',
    comment: 'deleting a comment: reddit answers {} (shape of write-delete-submission.har)',
  },
]);

har('error-write-subreddit-noexist.har', [
  TOKEN,
  {
    method: 'POST',
    url: `${OAUTH}/api/submit?raw_json=1`,
    form: { api_type: 'json', kind: 'self', sr: 'nosuchsubzz', title: 'Hello', resubmit: 'true', sendreplies: 'true' },
    headers: budget('996.0', '510', '4'),
    body: json({ json: { errors: [['SUBREDDIT_NOEXIST', "that community doesn't exist", 'sr']] } }),
    comment: 'a refused submit: HTTP 200 with json.errors [[code, message, field]]',
  },
]);

har('error-write-submit-validation-400.har', [
  TOKEN,
  {
    method: 'POST',
    url: `${OAUTH}/api/submit?raw_json=1`,
    form: { api_type: 'json', kind: 'link', sr: 'flairsonly', title: 'Look at this', url: 'https://example.org/board.jpg', resubmit: 'true', sendreplies: 'true' },
    status: 400,
    statusText: 'Bad Request',
    headers: budget('995.0', '500', '5'),
    body: json({ fields: ['flair'], explanation: 'Your post must contain post flair.', message: 'Bad Request', reason: 'SUBMIT_VALIDATION_FLAIR_REQUIRED' }),
    comment: 'submit validation: HTTP 400 with fields/explanation/reason (the shape the fixtures README quotes from TestSubreddit.test_submit__verify_invalid)',
  },
]);

har('error-write-comment-ratelimit.har', [
  TOKEN,
  {
    method: 'POST',
    url: `${OAUTH}/api/comment?raw_json=1`,
    form: { api_type: 'json', thing_id: LINK.name, text: 'First!' },
    headers: budget('994.0', '490', '6'),
    body: json({ json: { errors: [['RATELIMIT', "Looks like you've been doing that a lot. Take a break for 9 minutes before trying again.", 'ratelimit']] } }),
    comment: "reddit's per-account posting throttle: json.errors RATELIMIT with the wait in the message",
  },
]);

console.log(`wrote the reddit sandbox into ${OUT}`);
