import { CrawlError, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { DM_PARAMS, ENDPOINTS, firstOf, getJson, type Json } from './api.js';
import { authorFromAccInfo, authorFromCard } from './parse.js';
import { spaceUrl } from './refs.js';
import { resolveMid } from './resolve.js';

/** The card answers profile, follower/following, upload and like counts in one request, without a signature. */
async function fromCard(ctx: CrawlContext, mid: string): Promise<Author> {
  const { data } = await getJson(ctx, ENDPOINTS.card, { what: `card of ${mid}`, query: { mid, photo: true }, referer: spaceUrl(mid) });
  const author = authorFromCard(data);
  if (!author) throw new ParseError(`card of ${mid}: data.card carries no mid`);
  return author;
}

/** The space profile (signed, then the older unsigned path), with follower/following from relation/stat. */
async function fromSpace(ctx: CrawlContext, mid: string): Promise<Author> {
  const what = `profile of ${mid}`;
  const referer = spaceUrl(mid);
  const { data } = await firstOf([
    () => getJson(ctx, ENDPOINTS.accInfoWbi, { what, sign: true, referer, query: { mid, token: '', platform: 'web', web_location: 1550101, ...DM_PARAMS } }),
    () => getJson(ctx, ENDPOINTS.accInfo, { what, referer, query: { mid } }),
  ]);
  const author = authorFromAccInfo(data, await relation(ctx, mid));
  if (!author) throw new ParseError(`${what}: data carries no mid`);
  return author;
}

/** Follower/following counts; the profile is still worth returning without them. */
async function relation(ctx: CrawlContext, mid: string): Promise<Json | undefined> {
  try {
    return (await getJson(ctx, ENDPOINTS.relationStat, { what: `relation/stat of ${mid}`, query: { vmid: mid }, referer: spaceUrl(mid) })).data;
  } catch (e) {
    if (!(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
    ctx.warn(`followers/following of ${mid} are not reported (${e instanceof CrawlError ? `${e.code}: ` : ''}${e.message})`);
    return undefined;
  }
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const mid = await resolveMid(ctx, params.query);
  return firstOf([() => fromCard(ctx, mid), () => fromSpace(ctx, mid)]);
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A bilibili creator's profile: name, bio, avatar, followers, following, uploads, likes, verification",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: mid, UID:<mid>, space URL (space.bilibili.com/<mid>), b23.tv short link to a space, or @name (exact)',
    },
  ],
  run: runUser,
};
