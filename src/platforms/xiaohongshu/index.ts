import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { postsAction, userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { FEED_CATEGORIES, recommendedAction } from './feed.js';
import { probeLogin } from './probe.js';
import { isId, userUrl } from './refs.js';
import { searchAction } from './search.js';

export const xiaohongshu: PlatformAdapter = {
  id: 'xiaohongshu',
  name: 'Xiaohongshu (小红书 / RedNote)',
  region: 'CN',
  aliases: ['xhs'],
  // The web API (search, comments, user_posted, homefeed) answers only a logged-in session; detail, user
  // and the first page of posts and recommended also work without one, from the site's pages.
  auth: 'login',
  hosts: ['.xiaohongshu.com', 'xhslink.com', 'www.xhslink.com', 'xhslink.cn'],
  // Pictures (sns-webpic-qc, sns-img-*, sns-avatar-qc, ci) and streams (sns-video-*) of xhscdn.
  mediaHosts: ['.xhscdn.com', '.xhscdn.net'],
  // The CDN refuses hotlinks without the site as Referer.
  mediaHeaders: () => ({ Referer: 'https://www.xiaohongshu.com/', 'User-Agent': DEFAULT_UA }),
  // MediaCrawler paces xiaohongshu at one request per ~2 s per account.
  minGapMs: 2000,
  probe: probeLogin,
  // Caveat: the site also sets a guest web_session before any login; the login flow watches it change.
  login: { url: 'https://www.xiaohongshu.com/explore', successCookie: 'web_session', domains: ['.xiaohongshu.com'] },
  categories: FEED_CATEGORIES,
  replay: {
    // The only real recordings of the web search carry no request body, so the keyword cannot identify
    // them; the random search ids and the xsec token say nothing about the answer either.
    volatile: ['keyword', 'search_id', 'request_id', 'search_user_request.keyword', 'search_user_request.search_id', 'search_user_request.request_id', 'xsec_token', 'image_formats', 'extra.need_body_topic'],
    identifying: ['source_note_id', 'root_comment_id', 'category', 'channel_id', 'target_user_id'],
    cursor: ['cursor_score', 'note_index', 'search_user_request.page'],
  },
  authorUrl: ({ id }) => (id && isId(id) ? userUrl(id) : undefined),
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
