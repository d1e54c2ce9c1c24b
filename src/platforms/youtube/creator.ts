import { InvalidInput, NotFound, ParseError } from '../../crawl/errors.js';
import type { CrawlContext, CreatorAction } from '../types.js';
import { call, checkAlerts, type Answer } from './api.js';
import { parseChannel } from './parse.js';
import { isChannelId, parseChannelRef, type ChannelRef } from './refs.js';
import { dig, obj, str } from './text.js';

/** browse params of a channel's Videos tab (protobuf: field 2 = "videos"), as the recorded client sends them. */
export const VIDEOS_TAB = 'EgZ2aWRlb3PyBgQKAjoA';
const RESOLVE_TTL_MS = 24 * 3600_000;

/** @handle, /c/, /user/ and legacy custom URLs → UC… id through navigation/resolve_url (remembered a day). */
export async function resolveChannel(ctx: CrawlContext, ref: ChannelRef): Promise<string> {
  if ('channelId' in ref) return ref.channelId;
  const key = `resolve:${ref.resolveUrl.toLowerCase()}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const what = `resolve ${ref.resolveUrl}`;
  const { body } = await call(ctx, { client: 'WEB', endpoint: 'navigation/resolve_url', body: { url: ref.resolveUrl }, what });
  const endpoint = obj(body.endpoint);
  const id = str(dig(endpoint, 'browseEndpoint', 'browseId'));
  if (!id || !isChannelId(id)) {
    if (endpoint?.watchEndpoint) throw new InvalidInput(`${ref.resolveUrl} is a video, not a channel`);
    throw new NotFound(`${what}: YouTube does not resolve it to a channel`);
  }
  ctx.memo.set(key, id, RESOLVE_TTL_MS);
  return id;
}

/** The channel's Videos tab: the first page of `posts`, and the header `user` reads. */
export async function browseChannel(ctx: CrawlContext, channelId: string): Promise<Answer> {
  const what = `channel ${channelId}`;
  const answer = await call(ctx, { client: 'WEB', endpoint: 'browse', body: { browseId: channelId, params: VIDEOS_TAB }, what });
  checkAlerts(answer.body, what);
  return answer;
}

export const userAction: CreatorAction = {
  shape: 'creator',
  summary: 'A YouTube channel: name, @handle, description, avatar, subscriber and video counts (as YouTube rounds them)',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the channel: @handle, youtube.com/@handle, /channel/UC…, /c/<name>, /user/<name>, or a bare UC… id',
    },
  ],
  async run(ctx, params) {
    const channelId = await resolveChannel(ctx, parseChannelRef(params.query));
    const { body } = await browseChannel(ctx, channelId);
    const author = parseChannel(body, channelId);
    if (!author) throw new ParseError(`channel ${channelId}: the answer carries no channel metadata`);
    return author;
  },
};
