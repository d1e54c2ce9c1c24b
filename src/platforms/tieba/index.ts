import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { hotAction, postsAction, searchAction } from './feeds.js';
import { probeLogin } from './probe.js';
import { isPortrait, userUrlById, userUrlByName } from './refs.js';
import { trendingAction } from './trending.js';

export const tieba: PlatformAdapter = {
  id: 'tieba',
  name: 'Baidu Tieba (百度贴吧)',
  region: 'CN',
  // Every read works anonymously (pages and /home/get JSON, with a minted BAIDUID); a stored login adds the
  // PC site's own signed JSON routes, tried first.
  auth: 'none',
  hosts: ['tieba.baidu.com'],
  // Images (tiebapic, imgsa/imgsrc, hiphotos), avatars (gss0.bdstatic, himg.bdimg), emoticons (gsp0),
  // videos and page images on bdstatic.
  mediaHosts: ['tiebapic.baidu.com', 'imgsa.baidu.com', 'imgsrc.baidu.com', '.hiphotos.baidu.com', 'gss0.baidu.com', 'gsp0.baidu.com', '.bdstatic.com', '.bdimg.com'],
  // tiebapic and imgsa refuse (or answer a placeholder) without a tieba Referer.
  mediaHeaders: () => ({ Referer: 'https://tieba.baidu.com/', 'User-Agent': DEFAULT_UA }),
  // MediaCrawler paces tieba at one request per ~2 s per account (config CRAWLER_MAX_SLEEP_SEC).
  minGapMs: 2000,
  probe: probeLogin,
  login: { url: 'https://tieba.baidu.com/', successCookie: 'BDUSS', domains: ['.baidu.com'] },
  replay: {
    // The md5 sign and the tbs token change per request or session; ie only names the query's charset.
    volatile: ['sign', 'tbs', 'ie', '_client_type', 'subapp_type'],
    identifying: ['kw', 'qw', 'word', 'tid', 'kz', 'pid', 'un', 'portrait'],
    cursor: ['pn'],
  },
  authorUrl: ({ id, handle }) => (id && isPortrait(id) ? userUrlById(id) : handle ? userUrlByName(handle) : undefined),
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
