import { NotFound } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CreatorAction, CrawlContext, Params } from '../types.js';
import { dataOf, resource } from './api.js';
import { authorOf } from './parse.js';
import { resolveOwner } from './refs.js';

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const { user } = await resolveOwner(ctx, params.query);
  // py3-pinterest get_user_overview: UserResource with the "profile" field set.
  const body = await resource(ctx, { resource: 'user', options: { username: user, field_set_key: 'profile' }, sourceUrl: `/${user}/`, what: `user ${user}` });
  const author = authorOf(dataOf(body));
  if (!author) throw new NotFound(`pinterest has no user ${user}`);
  return author;
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A pinterest user's profile: name, bio, avatar, followers, following, pins, verification",
  params: [{ name: 'query', type: 'string', required: true, description: 'a username, @username, a pinterest.com/<user>/ link (a board link names its owner) or a pin.it link' }],
  run: runUser,
};
