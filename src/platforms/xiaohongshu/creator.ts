import { firstAnswering } from '../../crawl/fallback.js';
import { InvalidInput, NotFound, SessionExpired } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { api, ENDPOINTS, isFallbackable, pageState, type Json } from './api.js';
import { hasLogin } from './guest.js';
import { authorOf, more, noteDraft, obj, objs, str } from './parse.js';
import { isId, rememberToken, resolveUser, userUrl, type Token } from './refs.js';

type User = { userId: string } & Token;

/** The profile page's state.user (user_page_data, notes, note_queries); no login needed. */
async function profileState(ctx: CrawlContext, user: User): Promise<Json> {
  const state = await pageState(ctx, userUrl(user.userId, user), `profile page ${user.userId}`, true);
  const u = obj(state.user);
  if (!obj(obj(u?.user_page_data)?.basic_info)) throw new NotFound(`xiaohongshu has no user ${user.userId} (the profile page carries no user)`);
  return u!;
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const user = await resolveUser(ctx, params.query);
  const u = await profileState(ctx, user);
  return authorOf(user.userId, obj(u.user_page_data)) ?? null;
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A xiaohongshu user's profile from the profile page: name, 小红书号 (handle), bio, avatar, followers, following, likes+saves received",
  params: [{ name: 'query', type: 'string', required: true, description: 'a 24-hex user id, www.xiaohongshu.com/user/profile/<id> link, or xhslink.com share link' }],
  run: runUser,
};

function draftsOf(ctx: CrawlContext, list: unknown): ItemDraft[] {
  const out: ItemDraft[] = [];
  for (const raw of objs(list)) {
    const got = noteDraft(raw, 'pc_user');
    if (!got) continue;
    rememberToken(ctx, got.draft.native_id, got.token);
    out.push(got.draft);
  }
  return out;
}

/** user_posted (login): cursor = the last note id, has_more. */
async function fromApi(ctx: CrawlContext, user: User, cursor: string | undefined): Promise<Page<ItemDraft>> {
  try {
    const data = await api(ctx, {
      endpoint: 'posts',
      path: ENDPOINTS.posts,
      what: `posts of ${user.userId}`,
      query: [
        ['num', 30],
        ['cursor', cursor ?? ''],
        ['user_id', user.userId],
        ['image_formats', 'jpg,webp,avif'],
        ...(user.xsecToken ? ([['xsec_token', user.xsecToken], ['xsec_source', user.xsecSource ?? 'pc_note']] as Array<[string, string]>) : []),
      ],
    });
    const items = draftsOf(ctx, data.notes);
    const next = str(data.cursor);
    return { items, next_cursor: more(data.has_more) && items.length && next && next !== cursor ? next : undefined };
  } catch (e) {
    if (e instanceof SessionExpired && !cursor) ctx.warn(`${e.message}; the first page was read from the profile page instead`);
    throw e;
  }
}

/**
 * The profile page's first page of notes (state.user.notes[0], with their xsec_tokens) and the cursor of
 * the next (note_queries[0]), offered only with a login: later pages need the API.
 */
async function fromPage(ctx: CrawlContext, user: User): Promise<Page<ItemDraft>> {
  const u = await profileState(ctx, user);
  const tabs = Array.isArray(u.notes) ? u.notes : [];
  const list = Array.isArray(tabs[0]) ? tabs[0] : tabs;
  const items = draftsOf(ctx, list);
  const query = objs(u.note_queries)[0];
  const next = more(query?.has_more) && items.length ? str(query?.cursor) : undefined;
  if (next && !hasLogin(ctx)) {
    ctx.warn("only the profile page's first notes are readable without a login; store a xiaohongshu profile to walk the rest");
    return { items };
  }
  return { items, next_cursor: next };
}

async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  if (cursor !== undefined && !isId(cursor)) throw new InvalidInput('params.cursor: not a xiaohongshu posts cursor (a note id)');
  const user = await resolveUser(ctx, params.query);
  if (cursor !== undefined) return fromApi(ctx, user, cursor);
  return firstAnswering([...(hasLogin(ctx) ? [() => fromApi(ctx, user, undefined)] : []), () => fromPage(ctx, user)], isFallbackable);
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A xiaohongshu user's notes, newest first, each url carrying its xsec_token (without a login: the profile page's first page)",
  walk: true,
  timeOrdered: true,
  params: [{ name: 'query', type: 'string', required: true, description: 'a 24-hex user id, www.xiaohongshu.com/user/profile/<id> link (with its xsec_token when it has one), or xhslink.com share link' }],
  page: postsPage,
};
