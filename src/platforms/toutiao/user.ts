import { CrawlError, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { ENDPOINTS, fetchChecked, HTML_ACCEPT, readJson } from './api.js';
import { type Json, obj } from './json.js';
import { authorFromProfile, renderData } from './parse.js';
import { creatorUrl } from './refs.js';
import { resolveToken } from './resolve.js';
import { signedFetch } from './signer.js';

/*
 * A creator: the profile page www.toutiao.com/c/user/token/<token>/ (RENDER_DATA data.profileUserInfo:
 * name, avatar, bio, verification) and POST /api/pc/user/fans_stat token=<token> for followers, following
 * and likes ({message:"success", data:{fans, following, digg_count}}, fans sometimes "1.2万"; search index
 * 1379566495, 71249200963, 59167119737). fans_stat is _signature-signed on the web.
 */

async function counts(ctx: CrawlContext, token: string): Promise<Json | undefined> {
  const what = `follower counts of ${token}`;
  try {
    const res = await signedFetch(ctx, { endpoint: 'user', what, url: ENDPOINTS.fansStat, method: 'POST', form: { token }, referer: creatorUrl(token) });
    const body = obj(readJson(res, what));
    if (body?.message !== 'success') throw new ParseError(`${what}: message "${String(body?.message ?? 'none')}"`);
    return obj(body.data);
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    if (e instanceof CrawlError && e.code === 'session_expired') throw e;
    // The profile is real and worth returning; the caller learns why its counts are missing.
    ctx.warn(`followers, following and likes of ${token} are not reported (${e instanceof CrawlError ? `${e.code}: ` : ''}${e.message})`);
    return undefined;
  }
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const token = await resolveToken(ctx, params.query);
  const what = `profile ${token}`;
  const res = await fetchChecked(ctx, { what, url: creatorUrl(token), accept: HTML_ACCEPT, guest: true });
  const rd = renderData(res.text());
  if (!rd) throw new ParseError(`${what}: the page carries no RENDER_DATA`);
  const info = obj(obj(rd.data)?.profileUserInfo);
  if (!info) throw new ParseError(`${what}: RENDER_DATA carries no data.profileUserInfo`);
  return authorFromProfile(info, token, await counts(ctx, token));
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A toutiao creator's profile (name, bio, avatar, verification) with followers, following and likes",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: www.toutiao.com/c/user/token/<token>/, www.toutiao.com/c/user/<uid>/, the token (MS4wLjABAAAA…), the numeric user id, or a share link',
    },
  ],
  run: runUser,
};
