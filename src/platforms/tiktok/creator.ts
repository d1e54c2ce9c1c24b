import { InvalidInput, NotFound, ParseError } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { ENDPOINTS, fetchPage, firstOf, scopeSection, statusOf, webApi } from './api.js';
import { authorFromUserInfo, obj, str, type Json } from './parse.js';
import { isSecUid, profileUrl } from './refs.js';
import { resolveCreator } from './resolve.js';

/** TikTok's code for a private account: the profile card is still answered (yt-dlp #14585), the posts are not. */
export const PRIVATE_ACCOUNT = 10222;
const DAY_MS = 24 * 3600_000;

export type WebCreator = { handle: string } | { secUid: string };

export interface UserDetail {
  /** userInfo {user, stats, statsV2}. */
  userInfo: Json;
  /** 0, or PRIVATE_ACCOUNT. */
  statusCode: number;
}

function detailOf(section: Json, what: string): UserDetail {
  const userInfo = obj(section.userInfo);
  if (!userInfo || !obj(userInfo.user)) throw new ParseError(`${what}: the answer carries no userInfo.user`);
  return { userInfo, statusCode: statusOf(section).code ?? 0 };
}

/** The profile page's webapp.user-detail: no signature needed. */
async function fromPage(ctx: CrawlContext, name: string, what: string): Promise<UserDetail> {
  const scope = await fetchPage(ctx, profileUrl(name), what);
  return detailOf(scopeSection(scope, 'webapp.user-detail', what, [PRIVATE_ACCOUNT]), what);
}

/** The signed /api/user/detail/, by whichever of uniqueId / secUid is known. */
async function fromApi(ctx: CrawlContext, ref: WebCreator, what: string): Promise<UserDetail> {
  const body = await webApi(ctx, {
    endpoint: 'user',
    path: ENDPOINTS.userDetail,
    params: 'handle' in ref ? [['uniqueId', ref.handle]] : [['secUid', ref.secUid]],
    referer: profileUrl('handle' in ref ? ref.handle : ref.secUid),
    fromPage: 'user',
    what,
    allow: [PRIVATE_ACCOUNT],
  });
  return detailOf(body, what);
}

/**
 * A creator's profile. By handle the page comes first (unsigned, what yt-dlp reads); by secUid the API
 * does (a profile page is addressed by handle), with the page at /@<secUid> after it.
 */
export async function lookupUser(ctx: CrawlContext, ref: WebCreator): Promise<UserDetail> {
  const name = 'handle' in ref ? ref.handle : ref.secUid;
  const what = `profile of @${name}`;
  const found = await firstOf<UserDetail>(
    'handle' in ref
      ? [() => fromPage(ctx, name, what), () => fromApi(ctx, ref, what)]
      : [() => fromApi(ctx, ref, what), () => fromPage(ctx, name, what)],
  );
  const secUid = str(obj(found.userInfo.user)?.secUid);
  const handle = str(obj(found.userInfo.user)?.uniqueId);
  if (secUid && isSecUid(secUid) && handle) ctx.memo.set(`tiktok:secuid:${handle.toLowerCase()}`, secUid, DAY_MS);
  return found;
}

/** The creator reference a web route can use; a bare numeric id is only known to the app API. */
export async function webCreator(ctx: CrawlContext, query: string | undefined): Promise<WebCreator> {
  const ref = await resolveCreator(ctx, query);
  if ('uid' in ref) {
    throw new InvalidInput(
      `"${ref.uid}" is a numeric TikTok user id: the web cannot look those up (only the app API can, which this adapter does not use); pass @handle, a profile URL or the secUid`,
    );
  }
  return ref;
}

/** The secUid the post list needs: given, remembered, or read from the creator's profile. */
export async function secUidOf(ctx: CrawlContext, ref: WebCreator): Promise<{ secUid: string; handle?: string }> {
  if ('secUid' in ref) return { secUid: ref.secUid };
  const known = ctx.memo.get<string>(`tiktok:secuid:${ref.handle.toLowerCase()}`);
  if (known) return { secUid: known, handle: ref.handle };
  const detail = await lookupUser(ctx, ref);
  if (detail.statusCode === PRIVATE_ACCOUNT) {
    throw new NotFound(`@${ref.handle} is a private account (statusCode ${PRIVATE_ACCOUNT}); its posts are visible to its followers only`);
  }
  const secUid = str(obj(detail.userInfo.user)?.secUid);
  if (!secUid || !isSecUid(secUid)) throw new ParseError(`profile of @${ref.handle}: userInfo.user carries no secUid`);
  return { secUid, handle: ref.handle };
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const ref = await webCreator(ctx, params.query);
  const detail = await lookupUser(ctx, ref);
  const author = authorFromUserInfo(detail.userInfo);
  if (!author) throw new ParseError(`profile of @${'handle' in ref ? ref.handle : ref.secUid}: userInfo.user carries no id`);
  if (detail.statusCode === PRIVATE_ACCOUNT) ctx.warn(`@${author.handle ?? author.id} is a private account: its profile card is public, its posts are not`);
  return author;
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A TikTok creator's profile: name, bio, avatar, followers, following, posts, likes received, verification",
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'creator: @handle, profile URL (www.tiktok.com/@<handle>), secUid (MS4wLjABAAAA…) or a share link (vm.tiktok.com/…) to a profile or post',
    },
  ],
  run: runUser,
};
