import { InvalidInput, NotFound, ParseError, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { apiGet, apiPost, ENDPOINTS, legacyQuery, relayQuery } from './api.js';
import { loggedIn, type Json } from './outcomes.js';
import { draftsOf, edgeNodes, mediaToDraft, obj, objs, str, userCardToDraft } from './parse.js';
import { pageVia, type Route } from './routes.js';
import { parseTagRef, parseUserRef, tagUrl, userUrl, type UserRef } from './refs.js';
import { userIdOf, usernameOf, webProfile } from './user.js';

const PER_PAGE = 12;

/** A GraphQL connection's next page, when it says there is one. */
function nextOf(connection: Json | undefined): string | undefined {
  const info = obj(connection?.page_info);
  const end = str(info?.end_cursor);
  return info?.has_next_page === true && end ? end : undefined;
}

function connectionPage(connection: Json | undefined, what: string): Page<ItemDraft> {
  if (!connection) throw new ParseError(`${what}: the answer carries no list of posts`);
  return { items: draftsOf(edgeNodes(connection)), next_cursor: nextOf(connection) };
}

const label = (ref: UserRef): string => ('username' in ref ? `@${ref.username}` : `user ${ref.id}`);
const idOfRef = (ctx: CrawlContext, ref: UserRef): Promise<string> => ('id' in ref ? Promise.resolve(ref.id) : userIdOf(ctx, ref.username));
const nameOfRef = (ctx: CrawlContext, ref: UserRef): Promise<string> => ('username' in ref ? Promise.resolve(ref.username) : usernameOf(ctx, ref.id));

/** A private account's grid comes back empty although it counts posts: that is not "no posts". */
function privateWall(ctx: CrawlContext, user: Json, connection: Json | undefined): void {
  const count = Number(connection?.count);
  if (user.is_private !== true || edgeNodes(connection).length || !(count > 0) || user.followed_by_viewer === true) return;
  const who = `@${str(user.username) ?? '?'}`;
  if (!loggedIn(ctx)) throw new SessionExpired(`${who} is a private account: its ${count} posts show only to followers; store an instagram profile named "${ctx.profile}" of an account that follows it`);
  throw new NotFound(`${who} is a private account and the login of profile "${ctx.profile}" does not follow it`);
}

// ---- posts ------------------------------------------------------------------------------------------

export const TABS = ['posts', 'reels', 'tagged'] as const;
type Tab = (typeof TABS)[number];

function postsRoutes(ctx: CrawlContext, ref: UserRef): Route<ItemDraft>[] {
  const who = label(ref);
  return [
    {
      // The profile grid a logged-in browser pages (media items with every rendition).
      name: 'feed',
      login: true,
      async page(after) {
        const username = await nameOfRef(ctx, ref);
        const json = await relayQuery(
          ctx,
          'PolarisProfilePostsQuery',
          {
            data: { count: PER_PAGE, include_relationship_info: true, latest_besties_reel_media: true, latest_reel_media: true },
            username,
            __relay_internal__pv__PolarisFeedShareMenurelayprovider: false,
            ...(after ? { after, before: null, first: PER_PAGE, last: null } : {}),
          },
          { what: `posts of @${username}`, referer: userUrl(username) },
        );
        const conn = obj(obj(json.data)?.xdt_api__v1__feed__user_timeline_graphql_connection);
        if (!conn) throw new ParseError(`posts of @${username}: no xdt_api__v1__feed__user_timeline_graphql_connection in the answer`);
        return { items: edgeNodes(conn).map(mediaToDraft).filter((d): d is ItemDraft => !!d), next_cursor: nextOf(conn) };
      },
    },
    {
      // web_profile_info's first 12, then the timeline feed by id (both answer logged out).
      name: 'web',
      async page(after) {
        if (!after && 'username' in ref) {
          const user = await webProfile(ctx, ref.username);
          const conn = obj(user.edge_owner_to_timeline_media);
          privateWall(ctx, user, conn);
          return connectionPage(conn, `posts of ${who}`);
        }
        const id = await idOfRef(ctx, ref);
        const json = await legacyQuery(ctx, 'query_hash_owner_timeline', { id, first: PER_PAGE, ...(after ? { after } : {}) }, { what: `posts of ${who}` });
        const data = obj(json.data);
        if (data && 'user' in data && !data.user) throw new NotFound(`instagram has no user ${id} (or it blocks this viewer)`);
        return connectionPage(obj(obj(data?.user)?.edge_owner_to_timeline_media), `posts of ${who}`);
      },
    },
  ];
}

function reelsRoutes(ctx: CrawlContext, ref: UserRef): Route<ItemDraft>[] {
  return [
    {
      name: 'clips',
      login: true,
      async page(maxId) {
        const id = await idOfRef(ctx, ref);
        const json = await apiPost(ctx, ENDPOINTS.clipsUser, { target_user_id: id, page_size: String(PER_PAGE), include_feed_video: 'true', max_id: maxId }, { what: `reels of ${label(ref)}` });
        const paging = obj(json.paging_info);
        const next = str(paging?.max_id);
        return { items: objs(json.items).map((i) => mediaToDraft(i.media ?? i)).filter((d): d is ItemDraft => !!d), next_cursor: paging?.more_available === true && next ? next : undefined };
      },
    },
  ];
}

function taggedRoutes(ctx: CrawlContext, ref: UserRef): Route<ItemDraft>[] {
  return [
    {
      name: 'web',
      async page(after) {
        const id = await idOfRef(ctx, ref);
        const json = await legacyQuery(ctx, 'query_hash_tagged', { id, first: PER_PAGE, ...(after ? { after } : {}) }, { what: `posts tagging ${label(ref)}` });
        const data = obj(json.data);
        if (data && 'user' in data && !data.user) throw new NotFound(`instagram has no user ${id} (or it blocks this viewer)`);
        return connectionPage(obj(obj(data?.user)?.edge_user_to_photos_of_you), `posts tagging ${label(ref)}`);
      },
    },
  ];
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const tab = ((params.tab as string | undefined) ?? 'posts') as Tab;
  const ref = parseUserRef(params.query);
  const routes = tab === 'reels' ? reelsRoutes(ctx, ref) : tab === 'tagged' ? taggedRoutes(ctx, ref) : postsRoutes(ctx, ref);
  return pageVia(ctx, `${tab === 'posts' ? 'posts' : tab} of ${label(ref)}`, routes, cursor);
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "An Instagram account's posts, newest first (anonymous: the profile's first 12, then the timeline feed); tab reels needs a login, tab tagged lists posts the account is tagged in",
  walk: true,
  timeOrdered: (params) => params.tab !== 'tagged',
  params: [
    { name: 'query', type: 'string', required: true, description: '@handle, handle, numeric user id, or an instagram.com/<handle>/ link' },
    { name: 'tab', type: 'string', required: false, default: 'posts', enum: [...TABS], description: 'posts: the grid; reels: the reels tab (needs a login); tagged: posts the account is tagged in' },
  ],
  page: postsPage,
};

// ---- search -----------------------------------------------------------------------------------------

export const SEARCH_TYPES = ['hashtag', 'users'] as const;
export const SORTS = ['recent', 'top'] as const;

function hashtagRoutes(ctx: CrawlContext, tag: string, sort: (typeof SORTS)[number]): Route<ItemDraft>[] {
  const what = `#${tag}`;
  return [
    {
      // The tag page's grid sections (gallery-dl tags_sections); the cursor is "<next_page>~<next_max_id>".
      name: 'sections',
      login: true,
      async page(native) {
        const m = native === undefined ? undefined : /^(\d{0,6})~(.+)$/s.exec(native);
        if (native !== undefined && !m) throw new InvalidInput('params.cursor: not an instagram hashtag cursor');
        const json = await apiPost(ctx, ENDPOINTS.tagSections(tag), { include_persistent: '0', surface: 'grid', tab: sort, max_id: m?.[2], page: m?.[1] || undefined }, { what, referer: tagUrl(tag) });
        const medias = objs(json.sections).flatMap((s) => objs(obj(s.layout_content)?.medias).map((x) => x.media ?? x));
        const next = str(json.next_max_id);
        return { items: draftsOf(medias), next_cursor: json.more_available === true && next ? `${str(json.next_page) ?? ''}~${next}` : undefined };
      },
    },
    {
      name: 'web',
      login: true,
      async page(after) {
        const json = await legacyQuery(ctx, 'query_hash_hashtag', { tag_name: tag, first: PER_PAGE, ...(after ? { after } : {}) }, { what, referer: tagUrl(tag) });
        const hashtag = obj(obj(json.data)?.hashtag);
        // No such hashtag: Instagram has nothing under it.
        if (!hashtag) return { items: [] };
        if (sort === 'top') return { items: draftsOf(edgeNodes(hashtag.edge_hashtag_to_top_posts)) };
        return connectionPage(obj(hashtag.edge_hashtag_to_media), what);
      },
    },
  ];
}

function userSearchRoutes(ctx: CrawlContext, q: string): Route<ItemDraft>[] {
  const cards = (users: Json[]): Page<ItemDraft> => ({ items: users.map(userCardToDraft).filter((d): d is ItemDraft => !!d) });
  return [
    {
      name: 'gql',
      async page() {
        const json = await relayQuery(ctx, 'PolarisSearchBoxNonProfiledRefetchableQuery', { hasQuery: true, query: q }, { what: `account search "${q}"` });
        const data = obj(json.data);
        if (!data || !('xdt_api__v1__fbsearch__non_profiled_serp' in data)) throw new ParseError(`account search "${q}": no xdt_api__v1__fbsearch__non_profiled_serp in the answer`);
        // null: nothing matched (instagrapi maps it to "user not found").
        return cards(objs(obj(data.xdt_api__v1__fbsearch__non_profiled_serp)?.users));
      },
    },
    {
      name: 'top',
      async page() {
        const json = await apiGet(ctx, ENDPOINTS.topsearch, { context: 'blended', query: q, include_reel: 'false' }, { what: `account search "${q}"` });
        if (!Array.isArray(json.users)) throw new ParseError(`account search "${q}": the answer has no users list`);
        return cards(objs(json.users).map((u) => obj(u.user) ?? u));
      },
    },
  ];
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const type = ((params.type as string | undefined) ?? 'hashtag') as (typeof SEARCH_TYPES)[number];
  if (type === 'users') {
    const q = (params.query ?? '').trim().replace(/^@/, '');
    if (!q) throw new InvalidInput('params.query: the text to search accounts for is required');
    return pageVia(ctx, `account search "${q}"`, userSearchRoutes(ctx, q), cursor);
  }
  const tag = parseTagRef(params.query);
  return pageVia(ctx, `hashtag search #${tag}`, hashtagRoutes(ctx, tag, ((params.sort as string | undefined) ?? 'recent') as (typeof SORTS)[number]), cursor);
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Search Instagram: hashtag (posts under #tag, recent or top; needs a login) or users (accounts as text cards, anonymous)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'hashtag: #tag, a word, or an instagram.com/explore/tags/<tag>/ link; users: the text to match accounts' },
    { name: 'type', type: 'string', required: false, default: 'hashtag', enum: [...SEARCH_TYPES], description: 'hashtag: posts under the tag (needs a login); users: accounts, as text items pointing at each profile' },
    { name: 'sort', type: 'string', required: false, default: 'recent', enum: [...SORTS], description: 'hashtag only: recent posts (paged) or the top posts' },
  ],
  page: searchPage,
};
