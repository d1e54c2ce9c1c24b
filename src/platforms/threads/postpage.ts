import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput, NotFound } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { APP_PATHS, appGet, graphql, isFallbackable, noting } from './api.js';
import { postPageOf, type PostPage } from './answers.js';
import type { ThreadsPost } from './parse.js';
import { postUrl, type PostRef } from './refs.js';
import { hasLogin } from './session.js';

/*
 * A post and its reply threads: the 2026 web query (sort and Relay paging), the 2023 one (one page, no
 * sort), and with a login the app's text_feed/<pk>/replies/ (paging_token). A cursor names the route that
 * made it ("w:" web, "a:" app), since one route's cursor means nothing to another.
 */

export type Sort = 'top' | 'recent';
export const SORTS: Sort[] = ['top', 'recent'];

export interface Ask {
  post: PostRef;
  sort: Sort;
  cursor?: string;
  /** Reply threads per page (web). */
  first?: number;
}

export interface Answered extends PostPage {
  /** The next page's cursor, already prefixed with its route. */
  nextCursor?: string;
}

function gone(ask: Ask): never {
  throw new NotFound(`threads has no post ${ask.post.code} (${ask.post.pk}), or it is not visible`);
}

async function fromWeb(ctx: CrawlContext, ask: Ask, after?: string): Promise<Answered> {
  const variables: Record<string, unknown> = { postID: ask.post.pk, sort_order: ask.sort === 'recent' ? 'RECENT' : 'TOP' };
  if (after) variables.after = after;
  if (ask.first) variables.first = ask.first;
  const json = await graphql(ctx, 'BarcelonaPostPageDirectQuery', variables, `post ${ask.post.code}`, { referer: postUrl(undefined, ask.post.code) });
  const page = postPageOf(json, ask.post.pk, !after) ?? gone(ask);
  return { ...page, nextCursor: page.next ? `w:${page.next}` : undefined };
}

async function fromLegacy(ctx: CrawlContext, ask: Ask): Promise<Answered> {
  const json = await graphql(ctx, 'BarcelonaPostPageQuery', { postID: ask.post.pk }, `post ${ask.post.code}`, { referer: postUrl(undefined, ask.post.code), remint: false });
  const page = postPageOf(json, ask.post.pk, true) ?? gone(ask);
  // This generation answers one page and knows no sort.
  return { ...page, next: undefined };
}

async function fromApp(ctx: CrawlContext, ask: Ask, token?: string): Promise<Answered> {
  if (ask.sort === 'recent') ctx.warn('the app route orders replies by top only');
  const json = await appGet(ctx, APP_PATHS.replies(ask.post.pk), { post_id: ask.post.pk, sort_order: 'top', paging_token: token }, `post ${ask.post.code}`, { referer: postUrl(undefined, ask.post.code) });
  const page = postPageOf(json, ask.post.pk, !token) ?? gone(ask);
  return { ...page, nextCursor: page.next ? `a:${page.next}` : undefined };
}

export async function postPage(ctx: CrawlContext, ask: Ask): Promise<Answered> {
  if (ask.cursor !== undefined) {
    const m = /^([wa]):(.+)$/s.exec(ask.cursor);
    if (!m) throw new InvalidInput('params.cursor: not a threads replies cursor');
    return m[1] === 'w' ? fromWeb(ctx, ask, m[2]) : fromApp(ctx, ask, m[2]);
  }
  return firstAnswering<Answered>(
    [noting(ctx, () => fromWeb(ctx, ask)), noting(ctx, () => fromLegacy(ctx, ask)), ...(hasLogin(ctx) ? [() => fromApp(ctx, ask)] : [])],
    isFallbackable,
  );
}

/** The asked post out of its thread (a thread shows its author's chain); the last one when none matches. */
export function focalPost(page: PostPage, pk: string): ThreadsPost | undefined {
  return page.focal.find((p) => p.pk === pk) ?? page.focal[page.focal.length - 1];
}
