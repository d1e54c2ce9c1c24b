import { NotFound } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { postToDraft, type ThreadsPost } from './parse.js';
import { focalPost, postPage } from './postpage.js';
import { parsePostRef } from './refs.js';
import { rememberHandle } from './resolve.js';

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  return { items: [postToDraft(await readFocal(ctx, params))] };
}

/** The post the reference names, from its page; gone or unavailable is NotFound. */
export async function readFocal(ctx: CrawlContext, params: Params): Promise<ThreadsPost> {
  const post = parsePostRef(params.query);
  const page = await postPage(ctx, { post, sort: 'top' });
  const focal = focalPost(page, post.pk);
  if (!focal) throw new NotFound(`threads has no post ${post.code}`);
  if (focal.unavailable) throw new NotFound(`threads says post ${post.code} is unavailable (deleted, private or restricted)`);
  rememberHandle(ctx, focal.user?.handle, focal.user?.id);
  return focal;
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One threads post with its images, video or carousel (anonymous)',
  params: [{ name: 'query', type: 'string', required: true, description: 'a threads.com (or threads.net) /@user/post/<code> or /t/<code> link, the post code, or its numeric id' }],
  page: detailPage,
};
