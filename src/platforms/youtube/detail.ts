import { Blocked, CrawlError, NotFound, ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { call, firstOf, nonce, playability, visitorData, type ClientName } from './api.js';
import { detailDraft, playableStream, watchExtras, type WatchExtras } from './parse.js';
import { parseVideoRef } from './refs.js';
import { dig, obj, parseDateText, parseIso, str, type Json } from './text.js';

/*
 * detail = the recorded NewPipe sequence: a mobile-client player answer for playability and streams
 * (ANDROID reel_item_watch: progressive itag 18; VISIONOS player: HLS; WEB player last, whose streams need a PO
 * token and are not offered), then the WEB metadata player (microformat: publish time, likes, handle) and the
 * WEB watch page (`next`: likes, comment count). The last two only add fields; when they fail the item is still
 * returned with what the player said.
 */

export interface PlayerAnswer {
  pr: Json;
  client: ClientName;
}

const okChecks = { contentCheckOk: true, racyCheckOk: true };

async function androidReel(ctx: CrawlContext, id: string): Promise<PlayerAnswer> {
  const v = await visitorData(ctx, 'ANDROID', true);
  const { body } = await call(ctx, {
    client: 'ANDROID',
    gapis: true,
    endpoint: 'reel/reel_item_watch',
    query: `t=${nonce(12)}&id=${id}&$fields=playerResponse`,
    body: { playerRequest: { videoId: id, cpn: nonce(16), ...okChecks }, disablePlayerResponse: false },
    context: { visitorData: v },
    what: `player for ${id} (ANDROID reel_item_watch)`,
  });
  const pr = obj(body.playerResponse);
  // reel_item_watch answers a bare `{}` for an id that names no video.
  if (!pr) throw new NotFound(`video ${id}: YouTube answered an empty player (no such video)`);
  return { pr, client: 'ANDROID' };
}

async function visionPlayer(ctx: CrawlContext, id: string): Promise<PlayerAnswer> {
  const v = await visitorData(ctx, 'VISIONOS', false);
  const { body } = await call(ctx, {
    client: 'VISIONOS',
    gapis: true,
    endpoint: 'player',
    query: `t=${nonce(12)}&id=${id}`,
    body: { videoId: id, cpn: nonce(16), ...okChecks },
    context: { visitorData: v },
    what: `player for ${id} (VISIONOS)`,
  });
  if (!body.playabilityStatus && !body.videoDetails) throw new NotFound(`video ${id}: YouTube answered an empty player (no such video)`);
  return { pr: body, client: 'VISIONOS' };
}

async function webPlayer(ctx: CrawlContext, id: string): Promise<PlayerAnswer> {
  const v = await visitorData(ctx, 'WEB', false);
  const { body } = await call(ctx, {
    client: 'WEB',
    endpoint: 'player',
    body: { videoId: id, ...okChecks },
    context: { visitorData: v, watch: true },
    what: `player for ${id} (WEB)`,
  });
  return { pr: body, client: 'WEB' };
}

/** WEB metadata player: exactly the fields mask the recorded client asks for. */
async function microformat(ctx: CrawlContext, id: string): Promise<Json | undefined> {
  const v = await visitorData(ctx, 'WEB', false);
  const { body } = await call(ctx, {
    client: 'WEB',
    endpoint: 'player',
    query: '$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId',
    body: { videoId: id, ...okChecks },
    context: { visitorData: v, watch: true },
    what: `metadata player for ${id}`,
  });
  return obj(dig(body, 'microformat', 'playerMicroformatRenderer'));
}

async function watchPage(ctx: CrawlContext, id: string): Promise<WatchExtras> {
  const { body } = await call(ctx, { client: 'WEB', endpoint: 'next', body: { videoId: id, ...okChecks }, what: `watch page of ${id}` });
  return watchExtras(body);
}

/** Optional enrichment: a failure costs fields, never the item. */
async function optional<T>(ctx: CrawlContext, label: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof CrawlError && (e.code === 'blocked' || e.code === 'rate_limited')) {
      ctx.warn(`${label} skipped: ${e.message}`);
      return undefined;
    }
    if (!isReplayMiss(e) && !(e instanceof CrawlError)) throw e;
    if (!isReplayMiss(e)) ctx.warn(`${label} unavailable: ${(e as Error).message}`);
    return undefined;
  }
}

/**
 * The first player that answers (mobile clients first: their stream URLs need no PO token). A player
 * that answers with another video than the one asked for is a block sign, thrown as Blocked.
 */
export async function playerOf(ctx: CrawlContext, id: string): Promise<PlayerAnswer> {
  const answer = await firstOf([() => androidReel(ctx, id), () => visionPlayer(ctx, id), () => webPlayer(ctx, id)]);
  const answered = str(dig(answer.pr, 'videoDetails', 'videoId'));
  if (answered && answered !== id) {
    throw new Blocked(`player for ${id}: YouTube answered with another video (${answered}), a sign this IP is being blocked`);
  }
  return answer;
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const id = parseVideoRef(params.query);
  const { pr, client } = await playerOf(ctx, id);
  const verdict = playability(pr, `video ${id}`);
  if (!pr.videoDetails && !verdict.playable) throw new ParseError(`video ${id}: the player answer has no videoDetails`);

  let stream;
  if (!verdict.playable) {
    ctx.warn(`video ${id} has no playable stream here: ${verdict.reason}`);
  } else if (client === 'WEB') {
    // WEB-client stream URLs need a PO token and n-parameter deciphering; offering them would hand out 403s.
    ctx.warn(`video ${id}: only the WEB player answered, whose streams need a PO token; no stream offered`);
  } else {
    const choice = playableStream(pr);
    if ('stream' in choice) stream = choice.stream;
    else ctx.warn(`video ${id}: no playable stream offered: ${choice.none}`);
  }

  const micro = await optional(ctx, 'publish time and likes (metadata player)', () => microformat(ctx, id));
  const extras = await optional(ctx, 'likes and comment count (watch page)', () => watchPage(ctx, id));
  const ts = parseIso(micro?.publishDate) ?? parseIso(micro?.uploadDate) ?? parseDateText(extras?.date);
  return { items: [detailDraft({ videoId: id, player: pr, micro, extras, stream, ts })] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One YouTube video: title, channel, duration, views, likes, publish time, thumbnail, and a playable stream (progressive mp4, else the HLS playlist) when YouTube offers one',
  params: [
    {
      name: 'query',
      type: 'string',
      required: true,
      description: 'the video: youtube.com/watch?v=<id>, /shorts/<id>, youtu.be/<id>, or an 11-character id',
    },
  ],
  page: detailPage,
};
