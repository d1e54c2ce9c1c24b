import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { gql, hasLogin, isFallbackable, readAnswer } from './api.js';
import { conversationOf, instructionsOf, obj, type Json, syndicationNode, tweetNode, tweetToDraft, type TweetNode } from './parse.js';
import { resolveTweetId } from './refs.js';

export const SYNDICATION = 'https://cdn.syndication.twimg.com/tweet-result';

/** ((id / 1e15) · π) in base 36 without zeros and the point: the token the embed widget sends. */
export function syndicationToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '');
}

const LOGIN_REASONS = new Set(['NsfwLoggedOut', 'NsfwViewerHasNoStatedAge']);

/** The post as detail gives it, with its tweet node (download reads every media variant from it). */
export type FocalPost = { draft: ItemDraft; tweet: Json };

/** A focal tweet as a draft with its node, or why X did not show it. */
function focalPost(ctx: CrawlContext, node: TweetNode | undefined, id: string): FocalPost {
  if (!node) throw new NotFound(`X returned no post ${id} (deleted, or never existed)`);
  if (node.kind === 'tombstone') throw new NotFound(`X shows post ${id} as: ${node.text}`);
  if (node.kind === 'unavailable') {
    const why = node.message ?? node.reason ?? 'unavailable';
    if (node.reason && LOGIN_REASONS.has(node.reason) && !hasLogin(ctx)) {
      throw new SessionExpired(`X shows post ${id} only to logged-in accounts (${node.reason}): add a profile with npx crawler profiles add twitter ${ctx.profile} --cookie 'auth_token=…; ct0=…'`);
    }
    throw new NotFound(`X says post ${id} is unavailable (${why}${node.reason && node.message ? `, ${node.reason}` : ''})`);
  }
  const draft = tweetToDraft(node.tweet);
  if (!draft) throw new UpstreamError(`X answered post ${id} without its id`);
  return { draft, tweet: node.tweet };
}

async function fromDetail(ctx: CrawlContext, id: string): Promise<FocalPost> {
  const { body } = await gql(ctx, { op: 'TweetDetail', route: 'login', what: `post ${id}`, variables: { focalTweetId: id, referrer: 'tweet' } });
  return focalPost(ctx, conversationOf(instructionsOf(obj(body.data)) ?? [], id).focal, id);
}

async function fromRestId(ctx: CrawlContext, id: string): Promise<FocalPost> {
  const route = hasLogin(ctx) ? 'login' : 'guest';
  const { body } = await gql(ctx, { op: 'TweetResultByRestId', route, what: `post ${id}`, variables: { tweetId: id } });
  // An unknown id answers data.tweetResult = {}.
  return focalPost(ctx, tweetNode(obj(obj(obj(body.data)?.tweetResult)?.result)), id);
}

/** The embed widget's endpoint: anonymous, fewer fields (no views, shares); used last. */
async function fromSyndication(ctx: CrawlContext, id: string): Promise<FocalPost> {
  const res = await ctx.http.request({ url: `${SYNDICATION}?id=${id}&lang=en&token=${syndicationToken(id)}`, headers: { accept: 'application/json' } });
  if (res.status === 404 || (res.status === 200 && !res.text().trim())) throw new NotFound(`X's embed endpoint has no post ${id}`);
  const { body } = readAnswer(res, { what: `post ${id} (embed)`, route: 'guest', op: 'tweet-result', profile: ctx.profile });
  ctx.warn(`post ${id} came from X's embed endpoint, which omits views and reposts`);
  return focalPost(ctx, syndicationNode(body), id);
}

/*
 * With a login: TweetDetail (the web page's own call), else TweetResultByRestId with the login; without
 * one: TweetResultByRestId with a guest token, then the embed endpoint. A tombstone (deleted, withheld,
 * suspended author) is not_found with X's text; an age-gated post without a login is session_expired.
 */
export async function resolvePost(ctx: CrawlContext, query: string | undefined): Promise<FocalPost> {
  const id = await resolveTweetId(ctx, query);
  const routes = hasLogin(ctx)
    ? [() => fromDetail(ctx, id), () => fromRestId(ctx, id), () => fromSyndication(ctx, id)]
    : [() => fromRestId(ctx, id), () => fromSyndication(ctx, id)];
  return firstAnswering(routes, isFallbackable);
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const { draft } = await resolvePost(ctx, params.query);
  const id = draft.native_id;
  if (draft.type === 'video' && !draft.media?.some((m) => m.kind === 'video')) ctx.warn(`X answered post ${id} without a playable mp4`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One X post with its pictures (original size) and video (highest-bitrate mp4); anonymous with a guest token or the embed endpoint, the full page call with a login',
  params: [{ name: 'query', type: 'string', required: true, description: 'post id, an x.com / twitter.com /status/<id> link (also mobile, fxtwitter, vxtwitter, /i/web/status/), or a t.co link' }],
  page: detailPage,
};
