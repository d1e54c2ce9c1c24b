import { NotFound, ParseError } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { NSID, firstAnswer, publicGet } from './api.js';
import { resolveDid } from './identity.js';
import { flattenReplies, obj, postToDraft, threadFromV2, threadKind } from './parse.js';
import { parsePostRef, postAtUri, type PostRef } from './refs.js';

type Json = Record<string, unknown>;

/** How many reply levels comments asks for: the Bluesky app's own thread view depth. */
export const COMMENT_DEPTH = 10;

/** getPostThread for one post (handles resolved to a DID first: the at:// URI names the repository). */
export async function postThread(ctx: CrawlContext, ref: PostRef, depth: number): Promise<{ uri: string; thread: Json }> {
  const did = await resolveDid(ctx, ref.actor);
  const uri = postAtUri(did, ref.rkey);
  // getPostThread first; the app's newer getPostThreadV2 (a flat, depth-tagged list) when the first cannot
  // be had non-terminally (an outage, a host without it, only a V2 recording).
  const thread = await firstAnswer([
    async () => obj((await publicGet(ctx, NSID.getPostThread, { uri, depth, parentHeight: 0 })).thread),
    async () => {
      const body = await publicGet(ctx, NSID.getPostThreadV2, { anchor: uri, above: false, below: depth });
      const root = threadFromV2(body);
      if (!root) throw new ParseError('getPostThreadV2: the answer has no anchor item');
      return root;
    },
  ]);
  switch (threadKind(thread)) {
    case 'post':
      return { uri, thread: thread! };
    case 'notFound':
      throw new NotFound(`getPostThread: ${uri} was not found (deleted, or never existed)`);
    case 'blocked':
      throw new NotFound(`getPostThread: ${uri} is not viewable (a block between its author and the viewer)`);
    default:
      throw new ParseError('getPostThread: the answer has no thread view');
  }
}

/** The post as detail gives it, with its post view (download reads the embed). */
export async function readPost(ctx: CrawlContext, params: Params): Promise<{ draft: ItemDraft; post: unknown }> {
  const { thread } = await postThread(ctx, parsePostRef(params.query), 0);
  const draft = postToDraft(thread.post);
  if (!draft) throw new ParseError('getPostThread: the thread post has no at:// URI');
  return { draft, post: thread.post };
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  return { items: [(await readPost(ctx, params)).draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One Bluesky post with its media (images at full size, video as its HLS playlist)',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the post: https://bsky.app/profile/<handle>/post/<rkey>, at://<did>/app.bsky.feed.post/<rkey>, or an item id <did>/<rkey>',
    },
  ],
  page: detailPage,
};

async function commentsPage(ctx: CrawlContext, params: Params): Promise<Page<Comment>> {
  const { thread } = await postThread(ctx, parsePostRef(params.query), COMMENT_DEPTH);
  const { comments, cutOff } = flattenReplies(thread);
  if (cutOff > 0) ctx.warn(`${cutOff} replies lie deeper than ${COMMENT_DEPTH} levels and are not listed; ask comments of a deep reply's URI for them`);
  const replyCount = obj(thread.post)?.replyCount;
  return { items: comments, total: Number.isSafeInteger(replyCount) && (replyCount as number) >= 0 ? (replyCount as number) : undefined };
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: `Replies to a Bluesky post, ${COMMENT_DEPTH} levels deep, depth-first; parent_id is the at:// URI of the reply answered (cid is each reply's at:// URI)`,
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the post: https://bsky.app/profile/<handle>/post/<rkey>, at://<did>/app.bsky.feed.post/<rkey>, or an item id <did>/<rkey>',
    },
  ],
  page: commentsPage,
  // One answer (or the page walk itself) carries the replies with parent_id set: replies=all passes them through.
  wholeTree: true,
};
