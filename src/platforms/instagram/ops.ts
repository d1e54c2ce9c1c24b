import { StaleOperation } from '../../crawl/ops.js';
import type { CrawlContext } from '../types.js';

/*
 * Every id Instagram's web client rotates, as data (global-platforms.md §2). The service layers
 * <data dir>/ops/instagram.json (`npx crawler platforms refresh instagram`, see refresh.ts) and the file
 * named by CRAWLER_INSTAGRAM_OPS over these, one key at a time; crawls read the merge from ctx.ops.
 *
 * Relay operations are keyed by the name the web bundle gives them (`__d("<Name>_instagramRelayOperation",
 * …e.exports="<doc_id>")`), so refresh can find each one again. The legacy `graphql/query/?query_hash=`
 * feeds no longer ship in the bundles; refresh keeps them and an operator patches them by file.
 */
export const RELAY_OPERATIONS = {
  /** Post detail for logged-out visitors; answers data.xig_polaris_media (yt-dlp instagram.py@81ecd58b13, 2026-06; FxEmbed constants.ts). */
  PolarisLoggedOutDesktopWWWPostRootContentQuery: '27130156389949648',
  /** A post's comments, {media_id, first, after, sort_order} (FxEmbed constants.ts@85ba21c6e4, "from captured web traffic"). */
  PolarisPostCommentsPaginationQuery: '25516980651312394',
  /** One comment's replies, {media_id, parent_comment_id, after, first} (web capture of 2026-08-24). */
  PolarisPostChildCommentsQuery: '27823744063932558',
  /** A profile's posts for a logged-in viewer; answers xdt_api__v1__feed__user_timeline_graphql_connection (instaloader structures.py@d3cd639789). */
  PolarisProfilePostsQuery: '7898261790222653',
  /** Accounts matching a text, {hasQuery, query}; answers xdt_api__v1__fbsearch__non_profiled_serp (capture of 2026-09-27; instaloader used 26347858941511777). */
  PolarisSearchBoxNonProfiledRefetchableQuery: '27634848489527274',
} as const;

export type RelayOperation = keyof typeof RELAY_OPERATIONS;

/** Legacy GET graphql/query/?query_hash= feeds (the shapes of the recorded 2020-2021 answers). */
export const QUERY_HASHES = {
  /** data.user.edge_owner_to_timeline_media, {id, first, after} (FxEmbed constants.ts@85ba21c6e4, 2026: "may break"). */
  query_hash_owner_timeline: '472f257a40c653c64c666ce877d59d2b',
  /** data.user.edge_user_to_photos_of_you, {id, first, after} (instaloader structures.py@d3cd639789). */
  query_hash_tagged: 'e31a871f7301132ceaab56507a66bbb7',
  /** data.hashtag.edge_hashtag_to_media / _top_posts, {tag_name, first, after} (gallery-dl instagram.py@86047cf67a). */
  query_hash_hashtag: '9b498c08113f1e09617a1703c22b2f32',
  /** data.shortcode_media.edge_media_to_comment, {shortcode, first, after} (pgrimaud InstagramHelper.php@8e39f0f3f6). */
  query_hash_comments: '33ba35852cb50da46f5b5e889df7d159',
  /** data.user.reel.{user,owner}.username from a numeric id (instaloader structures.py@d3cd639789, Profile.from_id). */
  query_hash_user_by_id: '7c16654f22c819fb63d1183034a5162f',
} as const;

export type QueryHashKey = keyof typeof QUERY_HASHES;

export const OPS_DEFAULTS: Record<string, string> = {
  /** The web app's id, sent as X-IG-App-ID on every call (the iOS app's is 124024574287414). */
  app_id: '936619743392459',
  /** X-ASBD-ID of the web client (values seen: 129477, 198387, 359341; yt-dlp and FxEmbed send 359341). */
  asbd_id: '359341',
  ...RELAY_OPERATIONS,
  ...QUERY_HASHES,
};

const ID = /^\d{5,25}$/;
const HASH = /^[0-9a-f]{32}$/;

function read(ctx: CrawlContext, key: string, shape: RegExp): string {
  const v = ctx.ops[key];
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s === 'string' && shape.test(s)) return s;
  const fallback = OPS_DEFAULTS[key];
  if (v !== undefined) ctx.warn(`instagram operation data: ${key} = ${JSON.stringify(v)} is not a valid value; the built-in ${fallback} is used`);
  return fallback!;
}

export const appId = (ctx: CrawlContext): string => read(ctx, 'app_id', /^\d{6,20}$/);
export const asbdId = (ctx: CrawlContext): string => read(ctx, 'asbd_id', /^\d{3,10}$/);
export const docId = (ctx: CrawlContext, name: RelayOperation): string => read(ctx, name, ID);
export const queryHash = (ctx: CrawlContext, key: QueryHashKey): string => read(ctx, key, HASH);

/** Which operation a request ran, so a "stale query" answer can name it. */
export interface OpRef {
  key: string;
  kind: 'doc_id' | 'query_hash';
  id: string;
}

export const staleOperation = (op: OpRef, says: string): StaleOperation =>
  new StaleOperation('instagram', `instagram ${op.key} (${op.kind} ${op.id}) was refused as an unknown or invalid query (${says})`);
