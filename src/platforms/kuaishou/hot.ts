import { ParseError } from '../../crawl/errors.js';
import type { Trend } from '../../domain/results.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, TrendsAction } from '../types.js';
import { ENDPOINTS, getPage } from './api.js';
import { hotEntries, hotToDraft, hotToTrend, type HotEntry } from './parse.js';
import { apolloClient } from './state.js';

/*
 * The hot board (热榜) rides in the home page's Apollo cache: $ROOT_QUERY.visionHotRank({"page":"home"})
 * lists VisionHotRankItem entries (name, hotValue, poster, photoIds) — website-hot-hub
 * website_kuaishou.py. No API call, no signature. Each entry is a hot word with the video that leads it.
 */

async function board(ctx: CrawlContext): Promise<HotEntry[]> {
  const what = 'home page hot board';
  const html = await getPage(ctx, ENDPOINTS.home, { what, expect: /__APOLLO_STATE__/ });
  const client = apolloClient(html);
  if (!client) throw new ParseError(`${what}: the page carries no readable window.__APOLLO_STATE__`);
  const entries = hotEntries(client);
  if (!entries) throw new ParseError(`${what}: the page state has no visionHotRank`);
  return entries;
}

async function hotPage(ctx: CrawlContext): Promise<Page<ItemDraft>> {
  const entries = await board(ctx);
  const items = entries.map(hotToDraft).filter((d): d is ItemDraft => !!d);
  const without = entries.length - items.length;
  if (without > 0) ctx.warn(`${without} hot-board entr${without === 1 ? 'y names' : 'ies name'} no video (hot words only); see kuaishou.trending for every word`);
  return { items };
}

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "kuaishou's hot board (热榜): the video leading each hot word, in board order (from the home page)",
  page: hotPage,
};

async function trends(ctx: CrawlContext): Promise<Trend[]> {
  return (await board(ctx)).map(hotToTrend);
}

export const trendingAction: TrendsAction = {
  shape: 'trends',
  summary: "kuaishou's hot board (热榜) words, ranked, with their hot values",
  run: trends,
};
