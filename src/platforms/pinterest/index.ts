import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { postsAction, recommendedAction, searchAction } from './feeds.js';
import { probeLogin } from './probe.js';
import { isUsername, userUrl } from './refs.js';

export const pinterest: PlatformAdapter = {
  id: 'pinterest',
  name: 'Pinterest',
  region: 'global',
  // Every read here works anonymously with a minted csrftoken; a login sees secret boards it owns.
  auth: 'none',
  // The resource API on www, the short-link redirector on api; pin.it only as what callers paste.
  hosts: ['.pinterest.com', 'pin.it'],
  // Pictures on i.pinimg.com, default avatars on s.pinimg.com, streams on v.pinimg.com / v1.pinimg.com.
  mediaHosts: ['.pinimg.com'],
  mediaHeaders: () => ({ Referer: 'https://www.pinterest.com/', 'User-Agent': DEFAULT_UA }),
  minGapMs: 1000,
  probe: probeLogin,
  login: { url: 'https://www.pinterest.com/login/', successCookie: '_auth', domains: ['.pinterest.com'] },
  // Every option a resource call names sits inside its JSON `data` param; replay reads it by path.
  replay: {
    identifying: ['data.options.query', 'data.options.scope', 'data.options.id', 'data.options.username', 'data.options.slug', 'data.options.board_id', 'data.options.pin_id', 'data.options.pin'],
    cursor: ['data.options.bookmarks'],
    identifyingCursor: ['data.options.bookmarks'],
  },
  authorUrl: ({ handle }) => (handle && isUsername(handle) ? userUrl(handle) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    recommended: recommendedAction,
  },
};
