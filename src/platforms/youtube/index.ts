import type { PlatformAdapter } from '../types.js';
import { CLIENTS } from './api.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { HOT_CATEGORIES, hotAction, postsAction, searchAction, trendingAction } from './feeds.js';
import { authorUrl } from './refs.js';

/** googlevideo checks that a stream is fetched by the kind of client it was issued to (`c=` in its URL). */
function mediaHeaders(url: URL): Record<string, string> {
  const headers: Record<string, string> = { Referer: 'https://www.youtube.com/' };
  const client = url.hostname.endsWith('.googlevideo.com') ? (url.searchParams.get('c') ?? /\/c\/([A-Z_]+)\//.exec(url.pathname)?.[1]) : null;
  if (client === 'ANDROID') headers['User-Agent'] = CLIENTS.ANDROID.userAgent;
  else if (client === 'VISIONOS') headers['User-Agent'] = CLIENTS.VISIONOS.userAgent;
  return headers;
}

export const youtube: PlatformAdapter = {
  id: 'youtube',
  name: 'YouTube',
  region: 'global',
  // Public InnerTube answers anonymously; a stored signed-in profile (cookies with SAPISID) only matters for
  // age-restricted videos.
  auth: 'none',
  hosts: ['www.youtube.com', 'youtube.com', 'm.youtube.com', 'youtubei.googleapis.com'],
  mediaHosts: ['i.ytimg.com', '.ytimg.com', '.ggpht.com', '.googlevideo.com', 'yt3.googleusercontent.com'],
  mediaHeaders,
  minGapMs: 500,
  categories: HOT_CATEGORIES,
  replay: {
    // Client build, visitor id, nonces: they change on every session and say nothing about the resource.
    volatile: ['t', 'cpn', 'playerRequest.cpn', 'context.client.clientVersion', 'context.client.visitorData'],
    identifying: ['videoId', 'playerRequest.videoId', 'browseId', 'query', 'url', 'id'],
    cursor: ['continuation'],
  },
  authorUrl,
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    hot: hotAction,
    trending: trendingAction,
  },
};
