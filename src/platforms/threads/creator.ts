import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, ParseError } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { APP_PATHS, appGet, graphql, isFallbackable, noting } from './api.js';
import { userRecordOf } from './answers.js';
import { authorOf, type Json } from './parse.js';
import { parseUserRef, profileUrl, type UserRef } from './refs.js';
import { rememberHandle, userPk } from './resolve.js';
import { hasLogin } from './session.js';

function authorFrom(json: Json, who: string): Author {
  const user = userRecordOf(json);
  if (user === null) throw new NotFound(`threads has no user ${who}`);
  const author = user && authorOf(user);
  if (!author) throw new ParseError(`user ${who}: the answer carries no user`);
  return author;
}

const who = (ref: UserRef): string => (ref.handle ? `@${ref.handle}` : ref.pk!);

async function fromWeb(ctx: CrawlContext, ref: UserRef): Promise<Author> {
  const pk = await userPk(ctx, ref);
  const json = await graphql(ctx, 'BarcelonaProfilePageDirectQuery', { canSeeFeedsTab: true, userID: pk }, `user ${who(ref)}`, { referer: ref.handle ? profileUrl(ref.handle) : undefined });
  return authorFrom(json, who(ref));
}

async function fromLegacy(ctx: CrawlContext, ref: UserRef): Promise<Author> {
  const pk = await userPk(ctx, ref);
  return authorFrom(await graphql(ctx, 'BarcelonaProfileRootQuery', { userID: pk }, `user ${who(ref)}`, { remint: false }), who(ref));
}

async function fromApp(ctx: CrawlContext, ref: UserRef): Promise<Author> {
  const json =
    ref.handle === undefined
      ? await appGet(ctx, APP_PATHS.userInfo(ref.pk), {}, `user ${who(ref)}`)
      : await appGet(ctx, APP_PATHS.usernameInfo(ref.handle), {}, `user ${who(ref)}`, { referer: profileUrl(ref.handle) });
  return authorFrom(json, who(ref));
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const ref = parseUserRef(params.query);
  const author = await firstAnswering<Author>([noting(ctx, () => fromWeb(ctx, ref)), noting(ctx, () => fromLegacy(ctx, ref)), ...(hasLogin(ctx) ? [() => fromApp(ctx, ref)] : [])], isFallbackable);
  rememberHandle(ctx, author.handle, author.id);
  return author;
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A threads user's profile: name, handle, bio, avatar, followers, verified (anonymous)",
  params: [{ name: 'query', type: 'string', required: true, description: '@handle, a threads.com/@handle link, or the numeric user id' }],
  run: runUser,
};
