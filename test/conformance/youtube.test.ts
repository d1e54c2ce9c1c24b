import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CommentsResultSchema,
  CreatorResultSchema,
  EnvelopeSchema,
  TrendResultSchema,
  type CommentsResult,
  type CreatorResult,
  type Envelope,
  type TrendResult,
} from '../../src/domain/results.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { resolveDownload } from '../helpers/resolve-download.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every youtube recording, replayed through the real catalog validation, adapter and runner normalization;
 * expected values are read from the recorded answers. Hand-made sandbox recordings (sandbox/youtube) cover
 * what no real recording does, and the demo's example queries.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/youtube');
const SANDBOX = resolve(process.cwd(), 'sandbox/youtube');
const used = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => resolve(SANDBOX, name);
const har = (file: string) => JSON.parse(readFileSync(file, 'utf8')).log.entries;
const raw = (file: string, i = 0): any => JSON.parse(har(file)[i].response.content.text);
const sent = (file: string, i = 0): any => JSON.parse(har(file)[i].request.postData.text);
const at = (file: string, i = 0): number => Date.parse(har(file)[i].startedDateTime);

const run = (action: string, params: Record<string, unknown>, replay: string[], memo?: MemoryMemo) => runAction({ source: 'youtube', action, params, replay, memo });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=youtube&profile=default`;
const WEB = 'https://www.youtube.com/youtubei/v1';
const GAPIS = 'https://youtubei.googleapis.com/youtubei/v1';

describe('youtube.search', () => {
  const file = 'search-videos-test.har';

  it('reads both recorded pages, field by field, continuing with the recorded token', async () => {
    const { result, requests, warnings } = await run('search', { query: 'test', limit: 40 }, [real(file)]);
    expect(requests).toEqual([`POST ${WEB}/search?prettyPrint=false`, `POST ${WEB}/search?prettyPrint=false`]);
    expect(warnings).toEqual([]);
    const env = EnvelopeSchema.parse(result);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 40 });
    expect(env.next_cursor).toBeTruthy(); // page 2 ends with a continuation

    const first = raw(real(file)).contents.twoColumnSearchResultsRenderer.primaryContents.sectionListRenderer.contents[0].itemSectionRenderer.contents;
    const cards = first.filter((e: any) => e.videoRenderer).map((e: any) => e.videoRenderer);
    expect(env.items.slice(0, 20).map((i) => i.id)).toEqual(cards.map((v: any) => `youtube:${v.videoId}`));
    const v = cards[0];
    expect(env.items[0]).toEqual({
      id: `youtube:${v.videoId}`,
      type: 'video',
      provider: 'youtube',
      title: v.title.runs[0].text,
      text: v.detailedMetadataSnippets[0].snippetText.runs.map((r: any) => r.text).join(''),
      author: v.ownerText.runs[0].text,
      author_id: v.ownerText.runs[0].navigationEndpoint.browseEndpoint.browseId,
      author_handle: '@BlindTest-Chill',
      author_url: `https://www.youtube.com/channel/${v.ownerText.runs[0].navigationEndpoint.browseEndpoint.browseId}`,
      url: 'https://www.youtube.com/watch?v=Z8KYabgkMbw',
      thumb: image(v.thumbnail.thumbnails[1].url),
      media: [],
      duration_s: 47 * 60 + 20,
      stats: { views: 390_201 },
      provenance: 'live',
    });
    // A live-replay card ("Streamed … ago") keeps its length; the recommendation shelves are not results.
    expect(env.items.find((i) => i.id === 'youtube:cguSj5lvNto')).toMatchObject({ duration_s: 2 * 3600 + 2 * 60 + 20, stats: { views: 21_573 } });
    expect(env.items.some((i) => i.id === 'youtube:YuumdQCliwQ')).toBe(false);

    const second = raw(real(file), 1).onResponseReceivedCommands[0].appendContinuationItemsAction.continuationItems[0].itemSectionRenderer.contents;
    expect(env.items.slice(20).map((i) => i.id)).toEqual(second.map((e: any) => `youtube:${e.videoRenderer.videoId}`));
    expect(env.items[20]).toMatchObject({ author: 'Gaming With Riya ', author_id: 'UCDM44XqJrR_fsGDA8loLOfQ', duration_s: 19_222, stats: { views: 12_870 } });
    for (const item of env.items) {
      expect(item.ts).toBeUndefined(); // cards only say "9 months ago"
      expect(item.thumb).toMatch(/^\/v1\/media\?u=https%3A%2F%2Fi\d*\.ytimg\.com%2F/);
    }
  });

  it('a cursor continues where a limit ended, then on the recorded continuation', async () => {
    const one = EnvelopeSchema.parse((await run('search', { query: 'test', limit: 15 }, [real(file)])).result);
    const { result, requests } = await run('search', { query: 'test', limit: 10, cursor: one.next_cursor }, [real(file)]);
    const env = EnvelopeSchema.parse(result);
    expect(requests).toHaveLength(2);
    expect(env.items.map((i) => i.id)).toHaveLength(10);
    expect(env.items[5].id).toBe('youtube:JOHUZMTdgBY');
  });
});

describe('youtube.posts', () => {
  const file = 'posts-channel-videos-creativecommons.har';

  it('resolves /user/creativecommons, then reads the Videos tab and its continuation, field by field', async () => {
    const { result, requests } = await run('posts', { query: 'https://www.youtube.com/user/creativecommons', max_items: 60 }, [
      real('resolve-channel-url-creativecommons.har'),
      real(file),
    ]);
    expect(requests).toEqual([`POST ${WEB}/navigation/resolve_url?prettyPrint=false`, `POST ${WEB}/browse?prettyPrint=false`, `POST ${WEB}/browse?prettyPrint=false`]);
    const env = EnvelopeSchema.parse(result);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 60 });
    expect(env.next_cursor).toBeTruthy();

    const grid = raw(real(file)).contents.twoColumnBrowseResultsRenderer.tabs[1].tabRenderer.content.richGridRenderer.contents;
    const lockups = grid.filter((e: any) => e.richItemRenderer).map((e: any) => e.richItemRenderer.content.lockupViewModel);
    expect(env.items.slice(0, 30).map((i) => i.id)).toEqual(lockups.map((l: any) => `youtube:${l.contentId}`));
    const l = lockups[0];
    expect(env.items[0]).toEqual({
      id: 'youtube:BD-LB23rRBE',
      type: 'video',
      provider: 'youtube',
      title: l.metadata.lockupMetadataViewModel.title.content,
      author: 'Creative Commons',
      author_id: 'UCTwECeGqMZee77BjdoYtI2Q',
      author_handle: '@creativecommons',
      author_url: 'https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q',
      url: 'https://www.youtube.com/watch?v=BD-LB23rRBE',
      thumb: image(l.contentImage.thumbnailViewModel.image.sources[3].url),
      media: [],
      duration_s: 3600 + 7 * 60 + 34,
      stats: { views: 28 },
      provenance: 'live',
    });
    const more = raw(real(file), 1).onResponseReceivedActions[0].appendContinuationItemsAction.continuationItems;
    expect(env.items.slice(30).map((i) => i.id)).toEqual(more.filter((e: any) => e.richItemRenderer).map((e: any) => `youtube:${e.richItemRenderer.content.lockupViewModel.contentId}`));
    // The continuation page repeats no channel header: its cards keep the channel from the cursor.
    expect(env.items.slice(30).every((i) => i.author_id === 'UCTwECeGqMZee77BjdoYtI2Q' && i.author_handle === '@creativecommons')).toBe(true);
    expect(env.items.find((i) => i.id === 'youtube:MjH_xSkc59I')?.stats.views).toBe(12_000); // "12k views"
  });

  it('a bare UC… id needs no resolve; next_cursor continues on the recorded token, in any process', async () => {
    const first = EnvelopeSchema.parse((await run('posts', { query: 'UCTwECeGqMZee77BjdoYtI2Q', limit: 30 }, [real(file)])).result);
    expect(first.count).toBe(30);
    expect(first.next_cursor!.length).toBeLessThanOrEqual(2048);
    const { result, requests } = await run('posts', { query: 'UCTwECeGqMZee77BjdoYtI2Q', limit: 30, cursor: first.next_cursor }, [real(file)]);
    expect(requests).toEqual([`POST ${WEB}/browse?prettyPrint=false`]);
    const second = EnvelopeSchema.parse(result);
    expect(second.items[0]).toMatchObject({ id: 'youtube:CIFHx7_z3Vc', author: 'Creative Commons', author_handle: '@creativecommons', duration_s: 3601, stats: { views: 117 } });
    // The next token is 4k characters: only this process's memo holds it; elsewhere the cursor says it expired.
    const elsewhere = await run('posts', { query: 'UCTwECeGqMZee77BjdoYtI2Q', limit: 5, cursor: second.next_cursor }, [real(file)]);
    expect(elsewhere.result).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringMatching(/expired/) } });
    expect(elsewhere.requests).toEqual([]);
  });

  it('a terminated channel is not_found', async () => {
    const { result } = await run('posts', { query: 'UCoaO4U_p7G7AwalqSbGCZOA' }, [real('error-channel-terminated.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'not_found', retryable: false } });
    expect((result as Envelope).error!.message).toContain('This channel was removed because it violated our Community Guidelines.');
  });
});

describe('youtube.user', () => {
  const file = 'posts-channel-videos-creativecommons.har';

  it('reads the channel header and metadata of the recorded browse answer', async () => {
    const { result, requests } = await run('user', { query: 'https://www.youtube.com/user/creativecommons' }, [real('resolve-channel-url-creativecommons.har'), real(file)]);
    expect(requests).toHaveLength(2);
    const res = CreatorResultSchema.parse(result);
    const meta = raw(real(file)).metadata.channelMetadataRenderer;
    expect(res).toMatchObject({ ok: true, source: 'live', data: { platform: 'youtube' } });
    expect(res.data!.author).toEqual({
      id: meta.externalId,
      source: 'youtube',
      handle: '@creativecommons',
      name: meta.title,
      bio: meta.description,
      avatar: image(meta.avatar.thumbnails[0].url),
      url: meta.channelUrl,
      followers: 8_840, // "8.84k subscribers"
      posts: 258, // "258 videos"
      verified: false,
    });
  });

  it('a terminated channel is not_found', async () => {
    const { result } = await run('user', { query: 'https://www.youtube.com/channel/UCoaO4U_p7G7AwalqSbGCZOA' }, [real('error-channel-terminated.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', error: { code: 'not_found' } });
    expect((result as CreatorResult).data).toBeUndefined();
  });
});

describe('youtube.detail', () => {
  it('the ANDROID reel answer gives the progressive stream; the WEB metadata player and watch page add the rest', async () => {
    const file = 'detail-watch-tjz2u2DiveM.har';
    const { result, requests, warnings } = await run('detail', { query: 'https://www.youtube.com/shorts/tjz2u2DiveM' }, [real(file)]);
    expect(requests.map((r) => r.replace(/t=[A-Za-z0-9_-]{12}/, 't=…'))).toEqual([
      `POST ${GAPIS}/visitor_id?prettyPrint=false`,
      `POST ${GAPIS}/reel/reel_item_watch?prettyPrint=false&t=…&id=tjz2u2DiveM&$fields=playerResponse`,
      `POST ${WEB}/visitor_id?prettyPrint=false`,
      `POST ${WEB}/player?prettyPrint=false&$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId`,
      `POST ${WEB}/next?prettyPrint=false`,
    ]);
    expect(warnings).toEqual([]);
    const env = EnvelopeSchema.parse(result);
    const pr = raw(real(file), 1).playerResponse;
    const micro = raw(real(file), 3).microformat.playerMicroformatRenderer;
    const format = pr.streamingData.formats[0];
    expect(env).toMatchObject({ ok: true, source: 'live', count: 1 });
    expect(env.items[0]).toEqual({
      id: 'youtube:tjz2u2DiveM',
      type: 'video',
      provider: 'youtube',
      title: pr.videoDetails.title,
      text: pr.videoDetails.shortDescription,
      author: pr.videoDetails.author,
      author_id: pr.videoDetails.channelId,
      author_handle: '@jonytube131',
      author_url: 'https://www.youtube.com/channel/UCjKFYf7oRKTDX57VeFHnLoQ',
      url: 'https://www.youtube.com/watch?v=tjz2u2DiveM',
      thumb: image(pr.videoDetails.thumbnail.thumbnails[3].url),
      media: [{ kind: 'video', url: video(format.url), w: format.width, h: format.height, duration_s: Number(format.approxDurationMs) / 1000 }],
      ts: Date.parse(micro.publishDate) / 1000,
      duration_s: Number(pr.videoDetails.lengthSeconds),
      aspect: { width: 288, height: 360 },
      stats: { views: Number(pr.videoDetails.viewCount), likes: Number(micro.likeCount), comments: 7 },
      provenance: 'live',
    });
  });

  it('falls back to the VISIONOS player, whose HLS playlist is the stream (no progressive format there)', async () => {
    const file = 'detail-player-tjz2u2DiveM.har';
    const { result, requests, warnings } = await run('detail', { query: 'tjz2u2DiveM' }, [real(file)]);
    expect(requests.map((r) => r.replace(/t=[A-Za-z0-9_-]{12}/, 't=…'))).toEqual([
      `POST ${GAPIS}/visitor_id?prettyPrint=false`,
      `POST ${GAPIS}/reel/reel_item_watch?prettyPrint=false&t=…&id=tjz2u2DiveM&$fields=playerResponse`,
      `POST ${WEB}/visitor_id?prettyPrint=false`,
      `POST ${GAPIS}/player?prettyPrint=false&t=…&id=tjz2u2DiveM`,
      `POST ${WEB}/visitor_id?prettyPrint=false`,
      `POST ${WEB}/player?prettyPrint=false&$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId`,
      `POST ${WEB}/next?prettyPrint=false`,
    ]);
    expect(warnings).toEqual([]);
    const pr = raw(real(file), 1);
    const item = EnvelopeSchema.parse(result).items[0];
    expect(item).toEqual({
      id: 'youtube:tjz2u2DiveM',
      type: 'video',
      provider: 'youtube',
      title: 'dog',
      text: pr.videoDetails.shortDescription,
      author: 'Jony Tube',
      author_id: 'UCjKFYf7oRKTDX57VeFHnLoQ',
      author_url: 'https://www.youtube.com/channel/UCjKFYf7oRKTDX57VeFHnLoQ',
      url: 'https://www.youtube.com/watch?v=tjz2u2DiveM',
      thumb: image(pr.videoDetails.thumbnail.thumbnails[0].url),
      // The playlist's best rendition is the largest adaptive video format; the proxy rewrites the playlist.
      media: [{ kind: 'video', url: video(pr.streamingData.hlsManifestUrl), w: 384, h: 480, duration_s: 11 }],
      duration_s: 11,
      aspect: { width: 384, height: 480 },
      stats: { views: 142_650 },
      provenance: 'live',
    });
  });

  it('a player answering with another video is blocked, for detail and for download alike', async () => {
    // The recorded player answers, asked for another id: YouTube's answer names tjz2u2DiveM, not the id asked for.
    const h = JSON.parse(readFileSync(real('detail-player-tjz2u2DiveM.har'), 'utf8'));
    for (const e of h.log.entries) {
      e.request.url = e.request.url.replaceAll('tjz2u2DiveM', 'Zz9Zz9Zz9Zz');
      if (e.request.postData?.text) e.request.postData.text = e.request.postData.text.replaceAll('tjz2u2DiveM', 'Zz9Zz9Zz9Zz');
    }
    const file = join(mkdtempSync(join(tmpdir(), 'yt-other-')), 'other.har');
    writeFileSync(file, JSON.stringify(h));
    const { result } = await run('detail', { query: 'Zz9Zz9Zz9Zz' }, [file]);
    expect(result).toMatchObject({ ok: false, error: { code: 'blocked' } });
    expect((result as any).error.message).toMatch(/another video \(tjz2u2DiveM\)/);
    await expect(resolveDownload({ source: 'youtube', params: { query: 'Zz9Zz9Zz9Zz' }, replay: [file] })).rejects.toMatchObject({
      code: 'blocked',
      message: expect.stringContaining('another video (tjz2u2DiveM)'),
    });
  });

  it('the recorded private video is not_found (no login can reveal it to this service)', async () => {
    const { result, requests } = await run('detail', { query: 'https://youtu.be/8VajtrESJzA' }, [real('error-private-video.har')]);
    expect(requests[1]).toMatch(/reel_item_watch\?.*id=8VajtrESJzA/);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'not_found', retryable: false } });
    expect((result as Envelope).error!.message).toContain('This video is private');
  });
});

describe('youtube.comments', () => {
  const file = 'comments-video-xaQJbozY_Is.har';

  it('threads: each comment, then the first page of its replies with parent_id, field by field', async () => {
    const { result, requests, warnings } = await run('comments', { query: 'https://www.youtube.com/watch?v=xaQJbozY_Is', limit: 40 }, [real(file), real('replies-comment-xaQJbozY_Is.har')]);
    expect(requests.slice(0, 4)).toEqual(Array(4).fill(`POST ${WEB}/next?prettyPrint=false`));
    const res = CommentsResultSchema.parse(result);
    expect(res).toMatchObject({ source: 'live', total: 21_051, has_more: true });

    const now = at(real(file), 1);
    const page = raw(real(file), 1);
    const payloads = page.frameworkUpdates.entityBatchUpdate.mutations.filter((m: any) => m.payload?.commentEntityPayload).map((m: any) => m.payload.commentEntityPayload);
    const pinned = payloads[0];
    expect(res.items[0]).toEqual({
      cid: pinned.properties.commentId,
      text: pinned.properties.content.content,
      likes: 9_800, // "9.8k"
      reply_total: 327,
      user_id: pinned.author.channelId,
      handle: '@kurzgesagt',
      user_name: '@kurzgesagt',
      created_at: Math.floor(now / 1000) - 4 * 365 * 86_400, // "4 years ago (edited)", at the recorded answer's time
      source: 'youtube',
      url: 'https://www.youtube.com/watch?v=xaQJbozY_Is&lc=UgwSOM0QHBLysE3vZE54AaABAg',
    });
    const replyPayloads = raw(real('replies-comment-xaQJbozY_Is.har')).frameworkUpdates.entityBatchUpdate.mutations
      .filter((m: any) => m.payload?.commentEntityPayload)
      .map((m: any) => m.payload.commentEntityPayload);
    const replies = res.items.slice(1, 11);
    expect(replies.map((c) => c.cid)).toEqual(replyPayloads.map((p: any) => p.properties.commentId));
    expect(replies.every((c) => c.parent_id === 'UgwSOM0QHBLysE3vZE54AaABAg')).toBe(true);
    expect(replies[0]).toMatchObject({ text: 'First', likes: 52, reply_total: 0, user_id: 'UCYMtcMCKn6YNUoR6K_caE9A', handle: '@andrefarfan4372' });
    // Threads follow in the recorded order; replies the recordings do not hold are not expanded, and said so.
    const threadIds = payloads.map((p: any) => p.properties.commentId);
    expect(res.items.slice(11, 30).map((c) => c.cid)).toEqual(threadIds.slice(1));
    expect(res.items.slice(11).every((c) => c.parent_id === undefined)).toBe(true);
    expect(warnings.join('\n')).toMatch(/replies not expanded from comment UgxNNFhhw8l9vjj9zsx4AaABAg on: replay: no recording/);
    expect(warnings.join('\n')).toMatch(/stopped after 1 page\(s\)/);
  });

  it('replies: none reads top-level comments only, two requests', async () => {
    const { result, requests } = await run('comments', { query: 'xaQJbozY_Is', replies: 'none', limit: 20 }, [real(file)]);
    expect(requests).toHaveLength(2);
    expect(JSON.parse(JSON.stringify(sent(real(file), 1)))).toMatchObject({ continuation: expect.stringMatching(/^Eg0SC3hhUUpib3pZX0lz/) });
    const res = CommentsResultSchema.parse(result);
    expect(res.items).toHaveLength(20);
    expect(res.items.every((c) => !c.parent_id)).toBe(true);
    expect(res.has_more).toBe(true);
  });
});

describe('youtube.hot and youtube.trending', () => {
  const file = 'trending-gaming.har';

  it('hot: the Gaming destination trending tab as items', async () => {
    const { result, requests } = await run('hot', { category: 'gaming', limit: 100 }, [real(file)]);
    expect(requests).toEqual([`POST ${WEB}/browse?prettyPrint=false`]);
    const env = EnvelopeSchema.parse(result);
    const grid = raw(real(file)).contents.twoColumnBrowseResultsRenderer.tabs[0].tabRenderer.content.sectionListRenderer.contents[0].itemSectionRenderer.contents[0].shelfRenderer.content.gridRenderer.items;
    expect(env).toMatchObject({ ok: true, source: 'live', count: grid.length });
    expect(env.items.map((i) => i.id)).toEqual(grid.map((g: any) => `youtube:${g.gridVideoRenderer.videoId}`));
    const g = grid[0].gridVideoRenderer;
    expect(env.items[0]).toEqual({
      id: 'youtube:-_DaUyAB_DE',
      type: 'video',
      provider: 'youtube',
      title: g.title.runs[0].text,
      author: 'Dream',
      author_id: 'UCTkXRDQl0luXxVQrRQvWS6w',
      author_handle: '@dream',
      author_url: 'https://www.youtube.com/channel/UCTkXRDQl0luXxVQrRQvWS6w',
      url: 'https://www.youtube.com/watch?v=-_DaUyAB_DE',
      thumb: image(g.thumbnail.thumbnails[3].url),
      media: [],
      duration_s: 52 * 60 + 40,
      stats: { views: 3_172_670 },
      provenance: 'live',
    });
    expect(env.next_cursor).toBeUndefined();
  });

  it('trending: the retired FEtrending page answers 400, so the Gaming trending titles are ranked', async () => {
    const { result, requests, warnings } = await run('trending', {}, [real('error-trending-invalid-argument.har'), real(file)]);
    expect(requests).toEqual([`POST ${WEB}/browse?prettyPrint=false`, `POST ${WEB}/browse?prettyPrint=false`]);
    expect(warnings[0]).toMatch(/general trending page is retired .*HTTP 400 \(INVALID_ARGUMENT/);
    const res = TrendResultSchema.parse(result);
    const grid = raw(real(file)).contents.twoColumnBrowseResultsRenderer.tabs[0].tabRenderer.content.sectionListRenderer.contents[0].itemSectionRenderer.contents[0].shelfRenderer.content.gridRenderer.items;
    expect(res).toMatchObject({ ok: true, source: 'live', data: { platform: 'youtube' } });
    const trends = res.data!.trends;
    expect(trends.map((t) => t.rank)).toEqual(grid.map((_: unknown, i: number) => i + 1));
    expect(trends.map((t) => t.word)).toEqual(grid.map((g: any) => g.gridVideoRenderer.title.runs[0].text));
    expect(trends[1]).toEqual({ word: 'I Became a Minecraft Killer', source: 'youtube', rank: 2, hot_value: 2_985_219, url: 'https://www.youtube.com/watch?v=CU2HOhS9yOo' });
  });

  it('the retired page is remembered: the next trending call goes straight to the Gaming tab', async () => {
    const memo = new MemoryMemo();
    await run('trending', {}, [real('error-trending-invalid-argument.har'), real(file)], memo);
    const { requests, warnings } = await run('trending', {}, [real(file)], memo);
    expect(requests).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  it('with only the retired page answering, trending is an upstream error, never a made-up list', async () => {
    const { result } = await run('trending', {}, [real('error-trending-invalid-argument.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', items: [], error: { code: 'upstream_error', retryable: true } });
    expect((result as TrendResult).error!.message).toMatch(/FEtrending.*400.*INVALID_ARGUMENT/);
    expect((result as TrendResult).data).toBeUndefined();
  });
});

describe('youtube sandbox recordings (hand-made)', () => {
  it('every entry says it is hand-made', () => {
    for (const f of readdirSync(SANDBOX).filter((n) => n.endsWith('.har'))) {
      for (const e of har(sand(f))) expect(e.comment).toMatch(/^hand-made sandbox recording:/);
    }
  });

  it('search: two pages, a live card without views or length; an honest empty; HTTP 429', async () => {
    const env = EnvelopeSchema.parse((await run('search', { query: 'sourdough bread' }, [sand('search-sourdough-bread.har')])).result);
    expect(env.items.map((i) => i.id)).toEqual(['youtube:SbxSourdo01', 'youtube:SbxSourdo02', 'youtube:SbxSourdo03', 'youtube:SbxSourdo04', 'youtube:SbxSourdo05']);
    expect(env.items[2]).toMatchObject({ author_handle: '@grannyloaf', stats: {} });
    expect(env.items[2].duration_s).toBeUndefined();
    expect(env.items[4]).toMatchObject({ duration_s: 3729, stats: { views: 2_300_000 } });
    expect(env.next_cursor).toBeUndefined();

    const empty = (await run('search', { query: 'qzxv sandbox nothing' }, [sand('search-empty.har')])).result;
    expect(empty).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });

    const limited = (await run('search', { query: 'sandbox throttled' }, [sand('error-search-429.har')])).result;
    expect(limited).toMatchObject({ ok: false, source: 'live', error: { code: 'rate_limited', retryable: true } });
  });

  it('posts and user of @sandboxkitchen', async () => {
    const posts = EnvelopeSchema.parse((await run('posts', { query: '@sandboxkitchen', max_items: -1 }, [sand('posts-sandboxkitchen.har')])).result);
    expect(posts.items.map((i) => i.id)).toEqual(['SbxKitchen1', 'SbxKitchen2', 'SbxKitchen3', 'SbxKitchen4', 'SbxKitchen5'].map((id) => `youtube:${id}`));
    expect(posts.items[2]).toMatchObject({ duration_s: 3675, stats: { views: 903 }, author_handle: '@sandboxkitchen' });
    expect(posts.next_cursor).toBeUndefined();
    const user = CreatorResultSchema.parse((await run('user', { query: 'https://www.youtube.com/@sandboxkitchen' }, [sand('posts-sandboxkitchen.har')])).result);
    expect(user.data!.author).toMatchObject({ id: 'UCSandboxKitchen00000000', handle: '@sandboxkitchen', followers: 1_200_000, posts: 412, verified: true });
  });

  it('detail and comments of SbxKitchen1, including the legacy commentRenderer shape and turned-off comments', async () => {
    const detail = EnvelopeSchema.parse((await run('detail', { query: 'SbxKitchen1' }, [sand('detail-SbxKitchen1.har')])).result);
    expect(detail.items[0]).toMatchObject({ ts: Date.parse('2026-03-14T16:30:00Z') / 1000, stats: { views: 48_213, likes: 2_315, comments: 5 }, aspect: { width: 640, height: 360 } });
    expect(detail.items[0].media[0]).toMatchObject({ kind: 'video', w: 640, h: 360, duration_s: 754.123 });
    expect(detail.items[0].media[0].url).toMatch(/^\/v1\/media\?u=https%3A%2F%2Frr1---sn-sbx0000\.googlevideo\.com%2Fvideoplayback.*&kind=video&platform=youtube/);

    const comments = CommentsResultSchema.parse((await run('comments', { query: 'SbxKitchen1' }, [sand('detail-SbxKitchen1.har'), sand('comments-SbxKitchen1.har')])).result);
    expect(comments.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['UgzSbxPinnedComment0001', null],
      ['UgzSbxPinnedComment0001.SbxReply00001', 'UgzSbxPinnedComment0001'],
      ['UgzSbxPinnedComment0001.SbxReply00002', 'UgzSbxPinnedComment0001'],
      ['UgxSbxQuestionComment002', null],
      ['UgySbxThanksComment00003', null],
    ]);
    expect(comments).toMatchObject({ source: 'live', total: 5, has_more: false });
    expect(comments.items[4]).toMatchObject({ likes: 0, reply_total: 0, handle: '@dad_in_kitchen' });

    const legacy = CommentsResultSchema.parse((await run('comments', { query: 'SbxLegacyCm' }, [sand('comments-legacy-SbxLegacyCm.har')])).result);
    expect(legacy.items.map((c) => [c.cid, c.parent_id ?? null, c.likes, c.reply_total])).toEqual([
      ['UgwSbxLegacyThread0001', null, 45, 1],
      ['UgwSbxLegacyThread0001.SbxOldReply1', 'UgwSbxLegacyThread0001', 2, 0],
      ['UgwSbxLegacyThread0002', null, 0, 0],
    ]);
    expect(legacy.items[0]).toMatchObject({ user_id: 'UCSandboxOldTimer0000000', handle: '@oldtimer', text: 'Still the best video on this' });

    const off = await run('comments', { query: 'SbxNoComms1' }, [sand('comments-off-SbxNoComms1.har')]);
    expect(off.result).toMatchObject({ source: 'empty', total: 0, items: [] });
    expect(off.warnings).toEqual(['video SbxNoComms1: Comments are turned off.']);
  });

  it.each([
    ['SbxBotCheck', 'error-bot-check-SbxBotCheck.har', { ok: false, source: 'blocked', error: { code: 'blocked', retryable: true } }],
    ['SbxAgeGate1', 'error-age-gate-SbxAgeGate1.har', { ok: false, source: 'live', error: { code: 'session_expired' } }],
    ['SbxNoSuchVd', 'error-nonexistent-SbxNoSuchVd.har', { ok: false, source: 'live', error: { code: 'not_found' } }],
    ['SbxRemoved1', 'error-removed-SbxRemoved1.har', { ok: false, source: 'live', error: { code: 'not_found' } }],
    ['SbxTryLater', 'error-try-later-SbxTryLater.har', { ok: false, source: 'live', error: { code: 'rate_limited', retryable: true } }],
  ])('detail %s → %s outcome', async (id, file, outcome) => {
    const { result } = await run('detail', { query: id }, [sand(file)]);
    expect(result).toMatchObject({ count: 0, items: [], ...outcome });
  });

  it('an upcoming live stream: the item without a stream, and why', async () => {
    const { result, warnings } = await run('detail', { query: 'SbxLiveSoon' }, [sand('detail-upcoming-SbxLiveSoon.har')]);
    const env = EnvelopeSchema.parse(result);
    expect(env.items[0]).toMatchObject({ id: 'youtube:SbxLiveSoon', title: 'Sunday roast — live cook-along', media: [] });
    expect(warnings).toContain('video SbxLiveSoon has no playable stream here: This live event will begin in 3 days.');
  });

  it('the demo: every action answers its example query from sandbox/ alone', async () => {
    const all = [resolve(process.cwd(), 'sandbox')];
    const ok = async (action: string, params: Record<string, unknown>) => {
      const { result, warnings } = await run(action, params, all);
      expect(warnings.filter((w) => /replay: no recording/.test(w)), `${action}: ${warnings.join(' | ')}`).toEqual([]);
      return result;
    };
    expect(EnvelopeSchema.parse(await ok('search', { query: 'sourdough bread' })).count).toBe(5);
    expect(EnvelopeSchema.parse(await ok('posts', { query: '@sandboxkitchen', max_items: -1 })).count).toBe(5);
    expect(CreatorResultSchema.parse(await ok('user', { query: '@sandboxkitchen' })).data!.author.name).toBe('Sandbox Kitchen');
    expect(EnvelopeSchema.parse(await ok('detail', { query: 'https://www.youtube.com/watch?v=SbxKitchen1' })).items[0].media).toHaveLength(1);
    expect(CommentsResultSchema.parse(await ok('comments', { query: 'https://youtu.be/SbxKitchen1' })).items).toHaveLength(5);
    expect(EnvelopeSchema.parse(await ok('hot', { category: 'gaming' })).count).toBe(3);
    const trends = TrendResultSchema.parse(await ok('trending', {}));
    expect(trends.data!.trends.map((t) => [t.rank, t.word])).toEqual([
      [1, 'Any% world record, frame by frame'],
      [2, 'I built a castle in one stream'],
      [3, 'Patch notes, explained'],
    ]);
  });
});

/** A HAR of hand-written innertube answers, for shapes other real recordings use and no fixture holds. */
function handHar(entries: Array<{ endpoint: string; sent: Record<string, unknown>; answer: unknown; status?: number }>): string {
  const file = join(mkdtempSync(join(tmpdir(), 'youtube-hand-')), 'hand.har');
  const log = {
    version: '1.2',
    entries: entries.map((e) => ({
      request: { method: 'POST', url: `${WEB}/${e.endpoint}?prettyPrint=false`, postData: { mimeType: 'application/json', text: JSON.stringify({ context: { client: { clientName: 'WEB' } }, ...e.sent }) } },
      response: { status: e.status ?? 200, headers: [{ name: 'content-type', value: 'application/json; charset=UTF-8' }], content: { text: JSON.stringify(e.answer) } },
    })),
  };
  writeFileSync(file, JSON.stringify({ log }));
  return file;
}

describe('youtube answer variants (hand-written)', () => {
  const UC = 'UCabcdefghijklmnopqrstuv';
  const tabs = (selected: { title: string; params: string }, content: unknown) => ({
    contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { title: selected.title, selected: true, endpoint: { browseEndpoint: { browseId: UC, params: selected.params } }, content } }] } },
    metadata: { channelMetadataRenderer: { externalId: UC, title: 'Chan', vanityChannelUrl: 'http://www.youtube.com/@chan' } },
  });

  it('posts and user of an age-gated channel are session_expired', async () => {
    const file = handHar([{ endpoint: 'browse', sent: { browseId: UC, params: 'EgZ2aWRlb3PyBgQKAjoA' }, answer: {
      contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: { sectionListRenderer: { contents: [{ channelAgeGateRenderer: { channelTitle: 'Chan', header: { runs: [{ text: 'Sign in to view this channel' }] } } }] } } } }] } },
    } }]);
    for (const action of ['posts', 'user']) {
      const { result } = await run(action, { query: UC }, [file]);
      expect(result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
    }
  });

  it("posts of an age-gated channel come from its public uploads playlist (the web client's own continuation), walked on", async () => {
    const gate = { contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: { sectionListRenderer: { contents: [{ channelAgeGateRenderer: { channelTitle: 'Chan', header: { runs: [{ text: 'Sign in to view this channel' }] } } }] } } } }] } } };
    const entry = (id: string, title: string, views: string) => ({ playlistVideoRenderer: { videoId: id, title: { runs: [{ text: title }] }, lengthSeconds: '193', shortBylineText: { runs: [{ text: 'Chan', navigationEndpoint: { browseEndpoint: { browseId: UC, canonicalBaseUrl: '/@chan' } } }] }, videoInfo: { runs: [{ text: views }, { text: ' • ' }, { text: '4 months ago' }] } } });
    const more = (token: string) => ({ continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token } } } });
    const reload = (items: unknown[]) => ({ contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: { sectionListRenderer: { contents: [] } } } }] } }, onResponseReceivedActions: [{ reloadContinuationItemsCommand: { continuationItems: items } }] });
    // The token the web client sends for UULF + the id after "UC"; its bytes are spelled out in uploadsContinuation.
    const token = Buffer.concat([
      Buffer.from([0xe2, 0xa9, 0x85, 0xb2, 0x02, 0x4d]),
      Buffer.from([0x12, 28]), Buffer.from(`VLUULF${UC.slice(2)}`),
      Buffer.from([0x1a, 16]), Buffer.from('CADCBgIIAA%3D%3D'),
      Buffer.from([0x9a, 0x02, 26]), Buffer.from(`UULF${UC.slice(2)}`),
    ]).toString('base64').replace(/=/g, '%3D');
    const file = handHar([
      { endpoint: 'browse', sent: { browseId: UC, params: 'EgZ2aWRlb3PyBgQKAjoA' }, answer: gate },
      { endpoint: 'browse', sent: { continuation: token }, answer: reload([entry('Abc123def45', 'First', '106k views'), entry('Bcd234efg56', 'Second', '1.1K views'), more('page-two')]) },
      { endpoint: 'browse', sent: { continuation: 'page-two' }, answer: { onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: [entry('Cde345fgh67', 'Third', '12 views')] } }] } },
    ]);
    const { result, warnings } = await run('posts', { query: UC, max_items: 10 }, [file]);
    const env = EnvelopeSchema.parse(result);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 3 });
    expect(env.items.map((i) => [i.id, i.title, i.stats.views, i.duration_s])).toEqual([
      ['youtube:Abc123def45', 'First', 106_000, 193],
      ['youtube:Bcd234efg56', 'Second', 1_100, 193],
      ['youtube:Cde345fgh67', 'Third', 12, 193],
    ]);
    expect(env.items[0]).toMatchObject({ author: 'Chan', author_id: UC, author_handle: '@chan' });
    expect(warnings.join('\n')).toMatch(/age-restricted: these are its long-form uploads from its public uploads playlist/);
    // user still needs the age-verified login: the playlist says nothing about the channel itself.
    expect((await run('user', { query: UC }, [file])).result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
  });

  it('posts: when YouTube answers the Live tab, its uploads are listed and the substitution is said', async () => {
    const lockup = { lockupViewModel: { contentId: 'Abc123def45', contentType: 'LOCKUP_CONTENT_TYPE_VIDEO', metadata: { lockupMetadataViewModel: { title: { content: 'A past stream' }, metadata: { contentMetadataViewModel: { metadataRows: [{ metadataParts: [{ text: { content: '4.2k views' } }, { text: { content: 'Streamed 1 year ago' } }] }] } } } } } };
    const file = handHar([{ endpoint: 'browse', sent: { browseId: UC, params: 'EgZ2aWRlb3PyBgQKAjoA' }, answer: tabs({ title: 'Live', params: 'EgdzdHJlYW1z8gYECgJ6AA%3D%3D' }, { richGridRenderer: { contents: [{ richItemRenderer: { content: lockup } }] } }) }]);
    const { result, warnings } = await run('posts', { query: UC }, [file]);
    const env = EnvelopeSchema.parse(result);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 1 });
    expect(env.items[0]).toMatchObject({ id: 'youtube:Abc123def45', title: 'A past stream', author: 'Chan', author_id: UC, author_handle: '@chan', stats: { views: 4_200 } });
    expect(warnings.join('\n')).toMatch(/answered its Live tab instead of Videos/);
  });

  it('search: an answer of channels only is an empty page with the reason, not a parse error', async () => {
    const file = handHar([{ endpoint: 'search', sent: { query: 'chan', params: 'EgIQAvABAQ%3D%3D' }, answer: {
      contents: { twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ channelRenderer: { channelId: UC } }, { channelRenderer: { channelId: 'UCzyxwvutsrqponmlkjihgfe' } }] } }] } } } },
    } }]);
    const { result, warnings } = await run('search', { query: 'chan' }, [file]);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0 });
    expect(warnings).toEqual(['search "chan": YouTube answered 2 channel/playlist result(s) and no videos']);
  });

  it('hot: the Live and Podcasts destinations are categories, each asking for its own page', async () => {
    const card = (id: string, views: string) => ({ richItemRenderer: { content: { videoRenderer: { videoId: id, title: { runs: [{ text: `t ${id}` }] }, viewCountText: { simpleText: views } } } } });
    const page = (id: string, views: string) => ({ contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: { richGridRenderer: { contents: [card(id, views)] } } } }] } } });
    const file = handHar([
      { endpoint: 'browse', sent: { browseId: 'UC4R8DWoMoI7CAwX8_LjQHig', params: 'EgdsaXZldGFikgEDCKEK' }, answer: page('LiveVideo01', '1,234 watching') },
      { endpoint: 'browse', sent: { browseId: 'FEpodcasts_destination', params: 'qgcCCAM%3D' }, answer: page('Podcast0001', '10k views') },
    ]);
    const live = EnvelopeSchema.parse((await run('hot', { category: 'live' }, [file])).result);
    expect(live.items.map((i) => [i.id, i.stats])).toEqual([['youtube:LiveVideo01', {}]]); // viewers are not views
    const pods = EnvelopeSchema.parse((await run('hot', { category: 'podcasts' }, [file])).result);
    expect(pods.items.map((i) => [i.id, i.stats])).toEqual([['youtube:Podcast0001', { views: 10_000 }]]);
  });

  it('comments: a reply continuation handed back as the cursor reads the replies, threaded under their parent', async () => {
    const file = handHar([{ endpoint: 'next', sent: { continuation: 'REPLYTOKEN' }, answer: {
      onResponseReceivedEndpoints: [{ appendContinuationItemsAction: { continuationItems: [{ commentViewModel: { commentKey: 'k1' } }] } }],
      frameworkUpdates: { entityBatchUpdate: { mutations: [{ entityKey: 'k1', payload: { commentEntityPayload: { properties: { commentId: 'UgParent123.9ReplyAbc', content: { content: 'a reply' }, publishedTime: '1 day ago' }, author: { channelId: UC, displayName: '@replier' }, toolbar: { likeCountNotliked: '2' } } } }] } },
    } }]);
    const res = CommentsResultSchema.parse((await run('comments', { query: 'Abc123def45', cursor: 'REPLYTOKEN' }, [file])).result);
    expect(res.items.map((c) => [c.cid, c.text, c.likes, c.parent_id])).toEqual([['UgParent123.9ReplyAbc', 'a reply', 2, 'UgParent123']]);
    expect(res.has_more).toBe(false);
  });
});

describe('youtube recordings', () => {
  // Runs last (vitest keeps file order): every real recording must have been replayed above.
  it('every recording in ../shared/fixtures/youtube was replayed', () => {
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(all.length).toBeGreaterThanOrEqual(11);
    expect(all.filter((f) => !used.has(basename(f)))).toEqual([]);
  });
});
