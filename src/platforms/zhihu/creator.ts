import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, ParseError } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { apiGet, ENDPOINTS, isFallbackable, pageGet } from './api.js';
import { initialData } from './html.js';
import { authorOf, get, obj, str } from './parse.js';
import { parseMemberRef, peopleUrl } from './refs.js';

const INCLUDE = 'follower_count,following_count,answer_count,articles_count,zvideo_count,voteup_count,description,headline,badge[?(type=best_answerer)].topics';

async function fromApi(ctx: CrawlContext, token: string): Promise<Author> {
  const json = await apiGet(ctx, { endpoint: 'user', url: ENDPOINTS.member(token), what: `member ${token}`, referer: peopleUrl(token), params: [['include', INCLUDE]] });
  const author = authorOf(json);
  if (!author) throw new ParseError(`member ${token}: the answer names no member`);
  return author;
}

/** The profile page's js-initialData: entities.users keyed by url_token (camelCase fields). */
async function fromPage(ctx: CrawlContext, token: string): Promise<Author> {
  const html = await pageGet(ctx, peopleUrl(token), `profile page ${token}`);
  const users = obj(obj(obj(initialData(html)?.initialState)?.entities)?.users);
  if (!users) throw new ParseError(`profile page ${token}: no js-initialData users`);
  const lower = token.toLowerCase();
  const user = Object.entries(users).find(([k, v]) => k.toLowerCase() === lower || str(get(obj(v), 'url_token'))?.toLowerCase() === lower || str(obj(v)?.id) === token)?.[1];
  const author = authorOf(user);
  if (!author) throw new NotFound(`zhihu has no member ${token}`);
  return author;
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const token = parseMemberRef(params.query);
  return firstAnswering([() => fromApi(ctx, token), () => fromPage(ctx, token)], isFallbackable);
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A zhihu member's profile: name, url_token, headline, avatar, followers, following, posts (answers + articles + videos), upvotes received",
  params: [{ name: 'query', type: 'string', required: true, description: 'url_token, @url_token, or a www.zhihu.com/people/<url_token> (or /org/) link' }],
  run: runUser,
};
