import { ParseError } from '../../crawl/errors.js';
import type { CreatorAction } from '../types.js';
import { ENDPOINTS, getJson } from './api.js';
import { INSTANCE_PARAM, queryParam, rememberAccountId } from './common.js';
import { pickInstance } from './instance.js';
import { accountToAuthor } from './parse.js';
import { parseAccountRef } from './refs.js';

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: 'an account profile: name, bio, avatar, follower/following/post counts',
  params: [queryParam('the account: @user@server, https://server/@user, user (on params.instance) or an account id'), INSTANCE_PARAM],
  async run(ctx, params) {
    const ref = parseAccountRef(params.query);
    const inst = pickInstance(ctx, params, ref.host);
    const { data } = ref.id
      ? await getJson(ctx, inst, ENDPOINTS.account(ref.id), undefined, `account ${ref.id}`)
      : await getJson(ctx, inst, ENDPOINTS.lookup, { acct: ref.acct }, `account lookup @${ref.acct}`);
    const author = accountToAuthor(data, inst.host);
    if (!author) throw new ParseError(`account ${ref.id ?? ref.acct}: ${inst.host} answered without an account id`);
    rememberAccountId(ctx, inst, ref.acct, author.id);
    return author;
  },
};
