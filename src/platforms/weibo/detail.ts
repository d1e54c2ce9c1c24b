import { CrawlError, NotFound, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, getHtml, getJson, withFallback } from './api.js';
import { errorPageMessage, renderDataStatus } from './html.js';
import { isTruncated, mblogToDraft, obj, str } from './parse.js';
import { parsePostRef } from './refs.js';

type Mblog = Record<string, unknown>;

/** statuses/show answers the status JSON for a mid or a bid. */
async function fromApi(ctx: CrawlContext, id: string): Promise<Mblog> {
  const env = await getJson(ctx, ENDPOINTS.show, { id }, `statuses/show ${id}`);
  if (env.kind === 'empty') throw new NotFound(`statuses/show ${id}: weibo says ${env.message}`);
  if (!str(env.data.mid) && !str(env.data.id)) throw new ParseError(`statuses/show ${id}: the answer carries no status`);
  return env.data;
}

/** The mobile detail page inlines the same status as `$render_data`. */
async function fromPage(ctx: CrawlContext, id: string): Promise<Mblog> {
  const html = await getHtml(ctx, ENDPOINTS.detailPage(id), undefined);
  const status = renderDataStatus(html);
  if (status) return status;
  const gone = errorPageMessage(html);
  if (gone) throw new NotFound(`m.weibo.cn/detail/${id}: ${gone}`);
  throw new ParseError(`m.weibo.cn/detail/${id}: no $render_data status in the page`);
}

/** statuses/extend → longTextContent (HTML) of a long post. */
async function longText(ctx: CrawlContext, mid: string): Promise<string | undefined> {
  const env = await getJson(ctx, ENDPOINTS.extend, { id: mid }, `statuses/extend ${mid}`, `https://m.weibo.cn/detail/${mid}`);
  if (env.kind === 'empty') return undefined;
  const content = str(env.data.longTextContent);
  return content && content.trim() ? content : undefined;
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const ref = parsePostRef(params.query);
  let mblog = await withFallback(
    () => fromApi(ctx, ref.id),
    () => fromPage(ctx, ref.id),
  );
  if (isTruncated(mblog)) {
    const mid = str(mblog.mid) ?? str(mblog.id) ?? ref.mid;
    try {
      const full = await longText(ctx, mid);
      if (full) mblog = { ...mblog, longText: { ...(obj(mblog.longText) ?? {}), longTextContent: full } };
      else ctx.warn(`weibo had no long text for ${mid}; the text is the truncated preview`);
    } catch (e) {
      if (isReplayMiss(e) || !(e instanceof CrawlError)) throw e;
      ctx.warn(`could not fetch the full text of ${mid} (${e.code}: ${e.message}); the text is the truncated preview`);
    }
  }
  const draft = mblogToDraft(mblog);
  if (!draft) throw new ParseError(`the status for ${ref.id} has no mid`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One weibo status with its full text and playable media (video stream or full-size images)',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'mid, bid, or post URL (m.weibo.cn/detail/<mid>, m.weibo.cn/status/<id>, weibo.com/<uid>/<bid>)',
    },
  ],
  page: detailPage,
};
