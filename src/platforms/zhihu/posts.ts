import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { apiGet, ENDPOINTS } from './api.js';
import { articleDraft, answerDraft, contentDraft, obj, objs, str, zvideoDraft, type Json } from './parse.js';
import { columnUrl, parseColumnRef, parseMemberRef, peopleUrl } from './refs.js';

const PER_PAGE = 20;

export const TABS = ['answers', 'articles', 'zvideos'] as const;
type Tab = (typeof TABS)[number];

/** The include lists the member pages ask with (MediaCrawler zhihu/client.py get_creator_*). */
const INCLUDE: Record<Tab, string> = {
  answers:
    'data[*].is_normal,admin_closed_comment,reward_info,is_collapsed,annotation_action,annotation_detail,collapse_reason,collapsed_by,suggest_edit,comment_count,can_comment,content,editable_content,attachment,voteup_count,reshipment_settings,comment_permission,created_time,updated_time,review_info,excerpt,paid_info,reaction_instruction,is_labeled,label_info,relationship.is_authorized,voting,is_author,is_thanked,is_nothelp;data[*].vessay_info;data[*].author.badge[?(type=best_answerer)].topics;data[*].author.vip_info;data[*].question.has_publishing_draft,relationship',
  articles:
    'data[*].comment_count,suggest_edit,is_normal,thumbnail_extra_info,thumbnail,can_comment,comment_permission,admin_closed_comment,content,voteup_count,created,updated,upvoted_followees,voting,review_info,reaction_instruction,is_labeled,label_info;data[*].vessay_info;data[*].author.badge[?(type=best_answerer)].topics;data[*].author.vip_info;',
  zvideos: 'similar_zvideo,creation_relationship,reaction_instruction',
};

const BY_TAB: Record<Tab, (o: Json) => ItemDraft | undefined> = { answers: answerDraft, articles: articleDraft, zvideos: (o) => zvideoDraft(o) };

function memberList(ctx: CrawlContext, token: string, tab: Tab, offset: number): Promise<Json | null> {
  return apiGet(ctx, {
    endpoint: 'posts',
    url: ENDPOINTS.memberList(token, tab),
    what: `${tab} of ${token}`,
    referer: `${peopleUrl(token)}/${tab === 'articles' ? 'posts' : tab}`,
    params: [
      ['include', INCLUDE[tab]],
      ['offset', offset],
      ['limit', PER_PAGE],
      ...(tab === 'zvideos' ? [['similar_aggregation', 'true'] as const] : [['sort_by', 'created'] as const]),
    ],
  });
}

/** A column's items (articles, mostly), newest first. */
function columnList(ctx: CrawlContext, column: string, offset: number): Promise<Json | null> {
  return apiGet(ctx, { endpoint: 'posts', url: ENDPOINTS.columnItems(column), what: `column ${column}`, referer: columnUrl(column), params: [['limit', PER_PAGE], ['offset', offset]] });
}

/** A member's answers, articles or videos (or a column's items); offset paging, paging.is_end on the last page. */
async function postsPage(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>> {
  if (cursor !== undefined && !/^\d{1,6}$/.test(cursor)) throw new InvalidInput('params.cursor: not a zhihu posts cursor (an offset)');
  const tab = ((params.tab as string | undefined) ?? 'answers') as Tab;
  if (!TABS.includes(tab)) throw new InvalidInput(`params.tab: one of ${TABS.join(', ')}`);
  const offset = Number(cursor ?? 0);
  const column = parseColumnRef(params.query);
  const json = (column ? await columnList(ctx, column, offset) : await memberList(ctx, parseMemberRef(params.query), tab, offset)) ?? {};
  const list = objs(json.data);
  const items = list.map((o) => (str(o.type) ? contentDraft(o) : BY_TAB[tab](o))).filter((d): d is ItemDraft => !!d);
  const paging = obj(json.paging);
  let next: number | undefined;
  if (paging?.is_end !== true && list.length) {
    next = offset + list.length;
    try {
      const o = Number(new URL(str(paging?.next) ?? '').searchParams.get('offset'));
      if (Number.isSafeInteger(o) && o > offset) next = o;
    } catch {
      // No next URL: the counted offset stands.
    }
  }
  return { items, next_cursor: next === undefined ? undefined : String(next) };
}

export const postsAction: ItemsAction = {
  shape: 'items',
  summary: "A zhihu member's answers (default), articles or videos, newest first; or a column's articles",
  walk: true,
  timeOrdered: true,
  params: [
    { name: 'query', type: 'string', required: true, description: 'a member (url_token, @url_token, www.zhihu.com/people/<url_token> or /org/ link) or a column (zhuanlan.zhihu.com/<column id>, column:<id>)' },
    { name: 'tab', type: 'string', required: false, enum: [...TABS], default: 'answers', description: "a member's answers, articles or zvideos (a column lists its own items)" },
  ],
  page: postsPage,
};
