import { NotFound, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { Author } from '../../domain/results.js';
import type { CreatorAction, CrawlContext, Params } from '../types.js';
import { ENDPOINTS, fetchPage, noPreview, withFallback } from './api.js';
import { channelInfoToAuthor, parseHistory, parseTmePage, tmePageToAuthor } from './parse.js';
import { parseChannelRef } from './refs.js';

/** The header of a t.me/s/<channel> page; undefined when it shows none (the card then answers). */
function fromHistoryPage(html: string, channel: string): Author | undefined {
  const page = parseHistory(html);
  if (!page.channel) return undefined;
  // The header's @username keeps the caller's spelling; message ids carry the canonical one.
  const canonical = page.messages[0]?.channel ?? page.channel.username ?? channel;
  return channelInfoToAuthor(page.channel, canonical);
}

/** t.me/<channel>: the card every username has, public preview or not. */
async function fromCard(ctx: CrawlContext, channel: string): Promise<Author> {
  const fetched = await fetchPage(ctx, ENDPOINTS.card(channel));
  if (fetched.kind === 'moved') throw new UpstreamError(`t.me/${channel} redirected to ${fetched.to.pathname}`);
  const card = parseTmePage(fetched.html);
  if (!card.title) throw new NotFound(`t.me/${channel}: no channel, group or user has that username`);
  return tmePageToAuthor(card, channel);
}

async function run(ctx: CrawlContext, params: Params): Promise<Author | null> {
  const { channel } = parseChannelRef(params.query);
  let moved = false;
  return withFallback(
    async () => {
      const fetched = await fetchPage(ctx, ENDPOINTS.history(channel));
      if (fetched.kind === 'moved') {
        moved = true;
        return undefined;
      }
      return fromHistoryPage(fetched.html, channel);
    },
    async () => {
      try {
        return await fromCard(ctx, channel);
      } catch (e) {
        // A replay that holds only the /s/ redirect: what it says (no public preview) is the answer.
        if (moved && isReplayMiss(e)) throw noPreview(channel);
        throw e;
      }
    },
  );
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: 'A channel (or group/user) card: title, description, subscriber count, avatar (t.me/s/<channel> header, else t.me/<channel>)',
  params: [{ name: 'query', type: 'string', required: true, description: 'the channel: username, @username, t.me/<channel> or t.me/s/<channel>' }],
  run,
};
