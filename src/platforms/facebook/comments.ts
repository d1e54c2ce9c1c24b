import { ParseError } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { explainMissing, getPage, morePath, ROUTES, type FbPage } from './api.js';
import { wanted } from './detail.js';
import { permalinkDraft } from './parse.js';
import { resolvePost, type ResolvedPost } from './resolve.js';
import { ldComments, pageComments, type CommentsPage } from './thread.js';

/** "View more comments" hrefs stay facebook pages of the post (never the login or account routes). */
const COMMENTS_MORE = /^\/(?!login|checkpoint|logout|settings|r\.php)[^]*$/;

function commentsOn(page: FbPage, postId: string | undefined, first: boolean): CommentsPage {
  const got = pageComments(page.html, postId);
  if (got.found && (got.items.length || !first)) return got;
  const ld = ldComments(page.html);
  return ld.found && (ld.items.length || !got.found) ? ld : got;
}

/** The post's story.php permalink a page links to (a watch page shows the video, not its comments). */
function storyLink(html: string, postId: string | undefined): string | undefined {
  const m = postId ? new RegExp(`/story\\.php\\?story_fbid=${postId}&(?:amp;)?id=(\\d+)`).exec(html) : null;
  return m ? ROUTES.post({ kind: 'story', id: postId!, owner: m[1]! }) : undefined;
}

/*
 * The comments a post's page embeds (the first ~30, as facebook ranks them) and the pages behind "View more
 * comments" (?p=30, 60, …); a video page's JSON-LD sample where the page has no comments block, and the
 * post's story.php permalink where the page (a watch page) shows none. Anonymous, as the public scrapers read them.
 */
async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const ref: ResolvedPost = await resolvePost(ctx, params.query);
  const what = `comments of facebook ${ref.kind === 'video' ? 'video' : 'post'} ${ref.id}`;
  const url = cursor !== undefined ? ROUTES.more(morePath(cursor, COMMENTS_MORE, 'comments')) : ROUTES.post(ref);
  let page = await getPage(ctx, url, what);
  const postId = ref.kind === 'video' ? undefined : ref.id;
  let got = commentsOn(page, postId, cursor === undefined);
  const permalink = !got.found && cursor === undefined ? storyLink(page.html, postId) : undefined;
  if (permalink && permalink !== url) {
    page = await getPage(ctx, permalink, what);
    got = commentsOn(page, postId, true);
  }
  if (!got.found) {
    const post = cursor === undefined ? permalinkDraft(page.html, page.url, wanted(ref)) : undefined;
    if (!post) explainMissing(ctx, page, what, 'no comments block on the page');
    // The post is there without a comments block: honest only when it reports no comments.
    const count = post.stats.comments ?? 0;
    if (count > 0) throw new ParseError(`${what}: the page shows the post (${count} comments) but none of its comments (${page.url})`);
    return { items: [], total: 0 };
  }
  return { items: got.items, next_cursor: got.next && got.next !== cursor ? got.next : undefined, total: got.total };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: 'The comments of a public facebook post or video (anonymous): the ones its page embeds, then "View more comments" pages; reply counts, not the replies',
  params: [{ name: 'query', type: 'string', required: true, description: 'post id, post/photo/video link or fb.watch link (as for detail)' }],
  page: commentsPage,
};
