import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { hotAction, trendingAction } from './hot.js';
import { postsAction } from './posts.js';
import { creatorUrl, isToken } from './refs.js';
import { searchAction } from './search.js';
import { userAction } from './user.js';

export const toutiao: PlatformAdapter = {
  id: 'toutiao',
  name: 'Toutiao (今日头条)',
  region: 'CN',
  // Every read works anonymously with a minted guest ttwid; a stored login only changes what toutiao shows.
  auth: 'none',
  // Profile cookies go to toutiao.com only: ttwid.bytedance.com and the app board host get none.
  hosts: ['.toutiao.com'],
  // Images (p*-tt.byteimg.com, p*-sign.toutiaoimg.com, p*.pstatp.com, *.snssdk.com) and video CDNs.
  mediaHosts: ['.byteimg.com', '.toutiaoimg.com', '.pstatp.com', '.snssdk.com', '.toutiaovod.com', '.ixigua.com', '.365yg.com', '.bytecdn.cn'],
  // The image and video CDNs refuse hotlinks without a toutiao Referer.
  mediaHeaders: () => ({ Referer: 'https://www.toutiao.com/', 'User-Agent': DEFAULT_UA }),
  minGapMs: 1500,
  login: { url: 'https://sso.toutiao.com/', successCookie: 'sessionid', domains: ['.toutiao.com'] },
  replay: {
    // Signatures and tracking params differ per client and say nothing about the answer.
    volatile: ['_signature', 'a_bogus', 'msToken', 'log_from', 'entrance_gid', 'wid'],
    identifying: ['group_id', 'item_id', 'token', 'keyword'],
    cursor: ['offset', 'max_behot_time', 'page_num'],
  },
  authorUrl: ({ id }) => (id && isToken(id) ? creatorUrl(id) : id && /^\d{5,20}$/.test(id) ? `https://www.toutiao.com/c/user/${id}/` : undefined),
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
