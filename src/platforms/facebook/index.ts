import { DEFAULT_UA } from '../../crawl/http.js';
import type { PlatformAdapter } from '../types.js';
import { commentsAction } from './comments.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { postsAction, searchAction } from './feeds.js';
import { probeLogin } from './probe.js';
import { WWW } from './refs.js';

/*
 * Page parsing only (m.facebook.com pages, www pages' JSON-LD and meta tags): no GraphQL operation is
 * called, so there is no operation data to keep or refresh (`ops` absent).
 */
export const facebook: PlatformAdapter = {
  id: 'facebook',
  name: 'Facebook',
  region: 'global',
  aliases: ['fb'],
  // Public pages, posts, videos and their comments read anonymously; search, profiles and groups need a login.
  auth: 'none',
  hosts: ['.facebook.com'],
  // scontent*.fbcdn.net (images), video*.fbcdn.net (streams), external*.fbcdn.net (link previews).
  mediaHosts: ['.fbcdn.net'],
  mediaHeaders: () => ({ Referer: `${WWW}/`, 'User-Agent': DEFAULT_UA }),
  // Facebook walls fast crawls quickly (temporary blocks): one page load per 3 s per account.
  minGapMs: 3000,
  probe: probeLogin,
  login: { url: `${WWW}/login/`, successCookie: 'c_user', domains: ['.facebook.com'] },
  replay: {
    // Where a link came from, tracking tokens and the redirect marker say nothing about the page.
    volatile: ['refsrc', '_rdr', '__tn__', 'refid', 'ref', 'rdr', '_ft_', 'privacy_mutation_token', 'extid', 'mibextid', 'eav', 'gfid', 'paipv', 'source', 'mt_nav'],
    identifying: ['story_fbid', 'v', 'fbid', 'page_id', 'ft_ent_identifier', 'ctoken', 'q'],
    cursor: ['start_cursor', 'cursor', 'bac', 'p'],
  },
  authorUrl: ({ id, handle }) => (handle ? `${WWW}/${handle}` : id ? `${WWW}/${id}` : undefined),
  actions: {
    posts: postsAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    search: searchAction,
  },
};
