import type { CommentsAction, CrawlContext, Page, Params } from './types.js';
import type { Comment } from '../domain/results.js';

/**
 * The reply hook of an adapter whose comments action already pages one thread with params.replies_of:
 * the thread's pages are that action's pages for the top-level comment's cid.
 */
export function viaRepliesOf(page: CommentsAction['page']): NonNullable<CommentsAction['replies']> {
  return (ctx: CrawlContext, params: Params, parentCid: string, cursor?: string): Promise<Page<Comment>> => {
    const { parent_id: _alias, ...rest } = params;
    return page(ctx, { ...rest, replies_of: parentCid }, cursor);
  };
}
