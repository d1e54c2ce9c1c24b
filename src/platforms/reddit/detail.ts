import { ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { read } from './api.js';
import { commentToDraft, listingOf, postOf, postToDraft } from './parse.js';
import { permalinkPath } from './refs.js';
import { resolvePostRef } from './share.js';

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const { items } = await readPost(ctx, params);
  return { items };
}

/** The post (or the one comment) as detail gives it, with the post's raw t3 data for download. */
export async function readPost(ctx: CrawlContext, params: Params): Promise<{ items: ItemDraft[]; raw?: Record<string, unknown> }> {
  const ref = await resolvePostRef(ctx, params.query);
  if (ref.kind === 'comment' && !ref.postId) {
    // A bare t1_ fullname: /api/info is the one endpoint that answers a comment by its id alone.
    const what = `comment t1_${ref.id}`;
    const listing = listingOf(await read(ctx, { what, variants: [{ path: '/api/info', query: { id: `t1_${ref.id}` } }], query: { raw_json: 1 } }), what);
    const found = listing.children.find((c) => c.kind === 't1');
    if (!found) return { items: [] };
    const draft = commentToDraft(found.data);
    if (!draft) throw new ParseError(`${what}: the comment carries no id`);
    return { items: [draft] };
  }
  const id = ref.kind === 'comment' ? (ref.postId as string) : ref.id;
  const what = `post t3_${id}`;
  const body = await read(ctx, {
    what,
    variants: [
      // The submission page is what every recording shows; limit=1 keeps its comment tree to one thread.
      { path: `/comments/${id}`, query: { limit: 1 } },
      // The same page under the URL the caller gave (with subreddit, slug, comment), then a comment's own page.
      ...samePage(params.query, ref),
      { path: '/api/info', query: { id: `t3_${id}` } },
      { path: `/by_id/t3_${id}` },
    ],
    query: { raw_json: 1 },
  });
  const post = postOf(body, what);
  // /api/info and /by_id answer an empty Listing for an id reddit does not have: an honest nothing.
  if (!post) return { items: [] };
  const draft = postToDraft(post);
  if (!draft) throw new ParseError(`${what}: the post carries no id`);
  return { items: [draft], raw: post };
}

/** Other paths of the submission page: the permalink as given, and /comments/<post>/_/<comment>. */
export function samePage(query: unknown, ref: { kind: string; id: string; postId?: string }): Array<{ path: string }> {
  const out: Array<{ path: string }> = [];
  const given = permalinkPath(query);
  if (given) out.push({ path: given });
  const thread = ref.kind === 'comment' && ref.postId ? `/comments/${ref.postId}/_/${ref.id}` : undefined;
  if (thread && thread !== given) out.push({ path: thread });
  return out;
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One reddit post with its playable media: the v.redd.it stream, every gallery image, the full-size image, or the self text',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'post URL (reddit.com/r/<sub>/comments/<id>/…), redd.it/<id>, share link (/r/<sub>/s/<code>), t3_<id>, bare id, or t1_<id> for one comment',
    },
  ],
  page: detailPage,
};
