import { firstAnswering } from '../../crawl/fallback.js';
import { Blocked, NotFound, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { api, ENDPOINTS, explainMissingToken, isFallbackable, pageState, XsecRefused } from './api.js';
import { hasLogin } from './guest.js';
import { noteDraft, obj, objs } from './parse.js';
import { noteUrl, resolveNote, type Token } from './refs.js';

type Note = { id: string } & Token;

/** The feed API (login): the note with its streams, for the note's xsec_token. */
async function fromApi(ctx: CrawlContext, note: Note): Promise<ItemDraft> {
  const what = `detail ${note.id}`;
  try {
    const data = await api(ctx, {
      endpoint: 'detail',
      path: ENDPOINTS.feed,
      what,
      hadToken: !!note.xsecToken,
      body: { source_note_id: note.id, image_formats: ['jpg', 'webp', 'avif'], extra: { need_body_topic: '1' }, xsec_source: note.xsecSource ?? 'pc_search', xsec_token: note.xsecToken ?? '' },
    });
    const got = noteDraft(objs(data.items)[0], note.xsecSource ?? 'pc_search', note);
    // An answer without the note is what crawling too fast gets for some notes (MediaCrawler client.py
    // get_note_by_id): the page may still show it.
    if (!got) throw new Blocked(`${what}: xiaohongshu's feed answered no note`);
    return got.draft;
  } catch (e) {
    if (e instanceof SessionExpired) ctx.warn(`${e.message}; the note page was read instead`);
    throw e;
  }
}

/**
 * The note page (no login, no signature): window.__INITIAL_STATE__.note.noteDetailMap[<id>].note. Without
 * the note's xsec_token xiaohongshu usually sends the page home or to its 404 (mapped in api.ts).
 */
async function fromPage(ctx: CrawlContext, note: Note): Promise<ItemDraft> {
  const what = `note page ${note.id}`;
  const state = await pageState(ctx, noteUrl(note.id, note), what, !!note.xsecToken);
  const entry = obj(obj(obj(state.note)?.note_detail_map)?.[note.id]);
  const got = noteDraft(obj(entry?.note), note.xsecSource ?? 'pc_search', note);
  if (got) return got.draft;
  if (!note.xsecToken) throw new XsecRefused(`${what}: the page carries no note for a link without xsec_token`);
  throw new NotFound(`${what}: the page carries no note (deleted, private or under review)`);
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const note = await resolveNote(ctx, params.query);
  const routes = [...(hasLogin(ctx) ? [() => fromApi(ctx, note)] : []), () => fromPage(ctx, note)];
  let draft: ItemDraft;
  try {
    draft = await firstAnswering(routes, isFallbackable);
  } catch (e) {
    throw explainMissingToken(e, !!note.xsecToken, `detail ${note.id}`);
  }
  if (draft.type === 'video' && !draft.media?.some((m) => m.kind === 'video')) ctx.warn(`xiaohongshu answered note ${note.id} without a playable stream`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One xiaohongshu note with its pictures (originals without the watermark), live-photo clips, or its best video stream',
  params: [{ name: 'query', type: 'string', required: true, description: 'a note URL as search/posts/recommended give it (…/explore/<id>?xsec_token=…), a 24-hex note id, or an xhslink.com share link' }],
  page: detailPage,
};
