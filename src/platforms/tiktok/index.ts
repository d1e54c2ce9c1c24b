import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { postsAction, recommendedAction, searchAction } from './feeds.js';
import { probeLogin } from './probe.js';
import { isSecUid, isHandle, profileUrl } from './refs.js';

export const tiktok: PlatformAdapter = {
  id: 'tiktok',
  name: 'TikTok',
  region: 'global',
  // Every read works anonymously (guest msToken/ttwid, X-Bogus or the page's signer, unsigned pages);
  // a stored login lets age-gated posts and the personalised feed through.
  auth: 'none',
  hosts: ['www.tiktok.com', 'm.tiktok.com', 'vm.tiktok.com', 'vt.tiktok.com'],
  // Covers, avatars and streams as the recordings show them: tiktokcdn(-us), the webapp stream hosts under
  // us.tiktok.com, the app play redirects on tiktokv.com, ibyteimg (2020); and ByteDance's other CDNs.
  mediaHosts: ['.tiktokcdn.com', '.tiktokcdn-us.com', '.us.tiktok.com', '.tiktokv.com', '.ibyteimg.com', '.muscdn.com', '.ibytedtos.com', '.byteoversea.com'],
  // The stream CDNs refuse requests without a tiktok.com Referer.
  mediaHeaders: () => ({ Referer: 'https://www.tiktok.com/', 'User-Agent': DEFAULT_UA }),
  // TikTok counts requests per address and refuses bursts (users.md #5: 20 in 13 s all refused).
  minGapMs: 2000,
  probe: probeLogin,
  login: { url: 'https://www.tiktok.com/login', successCookie: 'sessionid', domains: ['.tiktok.com'] },
  replay: {
    // Signatures, tokens and per-client fingerprint params carry no meaning for the answer.
    volatile: ['X-Gnarly', 'device_id', 'browser_version', 'browser_platform', 'os', 'history_len', 'screen_width', 'screen_height', 'tz_name', 'verifyFp', 'search_id'],
    identifying: ['itemId', 'item_id', 'comment_id', 'secUid', 'uniqueId'],
    cursor: ['max_cursor'],
  },
  authorUrl: ({ id, handle }) => (handle && isHandle(handle) ? profileUrl(handle) : id && isSecUid(id) ? profileUrl(id) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    recommended: recommendedAction,
  },
};
