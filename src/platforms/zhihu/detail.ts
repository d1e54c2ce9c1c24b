import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, ParseError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { apiGet, ENDPOINTS, isFallbackable, pageGet } from './api.js';
import { initialData } from './html.js';
import { answerDraft, articleDraft, obj, questionDraft, zvideoDraft, type Json } from './parse.js';
import { contentUrl, parseContentRef, type ContentKind, type ContentRef } from './refs.js';

interface Route {
  api: (id: string) => string;
  include?: string;
  /** js-initialData entities key. */
  entities: string;
  draft: (o: Json, users?: Json) => ItemDraft | undefined;
}

const ROUTES: Record<ContentKind, Route> = {
  answer: {
    api: ENDPOINTS.answer,
    include: 'content,excerpt,voteup_count,comment_count,created_time,updated_time,question,thumbnail_info,reaction',
    entities: 'answers',
    draft: answerDraft,
  },
  article: { api: ENDPOINTS.article, entities: 'articles', draft: articleDraft },
  question: {
    api: ENDPOINTS.question,
    include: 'detail,excerpt,author,answer_count,comment_count,follower_count,visit_count,created,updated_time',
    entities: 'questions',
    draft: questionDraft,
  },
  zvideo: { api: ENDPOINTS.zvideo, entities: 'zvideos', draft: zvideoDraft },
};

async function fromApi(ctx: CrawlContext, ref: ContentRef): Promise<ItemDraft> {
  const route = ROUTES[ref.kind];
  const json = await apiGet(ctx, {
    endpoint: 'detail',
    url: route.api(ref.id),
    what: `${ref.kind} ${ref.id}`,
    referer: contentUrl(ref),
    params: route.include ? [['include', route.include]] : [],
  });
  const d = json && route.draft(json);
  if (!d) throw new ParseError(`${ref.kind} ${ref.id}: the answer carries no ${ref.kind}`);
  return d;
}

/** The content's own page: js-initialData initialState.entities.<kind>s[id] (MediaCrawler zhihu/help.py). */
async function fromPage(ctx: CrawlContext, ref: ContentRef): Promise<ItemDraft> {
  const route = ROUTES[ref.kind];
  const html = await pageGet(ctx, contentUrl(ref), `${ref.kind} page ${ref.id}`);
  const entities = obj(obj(initialData(html)?.initialState)?.entities);
  if (!entities) throw new ParseError(`${ref.kind} page ${ref.id}: no js-initialData`);
  const found = obj(obj(entities[route.entities])?.[ref.id]);
  if (!found) throw new NotFound(`zhihu's ${ref.kind} page ${ref.id} holds no ${ref.kind} ${ref.id}`);
  // The page's entity key is the id as a string; a 19-digit numeric id field would have lost digits.
  const d = route.draft({ type: ref.kind, ...found, id: ref.id }, obj(entities.users));
  if (!d) throw new ParseError(`${ref.kind} page ${ref.id}: the ${ref.kind} could not be read`);
  return d;
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const ref = parseContentRef(params.query);
  const item = await firstAnswering([() => fromApi(ctx, ref), () => fromPage(ctx, ref)], isFallbackable);
  if (ref.question && ref.kind === 'answer' && !item.url?.includes('/question/')) item.url = contentUrl(ref);
  return { items: [item] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One zhihu answer, article, question or video: the body as text, its pictures, the video stream',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'www.zhihu.com/question/<qid>/answer/<aid>, /answer/<aid>, zhuanlan.zhihu.com/p/<id>, /question/<qid>, /zvideo/<id>, or answer:<id>, article:<id>, question:<id>, zvideo:<id>',
    },
  ],
  page: detailPage,
};
