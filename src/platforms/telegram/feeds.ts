import { InvalidInput, ReplayMiss, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, fetchPage, pageMismatch, readHistory } from './api.js';
import { messageToDraft, type HistoryPage } from './parse.js';
import { parseChannelRef, parseSearchRef } from './refs.js';

function checkCursor(cursor: string | undefined): string | undefined {
  if (cursor !== undefined && !/^\d{1,12}$/.test(cursor)) throw new InvalidInput('params.cursor: not a telegram history cursor');
  return cursor;
}

/** One history page; asked once more when t.me answers another page than the one requested. */
async function historyPage(ctx: CrawlContext, channel: string, q: string | undefined, before: string | undefined): Promise<HistoryPage> {
  for (let attempt = 0; ; attempt++) {
    const fetched = await fetchPage(ctx, ENDPOINTS.history(channel), { q, before });
    const page = readHistory(fetched, channel, { search: q !== undefined });
    const mismatch = pageMismatch(page, before);
    if (!mismatch) return page;
    // A recording of another slice is no answer for this one: the recordings end here (asking again gets the same).
    if (ctx.replay) {
      const url = new URL(ENDPOINTS.history(channel));
      if (q !== undefined) url.searchParams.set('q', q);
      if (before !== undefined) url.searchParams.set('before', before);
      throw new ReplayMiss('GET', url.toString(), `the recording holds another page: ${mismatch}`);
    }
    if (attempt >= 1) throw new UpstreamError(`t.me/s/${channel}${q ? ` (q=${q})` : ''}: ${mismatch}`);
  }
}

/**
 * t.me lists a page oldest first; items go newest first so that pages chain backwards in time.
 * The next page is "before the smallest id here", when t.me links to older messages.
 */
function toPage(page: HistoryPage, before: string | undefined): Page<ItemDraft> {
  const older = before === undefined ? page.messages : page.messages.filter((m) => m.id < Number(before));
  const title = page.channel?.title;
  const items = older
    .filter((m) => !m.service)
    .reverse()
    .map((m) => messageToDraft(m, title));
  const smallest = older.length ? Math.min(...older.map((m) => m.id)) : undefined;
  const next = page.hasOlder && smallest !== undefined && smallest > 1 && String(smallest) !== before ? String(smallest) : undefined;
  return next ? { items, next_cursor: next } : { items };
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const ref = parseChannelRef(params.query);
  const before = checkCursor(cursor) ?? ref.before;
  return toPage(await historyPage(ctx, ref.channel, undefined, before), before);
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const ref = parseSearchRef(params.query, typeof params.channel === 'string' ? params.channel : undefined);
  const before = checkCursor(cursor) ?? ref.before;
  return toPage(await historyPage(ctx, ref.channel, ref.q, before), before);
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A public channel's message history, newest first (t.me/s/<channel>, older pages by ?before=<message id>)",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the channel: username, @username, t.me/<channel> or t.me/s/<channel> (a t.me/s URL with ?before=<id> starts there)',
    },
  ],
  walk: true,
  timeOrdered: true,
  page: postsPage,
};

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: "Search one public channel's messages by keyword (t.me/s/<channel>?q=<keyword>)",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'keyword (#hashtag works); without params.channel: "@channel keyword" or a t.me/s/<channel>?q=<keyword> URL',
    },
    { name: 'channel', type: 'string', required: false, description: 'the channel to search in: username, @username or t.me link' },
  ],
  page: searchPage,
};
