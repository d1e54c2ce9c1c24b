import { probeLogin } from './probe.js';
import type { PlatformAdapter } from '../types.js';
import { API_HOSTS } from './api.js';
import { userAction } from './creator.js';
import { CATEGORIES, postsAction, recommendedAction, searchAction } from './feeds.js';
import { goodHandle, isDid, profileUrl } from './refs.js';
import { commentsAction, detailAction } from './thread.js';
import { downloadAction } from './download.js';
import { trendingAction } from './trending.js';
import { commentCreateAction, deleteAction, postCreateAction } from './writes.js';

export const bluesky: PlatformAdapter = {
  id: 'bluesky',
  name: 'Bluesky',
  region: 'global',
  aliases: ['bsky'],
  // Reads are anonymous on the public AppView; search and the write verbs need the profile's app password
  // (credentials identifier + app_password, optional service).
  auth: 'none',
  hosts: API_HOSTS,
  // Images (avatars, feed_thumbnail, feed_fullsize) come from cdn.bsky.app; video playlists, segments and
  // thumbnails from video.bsky.app (video.cdn.bsky.app on newer AppView answers).
  // av-cdn.bsky.app served every image in 2023-era answers (avatars and feed images alike).
  mediaHosts: ['cdn.bsky.app', 'av-cdn.bsky.app', 'video.bsky.app', 'video.cdn.bsky.app'],
  mediaHeaders: () => ({ Referer: 'https://bsky.app/' }),
  minGapMs: 250,
  categories: CATEGORIES,
  replay: {
    // A login's password never decides which recording answers; createdAt is the moment of the write.
    volatile: ['password', 'record.createdAt'],
    // actor, uri, q, handle are identifying by default; these name the feed, the record, a reply's thread and
    // getPostThreadV2's anchor post.
    identifying: ['feed', 'rkey', 'collection', 'record.reply.parent.uri', 'record.reply.root.uri', 'anchor'],
    cursor: ['cursor'],
  },
  probe: probeLogin,
  authorUrl: ({ id, handle }) => {
    const h = goodHandle(handle);
    if (h) return profileUrl(h);
    return id && isDid(id) ? profileUrl(id) : undefined;
  },
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    recommended: recommendedAction,
    trending: trendingAction,
    'post.create': postCreateAction,
    'comment.create': commentCreateAction,
    delete: deleteAction,
  },
};
