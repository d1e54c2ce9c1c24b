import { NotFound, ParseError } from '../../crawl/errors.js';
import type { Author, Comment, Trend } from '../../domain/results.js';
import type { CrawlContext, ItemDraft, Page } from '../types.js';
import { PC, PC_ORIGIN, firstRecorded, getPcJson } from './api.js';
import {
  type HotEntry,
  arr,
  encodePcCommentCursor,
  encodePcPage,
  hotSearchEntries,
  obj,
  pcTimelineDrafts,
  pcTimelineNext,
  str,
  threadComments,
  topicBandTrends,
  userToAuthor,
  wholeCount,
} from './parse.js';
import type { PostRef } from './refs.js';

/*
 * The second route: weibo.com's ajax API, the one the desktop site calls. Actions come here only after
 * m.weibo.cn failed non-terminally (see withFallback). Without visitor cookies weibo.com redirects to
 * passport.weibo.com, which get() reports as session_expired; side/hotSearch answers anonymously.
 */

type Json = Record<string, unknown>;

/** One page of a creator's timeline: statuses/mymblog?uid&page&feature=0 (feature 0: all posts). */
export async function pcTimelinePage(ctx: CrawlContext, uid: string, page: number): Promise<Page<ItemDraft>> {
  const env = await getPcJson(ctx, PC.mymblog, { uid, page, feature: 0 }, 'weibo.com timeline', `${PC_ORIGIN}/u/${uid}`);
  if (env.kind === 'empty') return { items: [] };
  if (!Array.isArray(env.data.list)) throw new ParseError('weibo.com timeline: data.list is missing');
  const items = pcTimelineDrafts(env.data);
  return { items, next_cursor: encodePcPage(pcTimelineNext(env.data, page, items.length)) };
}

/** profile/info?uid → data.user. */
export async function pcProfile(ctx: CrawlContext, uid: string): Promise<Author | null> {
  const env = await getPcJson(ctx, PC.profileInfo, { uid }, 'weibo.com profile', `${PC_ORIGIN}/u/${uid}`);
  if (env.kind === 'empty') return null;
  const user = obj(env.data.user);
  const author = user ? userToAuthor(user) : undefined;
  if (!author) throw new ParseError('weibo.com profile: data.user has no id');
  return author;
}

/** profile/info?screen_name → the uid of exactly that screen name, or undefined. */
export async function pcUidOfName(ctx: CrawlContext, name: string): Promise<string | undefined> {
  const env = await getPcJson(ctx, PC.profileInfo, { screen_name: name }, 'weibo.com profile by name', `${PC_ORIGIN}/n/${encodeURIComponent(name)}`);
  if (env.kind === 'empty') return undefined;
  const user = obj(env.data.user);
  const screenName = str(user?.screen_name);
  const id = str(user?.idstr) ?? str(user?.id);
  return id && screenName && screenName.toLowerCase() === name.toLowerCase() ? id : undefined;
}

/**
 * statuses/show answers the status object itself at the top level (ok beside its fields). It takes a bid
 * or a mid: the id as the caller gave it goes first, the other form only when a replay has no recording of
 * the first (the desktop site itself asks by bid).
 */
export async function pcStatus(ctx: CrawlContext, ref: PostRef): Promise<Json> {
  const ids = [...new Set([ref.id, ref.bid, ref.mid])];
  return firstRecorded(
    ids.map((id) => async () => {
      const env = await getPcJson(ctx, PC.show, { id }, `weibo.com statuses/show ${id}`, `${PC_ORIGIN}/detail/${ref.mid}`);
      if (env.kind === 'empty') throw new NotFound(`weibo.com statuses/show ${id}: weibo says ${env.message}`);
      const status = env.raw;
      if (!str(status.mid) && !str(status.idstr) && !str(status.id)) throw new ParseError(`weibo.com statuses/show ${id}: the answer carries no status`);
      return status;
    }),
  );
}

/** statuses/longtext?id=<bid> → data.longTextContent; undefined when weibo has none. */
export async function pcLongText(ctx: CrawlContext, bid: string): Promise<string | undefined> {
  const env = await getPcJson(ctx, PC.longtext, { id: bid }, `weibo.com statuses/longtext ${bid}`, `${PC_ORIGIN}/detail/${bid}`);
  if (env.kind === 'empty') return undefined;
  const content = str(env.data.longTextContent);
  return content && content.trim() ? content : undefined;
}

/**
 * buildComments: the hot comments of a status, top-level data[] with max_id and total_number; each root's
 * own `comments` array holds its inline replies. Pages on with max_id until it is 0.
 */
export async function pcComments(ctx: CrawlContext, mid: string, maxId?: string): Promise<Page<Comment>> {
  const env = await getPcJson(
    ctx,
    PC.buildComments,
    { is_reload: 1, id: mid, is_show_bulletin: 2, is_mix: 0, count: 20, flow: 0, max_id: maxId },
    `weibo.com comments of ${mid}`,
    `${PC_ORIGIN}/detail/${mid}`,
  );
  if (env.kind === 'empty') return { items: [] };
  const list = env.raw.data;
  if (!Array.isArray(list)) throw new ParseError(`weibo.com comments of ${mid}: data is not a list`);
  const items = threadComments(list, mid);
  return {
    items,
    next_cursor: arr(list).length ? encodePcCommentCursor(env.raw.max_id) : undefined,
    total: wholeCount(env.raw.total_number),
  };
}

/** side/hotSearch: the realtime hot-search board; answers without cookies. */
export async function pcHotSearch(ctx: CrawlContext): Promise<HotEntry[]> {
  const env = await getPcJson(ctx, PC.hotSearch, undefined, 'weibo.com hot search board', `${PC_ORIGIN}/hot/search`);
  return env.kind === 'ok' ? hotSearchEntries(env.data) : [];
}

/** statuses/topic_band: the hot topic board, first page. */
export async function pcTopicBand(ctx: CrawlContext): Promise<Trend[]> {
  const env = await getPcJson(ctx, PC.topicBand, { sid: 'v_weibopro', category: 'all', page: 1, count: 50 }, 'weibo.com topic board', `${PC_ORIGIN}/hot/topic`);
  return env.kind === 'ok' ? topicBandTrends(env.data) : [];
}
