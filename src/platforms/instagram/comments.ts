import { InvalidInput, NotFound, ParseError } from '../../crawl/errors.js';
import type { Comment } from '../../domain/results.js';
import type { CommentsAction, CrawlContext, Page, Params } from '../types.js';
import { apiGet, ENDPOINTS, legacyQuery, relayQuery } from './api.js';
import { loggedIn, type Json } from './outcomes.js';
import { commentsOf, count, edgeNodes, obj, objs, str } from './parse.js';
import { postUrl, resolvePost, type PostKey } from './refs.js';
import { pageVia, type Route } from './routes.js';
import { viaRepliesOf } from '../replies-of.js';

const PER_PAGE = 24;
/** The legacy feed pages by 12, as the web asked it. */
const LEGACY_PER_PAGE = 12;

function nextOf(connection: Json | undefined): string | undefined {
  const info = obj(connection?.page_info);
  const end = str(info?.end_cursor);
  return info?.has_next_page === true && end ? end : undefined;
}

/** A Relay connection under data[root]: absent is a shape we do not know, null a post that is gone. */
function relayConnection(json: Json, root: string, what: string): Json {
  const data = obj(json.data);
  if (!data || !(root in data)) throw new ParseError(`${what}: no ${root} in the answer`);
  const conn = obj(data[root]);
  if (!conn) throw new NotFound(`${what}: Instagram has no such post or comment`);
  return conn;
}

function commentRoutes(ctx: CrawlContext, key: PostKey): Route<Comment>[] {
  const what = `comments of ${key.shortcode}`;
  const referer = postUrl(key.shortcode);
  return [
    {
      name: 'gql',
      async page(after) {
        const json = await relayQuery(
          ctx,
          'PolarisPostCommentsPaginationQuery',
          { media_id: key.pk, first: PER_PAGE, ...(after ? { after } : {}), before: null, last: null, sort_order: 'popular', __relay_internal__pv__PolarisIsLoggedInrelayprovider: loggedIn(ctx) },
          { what, referer },
        );
        const conn = relayConnection(json, 'xdt_api__v1__media__media_id__comments__connection', what);
        return { items: commentsOf(edgeNodes(conn), key.shortcode), next_cursor: nextOf(conn) };
      },
    },
    {
      // The app API's comment list (instaloader's fallback since its GraphQL paging broke, issue #2125).
      name: 'rest',
      login: true,
      async page(minId) {
        const json = await apiGet(ctx, ENDPOINTS.mediaComments(key.pk), { can_support_threading: 'true', permalink_enabled: 'false', min_id: minId }, { what, referer });
        if (!Array.isArray(json.comments)) throw new ParseError(`${what}: the answer has no comments list`);
        const next = str(json.next_min_id);
        return { items: commentsOf(objs(json.comments), key.shortcode), next_cursor: next && next !== minId ? next : undefined, total: count(json.comment_count) };
      },
    },
    {
      name: 'web',
      async page(after) {
        const json = await legacyQuery(ctx, 'query_hash_comments', { shortcode: key.shortcode, first: LEGACY_PER_PAGE, ...(after ? { after } : {}) }, { what, referer });
        const data = obj(json.data);
        const media = obj(data?.shortcode_media);
        if (data && 'shortcode_media' in data && !media) throw new NotFound(`instagram post ${key.shortcode} does not exist or was removed`);
        const conn = obj(media?.edge_media_to_parent_comment) ?? obj(media?.edge_media_to_comment);
        if (!conn) throw new ParseError(`${what}: the answer carries no comment list`);
        return { items: commentsOf(edgeNodes(conn), key.shortcode), next_cursor: nextOf(conn), total: count(conn.count) };
      },
    },
  ];
}

function replyRoutes(ctx: CrawlContext, key: PostKey, cid: string): Route<Comment>[] {
  const what = `replies to comment ${cid} of ${key.shortcode}`;
  const referer = postUrl(key.shortcode);
  return [
    {
      name: 'gql',
      async page(after) {
        const json = await relayQuery(ctx, 'PolarisPostChildCommentsQuery', { media_id: key.pk, parent_comment_id: cid, ...(after ? { after, first: PER_PAGE } : {}) }, { what, referer });
        const conn = relayConnection(json, 'xdt_api__v1__media__media_id__comments__parent_comment_id__child_comments__connection', what);
        return { items: commentsOf(edgeNodes(conn), key.shortcode, cid), next_cursor: nextOf(conn) };
      },
    },
    {
      name: 'rest',
      login: true,
      async page(maxId) {
        const json = await apiGet(ctx, ENDPOINTS.childComments(key.pk, cid), { max_id: maxId ?? '' }, { what, referer });
        if (!Array.isArray(json.child_comments)) throw new ParseError(`${what}: the answer has no child_comments list`);
        const next = str(json.next_max_child_cursor);
        return { items: commentsOf(objs(json.child_comments), key.shortcode, cid), next_cursor: json.has_more_tail_child_comments === true && next ? next : undefined, total: count(json.child_comment_count) };
      },
    },
  ];
}

async function commentsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>> {
  const root = typeof params.replies_of === 'string' ? params.replies_of.trim() : '';
  if (root && !/^\d{1,20}$/.test(root)) throw new InvalidInput('params.replies_of: a numeric instagram comment id is expected');
  const key = await resolvePost(ctx, params.query);
  return root
    ? pageVia(ctx, `replies to comment ${root}`, replyRoutes(ctx, key, root), cursor)
    : pageVia(ctx, `comments of ${key.shortcode}`, commentRoutes(ctx, key), cursor);
}

export const commentsAction: CommentsAction = {
  shape: 'comments',
  summary: "An Instagram post's comments (anonymous through the web's comment query; the app API with a login), or one comment's replies with replies_of (parent_id set)",
  params: [
    { name: 'query', type: 'string', required: true, description: 'shortcode, numeric media id, or a post link' },
    { name: 'replies_of', type: 'string', required: false, description: "a comment's numeric id: page that comment's replies instead" },
  ],
  page: commentsPage,
  replies: viaRepliesOf(commentsPage),
};
