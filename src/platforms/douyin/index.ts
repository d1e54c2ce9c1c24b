import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { HOT_CATEGORIES, hotAction, postsAction, recommendedAction, searchAction } from './feeds.js';
import { probeLogin } from './probe.js';
import { isSecUid, userUrl } from './refs.js';
import { trendingAction } from './trending.js';

export const douyin: PlatformAdapter = {
  id: 'douyin',
  name: 'Douyin (抖音)',
  region: 'CN',
  // Every read works as a guest (ttwid, msToken, s_v_web_id minted; a_bogus signed); a stored login widens
  // what the web API answers and lowers the block rate.
  auth: 'none',
  hosts: ['.douyin.com', '.iesdouyin.com', 'aweme.snssdk.com', 'webcast.amemv.com', 'ttwid.bytedance.com'],
  // Images (douyinpic, byteimg, pstatp), streams (douyinvod, zjcdn, douyincdn, the app's play redirector).
  mediaHosts: ['.douyinpic.com', '.douyinvod.com', '.douyincdn.com', '.zjcdn.com', '.byteimg.com', '.pstatp.com', '.douyinstatic.com', '.bytecdn.cn', 'aweme.snssdk.com', '.amemv.com'],
  // The stream CDNs answer 403 without a douyin Referer.
  mediaHeaders: () => ({ Referer: 'https://www.douyin.com/', 'User-Agent': DEFAULT_UA }),
  // MediaCrawler paces douyin at one request per ~2 s per account.
  minGapMs: 2000,
  probe: probeLogin,
  login: { url: 'https://www.douyin.com/', successCookie: 'sessionid', domains: ['.douyin.com'] },
  categories: HOT_CATEGORIES,
  replay: {
    // The app id and the browser's fingerprint params say nothing about the answer.
    volatile: ['aid', 'verifyFp', 'fp', 'webid', 'update_version_code', 'version_code', 'version_name', 'browser_version', 'engine_version', 'round_trip_time', 'downlink', 'search_id'],
    identifying: ['sec_uid', 'item_id', 'comment_id', 'chart_id', 'category_id', 'board_type'],
    cursor: ['max_cursor', 'refresh_index'],
  },
  authorUrl: ({ id }) => (id && isSecUid(id) ? userUrl(id) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    comments: commentsAction,
    hot: hotAction,
    recommended: recommendedAction,
    trending: trendingAction,
    download: downloadAction,
  },
};
