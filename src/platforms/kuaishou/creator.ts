import { NotFound } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CreatorAction, CrawlContext, Params } from '../types.js';
import { firstOf } from './api.js';
import { graphql } from './graphql.js';
import { visionProfileAuthor, wxProfileAuthor } from './parse.js';
import { profileUrl, WWW } from './refs.js';
import { resolveUser } from './resolve.js';
import { miniSession, wxUserProfile } from './wxmini.js';

/** A creator's profile: web GraphQL visionProfile, then the mini-program profile when the profile carries its session. */
async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const userId = await resolveUser(ctx, params.query);
  const session = miniSession(ctx);
  const author = await firstOf<Author>([
    async () => {
      const op = await graphql(ctx, 'visionProfile', { userId }, { what: `profile of ${userId}`, referer: /^3x/.test(userId) ? profileUrl(userId) : `${WWW}/` });
      return visionProfileAuthor(op, userId);
    },
    ...(session ? [async () => wxProfileAuthor(await wxUserProfile(ctx, session, userId), userId)] : []),
  ]);
  if (!author) throw new NotFound(`kuaishou user ${userId}: the profile answer carries no user`);
  return author;
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A kuaishou creator's profile: name, bio, avatar, follower / following / video counts",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: eid (3x…), numeric user id, www.kuaishou.com/profile/<eid>, a share link to a profile, or @kwaiId / @name (needs a mini-program session)',
    },
  ],
  run: runUser,
};
