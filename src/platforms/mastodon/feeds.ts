import type { Category } from '../../domain/catalog.js';
import { ParseError, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, MAX_LIMIT, firstOf, getJson, nextParam } from './api.js';
import { INSTANCE_PARAM, expectArray, nextMaxId, offsetOf, pageSize, queryParam, resolveAccountId } from './common.js';
import { pickInstance, type Instance } from './instance.js';
import { accountToDraft, arr, obj, statusesToDrafts } from './parse.js';
import { parseAccountRef } from './refs.js';

export const CATEGORIES: Category[] = [
  { id: 'local', name: 'Local timeline (public posts of this server)', actions: ['recommended'] },
  { id: 'federated', name: 'Federated timeline (public posts this server knows)', actions: ['recommended'] },
  { id: 'home', name: "Home timeline of the profile's account (needs a login)", actions: ['recommended'] },
];

const SEARCH_TYPES = ['statuses', 'accounts'] as const;

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'search posts (needs a login on Mastodon; a lone #tag reads its public timeline, no login) or accounts (anonymous) on one server',
  params: [
    queryParam('keywords, a lone #tag (its public timeline, paged), @user@server or a post URL'),
    {
      name: 'type',
      type: 'string',
      required: false,
      default: 'statuses',
      enum: [...SEARCH_TYPES],
      description: 'statuses: posts (Mastodon searches posts only for a logged-in account); accounts: profiles, as text cards',
    },
    INSTANCE_PARAM,
  ],
  async page(ctx, params, cursor) {
    const type = (params.type as (typeof SEARCH_TYPES)[number] | undefined) ?? 'statuses';
    const inst = pickInstance(ctx, params);
    const tag = type === 'statuses' ? HASHTAG.exec((params.query as string).trim())?.[1] : undefined;
    if (tag) return tagTimelinePage(ctx, inst, params, tag, cursor);
    if (type === 'statuses' && !inst.token) {
      // Mastodon answers an anonymous post search with an empty list, which would read as "no results".
      throw new SessionExpired(
        `searching posts on ${inst.host} needs a login: Mastodon returns no posts to anonymous searches (store credentials access_token and instance in the mastodon profile, or search type=accounts)`,
      );
    }
    const limit = pageSize(params, MAX_LIMIT.search);
    const offset = offsetOf(cursor);
    // Resolving remote handles/URLs and paging are refused (401) without a login.
    const query = { q: params.query as string, type, limit, offset: offset || undefined, resolve: inst.token ? 'true' : undefined };
    const { data } = await firstOf([
      () => getJson(ctx, inst, ENDPOINTS.search, query, `search ${type}`),
      () => getJson(ctx, inst, ENDPOINTS.searchV1, query, `search ${type}`),
    ]);
    const body = obj(data);
    if (!body || !Array.isArray(body[type])) throw new ParseError(`search ${type}: no ${type} list in ${inst.host}'s answer`);
    const list = arr(body[type]);
    const items =
      type === 'statuses'
        ? statusesToDrafts(list, inst.host)
        : list.map((a) => accountToDraft(a, inst.host)).filter((d): d is ItemDraft => d !== undefined);
    let next: string | undefined;
    if (list.length >= limit) {
      if (inst.token) next = String(offset + list.length);
      else ctx.warn(`more ${type} may match on ${inst.host}: paging through search results needs a login`);
    }
    return { items, next_cursor: next };
  },
};

/** A lone hashtag: its public timeline answers, with or without a login, and more fully than search. */
const HASHTAG = /^#([\p{L}\p{N}_]{1,100})$/u;

async function tagTimelinePage(ctx: CrawlContext, inst: Instance, params: Params, tag: string, maxId?: string): Promise<Page<ItemDraft>> {
  const limit = pageSize(params, MAX_LIMIT.statuses);
  const { res, data } = await getJson(ctx, inst, ENDPOINTS.tagTimeline(tag), { limit, max_id: maxId }, `#${tag} timeline`);
  const list = expectArray(data, `#${tag} timeline`);
  return { items: statusesToDrafts(list, inst.host), next_cursor: nextMaxId(res, list, limit) };
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "an account's posts (boosts shown as the boosted post), newest first",
  walk: true,
  timeOrdered: true,
  params: [queryParam('the account: @user@server, https://server/@user, user (on params.instance) or an account id'), INSTANCE_PARAM],
  async page(ctx, params, cursor) {
    const ref = parseAccountRef(params.query);
    const inst = pickInstance(ctx, params, ref.host);
    const id = ref.id ?? (await resolveAccountId(ctx, inst, ref.acct!));
    const limit = pageSize(params, MAX_LIMIT.statuses);
    const { res, data } = await getJson(ctx, inst, ENDPOINTS.accountStatuses(id), { limit, max_id: cursor }, 'account statuses');
    const list = expectArray(data, 'account statuses');
    return { items: statusesToDrafts(list, inst.host), next_cursor: nextMaxId(res, list, limit) };
  },
};

async function timelinePage(ctx: CrawlContext, inst: Instance, params: Params, category: string, maxId?: string): Promise<Page<ItemDraft>> {
  const limit = pageSize(params, MAX_LIMIT.statuses);
  const home = category === 'home';
  if (home && !inst.token) {
    throw new SessionExpired(`the home timeline on ${inst.host} needs a login: store credentials access_token (and instance) in the mastodon profile`);
  }
  const path = home ? ENDPOINTS.homeTimeline : ENDPOINTS.publicTimeline;
  const query = { local: category === 'local' ? 'true' : undefined, limit, max_id: maxId };
  const { res, data } = await getJson(ctx, inst, path, query, `${category} timeline`);
  const list = expectArray(data, `${category} timeline`);
  return { items: statusesToDrafts(list, inst.host), next_cursor: nextMaxId(res, list, limit) };
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: "a server's live feeds: local or federated public timeline (some servers want a login), or the profile's home timeline",
  categories: true,
  params: [INSTANCE_PARAM],
  page(ctx, params, cursor) {
    return timelinePage(ctx, pickInstance(ctx, params), params, (params.category as string | undefined) ?? CATEGORIES[0].id, cursor);
  },
};

/** Cursors of hot's fallback route carry this prefix so the next page stays on that route. */
const TIMELINE_CURSOR = 'tl:';

async function trendingStatusesPage(ctx: CrawlContext, inst: Instance, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const limit = pageSize(params, MAX_LIMIT.trendStatuses);
  const offset = offsetOf(cursor);
  const { res, data } = await getJson(ctx, inst, ENDPOINTS.trendStatuses, { limit, offset: offset || undefined }, 'trending posts');
  const list = expectArray(data, 'trending posts');
  const linked = nextParam(res, 'offset');
  const next = list.length === 0 ? undefined : res.headers['link'] !== undefined ? linked : list.length >= limit ? String(offset + list.length) : undefined;
  return { items: statusesToDrafts(list, inst.host), next_cursor: next };
}

export const hotAction: ItemsAction = {
  shape: 'items',
  summary: "the server's trending posts (an empty list is the server saying nothing trends)",
  params: [INSTANCE_PARAM],
  async page(ctx, params, cursor) {
    const inst = pickInstance(ctx, params);
    const onTimeline = async (maxId?: string): Promise<Page<ItemDraft>> => {
      const page = await timelinePage(ctx, inst, params, 'federated', maxId);
      return { ...page, next_cursor: page.next_cursor && `${TIMELINE_CURSOR}${page.next_cursor}` };
    };
    if (cursor?.startsWith(TIMELINE_CURSOR)) return onTimeline(cursor.slice(TIMELINE_CURSOR.length));
    if (cursor) return trendingStatusesPage(ctx, inst, params, cursor);
    return firstOf([
      () => trendingStatusesPage(ctx, inst, params),
      async () => {
        const page = await onTimeline();
        ctx.warn(`${inst.host} did not serve trending posts; these are its public (federated) timeline instead`);
        return page;
      },
    ]);
  },
};
