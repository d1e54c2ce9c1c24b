import { CrawlError, NotFound, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, getHtml, getJson, withFallback } from './api.js';
import { errorPageMessage, renderDataStatus } from './html.js';
import { idTime, isTruncated, mblogToDraft, obj, pcIsTruncated, pcStatusToDraft, str } from './parse.js';
import { pcLongText, pcStatus } from './pc.js';
import { parsePostRef, type PostRef } from './refs.js';

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

/** Where a status came from: the two sites shape it differently and fetch long text differently. */
interface Found {
  site: 'm' | 'pc' | 'extend';
  mblog: Mblog;
}

/**
 * The last resort: statuses/extend alone carries the full text and the counts, nothing else. What it says
 * is passed on as it is, with a warning naming what is missing; the time comes from the id.
 */
async function fromExtend(ctx: CrawlContext, ref: PostRef): Promise<Mblog> {
  const env = await getJson(ctx, ENDPOINTS.extend, { id: ref.mid }, `statuses/extend ${ref.mid}`, `https://m.weibo.cn/detail/${ref.mid}`);
  if (env.kind === 'empty') throw new NotFound(`statuses/extend ${ref.mid}: weibo says ${env.message}`);
  const text = str(env.data.longTextContent);
  if (!text || !text.trim()) throw new ParseError(`statuses/extend ${ref.mid}: the answer carries no longTextContent`);
  ctx.warn(`only weibo's long-text answer (statuses/extend) was available for ${ref.mid}: the item has its text and counts, but no author, media or creation time beyond what the id encodes`);
  const counts = Object.fromEntries(['reposts_count', 'comments_count', 'attitudes_count'].filter((k) => env.data[k] !== undefined).map((k) => [k, env.data[k]]));
  return { mid: ref.mid, id: ref.mid, bid: ref.bid, text, ...counts };
}

/** Runs a long-text fetch; a failure keeps the preview with a warning, a replay miss still fails loudly. */
async function withLongText(ctx: CrawlContext, mid: string, fetch: () => Promise<string | undefined>): Promise<string | undefined> {
  try {
    const full = await fetch();
    if (!full) ctx.warn(`weibo had no long text for ${mid}; the text is the truncated preview`);
    return full;
  } catch (e) {
    if (isReplayMiss(e) || !(e instanceof CrawlError)) throw e;
    ctx.warn(`could not fetch the full text of ${mid} (${e.code}: ${e.message}); the text is the truncated preview`);
    return undefined;
  }
}

async function complete(ctx: CrawlContext, found: Found, ref: PostRef): Promise<Mblog> {
  const { mblog } = found;
  const mid = str(mblog.mid) ?? str(mblog.idstr) ?? str(mblog.id) ?? ref.mid;
  if (found.site === 'm') {
    if (!isTruncated(mblog)) return mblog;
    const full = await withLongText(ctx, mid, () => longText(ctx, mid));
    return full ? { ...mblog, longText: { ...(obj(mblog.longText) ?? {}), longTextContent: full } } : mblog;
  }
  if (!pcIsTruncated(mblog)) return mblog;
  const bid = str(mblog.mblogid) ?? ref.bid;
  const full = await withLongText(ctx, mid, () => pcLongText(ctx, bid));
  return full ? { ...mblog, longText: { longTextContent: full } } : mblog;
}

/*
 * m.weibo.cn's statuses/show, then its detail page, then weibo.com's statuses/show, then the long text
 * alone: each next route only when the one before failed non-terminally (a deleted status is not_found
 * and stays so).
 */
async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  return { items: [(await readStatus(ctx, params)).draft] };
}

/** The status as detail gives it, with its mblog (download reads every stream and size). */
export async function readStatus(ctx: CrawlContext, params: Params): Promise<{ draft: ItemDraft; mblog: Record<string, unknown> }> {
  const ref = parsePostRef(params.query);
  const found = await withFallback<Found>(
    async () => ({ site: 'm', mblog: await fromApi(ctx, ref.id) }),
    async () => ({ site: 'm', mblog: await fromPage(ctx, ref.id) }),
    async () => ({ site: 'pc', mblog: await pcStatus(ctx, ref) }),
    async () => ({ site: 'extend', mblog: await fromExtend(ctx, ref) }),
  );
  const mblog = found.site === 'extend' ? found.mblog : await complete(ctx, found, ref);
  const draft = found.site === 'pc' ? pcStatusToDraft(mblog) : mblogToDraft(mblog);
  if (!draft) throw new ParseError(`the status for ${ref.id} has no mid`);
  if (found.site === 'extend') draft.ts ??= idTime(ref.mid);
  return { draft, mblog };
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
