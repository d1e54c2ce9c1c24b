import { NotFound } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { errorsOf, gql, outcomeOf } from './api.js';
import { obj, str, userOf, type Json, type XUser } from './parse.js';
import type { UserRef } from './refs.js';

/** What X said when an account did not come back: suspended, missing, unavailable. */
export function userGone(body: Json, result: Json | undefined, what: string): never {
  if (result?.__typename === 'UserUnavailable') {
    const reason = str(result.reason);
    throw new NotFound(`${what}: X says ${str(result.message) ?? 'the account is unavailable'}${reason ? ` (${reason})` : ''}`);
  }
  const known = outcomeOf(errorsOf(body), { what, route: 'login', op: 'user', profile: '' }, false);
  if (known) throw known;
  throw new NotFound(`${what}: X has no such account`);
}

const uidKey = (handle: string): string => `twitter:uid:${handle.toLowerCase()}`;
const DAY_MS = 24 * 3600_000;

/** UserByScreenName / UserByRestId (login only). */
export async function lookupUser(ctx: CrawlContext, ref: UserRef): Promise<XUser> {
  const what = 'handle' in ref ? `account @${ref.handle}` : `account ${ref.id}`;
  const { body } = await gql(ctx, 'handle' in ref
    ? { op: 'UserByScreenName', route: 'login', what, variables: { screen_name: ref.handle } }
    : { op: 'UserByRestId', route: 'login', what, variables: { userId: ref.id } });
  const result = obj(obj(obj(body.data)?.user)?.result);
  const user = userOf(result);
  if (!user) userGone(body, result, what);
  if (user.handle) ctx.memo.set(uidKey(user.handle), user.id, DAY_MS);
  return user;
}

/** The numeric id timelines want; a handle is looked up once a day. */
export async function userIdOf(ctx: CrawlContext, ref: UserRef): Promise<string> {
  if ('id' in ref) return ref.id;
  const known = ctx.memo.get<string>(uidKey(ref.handle));
  if (known) return known;
  const user = await lookupUser(ctx, ref);
  if (user.protected) ctx.warn(`@${user.handle ?? ref.handle} is protected: X shows its posts only to approved followers`);
  return user.id;
}
