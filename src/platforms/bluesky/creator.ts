import { ParseError } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { NSID, firstAnswer, publicGet } from './api.js';
import { withActor } from './identity.js';
import { profileToAuthor } from './parse.js';
import { parseCreatorRef } from './refs.js';

/*
 * getProfile answers the full profile with counts. When it cannot be had non-terminally, getFollows is
 * asked for its `subject` (the same account's basic profile view): name, bio and avatar, but no counts,
 * which then stay absent (not reported) rather than 0.
 */
async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const actor = parseCreatorRef(params.query);
  return firstAnswer([
    async () => {
      const body = await withActor(ctx, actor, (a) => publicGet(ctx, NSID.getProfile, { actor: a }));
      const author = profileToAuthor(body);
      if (!author) throw new ParseError('getProfile: the answer has no did');
      return author;
    },
    async () => {
      const body = await withActor(ctx, actor, (a) => publicGet(ctx, NSID.getFollows, { actor: a, limit: 1 }));
      const author = profileToAuthor(body.subject);
      if (!author) throw new ParseError('getFollows: the answer has no subject');
      ctx.warn('profile read from getFollows: follower, following and post counts were not reported');
      return author;
    },
  ]);
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A Bluesky account's profile: display name, bio, avatar, followers, following, posts, verification",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the account: handle (@bsky.app), DID (did:plc:…) or profile URL (https://bsky.app/profile/<handle>)',
    },
  ],
  run: runUser,
};
