import type { PlatformAdapter } from '../types.js';
import { refreshOps } from './bundle.js';
import { commentsAction } from './comments.js';
import { userAction } from './creator.js';
import { detailAction } from './detail.js';
import { downloadAction } from './download.js';
import { DEFAULT_OPS } from './ops.js';
import { postsAction } from './posts.js';
import { probeLogin } from './probe.js';
import { isHandle, profileUrl, userIdUrl } from './refs.js';
import { searchAction } from './search.js';
import { trendingAction } from './trending.js';
import { commentCreateAction, deleteAction, postCreateAction } from './writes.js';

export const twitter: PlatformAdapter = {
  id: 'twitter',
  name: 'X (Twitter)',
  region: 'global',
  aliases: ['x'],
  // Search, timelines, accounts, replies and trends need a logged-in profile (auth_token + ct0); a single
  // post also works anonymously (guest token, then the embed endpoint).
  auth: 'cookie',
  // The login's cookies go to x.com / twitter.com only (never to t.co or the twimg CDNs).
  hosts: ['x.com', '.x.com', 'twitter.com', '.twitter.com'],
  // Pictures (pbs), video (video), and the page bundles and embed endpoint the adapter reads (abs, cdn.syndication).
  mediaHosts: ['.twimg.com'],
  mediaHeaders: () => ({ Referer: 'https://x.com/' }),
  // X counts requests per account and operation in 15-minute windows (50 searches, 50 timelines, 150
  // details); a second between requests keeps a walk inside them longer.
  minGapMs: 1000,
  probe: probeLogin,
  login: { url: 'https://x.com/i/flow/login', successCookie: 'auth_token', domains: ['.x.com'] },
  ops: { defaults: DEFAULT_OPS, refresh: refreshOps },
  replay: {
    volatile: ['features', 'fieldToggles', 'token', 'lang'],
    identifying: ['variables.focalTweetId', 'variables.tweetId', 'variables.rawQuery', 'variables.product', 'variables.screenName', 'variables.timelineId', 'variables.communityId'],
    cursor: ['variables.cursor'],
    // Query ids rotate every few weeks and twitter.com is x.com's former name: neither changes the answer.
    routes: [
      [/^(?:www\.|mobile\.)?twitter\.com\//, 'x.com/'],
      [/^api\.twitter\.com\//, 'api.x.com/'],
      [/^(x\.com\/i\/api\/graphql|api\.x\.com\/graphql)\/[^/]+\//, '$1/*/'],
    ],
  },
  authorUrl: ({ id, handle }) => (handle && isHandle(handle) ? profileUrl(handle) : id && /^\d{1,20}$/.test(id) ? userIdUrl(id) : undefined),
  actions: {
    search: searchAction,
    posts: postsAction,
    user: userAction,
    detail: detailAction,
    download: downloadAction,
    comments: commentsAction,
    trending: trendingAction,
    'post.create': postCreateAction,
    'comment.create': commentCreateAction,
    delete: deleteAction,
  },
};
