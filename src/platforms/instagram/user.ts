import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, ParseError } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { apiGet, ENDPOINTS, isFallbackable, legacyQuery } from './api.js';
import { loggedIn, type Json } from './outcomes.js';
import { authorOf, obj, str } from './parse.js';
import { parseUserRef, userUrl } from './refs.js';

const DAY_MS = 24 * 3600_000;
const idKey = (username: string) => `instagram:uid:${username}`;
const nameKey = (id: string) => `instagram:uname:${id}`;

function remember(ctx: CrawlContext, id: string | undefined, username: string | undefined): void {
  if (!id || !username) return;
  ctx.memo.set(idKey(username.toLowerCase()), id, DAY_MS);
  ctx.memo.set(nameKey(id), username.toLowerCase(), DAY_MS);
}

/** web_profile_info: the profile and its first 12 posts, anonymously (X-IG-App-ID is all it needs). */
export async function webProfile(ctx: CrawlContext, username: string): Promise<Json> {
  const json = await apiGet(ctx, ENDPOINTS.webProfileInfo, { username }, { what: `profile @${username}`, referer: userUrl(username) });
  const user = obj(obj(json.data)?.user);
  if (!user) throw new NotFound(`instagram has no account @${username}`);
  remember(ctx, authorOf(user)?.id, str(user.username) ?? username);
  return user;
}

/** REST users/<pk>/info/ (a login). */
async function restUser(ctx: CrawlContext, id: string): Promise<Json> {
  const json = await apiGet(ctx, ENDPOINTS.userInfo(id), {}, { what: `user ${id}` });
  const user = obj(json.user);
  if (!user) throw new NotFound(`instagram has no user ${id}`);
  remember(ctx, id, str(user.username));
  return user;
}

/** The legacy id lookup: data.user.reel.user.username, null for an id that does not exist. */
async function usernameByLegacyQuery(ctx: CrawlContext, id: string): Promise<string> {
  const json = await legacyQuery(
    ctx,
    'query_hash_user_by_id',
    { user_id: id, include_chaining: false, include_reel: true, include_suggested_users: false, include_logged_out_extras: false, include_highlight_reels: false, include_related_profiles: false },
    { what: `user ${id}` },
  );
  const data = obj(json.data);
  if (!data || !('user' in data)) throw new ParseError(`user ${id}: the id lookup answered without data.user`);
  const user = obj(data.user);
  if (!user) throw new NotFound(`instagram has no user ${id} (or it blocks this viewer)`);
  const reel = obj(user.reel);
  const username = str(obj(reel?.user)?.username) ?? str(obj(reel?.owner)?.username) ?? str(user.username);
  if (!username) throw new ParseError(`user ${id}: the id lookup named no username`);
  remember(ctx, id, username);
  return username.toLowerCase();
}

/** A numeric user id → its username (memo, then REST with a login, then the legacy lookup). */
export async function usernameOf(ctx: CrawlContext, id: string): Promise<string> {
  const known = ctx.memo.get<string>(nameKey(id));
  if (known) return known;
  return firstAnswering(
    [...(loggedIn(ctx) ? [async () => str((await restUser(ctx, id)).username)?.toLowerCase()] : []), () => usernameByLegacyQuery(ctx, id)],
    isFallbackable,
  ) as Promise<string>;
}

/** A username → its numeric id (memo, else web_profile_info). */
export async function userIdOf(ctx: CrawlContext, username: string): Promise<string> {
  const known = ctx.memo.get<string>(idKey(username));
  if (known) return known;
  const id = authorOf(await webProfile(ctx, username))?.id;
  if (!id || !/^\d+$/.test(id)) throw new ParseError(`profile @${username}: no numeric id in the answer`);
  return id;
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const ref = parseUserRef(params.query);
  const read = (user: Json, what: string): Author => {
    const a = authorOf(user);
    if (!a) throw new ParseError(`${what}: the answer names no account`);
    return a;
  };
  if ('username' in ref) return read(await webProfile(ctx, ref.username), `profile @${ref.username}`);
  return firstAnswering(
    [
      ...(loggedIn(ctx) ? [async () => read(await restUser(ctx, ref.id), `user ${ref.id}`)] : []),
      async () => read(await webProfile(ctx, await usernameByLegacyQuery(ctx, ref.id)), `user ${ref.id}`),
    ],
    isFallbackable,
  );
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: 'An Instagram account: name, handle, bio, avatar, followers, following, posts, verified (anonymous; a numeric id is looked up through the legacy id query, or REST with a login)',
  params: [{ name: 'query', type: 'string', required: true, description: '@handle, handle, numeric user id, or an instagram.com/<handle>/ link' }],
  run: runUser,
};

