import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { gql } from './api.js';
import type { OperationName } from './ops.js';
import { cursorOf, draftsOf, instructionsOf, obj, timelineTweets, tweetUserOf, type Entry, type TweetNode } from './parse.js';
import { parseTimelineRef } from './refs.js';
import { userGone, userIdOf } from './users.js';

/** The profile tabs: Posts, Replies (posts and replies), Media. */
export const TABS: Record<string, OperationName> = { tweets: 'UserTweets', with_replies: 'UserTweetsAndReplies', media: 'UserMedia' };
const PER_PAGE = 20;
/** Community timelines rank by relevance (the tab's default) or recency. */
const RANKINGS = ['Recency', 'Relevance'] as const;

/*
 * An account's timeline (UserTweets, UserTweetsAndReplies, UserMedia; login only) or a community's
 * (CommunityTweetsTimeline). The next page is the Bottom cursor; X caps what a profile timeline reaches
 * back to (about 3,200 posts, twscrape's readme), and a page without posts ends the walk.
 */
async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  const tab = (params.tab ?? 'tweets') as string;
  const op = TABS[tab];
  if (!op) throw new InvalidInput(`params.tab: one of ${Object.keys(TABS).join(', ')}`);
  const ref = parseTimelineRef(params.query, true);
  let body;
  let owner: string | undefined;
  if ('community' in ref) {
    const ranking = (params.ranking ?? 'Recency') as string;
    if (!(RANKINGS as readonly string[]).includes(ranking)) throw new InvalidInput(`params.ranking: one of ${RANKINGS.join(', ')}`);
    if (tab !== 'tweets') throw new InvalidInput('params.tab: a community has one timeline (tab tweets)');
    ({ body } = await gql(ctx, { op: 'CommunityTweetsTimeline', route: 'login', what: `community ${ref.community}`, variables: { communityId: ref.community, count: PER_PAGE, rankingMode: ranking, ...(cursor ? { cursor } : {}) } }));
  } else {
    const userId = await userIdOf(ctx, ref);
    owner = userId;
    const what = `posts of ${'handle' in ref ? `@${ref.handle}` : userId}`;
    ({ body } = await gql(ctx, { op, route: 'login', what, variables: { userId, count: PER_PAGE, ...(cursor ? { cursor } : {}) } }));
    const result = obj(obj(obj(body.data)?.user)?.result);
    if (result?.__typename === 'UserUnavailable') userGone(body, result, what);
  }
  const instructions = instructionsOf(obj(body.data)) ?? [];
  // The replies tab shows each reply in a conversation module under the post it answers: posts of other
  // accounts there are context, not this account's.
  const context = (e: Entry, n: TweetNode): boolean => !!owner && tab === 'with_replies' && /^profile-conversation-/.test(e.module ?? '') && n.kind === 'tweet' && (tweetUserOf(n.tweet)?.id ?? owner) !== owner;
  const nodes = timelineTweets(instructions, context);
  const items = draftsOf(nodes);
  const next = cursorOf(instructions, 'Bottom');
  return { items, next_cursor: nodes.length && next && next !== cursor ? next : undefined };
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "An X account's posts, newest first (needs a logged-in profile); tab with_replies or media for the other profile tabs, or a community's timeline",
  walk: true,
  timeOrdered: (params) => params.ranking !== 'Relevance',
  params: [
    { name: 'query', type: 'string', required: true, description: '@handle, an x.com/<handle> link, x.com/i/user/<id>, id:<digits>, or an x.com/i/communities/<id> link' },
    { name: 'tab', type: 'string', required: false, enum: Object.keys(TABS), default: 'tweets', description: 'tweets (posts and reposts), with_replies (also the replies), media (posts with pictures or video)' },
    { name: 'ranking', type: 'string', required: false, enum: [...RANKINGS], default: 'Recency', description: 'communities only: Recency or Relevance' },
  ],
  page: postsPage,
};
