import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { postsAction, searchAction } from './feeds.js';
import { OPS_DEFAULTS } from './ops.js';
import { probeLogin } from './probe.js';
import { refreshOps } from './refresh.js';
import { userUrl, WWW } from './refs.js';
import { userAction } from './user.js';
import { commentCreateAction } from './write.js';

export const instagram: PlatformAdapter = {
  id: 'instagram',
  name: 'Instagram',
  region: 'global',
  aliases: ['ig'],
  // Profiles, detail, comments and account search answer logged out (throttled fast); reels, hashtag
  // search and comment.create need a login profile's cookies (sessionid, csrftoken).
  auth: 'cookie',
  hosts: ['.instagram.com', 'instagr.am', 'www.instagr.am'],
  // Images and streams: scontent-*.cdninstagram.com, and Facebook's CDN (*.fbcdn.net) for older and some video URLs.
  mediaHosts: ['.cdninstagram.com', '.fbcdn.net'],
  mediaHeaders: () => ({ Referer: `${WWW}/`, 'User-Agent': DEFAULT_UA }),
  // instaloader keeps to ~200 requests per query type per 11 minutes; gallery-dl waits 6-12 s between calls.
  minGapMs: 4000,
  probe: probeLogin,
  login: { url: `${WWW}/accounts/login/`, successCookie: 'sessionid', domains: ['.instagram.com'] },
  ops: { defaults: OPS_DEFAULTS, refresh: refreshOps },
  replay: {
    // Page tokens and the web client's constant switches say nothing about the answer.
    volatile: [
      'lsd', 'jazoest', 'server_timestamps', 'fb_api_caller_class', '__a', '__d', 'hl', 'include_reel', 'context', 'permalink_enabled',
      'can_support_threading', 'include_feed_video', 'surface', 'include_persistent',
    ],
    // GraphQL calls share two paths: the operation's name tells them apart, and replay reads the ids inside
    // their JSON `variables` by path. A query_hash is not identity: it changes over time for one operation.
    identifying: [
      'fb_api_req_friendly_name', 'target_user_id', 'target_id', 'variables.id', 'variables.shortcode', 'variables.username',
      'variables.user_id', 'variables.media_id', 'variables.parent_comment_id', 'variables.tag_name', 'variables.query',
    ],
    cursor: ['max_id', 'min_id', 'page', 'variables.after', 'variables.before'],
  },
  authorUrl: ({ handle }) => (handle ? userUrl(handle) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    'comment.create': commentCreateAction,
  },
};
