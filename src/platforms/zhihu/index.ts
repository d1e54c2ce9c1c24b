import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { HOT_CATEGORIES, hotAction } from './hot.js';
import { postsAction } from './posts.js';
import { probeLogin } from './probe.js';
import { isUrlToken, peopleUrl } from './refs.js';
import { searchAction } from './search.js';
import { trendingAction } from './trending.js';

export const zhihu: PlatformAdapter = {
  id: 'zhihu',
  name: 'Zhihu (知乎)',
  region: 'CN',
  // Reads work as a guest (d_c0 minted, x-zse-96 signed); a stored login (z_c0) lifts the hot list's login
  // wall and the guest limits on search and profiles.
  auth: 'none',
  // www, zhuanlan (articles), api (the app's search).
  hosts: ['.zhihu.com'],
  // Pictures (pic1-4, picx, pica … .zhimg.com) and video streams (vdn*.vzuu.com).
  mediaHosts: ['.zhimg.com', '.vzuu.com'],
  // The image and video CDNs check the Referer.
  mediaHeaders: () => ({ Referer: 'https://www.zhihu.com/', 'User-Agent': DEFAULT_UA }),
  // MediaCrawler paces zhihu at one request per ~2 s per account (CRAWLER_MAX_SLEEP_SEC).
  minGapMs: 2000,
  probe: probeLogin,
  login: { url: 'https://www.zhihu.com/signin', successCookie: 'z_c0', domains: ['.zhihu.com'] },
  categories: HOT_CATEGORIES,
  replay: {
    // search_v3's bookkeeping (and the hash of the first answer that later pages name) says nothing about the answer.
    volatile: ['gk_version', 'lc_idx', 'correction', 'show_all_topics', 'search_source', 'advert_count', 'filter_fields', 'vertical_info', 'search_hash_id'],
    identifying: ['t'],
    cursor: ['offset'],
  },
  authorUrl: ({ id, handle }) => (handle && isUrlToken(handle) ? peopleUrl(handle) : id && /^[0-9a-f]{32}$/.test(id) ? peopleUrl(id) : undefined),
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
