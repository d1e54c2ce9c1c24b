import type { PlatformAdapter } from '../types.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { postsAction, searchAction } from './feeds.js';
import { channelUrl } from './refs.js';

export const telegram: PlatformAdapter = {
  id: 'telegram',
  name: 'Telegram',
  region: 'global',
  // Public channels' web preview needs no login.
  auth: 'none',
  hosts: ['t.me', 'telegram.me'],
  // Photos, video streams and avatars of the web preview come from these CDNs.
  mediaHosts: ['.telegram-cdn.org', '.cdn-telegram.org', '.telesco.pe'],
  mediaHeaders: () => ({ Referer: 'https://t.me/' }),
  // t.me answers a client it finds too fast with "No posts found" pages.
  minGapMs: 1500,
  replay: {
    /*
     * `before` names which slice of the history a page is, and a first page is recorded with the
     * ?before=<newest+1> its canonical link carries: it is ignored here so t.me/s/<channel> finds that
     * recording; pageMismatch() then refuses a recording of another slice.
     */
    volatile: ['before'],
    /*
     * A search and the plain history share the path t.me/s/<channel>: `q` must be equal or absent on
     * both sides (the cursor rule), so neither is ever served for the other.
     */
    cursor: ['q'],
  },
  authorUrl: ({ id, handle }) => (handle || id ? channelUrl((handle || id) as string) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
  },
};
