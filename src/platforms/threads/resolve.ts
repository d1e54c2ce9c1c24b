import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, ParseError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { APP_PATHS, appGet, graphql, isFallbackable, noting, webPage } from './api.js';
import { userRecordOf } from './answers.js';
import { idOf, obj, type Json } from './parse.js';
import { parseUserRef, profileUrl, type UserRef } from './refs.js';
import { hasLogin } from './session.js';

const DAY_MS = 24 * 3600_000;
const memoKey = (handle: string): string => `threads:user-pk:${handle}`;

/** The hovercard query answers a handle's user (2026 web; FxEmbed fetchThreadsUserByUsername). */
export async function hovercard(ctx: CrawlContext, handle: string): Promise<Json> {
  const json = await graphql(ctx, 'BarcelonaUsernameHovercardImplDirectQuery', { username: handle }, `user @${handle}`, { referer: profileUrl(handle) });
  const user = userRecordOf(json);
  if (user === null) throw new NotFound(`threads has no user @${handle}`);
  if (!user) throw new ParseError(`user @${handle}: the hovercard answer carries no user`);
  return user;
}

/** The profile page names its user's id ("props":{"user_id":"…"} in 2023; "user_id":"…" in its data). */
export function userIdInPage(html: string): string | undefined {
  return /"props":\{"user_id":"(\d+)"\}/.exec(html)?.[1] ?? /"user_id":"(\d+)"/.exec(html)?.[1];
}

async function fromPage(ctx: CrawlContext, handle: string): Promise<string> {
  const html = await webPage(ctx, profileUrl(handle), `profile page of @${handle}`);
  const id = userIdInPage(html);
  if (!id) throw new ParseError(`profile page of @${handle}: no user id on the page`);
  return id;
}

async function fromApp(ctx: CrawlContext, handle: string): Promise<string> {
  const json = await appGet(ctx, APP_PATHS.usernameInfo(handle), {}, `user @${handle}`, { referer: profileUrl(handle) });
  const id = idOf(obj(json.user)?.pk_id, obj(json.user)?.pk);
  if (!id) throw new NotFound(`threads has no user @${handle}`);
  return id;
}

/** A user reference → the numeric id every route takes; handles are remembered for a day. */
export async function userPk(ctx: CrawlContext, ref: UserRef): Promise<string> {
  if (ref.handle === undefined) return ref.pk;
  const known = ctx.memo.get<string>(memoKey(ref.handle));
  if (known) return known;
  const handle = ref.handle;
  const pk = await firstAnswering<string>(
    [
      noting(ctx, async () => {
        const user = await hovercard(ctx, handle);
        return idOf(user.pk, user.id);
      }),
      () => fromPage(ctx, handle),
      ...(hasLogin(ctx) ? [() => fromApp(ctx, handle)] : []),
    ],
    isFallbackable,
  );
  if (!pk) throw new NotFound(`threads has no user @${handle}`);
  ctx.memo.set(memoKey(handle), pk, DAY_MS);
  return pk;
}

export const resolveUser = (ctx: CrawlContext, query: string | undefined): Promise<string> => userPk(ctx, parseUserRef(query));

export function rememberHandle(ctx: CrawlContext, handle: string | undefined, pk: string | undefined): void {
  if (handle && pk) ctx.memo.set(memoKey(handle.toLowerCase()), pk, DAY_MS);
}
