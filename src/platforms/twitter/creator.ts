import { isReplayMiss } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CreatorAction, CrawlContext, Params } from '../types.js';
import { gql, isFallbackable } from './api.js';
import { authorOf, obj, userOf } from './parse.js';
import { parseUserRef } from './refs.js';
import { lookupUser, userGone } from './users.js';

/**
 * AboutAccountQuery (the "About this account" sheet): the same identity without the counts, which X
 * leaves out there (0 = not reported). Asked when UserByScreenName's id went stale or failed.
 */
async function fromAbout(ctx: CrawlContext, handle: string): Promise<Author> {
  const what = `account @${handle} (about)`;
  const { body } = await gql(ctx, { op: 'AboutAccountQuery', route: 'login', what, variables: { screenName: handle } });
  const result = obj(obj(obj(body.data)?.user_result_by_screen_name)?.result);
  const user = userOf(result);
  if (!user) userGone(body, result, what);
  return authorOf(user);
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const ref = parseUserRef(params.query);
  try {
    return authorOf(await lookupUser(ctx, ref));
  } catch (e) {
    if (!('handle' in ref) || !isFallbackable(e)) throw e;
    try {
      const author = await fromAbout(ctx, ref.handle);
      if (!isReplayMiss(e)) ctx.warn(`UserByScreenName failed (${(e as Error).message}); the account came from AboutAccountQuery, which reports no counts`);
      return author;
    } catch (again) {
      // The first real failure is the one to report (a missing recording says less).
      throw isReplayMiss(e) && !isReplayMiss(again) ? again : e;
    }
  }
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "An X account (needs a logged-in profile): name, handle, bio, avatar, followers, following, posts, verified (X does not report likes received)",
  params: [{ name: 'query', type: 'string', required: true, description: '@handle, an x.com/<handle> link, x.com/i/user/<id> or id:<digits>' }],
  run: runUser,
};
