import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { OPS_DEFAULTS } from './ops.js';
import { postsAction } from './posts.js';
import { probeLogin } from './probe.js';
import { refreshOps } from './refresh.js';
import { profileUrl, SITE } from './refs.js';
import { searchAction } from './search.js';

export const threads: PlatformAdapter = {
  id: 'threads',
  name: 'Threads',
  region: 'global',
  // Posts, profiles and replies answer anonymously (web GraphQL with the page's lsd and csrftoken); search needs a login.
  auth: 'none',
  hosts: ['.threads.com', '.threads.net', 'i.instagram.com'],
  mediaHosts: ['.cdninstagram.com', '.fbcdn.net'],
  mediaHeaders: () => ({ Referer: `${SITE}/`, 'User-Agent': DEFAULT_UA }),
  // instaloader keeps Meta's GraphQL under 200 requests per 11 minutes per query type (one per 3.3 s); 3.5 s stays below.
  minGapMs: 3500,
  probe: probeLogin,
  login: { url: `${SITE}/login`, successCookie: 'sessionid', domains: ['.threads.com', '.threads.net'] },
  ops: { defaults: OPS_DEFAULTS, refresh: refreshOps },
  replay: {
    // Tokens of the page load and the site's per-request counters say nothing about the answer.
    volatile: ['lsd', 'fb_dtsg', 'jazoest', '__req', '__s', '__hsi', '__dyn', '__csr', '__rev', '__spin_r', '__spin_t', '__spin_b', '__hs', '__ccg', '__comet_req', '__user', '__a', 'dpr', 'av'],
    identifying: ['variables.postID', 'variables.userID', 'variables.username', 'post_id', 'user_id'],
    cursor: ['variables.after', 'max_id', 'paging_token', 'page_token', 'page_num'],
  },
  authorUrl: ({ handle }) => (handle ? profileUrl(handle) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
  },
};
