import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { postsAction, recommendedAction, searchAction } from './feeds.js';
import { hotAction, trendingAction } from './hot.js';
import { probeLogin } from './probe.js';
import { isWebId, profileUrl } from './refs.js';

export const kuaishou: PlatformAdapter = {
  id: 'kuaishou',
  name: 'Kuaishou',
  region: 'CN',
  // Pages and GraphQL answer a guest (did cookie); a web login widens what GraphQL lists return.
  auth: 'cookie',
  // wxmini-api.uyouqu.com is left out on purpose: the mini-program session travels in credentials, and the
  // web cookie jar (which shares cookie names with it) must not reach that host.
  hosts: ['.kuaishou.com', '.kuaishou.cn', 'v.m.chenzhongtech.com'],
  // Covers, avatars and streams as the recordings show them: p2.a.yximgs.com, txmov2.a.yximgs.com,
  // v1/v2.kwaicdn.com, s2-*.kwimgs.com.
  mediaHosts: ['.kwaicdn.com', '.yximgs.com', '.kwimgs.com'],
  mediaHeaders: () => ({ Referer: 'https://www.kuaishou.com/', 'User-Agent': DEFAULT_UA }),
  // MediaCrawler waits 1-3 s on top of its base interval between kuaishou pages (client.py).
  minGapMs: 2000,
  probe: probeLogin,
  login: { url: 'https://www.kuaishou.com/?isHome=1', successCookie: 'kuaishou.server.web_st', domains: ['.kuaishou.com'] },
  replay: {
    // GraphQL document text is ours, not the recording's; signatures and search sessions vary per run.
    volatile: ['query', '__NS_hxfalcon', 'caver', 'variables.searchSessionId', 'searchSessionId', 'ussid', 'thirdPartyUserId'],
    identifying: ['operationName', 'variables.photoId', 'variables.keyword', 'variables.rootCommentId', 'photoId', 'rootCommentId', 'eid'],
    cursor: ['variables.pcursor'],
  },
  authorUrl: ({ id }) => (id && isWebId(id) ? profileUrl(id) : undefined),
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
  },
};
