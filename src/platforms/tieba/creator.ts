import { NotFound } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CreatorAction, CrawlContext, Params } from '../types.js';
import { ENDPOINTS, loginFirst, pcCall } from './api.js';
import { panelAuthor, sidebarAuthor } from './parse-json.js';
import { parseUserRef, type UserRef } from './refs.js';
import { panel } from './users.js';

const label = (ref: UserRef): string => ('portrait' in ref ? ref.portrait : ref.name);

/*
 * A user's profile: the PC sidebar (/c/u/pc/homeSidebarRight, signed; logged-in profiles, by portrait) has
 * followers and following; the anonymous card (/home/get/panel) has followers and the post count.
 */
async function runUser(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const ref = parseUserRef(params.query);
  const fromPanel = async (): Promise<Author> => {
    const author = panelAuthor(await panel(ctx, ref));
    if (!author) throw new NotFound(`tieba has no user ${label(ref)}`);
    return author;
  };
  const fromSidebar = async (portrait: string): Promise<Author> => {
    const json = await pcCall(ctx, { endpoint: 'user', url: ENDPOINTS.pcUser, method: 'GET', what: `user ${portrait} (PC API)`, params: [['portrait', portrait], ['un', '']] });
    const author = sidebarAuthor(json);
    if (!author) throw new NotFound(`tieba has no user ${portrait}`);
    return author;
  };
  return loginFirst(ctx, `user ${label(ref)}`, 'portrait' in ref ? () => fromSidebar(ref.portrait) : undefined, fromPanel);
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: "A tieba user's profile: name, user name, avatar, followers (and following with a login), post count",
  params: [{ name: 'query', type: 'string', required: true, description: 'portrait (tb.1.…), tieba.baidu.com/home/main?id= or ?un= link, or a user name' }],
  run: runUser,
};
