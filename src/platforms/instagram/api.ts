import { CrawlError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { dropGuest, guestTokens } from './guest.js';
import { appId, asbdId, docId, queryHash, type OpRef, type QueryHashKey, type RelayOperation } from './ops.js';
import { cookieValue, GuestRefused, loggedIn, readJson, type Json } from './outcomes.js';
import { WWW } from './refs.js';

const I = 'https://i.instagram.com';

/** Every endpoint, in one place (global-platforms.md §2; the fixture README for the recorded hosts). */
export const ENDPOINTS = {
  /** Profile + first 12 posts; works with no cookies at all. */
  webProfileInfo: `${WWW}/api/v1/users/web_profile_info/`,
  /** REST user by pk (login). */
  userInfo: (pk: string) => `${I}/api/v1/users/${pk}/info/`,
  /** REST media by pk (login). */
  mediaInfo: (pk: string) => `${WWW}/api/v1/media/${pk}/info/`,
  /** The older JSON view of a post page (login; same items[] as mediaInfo). */
  postJson: (shortcode: string) => `${WWW}/p/${shortcode}/`,
  /** The post page itself: its data-sjs JSON carries xig_polaris_media for logged-out visitors. */
  postPage: (shortcode: string) => `${WWW}/p/${shortcode}/`,
  /** Must answer status ok before a logged-out post query (yt-dlp, FxEmbed). */
  ruling: `${WWW}/api/v1/web/get_ruling_for_content/`,
  /** REST reels of a user, POST form (login). */
  clipsUser: `${I}/api/v1/clips/user/`,
  /** REST hashtag sections, POST form (login). */
  tagSections: (tag: string) => `${WWW}/api/v1/tags/${encodeURIComponent(tag)}/sections/`,
  /** REST comments and replies (login). */
  mediaComments: (pk: string) => `${I}/api/v1/media/${pk}/comments/`,
  childComments: (pk: string, cid: string) => `${I}/api/v1/media/${pk}/comments/${cid}/child_comments/`,
  /** Blended search (users, hashtags, places). */
  topsearch: `${WWW}/web/search/topsearch/`,
  /** Comment write (login; answers {id, from, text, created_time, status}). */
  commentAdd: (pk: string) => `${WWW}/api/v1/web/comments/${pk}/add/`,
  /** doc_id queries of a logged-in session (instaloader) and of a logged-out page (lsd; yt-dlp, FxEmbed). */
  graphqlQuery: `${WWW}/graphql/query/`,
  graphqlLoggedOut: `${WWW}/api/graphql`,
} as const;

/** The headers of the web client's API calls; X-CSRFToken wherever a csrftoken is known. */
export function igHeaders(ctx: CrawlContext, referer = `${WWW}/`, csrf = cookieValue(ctx.session.cookies, 'csrftoken')): Record<string, string> {
  return {
    accept: '*/*',
    'accept-language': 'en-US,en;q=0.9',
    'x-ig-app-id': appId(ctx),
    'x-asbd-id': asbdId(ctx),
    'x-ig-www-claim': '0',
    'x-requested-with': 'XMLHttpRequest',
    referer,
    ...(csrf ? { 'x-csrftoken': csrf } : {}),
  };
}

const query = (params: Record<string, string | undefined>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

export interface Call {
  what: string;
  referer?: string;
  op?: OpRef;
}

export async function apiGet(ctx: CrawlContext, url: string, params: Record<string, string | undefined>, call: Call): Promise<Json> {
  const res = await ctx.http.request({ url: `${url}${query(params)}`, followRedirects: false, headers: igHeaders(ctx, call.referer) });
  return readJson(res, ctx, call.what, call.op);
}

export async function apiPost(ctx: CrawlContext, url: string, form: Record<string, string | undefined>, call: Call): Promise<Json> {
  const body: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (v !== undefined) body[k] = v;
  const res = await ctx.http.request({ method: 'POST', url, form: body, followRedirects: false, headers: igHeaders(ctx, call.referer) });
  return readJson(res, ctx, call.what, call.op);
}

/** GET graphql/query/?query_hash=…&variables=… (the legacy feeds; variables in the order the web sent them). */
export async function legacyQuery(ctx: CrawlContext, key: QueryHashKey, variables: Record<string, unknown>, call: Call): Promise<Json> {
  const hash = queryHash(ctx, key);
  return apiGet(ctx, ENDPOINTS.graphqlQuery, { query_hash: hash, variables: JSON.stringify(variables) }, { ...call, op: { key, kind: 'query_hash', id: hash } });
}

/**
 * A Relay operation by doc_id. With a login: POST graphql/query with the session (instaloader). Without:
 * POST api/graphql with a home page's lsd and csrftoken (yt-dlp, FxEmbed), minted again once when refused.
 */
export async function relayQuery(ctx: CrawlContext, name: RelayOperation, variables: Record<string, unknown>, call: Call): Promise<Json> {
  const id = docId(ctx, name);
  const op: OpRef = { key: name, kind: 'doc_id', id };
  const referer = call.referer ?? `${WWW}/`;
  if (loggedIn(ctx)) {
    const res = await ctx.http.request({
      method: 'POST',
      url: ENDPOINTS.graphqlQuery,
      followRedirects: false,
      headers: { ...igHeaders(ctx, referer), 'x-fb-friendly-name': name },
      form: { fb_api_req_friendly_name: name, variables: JSON.stringify(variables), doc_id: id, server_timestamps: 'true' },
    });
    return readJson(res, ctx, call.what, op);
  }
  const attempt = async (): Promise<Json> => {
    const guest = await guestTokens(ctx);
    const res = await ctx.http.request({
      method: 'POST',
      url: ENDPOINTS.graphqlLoggedOut,
      followRedirects: false,
      headers: { ...igHeaders(ctx, referer, guest.csrftoken), 'x-fb-friendly-name': name, 'x-fb-lsd': guest.lsd, cookie: guest.cookie, origin: WWW },
      form: { lsd: guest.lsd, fb_api_caller_class: 'RelayModern', fb_api_req_friendly_name: name, server_timestamps: 'true', variables: JSON.stringify(variables), doc_id: id },
    });
    return readJson(res, ctx, call.what, op);
  };
  try {
    return await attempt();
  } catch (e) {
    if (!(e instanceof GuestRefused) || !dropGuest(ctx)) throw e;
    ctx.warn('Instagram refused the guest tokens; they were minted again');
    return attempt();
  }
}

/** A failure after which an equivalent route may still answer (never a login demand or a throttle). */
export const isFallbackable = (e: unknown): boolean =>
  isReplayMiss(e) || (e instanceof CrawlError && (e.code === 'upstream_error' || e.code === 'blocked' || e.code === 'timeout'));
