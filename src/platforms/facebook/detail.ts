import { firstAnswering } from '../../crawl/fallback.js';
import { rememberRaw } from '../download-slots.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { explainMissing, getPage, isFallbackable, ROUTES } from './api.js';
import { permalinkDraft, type Wanted } from './parse.js';
import { resolvePost, type ResolvedPost } from './resolve.js';

/** The page a post was read from, as download gets it back. */
export interface PostPage {
  html: string;
  want: Wanted;
}

export function wanted(ref: ResolvedPost): Wanted {
  if (ref.kind === 'video') return { videoId: ref.id, page: ref.page };
  return { postId: ref.id, page: ref.kind === 'post' ? ref.page : undefined };
}

async function fromPage(ctx: CrawlContext, url: string, want: Wanted, what: string): Promise<ItemDraft> {
  const page = await getPage(ctx, url, what);
  const draft = permalinkDraft(page.html, page.url, want);
  if (!draft) explainMissing(ctx, page, what, 'the page carries no post');
  // download reads every stream of the page, not only the one the draft names.
  return rememberRaw(draft, { html: page.html, want } satisfies PostPage);
}

/**
 * The m. permalink page (what the public scrapers read; a video post answers 302 to its video page),
 * then the www page (JSON-LD, meta tags, the stream URLs in its scripts) when the m. site fails or walls.
 */
async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const ref = await resolvePost(ctx, params.query);
  const want = wanted(ref);
  const what = `facebook ${ref.kind === 'video' ? 'video' : 'post'} ${ref.id}`;
  const draft = await firstAnswering<ItemDraft>(
    [() => fromPage(ctx, ROUTES.post(ref), want, what), () => fromPage(ctx, ROUTES.www(ref), want, `${what} (www page)`)],
    isFallbackable(ctx),
  );
  if (draft.type === 'video' && !draft.media?.some((m) => m.kind === 'video')) ctx.warn(`facebook showed ${what} without a playable stream`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One public facebook post or video (anonymous; a post only logged-in viewers may see answers session_expired naming the profile to add)',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'post id, facebook.com/<page>/posts/<id>, /permalink.php or /story.php?story_fbid=&id=, /groups/<g>/permalink/<id>, /photo.php?fbid=, /watch/?v=, /<page>/videos/<id>, /reel/<id> or an fb.watch link (m., mbasic., web. hosts too)',
    },
  ],
  page: detailPage,
};
