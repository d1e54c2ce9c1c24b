import { NotFound, ParseError, RateLimited, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { ENDPOINTS, fetchPage, isFallbackable } from './api.js';
import { messageToDraft, parseHistory, type TgMessage } from './parse.js';
import { parsePostRef, type PostRef } from './refs.js';

interface Found {
  msg: TgMessage;
  title?: string;
}

/** The message itself, or the album that holds it as a member (its ?single link). */
export function pickMessage(messages: readonly TgMessage[], ref: PostRef): TgMessage | undefined {
  const id = Number(ref.id);
  const same = (m: TgMessage) => m.channel.toLowerCase() === ref.channel.toLowerCase();
  return messages.find((m) => same(m) && m.id === id) ?? messages.find((m) => same(m) && m.media.some((x) => x.id === id));
}

type Around = Found | 'moved' | 'absent' | 'throttled';

/**
 * t.me/s/<channel>/<id>: the history around the message. 'moved': no public preview; 'absent': the
 * history is there without the message; 'throttled': t.me's "No posts found" instead of a history.
 */
async function fromHistory(ctx: CrawlContext, ref: PostRef): Promise<Around> {
  const where = `t.me/s/${ref.channel}/${ref.id}`;
  const fetched = await fetchPage(ctx, ENDPOINTS.around(ref.channel, ref.id));
  if (fetched.kind === 'moved') return 'moved';
  const page = parseHistory(fetched.html);
  if (!page.isTme) throw new ParseError(`${where} did not answer a t.me page`);
  const msg = pickMessage(page.messages, ref);
  if (msg) return { msg, title: page.channel?.title };
  if (page.messages.length === 0 && page.noMessagesFound) return 'throttled';
  if (page.messages.length > 0 || page.hasHistory) return 'absent';
  throw new ParseError(`${where} answered a page without a message history`);
}

/** t.me/<channel>/<id>?embed=1: the single-message widget, which also says "Post not found". */
async function fromEmbed(ctx: CrawlContext, ref: PostRef): Promise<Found> {
  const fetched = await fetchPage(ctx, ENDPOINTS.embed(ref.channel, ref.id), { embed: '1' });
  if (fetched.kind === 'moved') throw new UpstreamError(`t.me/${ref.channel}/${ref.id}?embed=1 redirected to ${fetched.to.pathname}`);
  const page = parseHistory(fetched.html);
  if (page.widgetError) throw new NotFound(`t.me/${ref.channel}/${ref.id}: ${page.widgetError}`);
  const msg = pickMessage(page.messages, ref);
  if (!msg) throw new ParseError(`t.me/${ref.channel}/${ref.id}?embed=1 holds no message ${ref.id}`);
  return { msg };
}

async function findMessage(ctx: CrawlContext, ref: PostRef): Promise<Found> {
  let around: Around | undefined;
  let first: unknown;
  try {
    around = await fromHistory(ctx, ref);
    if (typeof around === 'object') return around;
  } catch (e) {
    if (!isFallbackable(e)) throw e;
    first = e;
  }
  try {
    return await fromEmbed(ctx, ref);
  } catch (e) {
    if (!isFallbackable(e)) throw e;
    // t.me/s/<channel>/<id> centres on the message: when it is not there, it is gone.
    if (around === 'absent') throw new NotFound(`t.me/s/${ref.channel}/${ref.id} does not hold message ${ref.id} (deleted, or never existed)`);
    if (around === 'throttled') throw new RateLimited(`t.me/s/${ref.channel}/${ref.id} answered "No posts found", which t.me does when it throttles a client`);
    if (first !== undefined) throw isReplayMiss(first) || isReplayMiss(e) ? first : e;
    throw e;
  }
}

function notes(ctx: CrawlContext, msg: TgMessage): void {
  const where = `telegram ${msg.channel}/${msg.id}`;
  if (msg.voice) {
    const length = msg.voice.duration_s !== undefined ? `, ${msg.voice.duration_s} s` : '';
    ctx.warn(`${where} is a voice message (audio only${length}): audio is not an Item media kind, so the item carries its text only`);
  }
  if (msg.unsupported) ctx.warn(`${where}: t.me's web preview offers no stream for its video ("${msg.unsupported}"); the item has its cover and duration only`);
}

/** The message as detail gives it, with its parsed form (download reads its media). */
export async function readMessage(ctx: CrawlContext, params: Params): Promise<{ draft: ItemDraft; msg: TgMessage }> {
  const ref = parsePostRef(params.query);
  const { msg, title } = await findMessage(ctx, ref);
  return { draft: messageToDraft(msg, title), msg };
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const { draft, msg } = await readMessage(ctx, params);
  // Notes on what the item carries; download says its own (what it leaves out, and why).
  notes(ctx, msg);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One channel message with its photos and playable videos (t.me/s/<channel>/<id>, falling back to the ?embed=1 widget)',
  params: [{ name: 'query', type: 'string', required: true, description: 'the message: t.me/<channel>/<id>, t.me/s/<channel>/<id>, @channel/<id> or <channel>/<id>' }],
  page: (ctx, params) => detailPage(ctx, params),
};
