import { probeLogin } from './probe.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { HOT_CATEGORIES, hotAction, postsAction, searchAction } from './feeds.js';
import { profileUrl } from './refs.js';
import { trendingAction } from './trending.js';

export const weibo: PlatformAdapter = {
  id: 'weibo',
  name: 'Weibo',
  region: 'CN',
  // m.weibo.cn answers anonymously; s.weibo.com and weibo.com (the fallback route) want visitor cookies
  // (a stored profile helps there), except weibo.com's side/hotSearch.
  auth: 'none',
  hosts: ['m.weibo.cn', 'weibo.com', 'www.weibo.com', 's.weibo.com', 'weibo.cn', 'passport.weibo.com', 'passport.weibo.cn'],
  mediaHosts: ['.sinaimg.cn', '.weibocdn.com', 'video.weibo.com'],
  // Weibo's image CDN refuses hotlinks without a weibo Referer.
  mediaHeaders: () => ({ Referer: 'https://weibo.com/' }),
  minGapMs: 1500,
  probe: probeLogin,
  login: { url: 'https://passport.weibo.com/sso/signin', successCookie: 'SUB', domains: ['.weibo.com', '.weibo.cn'] },
  categories: HOT_CATEGORIES,
  replay: {
    // _rand: passport's visitor incarnate cache-buster.
    volatile: ['_', '_rand', 'extparam', 'luicode', 'lfid', 'display_time', 'openApp'],
    // uid: weibo.com's mymblog and profile/info; screen_name: profile/info by name; id: statuses/show,
    // longtext and buildComments (bid or mid).
    identifying: ['containerid', 'id', 'mid', 'value', 'q', 'cid', 'uid', 'cate', 'screen_name'],
    // hotflow's first page carries max_id_type=0 and no max_id, so only max_id pages; buildComments pages
    // by max_id too, and mymblog / topic_band by page.
    cursor: ['since_id', 'page', 'max_id'],
  },
  authorUrl: ({ id }) => (id && /^\d+$/.test(id) ? profileUrl(id) : undefined),
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
