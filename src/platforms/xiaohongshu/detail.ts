import { firstAnswering } from '../../crawl/fallback.js';
import { Blocked, NotFound, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { api, ENDPOINTS, explainMissingToken, isFallbackable, pageState, XsecRefused } from './api.js';
import { hasLogin } from './guest.js';
import { noteDraft, obj, objs } from './parse.js';
import { noteUrl, resolveNote, type Token } from './refs.js';

type Note = { id: string } & Token;
/** The note as detail parses it, with the answer's raw note (download reads its every stream). */
export type Resolved = { draft: ItemDraft; raw: unknown };

/** The feed API (login): the note with its streams, for the note's xsec_token. */
async function fromApi(ctx: CrawlContext, note: Note): Promise<Resolved> {
  const what = `detail ${note.id}`;
  try {
    const data = await api(ctx, {
      endpoint: 'detail',
      path: ENDPOINTS.feed,
      what,
      hadToken: !!note.xsecToken,
      body: { source_note_id: note.id, image_formats: ['jpg', 'webp', 'avif'], extra: { need_body_topic: '1' }, xsec_source: note.xsecSource ?? 'pc_search', xsec_token: note.xsecToken ?? '' },
    });
    const raw = objs(data.items)[0];
    const got = noteDraft(raw, note.xsecSource ?? 'pc_search', note);
    // An answer without the note is what crawling too fast gets for some notes (MediaCrawler client.py
    // get_note_by_id): the page may still show it.
    if (!got) throw new Blocked(`${what}: xiaohongshu's feed answered no note`);
    return { draft: got.draft, raw };
  } catch (e) {
    if (e instanceof SessionExpired) ctx.warn(`${e.message}; the note page was read instead`);
    throw e;
  }
}

/**
 * The note page (no login, no signature): window.__INITIAL_STATE__.note.noteDetailMap[<id>].note. Without
 * the note's xsec_token xiaohongshu usually sends the page home or to its 404 (mapped in api.ts).
 */
async function fromPage(ctx: CrawlContext, note: Note): Promise<Resolved> {
  const what = `note page ${note.id}`;
  const state = await pageState(ctx, noteUrl(note.id, note), what, !!note.xsecToken);
  const entry = obj(obj(obj(state.note)?.note_detail_map)?.[note.id]);
  const raw = obj(entry?.note);
  const got = noteDraft(raw, note.xsecSource ?? 'pc_search', note);
  if (got) return { draft: got.draft, raw };
  if (!note.xsecToken) throw new XsecRefused(`${what}: the page carries no note for a link without xsec_token`);
  throw new NotFound(`${what}: the page carries no note (deleted, private or under review)`);
}

/** The note by the feed API (login) or its page: the draft detail gives and the raw note. */
export async function resolveDetail(ctx: CrawlContext, query: string | undefined): Promise<Resolved> {
  const note = await resolveNote(ctx, query);
  const routes = [...(hasLogin(ctx) ? [() => fromApi(ctx, note)] : []), () => fromPage(ctx, note)];
  try {
    return await firstAnswering(routes, isFallbackable);
  } catch (e) {
    throw explainMissingToken(e, !!note.xsecToken, `detail ${note.id}`);
  }
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const { draft } = await resolveDetail(ctx, params.query);
  const note = { id: draft.native_id };
  if (draft.type === 'video' && !draft.media?.some((m) => m.kind === 'video')) ctx.warn(`xiaohongshu answered note ${note.id} without a playable stream`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One xiaohongshu note with its pictures (originals without the watermark), live-photo clips, or its best video stream',
  params: [{ name: 'query', type: 'string', required: true, description: 'a note URL as search/posts/recommended give it (…/explore/<id>?xsec_token=…), a 24-hex note id, or an xhslink.com share link' }],
  page: detailPage,
};
