import { InvalidInput, NotFound, ParseError } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { read } from './api.js';
import { accountToAuthor, obj } from './parse.js';
import { parseCreatorRef } from './refs.js';

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const ref = parseCreatorRef(params.query);
  if (ref.kind === 'subreddit') throw new InvalidInput(`params.query: r/${ref.name} is a community, not a user; use posts or hot for it`);
  if (ref.kind === 'me') {
    const body = await read(ctx, { what: 'the logged-in account', variants: [{ path: '/api/v1/me' }], query: { raw_json: 1 }, user: true });
    const me = accountToAuthor(body);
    if (!me) throw new ParseError('/api/v1/me: the answer names no account');
    return me;
  }
  const what = `u/${ref.name}`;
  const body = await read(ctx, { what, variants: [{ path: `/user/${encodeURIComponent(ref.name)}/about` }], query: { raw_json: 1 } });
  const data = obj(obj(body)?.data);
  // Suspended accounts still answer 200, with little more than the name and this flag.
  if (data?.is_suspended === true) throw new NotFound(`${what} is suspended`);
  const author = accountToAuthor(body);
  if (!author) throw new ParseError(`${what}: the answer names no account`);
  return author;
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A reddit user's profile: display name, bio, avatar, followers, karma (likes)",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'u/<name>, /user/<name>, @name, a profile URL or a bare username; "me" for the logged-in account (needs a user login)',
    },
  ],
  run: runUser,
};
