import type { Cheerio, CheerioAPI } from '../../crawl/cheerio.js';
import type { AnyNode, Element } from 'domhandler';
import type { Comment } from '../../domain/results.js';
import type { ItemDraft } from '../types.js';
import { decodeQueryValue, rawQuery } from './charset.js';
import { attrJson, chinaTime, fieldString, fragmentText, jsField, loadPage, pageDataBlock } from './html.js';
import { cleanPortrait, threadUrl } from './refs.js';
import { count, httpsUrl, idOf, str } from './values.js';

/*
 * The server-rendered pages (real recordings in fixtures/tieba): the forum page /f?kw= (thread list in a
 * Bigpipe pagelet, one <li class="j_thread_list" data-field={id, author_name, author_nickname,
 * author_portrait, reply_num…}> per thread), the thread page /p/{tid} (PageData.thread / forum / pager, one
 * <div class="l_post" data-field={author, content:{post_id, post_no, comment_num…}}> per floor), the floor
 * replies fragment /p/comment (<li class="lzl_single_post" data-field={spid, user_name, showname,
 * portrait}>), and the search page /f/search/res (<div class="s_post">).
 */

type Media = NonNullable<ItemDraft['media']>;

function images($: CheerioAPI, scope: Cheerio<AnyNode>, selector: string, attrs: string[]): Media {
  const out: Media = [];
  scope.find(selector).each((_, el) => {
    const $el = $(el);
    const url = attrs.map((a) => httpsUrl($el.attr(a))).find((u) => !!u);
    if (!url || out.some((m) => m.url === url)) return;
    const w = Number($el.attr('width'));
    const h = Number($el.attr('height'));
    out.push({ kind: 'image', url, ...(w > 0 && h > 0 ? { w, h } : {}) });
  });
  return out;
}

const typeOf = (media: Media): ItemDraft['type'] => (media.some((m) => m.kind === 'video') ? 'video' : media.length ? 'image' : 'text');

// ---------------------------------------------------------------------------------------------
// Forum page

export interface ForumPage {
  forumId?: string;
  forumName?: string;
  drafts: ItemDraft[];
  /** pn of the next page, when the pager links one. */
  nextPn?: string;
  /** The page carried a thread list at all (an empty forum still has the container). */
  hasList: boolean;
}

export function parseForumPage(html: string): ForumPage {
  const $ = loadPage(html);
  const forum = pageDataBlock(html, 'forum');
  const drafts: ItemDraft[] = [];
  $('li.j_thread_list').each((_, el) => {
    const d = forumThread($, $(el));
    if (d && !drafts.some((x) => x.native_id === d.native_id)) drafts.push(d);
  });
  const nextHref = $('a.next.pagination-item').attr('href') ?? $('#frs_list_pager a.next').attr('href');
  const nextPn = nextHref ? /[?&]pn=(\d+)/.exec(nextHref)?.[1] : undefined;
  return {
    forumId: idOf(jsField(forum, 'id'), jsField(forum, 'forum_id')),
    forumName: fieldString(forum, 'name') ?? fieldString(forum, 'forum_name'),
    drafts,
    nextPn,
    hasList: $('#thread_list').length > 0 || $('li.j_thread_list').length > 0 || /pagelet_html_frs-list\/pagelet\/thread/.test(html),
  };
}

function forumThread($: CheerioAPI, li: Cheerio<Element>): ItemDraft | undefined {
  const field = attrJson(li.attr('data-field')) ?? {};
  const tid = idOf(field.id, li.attr('data-tid'));
  if (!tid) return undefined;
  const link = li.find('a.j_th_tit').first();
  const title = (link.attr('title') ?? link.text()).trim();
  const text = fragmentText(li.find('.threadlist_abs').first().html() ?? '');
  const authorTitle = /主题作者:\s*(.+)$/.exec(li.find('.tb_icon_author').first().attr('title') ?? '')?.[1]?.trim();
  const media = images($, li, 'img.threadlist_pic', ['bpic', 'data-original']);
  const thumb = li.find('img.threadlist_pic').first().attr('data-original');
  const replies = count(field.reply_num) ?? count(li.find('.threadlist_rep_num').first().text().trim());
  return {
    native_id: tid,
    type: typeOf(media),
    title: title || undefined,
    text: text || undefined,
    author: authorTitle ?? str(field.author_nickname) ?? str(field.author_name),
    author_id: cleanPortrait(str(field.author_portrait)),
    author_handle: str(field.author_name),
    url: threadUrl(tid),
    thumb: httpsUrl(thumb) ?? media[0]?.url,
    media,
    stats: replies === undefined ? {} : { comments: replies },
  };
}

// ---------------------------------------------------------------------------------------------
// Thread page

export interface Floor {
  pid: string;
  no?: number;
  html: string;
  text: string;
  images: Media;
  portrait?: string;
  handle?: string;
  name?: string;
  ts?: number;
  replyTotal?: number;
}

export interface ThreadPage {
  tid?: string;
  title?: string;
  forumId?: string;
  forumName?: string;
  /** The floors after the first: the thread's replies. */
  replies?: number;
  curPage?: number;
  totalPages?: number;
  videoUrl?: string;
  floors: Floor[];
}

export function parseThreadPage(html: string): ThreadPage {
  const $ = loadPage(html);
  const thread = pageDataBlock(html, 'thread');
  const forum = pageDataBlock(html, 'forum');
  const pager = attrJson(/PageData\.pager\s*=\s*(\{[^}]*\})/.exec(html)?.[1]);
  const shown = /l_reply_num[^>]*>\s*<span[^>]*>\s*(\d+)\s*<\/span>\s*回复贴/.exec(html)?.[1];
  const replyNum = count(jsField(thread, 'reply_num'));
  const title = fieldString(thread, 'title') ?? $('.core_title_txt').first().attr('title')?.trim() ?? ($('h1.core_title_txt, h3.core_title_txt').first().text().trim() || undefined);
  const floors: Floor[] = [];
  $('div.l_post').each((_, el) => {
    const f = floorOf($, $(el));
    if (f && !floors.some((x) => x.pid === f.pid)) floors.push(f);
  });
  return {
    tid: idOf(jsField(thread, 'thread_id')),
    title,
    forumId: idOf(jsField(forum, 'forum_id'), jsField(forum, 'id')),
    forumName: fieldString(forum, 'forum_name') ?? fieldString(forum, 'name'),
    replies: count(shown) ?? (replyNum !== undefined && replyNum > 0 ? replyNum - 1 : undefined),
    curPage: count(pager?.cur_page),
    totalPages: count(pager?.total_page),
    videoUrl: httpsUrl(fieldString(thread, 'video_url')),
    floors,
  };
}

function floorOf($: CheerioAPI, post: Cheerio<Element>): Floor | undefined {
  const field = attrJson(post.attr('data-field'));
  const content = field?.content && typeof field.content === 'object' ? (field.content as Record<string, unknown>) : undefined;
  const author = field?.author && typeof field.author === 'object' ? (field.author as Record<string, unknown>) : undefined;
  const pid = idOf(content?.post_id, post.attr('data-pid'));
  // Ads and placeholders are l_post blocks without an author or a post id.
  if (!pid || !author) return undefined;
  const body = post.find(`#post_content_${pid}`).first();
  const html = body.html() ?? (typeof content?.content === 'string' ? content.content : '');
  const tails = post.find('.post-tail-wrap .tail-info, .core_reply_tail .tail-info').toArray().map((e) => $(e).text().trim());
  const date = (typeof content?.date === 'string' ? content.date : undefined) ?? tails.find((t) => /^\d{4}-\d{1,2}-\d{1,2}/.test(t));
  const shownName = post.find('.d_name a.p_author_name, a.p_author_name').first().text().trim();
  return {
    pid,
    no: count(content?.post_no),
    html,
    text: fragmentText(html),
    images: images($, body.length ? body : post, 'img.BDE_Image', ['src', 'data-original']),
    portrait: cleanPortrait(str(author.portrait)),
    handle: str(author.user_name),
    name: shownName || str(author.user_nickname) || str(author.user_name),
    ts: chinaTime(date),
    replyTotal: count(content?.comment_num),
  };
}

/** The thread's opening floor as the detail item. */
export function threadDraft(page: ThreadPage, tid: string): ItemDraft | undefined {
  const first = page.floors.find((f) => f.no === 1) ?? (page.curPage === 1 || page.curPage === undefined ? page.floors[0] : undefined);
  if (!first && !page.title) return undefined;
  const media: Media = [...(page.videoUrl ? [{ kind: 'video' as const, url: page.videoUrl }] : []), ...(first?.images ?? [])];
  return {
    native_id: tid,
    type: typeOf(media),
    title: page.title,
    text: first?.text || undefined,
    author: first?.name,
    author_id: first?.portrait,
    author_handle: first?.handle,
    url: threadUrl(tid),
    thumb: first?.images[0]?.url,
    media,
    ts: first?.ts,
    stats: page.replies === undefined ? {} : { comments: page.replies },
  };
}

export function floorComment(f: Floor, tid: string): Comment {
  const text = f.text || (f.images.length ? '[图片]' : '');
  return {
    cid: f.pid,
    text,
    likes: 0,
    reply_total: f.replyTotal ?? 0,
    user_id: f.portrait ?? '',
    handle: f.handle ?? '',
    user_name: f.name ?? f.handle ?? '',
    created_at: f.ts ?? 0,
    source: 'tieba',
    url: `${threadUrl(tid)}?pid=${f.pid}#${f.pid}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Floor replies (楼中楼)

export interface FloorReplies {
  comments: Comment[];
  total?: number;
  totalPages?: number;
}

export function parseFloorReplies(html: string, tid: string, pid: string): FloorReplies {
  const $ = loadPage(html);
  const comments: Comment[] = [];
  $('li.lzl_single_post').each((_, el) => {
    const li = $(el);
    const field = attrJson(li.attr('data-field')) ?? {};
    const spid = idOf(field.spid);
    if (!spid || comments.some((c) => c.cid === spid)) return;
    const main = li.find('.lzl_content_main').first();
    const shown = li.find('.lzl_cnt a.j_user_card').first().text().trim();
    comments.push({
      cid: spid,
      text: fragmentText(main.html() ?? ''),
      likes: 0,
      reply_total: 0,
      user_id: cleanPortrait(str(field.portrait)) ?? '',
      handle: str(field.user_name) ?? '',
      user_name: shown || str(field.showname) || str(field.user_name) || '',
      created_at: chinaTime(li.find('.lzl_time').first().text()) ?? 0,
      source: 'tieba',
      url: `${threadUrl(tid)}?pid=${spid}#${spid}`,
      parent_id: pid,
    });
  });
  const pager = attrJson($('li.lzl_li_pager').first().attr('data-field'));
  return { comments, total: count(pager?.total_num), totalPages: count(pager?.total_page) };
}

// ---------------------------------------------------------------------------------------------
// Search page

export interface SearchPage {
  drafts: ItemDraft[];
  hasNext: boolean;
  /** The page holds the result list container at all (an honest no-result page too). */
  hasList: boolean;
}

export function parseSearchPage(html: string): SearchPage {
  const $ = loadPage(html);
  const drafts: ItemDraft[] = [];
  $('div.s_post').each((_, el) => {
    const post = $(el);
    const link = post.find('.p_title a').first();
    const tid = idOf(link.attr('data-tid')) ?? /\/p\/(\d+)/.exec(link.attr('href') ?? '')?.[1];
    if (!tid || drafts.some((d) => d.native_id === tid)) return;
    const pid = /[?&]pid=(\d+)/.exec(link.attr('href') ?? '')?.[1];
    const authorLink = post.find('a[href*="/home/main"]').first();
    const authorHref = authorLink.attr('href') ?? '';
    const un = (() => {
      try {
        const raw = rawQuery(new URL(authorHref, 'https://tieba.baidu.com/')).get('un');
        return raw ? decodeQueryValue(raw)?.trim() : undefined;
      } catch {
        return undefined;
      }
    })();
    const text = fragmentText(post.find('.p_content').first().html() ?? '');
    const media = images($, post, '.p_mediaCont img, img.p_pic', ['original', 'data-original', 'src']);
    drafts.push({
      native_id: tid,
      type: typeOf(media),
      title: link.text().trim() || undefined,
      text: text || undefined,
      author: authorLink.text().trim() || un,
      author_handle: un,
      url: pid ? `${threadUrl(tid)}?pid=${pid}#${pid}` : threadUrl(tid),
      thumb: media[0]?.url,
      media,
      ts: chinaTime(post.find('.p_date').first().text()),
      stats: {},
    });
  });
  return { drafts, hasNext: $('.pager a.next, a.next.pagination-item').length > 0, hasList: $('.s_post_list').length > 0 || drafts.length > 0 };
}
