import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput, NotFound } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { checkBookmark, dataOf, entriesOf, isFallbackable, nextBookmark, obj, resource, type Json } from './api.js';
import { boardToDraft, idOf, pinToDraft } from './parse.js';
import { boardPath, resolveOwner, resolvePinId, type UserFeed } from './refs.js';

/** Promoted pins are ads placed in a feed, not its results. */
const pins = (entries: unknown[]): ItemDraft[] =>
  entries.filter((e) => obj(e)?.is_promoted !== true).map(pinToDraft).filter((d): d is ItemDraft => !!d);

function page(body: Json, items: ItemDraft[]): Page<ItemDraft> {
  // A bookmark next to an empty page would walk forever over nothing.
  return { items, next_cursor: entriesOf(body).length ? nextBookmark(body) : undefined };
}

// ---------------------------------------------------------------------------------------------
// search

export const SEARCH_TYPES = ['pins', 'videos', 'boards'] as const;
type SearchType = (typeof SEARCH_TYPES)[number];

/** The option set the web sent in 2024 (fixtures/pinterest/search-pins-nature-aesthetic.har), scope from type. */
export function searchOptions(query: string, scope: SearchType): Json {
  return { article: '', appliedProductFilters: '---', price_max: null, price_min: null, query, scope, auto_correction_disabled: '', top_pin_id: '', filters: '', page_size: '25' };
}

async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const query = (params.query ?? '').trim();
  if (!query) throw new InvalidInput('params.query: the words to search pinterest for are required');
  const scope = (params.type as SearchType | undefined) ?? 'pins';
  const body = await resource(ctx, {
    resource: 'search',
    options: searchOptions(query, scope),
    sourceUrl: `/search/${scope}/?q=${encodeURIComponent(query)}&rs=typed`,
    what: `search ${scope} "${query}"`,
    bookmark: checkBookmark(cursor),
  });
  const entries = entriesOf(body);
  const items = scope === 'boards' ? entries.map(boardToDraft).filter((d): d is ItemDraft => !!d) : pins(entries);
  return page(body, items);
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'Pinterest search: pins (images, videos, idea pins with their media), video pins only, or boards',
  params: [
    { name: 'query', type: 'string', required: true, description: 'the words to search for' },
    { name: 'type', type: 'string', required: false, enum: [...SEARCH_TYPES], default: 'pins', description: 'pins, videos (video pins only) or boards (a board is an item with id pinterest:board:<id>)' },
  ],
  page: searchPage,
};

// ---------------------------------------------------------------------------------------------
// posts: a user's pins, or a board's

const FEEDS: Record<UserFeed, { resource: 'userPins' | 'userCreated'; tab: string; options: (user: string) => Json }> = {
  // gallery-dl user_pins: the profile's "Pins" tab, every pin the user saved or made.
  pins: { resource: 'userPins', tab: 'pins', options: (user) => ({ is_own_profile_pins: false, username: user, field_set_key: 'grid_item', pin_filter: null }) },
  // gallery-dl user_activity_pins: the "Created" tab, pins the user made.
  created: { resource: 'userCreated', tab: '_created', options: (user) => ({ exclude_add_pin_rep: true, field_set_key: 'grid_item', is_own_profile_pins: false, username: user }) },
};

const BOARD_TTL_MS = 24 * 3600_000;

/** user/board → the board's numeric id (BoardResource), remembered for a day. */
async function boardId(ctx: CrawlContext, user: string, board: string): Promise<string> {
  const key = `pinterest:board:${user.toLowerCase()}/${board}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  // A secret board answers like a missing one to anyone but its owner (gallery-dl#2855).
  const missing = () => new NotFound(`pinterest has no public board ${user}/${board} (a secret board shows only to its owner's login)`);
  const body = await resource(ctx, {
    resource: 'board',
    options: { username: user, slug: board, field_set_key: 'detailed' },
    sourceUrl: boardPath(user, board),
    what: `board ${user}/${board}`,
  }).catch((e: unknown) => {
    throw e instanceof NotFound ? missing() : e;
  });
  const id = idOf(obj(dataOf(body))?.id);
  if (!id) throw missing();
  ctx.memo.set(key, id, BOARD_TTL_MS);
  return id;
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const bookmark = checkBookmark(cursor);
  const owner = await resolveOwner(ctx, params.query);
  if (owner.kind === 'board') {
    const id = await boardId(ctx, owner.user, owner.board);
    const path = boardPath(owner.user, owner.board);
    // board_id alone answers 403 "Invalid Resource Request" (gallery-dl#6513); pinterest-dl's full set (2026).
    const body = await resource(ctx, {
      resource: 'boardFeed',
      options: { board_id: id, board_url: path, page_size: 25, currentFilter: -1, field_set_key: 'react_grid_pin', filter_section_pins: true, sort: 'default', layout: 'default', redux_normalize_feed: true },
      sourceUrl: path,
      what: `pins of board ${owner.user}/${owner.board}`,
      bookmark,
    });
    return page(body, pins(entriesOf(body)));
  }
  const feedName = (params.feed as UserFeed | undefined) ?? owner.feed ?? 'pins';
  const feed = FEEDS[feedName];
  const body = await resource(ctx, {
    resource: feed.resource,
    options: feed.options(owner.user),
    sourceUrl: `/${owner.user}/${feed.tab}/`,
    what: `${feedName} pins of ${owner.user}`,
    bookmark,
  });
  return page(body, pins(entriesOf(body)));
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A pinterest user's pins (all, or only those they created) or a board's pins",
  walk: true,
  params: [
    { name: 'query', type: 'string', required: true, description: 'a user (username, @username, pinterest.com/<user>/) or a board (user/board, pinterest.com/<user>/<board>/), or a pin.it link to either' },
    { name: 'feed', type: 'string', required: false, enum: ['pins', 'created'], description: "a user's feed: pins (every pin on the profile, the default; /<user>/_created/ links pick created) or created (pins the user made); boards ignore it" },
  ],
  page: postsPage,
};

// ---------------------------------------------------------------------------------------------
// recommended: the pins pinterest relates to one pin

/** The fallback route's bookmarks are marked, so a follow-up page goes back to the resource that made it. */
const FEED_MARK = 'pinfeed:';

async function fromModules(ctx: CrawlContext, id: string, bookmark?: string): Promise<Page<ItemDraft>> {
  // pinterest-dl get_related_images (2026): the closeup's "more like this" modules.
  const body = await resource(ctx, {
    resource: 'related',
    options: { pin_id: id, context_pin_ids: [], page_size: 25, search_query: '', source: 'deep_linking', top_level_source: 'deep_linking', top_level_source_depth: 1, is_pdp: false },
    sourceUrl: `/pin/${id}/`,
    what: `pins related to ${id}`,
    bookmark,
  });
  return page(body, pins(entriesOf(body)));
}

async function fromPinFeed(ctx: CrawlContext, id: string, bookmark?: string): Promise<Page<ItemDraft>> {
  // gallery-dl pin_related: the older related-pin feed.
  const body = await resource(ctx, {
    resource: 'relatedFeed',
    options: { pin: id, add_vase: true, pins_only: true },
    sourceUrl: `/pin/${id}/`,
    what: `pins related to ${id} (related pin feed)`,
    bookmark,
  });
  const out = page(body, pins(entriesOf(body)));
  return { ...out, next_cursor: out.next_cursor ? `${FEED_MARK}${out.next_cursor}` : undefined };
}

async function recommendedPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const viaFeed = cursor?.startsWith(FEED_MARK) ?? false;
  const bookmark = checkBookmark(viaFeed ? cursor!.slice(FEED_MARK.length) : cursor);
  const id = await resolvePinId(ctx, params.query);
  if (bookmark !== undefined) return viaFeed ? fromPinFeed(ctx, id, bookmark) : fromModules(ctx, id, bookmark);
  return firstAnswering([() => fromModules(ctx, id), () => fromPinFeed(ctx, id)], isFallbackable);
}

export const recommendedAction: ItemsAction = {
  shape: 'items',
  summary: 'The pins pinterest relates to one pin ("more like this")',
  params: [{ name: 'query', type: 'string', required: true, description: 'the pin: its id, a pinterest.com/pin/<id>/ link (any country domain) or a pin.it link' }],
  page: recommendedPage,
};
