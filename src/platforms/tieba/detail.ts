import { ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { threadDraft } from './parse-html.js';
import { parsePcThread } from './parse-json.js';
import { resolveTid } from './refs.js';
import { threadPage } from './thread.js';

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  return { items: [(await readThread(ctx, params)).draft] };
}

/** The thread as detail gives it, with the opening floor's content fragments when the JSON answered. */
export async function readThread(ctx: CrawlContext, params: Params): Promise<{ draft: ItemDraft; content?: unknown }> {
  const tid = await resolveTid(ctx, params.query);
  const answer = await threadPage(ctx, tid, 1);
  const draft = answer.kind === 'pc' ? parsePcThread(answer.json, tid).draft : threadDraft(answer.page, tid);
  if (!draft) throw new ParseError(`thread ${tid}: the answer carries no opening floor`);
  const first = answer.kind === 'pc' ? answer.json.first_floor : undefined;
  return { draft, content: first && typeof first === 'object' ? (first as Record<string, unknown>).content : undefined };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: "One tieba thread: its opening floor's title, text, images, author, time and reply count",
  params: [{ name: 'query', type: 'string', required: true, description: 'tid, tieba.baidu.com/p/<tid> link (share params are ignored), /f?kz= link, or a jump.bdimg.com link' }],
  page: detailPage,
};
