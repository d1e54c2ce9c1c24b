import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CrawlContext, CreatorAction, Params } from '../types.js';
import { ENDPOINTS, isFallbackable, readWebJson, shareGet, webGet } from './api.js';
import { authorOf } from './parse.js';
import { resolveSecUid, userUrl } from './refs.js';

async function fromWeb(ctx: CrawlContext, secUid: string): Promise<Author> {
  const json = await webGet(ctx, { endpoint: 'user', url: ENDPOINTS.profile, what: `profile ${secUid}`, referer: userUrl(secUid), params: { publish_video_strategy_type: 2, source: 'channel_pc_web', sec_user_id: secUid, personal_center_strategy: 1 } });
  const author = authorOf(json.user);
  if (!author) throw new NotFound(`douyin has no user ${secUid}`);
  return author;
}

/** The share site's older unsigned profile answer ({user_info}); the fallback when the web refuses. */
async function fromShare(ctx: CrawlContext, secUid: string): Promise<Author> {
  const what = `profile ${secUid} (share API)`;
  const json = readWebJson(await shareGet(ctx, `${ENDPOINTS.shareUserLegacy}?${new URLSearchParams({ sec_uid: secUid }).toString()}`, what), what);
  const author = authorOf(json.user_info);
  if (!author) throw new NotFound(`douyin has no user ${secUid}`);
  return author;
}

async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const secUid = await resolveSecUid(ctx, params.query);
  return firstAnswering([() => fromWeb(ctx, secUid), () => fromShare(ctx, secUid)], isFallbackable);
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A douyin user's profile: name, handle (douyin id), bio, avatar, followers, following, posts, likes received",
  params: [{ name: 'query', type: 'string', required: true, description: 'sec_uid (MS4wLjABAAAA…), www.douyin.com/user/<sec_uid> link or v.douyin.com share link' }],
  run: runUser,
};
