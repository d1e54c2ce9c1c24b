import { probeLogin } from './probe.js';
import type { PlatformAdapter } from '../types.js';
import { userAction } from './creator.js';
import { CATEGORIES, hotAction, postsAction, recommendedAction, searchAction } from './feeds.js';
import { profileUrl } from './refs.js';
import { commentsAction, detailAction } from './status.js';
import { downloadAction } from './download.js';
import { trendingAction } from './trending.js';
import { commentCreateAction, deleteAction, postCreateAction } from './writes.js';

/** Large public servers; any other server is reachable through params.instance, these only name the usual ones. */
const KNOWN_SERVERS = [
  'mastodon.social',
  'mastodon.online',
  'mstdn.social',
  'mas.to',
  'mastodon.world',
  'fosstodon.org',
  'hachyderm.io',
  'infosec.exchange',
  'techhub.social',
  'universeodon.com',
  'mstdn.jp',
  'masto.ai',
  'toot.community',
  'social.vivaldi.net',
];

export const mastodon: PlatformAdapter = {
  id: 'mastodon',
  name: 'Mastodon',
  region: 'global',
  // Reads are anonymous REST calls; a stored access token adds post search, the home timeline and writes.
  auth: 'none',
  hosts: KNOWN_SERVERS,
  // Servers keep media on their own host (/system/...) or a files./media./cdn. subdomain, or on masto.host's CDN.
  mediaHosts: [...KNOWN_SERVERS, ...KNOWN_SERVERS.map((h) => `.${h}`), 'cdn.masto.host', '.cdn.masto.host'],
  // Mastodon's media stores serve anyone; no Referer or cookie is needed.
  mediaHeaders: () => ({}),
  // Mastodon allows 300 requests per 5 minutes per account/IP: one a second stays inside it.
  minGapMs: 1000,
  categories: CATEGORIES,
  replay: {
    // A write names its content and its parent post: a recording of another text or parent must never answer it.
    identifying: ['acct', 'q', 'type', 'status', 'in_reply_to_id'],
    cursor: ['max_id', 'min_id', 'since_id', 'offset'],
  },
  probe: probeLogin,
  authorUrl: ({ handle }) => profileUrl(handle),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    hot: hotAction,
    recommended: recommendedAction,
    trending: trendingAction,
    'post.create': postCreateAction,
    'comment.create': commentCreateAction,
    delete: deleteAction,
  },
};
