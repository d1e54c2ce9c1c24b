import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { CONTAINERS, ENDPOINTS, getJson, withFallback } from './api.js';
import { arr, obj, str, userToAuthor } from './parse.js';
import { pcProfile, pcUidOfName } from './pc.js';
import { parseCreatorRef } from './refs.js';

/**
 * A creator reference → uid. Screen names go through m.weibo.cn's user search (container
 * 100103type=3) and only an exact, case-insensitive screen-name match is accepted: the search is fuzzy,
 * and guessing a similar name would crawl the wrong account.
 */
export async function resolveUid(ctx: CrawlContext, query: string | undefined): Promise<string> {
  const ref = parseCreatorRef(query);
  if ('uid' in ref) return ref.uid;
  // Walks ask once per page; a uid never changes, and a day is short enough to follow a renamed account.
  const key = `weibo:uid-of:${ref.name.toLowerCase()}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const uid = await lookupName(ctx, ref.name);
  ctx.memo.set(key, uid, 24 * 3600_000);
  return uid;
}

/**
 * m.weibo.cn's user search first; weibo.com's profile/info?screen_name only when that search fails
 * non-terminally. Either way only an exact screen-name match counts.
 */
async function lookupName(ctx: CrawlContext, name: string): Promise<string> {
  const uid = await withFallback(
    () => mobileUidOfName(ctx, name),
    () => pcUidOfName(ctx, name),
  );
  if (uid) return uid;
  throw new InvalidInput(
    `could not resolve the weibo screen name "${name}" to a uid (weibo's user search has no account with exactly that name); pass the numeric uid or weibo.com/u/<uid>`,
  );
}

/** The uid of exactly this screen name in m.weibo.cn's user search; null when the search has none. */
async function mobileUidOfName(ctx: CrawlContext, name: string): Promise<string | null> {
  const env = await getJson(ctx, ENDPOINTS.getIndex, { containerid: CONTAINERS.userSearch(name), page_type: 'searchall' }, 'user search');
  const wanted = name.toLowerCase();
  if (env.kind === 'ok') {
    for (const user of usersOf(env.data.cards)) {
      const screenName = str(user.screen_name);
      const id = str(user.idstr) ?? str(user.id);
      if (screenName && id && screenName.toLowerCase() === wanted) return id;
    }
  }
  return null;
}

function usersOf(cards: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const c of arr(cards)) {
    const card = obj(c);
    if (!card) continue;
    const user = obj(card.user);
    if (user) out.push(user);
    for (const g of arr(card.card_group)) {
      const u = obj(obj(g)?.user);
      if (u) out.push(u);
    }
  }
  return out;
}

async function mobileProfile(ctx: CrawlContext, uid: string): Promise<Author | null> {
  // type=uid&value=<uid> is what the profile page sends; containerid=100505<uid> names the same profile card.
  const env = await getJson(ctx, ENDPOINTS.getIndex, { type: 'uid', value: uid, containerid: CONTAINERS.profile(uid) }, 'profile');
  if (env.kind === 'empty') return null;
  const info = obj(env.data.userInfo);
  if (!info) throw new ParseError('profile: data.userInfo is missing');
  const author = userToAuthor(info);
  if (!author) throw new ParseError('profile: userInfo has no id');
  return author;
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const uid = await resolveUid(ctx, params.query);
  // An honest "nothing here" (null) from m.weibo.cn stands; weibo.com is asked only when it failed.
  return withFallback(
    () => mobileProfile(ctx, uid),
    () => pcProfile(ctx, uid),
  );
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A weibo creator's profile: name, bio, avatar, followers, following, post count, verification",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'uid, profile URL (weibo.com/u/<uid>, m.weibo.cn/u/<uid>, m.weibo.cn/profile/<uid>) or @screen_name',
    },
  ],
  run: runUser,
};
