import { ParseError } from '../../crawl/errors.js';
import { firstAnswering } from '../../crawl/fallback.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { fetchChecked, HTML_ACCEPT, isFallbackable, mobilePageUrl, PHONE_UA } from './api.js';
import { postFromRenderData, renderData, type PostPage } from './parse.js';
import { postFromUrl, postUrl, type PostKind, type PostRef } from './refs.js';
import { resolvePost } from './resolve.js';

/*
 * One post from its page's RENDER_DATA. Articles and videos are read from www.toutiao.com with the guest
 * ttwid (as yt-dlp does); /article/<id>/ redirects a video to /video/<id>/, so an id of unknown kind goes
 * there. Micro-posts (/w/<id>/), and articles whose www page fails, are read from the phone site, whose
 * RENDER_DATA root carries articleInfo; that site serves its data only to a phone User-Agent, so this one
 * request goes out with one (and without the guest cookie, which it does not need).
 */

function readPage(html: string, id: string, what: string): PostPage {
  const rd = renderData(html);
  if (!rd) throw new ParseError(`${what}: the page carries no RENDER_DATA`);
  const page = postFromRenderData(rd, id);
  if (!page) throw new ParseError(`${what}: RENDER_DATA holds no known post shape (keys: ${Object.keys(rd).slice(0, 8).join(', ') || 'none'})`);
  return page;
}

async function wwwPage(ctx: CrawlContext, ref: PostRef, landed: { kind: PostKind }): Promise<PostPage> {
  const what = `post ${ref.id}`;
  const res = await fetchChecked(ctx, { what, url: postUrl(ref.id, ref.kind), accept: HTML_ACCEPT, guest: true });
  const at = postFromUrl(new URL(res.url));
  if (at && at.id === ref.id && at.kind !== 'unknown') landed.kind = at.kind;
  return readPage(res.text(), ref.id, what);
}

async function phonePage(ctx: CrawlContext, ref: PostRef, kind: PostKind): Promise<PostPage> {
  const what = `post ${ref.id} (phone page)`;
  const url = kind === 'micro' ? mobilePageUrl.micro(ref.id) : mobilePageUrl.article(ref.id);
  const res = await fetchChecked(ctx, { what, url, accept: HTML_ACCEPT, referer: 'https://m.toutiao.com/', headers: { 'User-Agent': PHONE_UA } });
  return readPage(res.text(), ref.id, what);
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const page = await readPost(ctx, params);
  // The notes speak of the item's media[] (e.g. a video-only stream), which download replaces by its muxed file.
  for (const note of page.notes) ctx.warn(note);
  return { items: [page.draft] };
}

/** The post's page as detail reads it (draft, notes for detail to say, a video's play info). */
export async function readPost(ctx: CrawlContext, params: Params): Promise<PostPage> {
  const ref = await resolvePost(ctx, params.query);
  const landed = { kind: ref.kind };
  const routes: Array<() => Promise<PostPage>> =
    ref.kind === 'micro'
      ? [() => phonePage(ctx, ref, 'micro')]
      : ref.kind === 'video'
        ? [() => wwwPage(ctx, ref, landed)]
        : [() => wwwPage(ctx, ref, landed), () => phonePage(ctx, ref, landed.kind)];
  return firstAnswering(routes, isFallbackable);
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One toutiao post from its page: an article (text and images), a video (playable stream, cover, duration) or a micro-post, with author and counts',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'post: www.toutiao.com/article|video|w|group/<id>/, toutiao.com/a<id>/, m.toutiao.com/i<id>/, an m.toutiao.com/is/<code>/ share link, or the group id',
    },
  ],
  page: detailPage,
};
