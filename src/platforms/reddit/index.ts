import { probeLogin } from './probe.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { HOT_CATEGORIES, hotAction, postsAction, searchAction } from './feeds.js';
import { profileUrl } from './refs.js';
import { userAction } from './user.js';
import { commentCreateAction, deleteAction, postCreateAction } from './write.js';

/*
 * Absent on purpose: trending (reddit retired its trending-subreddits endpoint and has no keyword board),
 * recommended (a per-account home feed the API does not expose to apps), download.
 */
export const reddit: PlatformAdapter = {
  id: 'reddit',
  name: 'Reddit',
  region: 'global',
  // Reads work anonymously through www.reddit.com/*.json; stored OAuth credentials are preferred, writes need a user.
  auth: 'none',
  hosts: ['oauth.reddit.com', 'www.reddit.com'],
  mediaHosts: ['i.redd.it', 'v.redd.it', 'preview.redd.it', 'external-preview.redd.it', '.redditmedia.com', '.redditstatic.com'],
  // i.redd.it answers a browser-looking Accept (text/html first) with a redirect to its viewer page, not the image.
  mediaHeaders: () => ({ Accept: 'image/avif,image/webp,image/*,video/*;q=0.9,*/*;q=0.8', Referer: 'https://www.reddit.com/' }),
  // OAuth clients get 100 requests a minute; anonymous .json far fewer, so x-ratelimit-* headers steer the rest.
  minGapMs: 1000,
  categories: HOT_CATEGORIES,
  replay: {
    // Credentials in the token exchange say who logs in, not which resource is read.
    volatile: ['username', 'password', 'refresh_token', 'device_id'],
    // morechildren is one path for every expansion: only the ids asked for tell recordings apart. Writes name their target.
    identifying: ['children', 'link_id', 'thing_id', 'sr', 'kind'],
    cursor: ['after', 'before'],
  },
  probe: probeLogin,
  authorUrl: ({ handle }) => (handle ? profileUrl(handle) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    hot: hotAction,
    'post.create': postCreateAction,
    'comment.create': commentCreateAction,
    delete: deleteAction,
  },
};
