import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { gql, SearchRefused } from './api.js';
import { cursorOf, draftsOf, instructionsOf, obj, timelineTweets, timelineUsers, userDraft } from './parse.js';

/** The tabs of x.com/search (f=live, top, media, user). */
export const PRODUCTS = ['Latest', 'Top', 'Media', 'People'] as const;
type Product = (typeof PRODUCTS)[number];
/** X refuses longer raw queries (code 214: "Raw query length N exceeds max allowed 512"). */
const MAX_QUERY = 512;
const PER_PAGE = 20;

/*
 * SearchTimeline (login only). Operators (from:, since:, lang:, min_faves:, filter:) go inside the query
 * as on x.com. People answers accounts: each becomes a card whose id is user:<rest id>. A refused query
 * (code 214: denylisted by X's Search Content Control, empty, too long) is X's honest "nothing for this":
 * an empty result whose warning quotes X.
 */
async function searchPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const raw = (params.query ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: the words (and operators) to search X for are required');
  if (raw.length > MAX_QUERY) throw new InvalidInput(`params.query: X searches at most ${MAX_QUERY} characters (this is ${raw.length})`);
  const product = (params.product ?? 'Latest') as Product;
  if (!PRODUCTS.includes(product)) throw new InvalidInput(`params.product: one of ${PRODUCTS.join(', ')}`);
  let answer;
  try {
    answer = await gql(ctx, {
      op: 'SearchTimeline',
      route: 'login',
      what: `search "${raw.slice(0, 60)}"`,
      variables: { rawQuery: raw, count: PER_PAGE, product, ...(cursor ? { cursor } : {}) },
    });
  } catch (e) {
    if (!(e instanceof SearchRefused)) throw e;
    ctx.warn(e.message);
    return { items: [] };
  }
  const instructions = instructionsOf(obj(answer.body.data)) ?? [];
  const items = product === 'People' ? timelineUsers(instructions).map(userDraft) : draftsOf(timelineTweets(instructions));
  const next = cursorOf(instructions, 'Bottom');
  // X hands out a bottom cursor even past the last result: a page without any result ends the walk.
  return { items, next_cursor: items.length && next && next !== cursor ? next : undefined };
}

export const searchAction: ItemsAction = {
  shape: 'items',
  summary: 'X search (needs a logged-in profile): posts for the words and operators, Latest by default; product Top, Media, or People (accounts)',
  params: [
    { name: 'query', type: 'string', required: true, description: 'words and X search operators (from:, lang:, since:, min_faves:, filter:media …), at most 512 characters' },
    { name: 'product', type: 'string', required: false, enum: [...PRODUCTS], default: 'Latest', description: 'the search tab: Latest (newest first), Top, Media (posts with pictures or video), People (accounts)' },
  ],
  page: searchPage,
};
