import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { explainMissing, getPage, morePath, ROUTES } from './api.js';
import { permalinkDraft } from './parse.js';
import { wanted } from './detail.js';
import { resolvePost } from './resolve.js';
import { ldComments, pageComments } from './thread.js';

/** "View more comments" hrefs stay facebook pages of the post (never the login or account routes). */
const COMMENTS_MORE = /^\/(?!login|checkpoint|logout|settings|r\.php)[^]*$/;

/*
 * The comments a post's page embeds (the first ~30, newest threads first as facebook ranks them) and the
 * pages behind "View more comments" (?p=30, 60, …); a video page's JSON-LD sample where the page has no
 * comments block. Anonymous, as the public scrapers read them.
 */
async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const ref = await resolvePost(ctx, params.query);
  const what = `comments of facebook ${ref.kind === 'video' ? 'video' : 'post'} ${ref.id}`;
  const url = cursor !== undefined ? ROUTES.more(morePath(cursor, COMMENTS_MORE, 'comments')) : ROUTES.post(ref);
  const page = await getPage(ctx, url, what);
  const postId = ref.kind === 'video' ? undefined : ref.id;
  let got = pageComments(page.html, postId);
  if (!got.found || (!got.items.length && cursor === undefined)) {
    const ld = ldComments(page.html);
    if (ld.found && (ld.items.length || !got.found)) got = ld;
  }
  if (!got.found) {
    // The post is there but carries no comments block: nobody commented, or comments are off.
    if (cursor === undefined && permalinkDraft(page.html, page.url, wanted(ref))) return { items: [], total: 0 };
    explainMissing(ctx, page, what, 'no comments block on the page');
  }
  return { items: got.items, next_cursor: got.next && got.next !== cursor ? got.next : undefined, total: got.total };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: 'The comments of a public facebook post or video (anonymous): the ones its page embeds, then "View more comments" pages; reply counts, not the replies',
  params: [{ name: 'query', type: 'string', required: true, description: 'post id, post/photo/video link or fb.watch link (as for detail)' }],
  page: commentsPage,
};
