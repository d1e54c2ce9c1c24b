import { probeLogin } from './probe.js';
import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { HOT_CATEGORIES, hotAction, postsAction, recommendedAction, searchAction } from './feeds.js';
import { spaceUrl } from './refs.js';
import { trendingAction } from './trending.js';

export const bilibili: PlatformAdapter = {
  id: 'bilibili',
  name: 'Bilibili',
  region: 'CN',
  // Every read works anonymously (guest buvid cookies + WBI); a stored login only widens quality and feeds.
  auth: 'none',
  hosts: ['.bilibili.com', 'b23.tv', 'bili2233.cn'],
  // Covers and avatars (hdslb, biliimg), streams (bilivideo.com/.cn upos and PCDN mirrors, akamaized overseas).
  mediaHosts: ['.hdslb.com', '.biliimg.com', '.bilivideo.com', '.bilivideo.cn', '.akamaized.net'],
  // The stream CDNs answer 403 without a bilibili Referer.
  mediaHeaders: () => ({ Referer: 'https://www.bilibili.com/', 'User-Agent': DEFAULT_UA }),
  minGapMs: 1000,
  probe: probeLogin,
  login: { url: 'https://passport.bilibili.com/login', successCookie: 'SESSDATA', domains: ['.bilibili.com'] },
  categories: HOT_CATEGORIES,
  replay: {
    // Fingerprint and page-location params vary per client and carry no meaning for the answer.
    volatile: ['dm_img_list', 'dm_img_str', 'dm_cover_img_str', 'dm_img_inter', 'web_location', 'fresh_idx_1h', 'brush', 'fetch_row', 'token'],
    identifying: ['host_mid', 'vmid', 'cid', 'avid', 'root', 'rid', 'tid', 'search_type'],
    // wbi/main pages by pagination_str (older main by next); the home feed by fresh_idx.
    cursor: ['pagination_str', 'next', 'fresh_idx'],
  },
  authorUrl: ({ id }) => (id && /^\d+$/.test(id) ? spaceUrl(id) : undefined),
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
