import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  channelOwner,
  commentsEntry,
  detailDraft,
  parseBrowse,
  parseChannel,
  parseCommentThreads,
  parseReplies,
  parseSearch,
  playableStream,
  selectedTabIsVideos,
  selectedUploadsTab,
  trendsOf,
  watchExtras,
} from '../../src/platforms/youtube/parse.js';
import { bestThumb, parseAgo, parseClock, parseCount, parseDateText, parseIso, text } from '../../src/platforms/youtube/text.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/youtube');
const entry = (file: string, i = 0) => JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[i];
const body = (file: string, i = 0): any => JSON.parse(entry(file, i).response.content.text);
const sent = (file: string, i = 0): any => JSON.parse(entry(file, i).request.postData.text);
const at = (file: string, i = 0): number => Date.parse(entry(file, i).startedDateTime);

describe('youtube text readers', () => {
  it.each([
    ['390,201 views', 390_201],
    ['1,260,112 views', 1_260_112],
    ['8.84k subscribers', 8_840],
    ['1.15k subscribers', 1_150],
    ['1.2M subscribers', 1_200_000],
    ['3.1m views', 3_100_000],
    ['12k views', 12_000],
    ['2.1B views', 2_100_000_000],
    ['21,051 Comments', 21_051],
    ['258 videos', 258],
    ['1 view', 1],
    ['No views', 0],
    ['9.8k', 9_800],
    ['327', 327],
  ])('count %j → %d', (s, n) => {
    expect(parseCount(s)).toBe(n);
  });

  it('counts: empty and wordless strings are not reported', () => {
    expect(parseCount('')).toBeUndefined();
    expect(parseCount('Subscribe')).toBeUndefined();
    expect(parseCount(undefined)).toBeUndefined();
  });

  it('clock durations', () => {
    expect(parseClock('1:07:34')).toBe(4054);
    expect(parseClock('47:20')).toBe(2840);
    expect(parseClock('0:11')).toBe(11);
    expect(parseClock({ simpleText: '8:02:54' })).toBe(28_974);
    expect(parseClock('LIVE')).toBeUndefined();
    expect(parseClock('SHORTS')).toBeUndefined();
  });

  it('relative times are anchored at the answer time', () => {
    const now = Date.parse('2026-01-26T18:04:00Z');
    expect(parseAgo('4 years ago (edited)', now)).toBe(now / 1000 - 4 * 365 * 86_400);
    expect(parseAgo('Streamed 14 minutes ago', now)).toBe(now / 1000 - 14 * 60);
    expect(parseAgo('1 day ago', now)).toBe(now / 1000 - 86_400);
    expect(parseAgo('just now', now)).toBeUndefined();
  });

  it('dates', () => {
    expect(parseIso('2019-05-22T11:45:33-07:00')).toBe(Date.parse('2019-05-22T18:45:33Z') / 1000);
    expect(parseIso('2019-05-22')).toBe(Date.UTC(2019, 4, 22) / 1000);
    expect(parseIso('yesterday')).toBeUndefined();
    expect(parseDateText('22 May 2019')).toBe(Date.UTC(2019, 4, 22) / 1000);
    expect(parseDateText('Premiered May 22, 2019')).toBe(Date.UTC(2019, 4, 22) / 1000);
    expect(parseDateText('Streamed live on 5 Feb 2023')).toBe(Date.UTC(2023, 1, 5) / 1000);
    expect(parseDateText('7 years ago')).toBeUndefined();
  });

  it('text objects and thumbnails', () => {
    expect(text({ runs: [{ text: '21,051' }, { text: ' Comments' }] })).toBe('21,051 Comments');
    expect(text({ simpleText: 'dog' })).toBe('dog');
    expect(text({ content: '@creativecommons' })).toBe('@creativecommons');
    expect(bestThumb({ thumbnails: [{ url: 'https://a/1', width: 120 }, { url: 'https://a/3', width: 640 }, { url: 'https://a/2', width: 320 }] })?.url).toBe('https://a/3');
    expect(bestThumb({ sources: [{ url: '//yt3.googleusercontent.com/x=s48', width: 48 }] })?.url).toBe('https://yt3.googleusercontent.com/x=s48');
  });
});

describe('youtube search answers', () => {
  it('reads the recorded first page: videoRenderers only, shelves left out, and the continuation', () => {
    const page = parseSearch(body('search-videos-test.har', 0))!;
    const raw = body('search-videos-test.har', 0).contents.twoColumnSearchResultsRenderer.primaryContents.sectionListRenderer.contents[0].itemSectionRenderer.contents[0].videoRenderer;
    expect(page.items).toHaveLength(20);
    expect(page.items.map((i) => i.native_id).slice(0, 3)).toEqual(['Z8KYabgkMbw', '0YWt4Ai8q_g', 'UEQSkaqrMZA']);
    expect(page.items.some((i) => i.native_id === 'YuumdQCliwQ')).toBe(false); // "Popular in Lyon" shelf
    expect(page.items[0]).toEqual({
      native_id: 'Z8KYabgkMbw',
      type: 'video',
      url: 'https://www.youtube.com/watch?v=Z8KYabgkMbw',
      title: 'Blind Test TOUT GENRE | 140 extraits',
      text: raw.detailedMetadataSnippets[0].snippetText.runs.map((r: any) => r.text).join(''),
      author: 'Blind Test & Chill',
      author_id: 'UCuEBTg6pcG7s3PpPGRtFKQA',
      author_handle: '@BlindTest-Chill',
      thumb: 'https://i.ytimg.com/vi/Z8KYabgkMbw/hq720.jpg?sqp=-oaymwEcCNAFEJQDSFXyq4qpAw4IARUAAIhCGAFwAcABBg==&rs=AOn4CLAN2AwL361UK6Opt_DiH1INiGuoJQ',
      duration_s: 2840,
      stats: { views: 390_201 },
    });
    expect(page.next).toBe(sent('search-videos-test.har', 1).continuation);
    expect(page.said).toBeUndefined();
  });

  it('reads the recorded continuation (onResponseReceivedCommands)', () => {
    const page = parseSearch(body('search-videos-test.har', 1))!;
    expect(page.items).toHaveLength(20);
    expect(page.items[0]).toMatchObject({ native_id: 'JOHUZMTdgBY', author_id: 'UCDM44XqJrR_fsGDA8loLOfQ', author_handle: '@GamingWithRiya1', duration_s: 19_222, stats: { views: 12_870 } });
    expect(page.next).toMatch(/^Ep0DEgR0ZXN0/);
  });

  it('"No results found" is said, not guessed', () => {
    const empty = { contents: { twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ backgroundPromoRenderer: { title: { runs: [{ text: 'No results found' }] } } }] } }] } } } } };
    expect(parseSearch(empty)).toEqual({ items: [], next: undefined, said: 'No results found' });
    expect(parseSearch({ responseContext: {} })).toBeUndefined();
  });
});

describe('youtube channel answers', () => {
  const videos = body('posts-channel-videos-creativecommons.har', 0);

  it('reads the channel behind the Videos tab', () => {
    expect(channelOwner(videos)).toEqual({ id: 'UCTwECeGqMZee77BjdoYtI2Q', name: 'Creative Commons', handle: '@creativecommons' });
    expect(selectedTabIsVideos(videos)).toBe(true);
    expect(parseChannel(videos)).toEqual({
      id: 'UCTwECeGqMZee77BjdoYtI2Q',
      source: 'youtube',
      handle: '@creativecommons',
      name: 'Creative Commons',
      bio: 'A nonprofit building a vibrant, collaborative global commons through CC licenses, programs, and a growing network. \n\nImage: Lukas Schlagenhauf (CC BY-ND 2.0)',
      avatar: 'https://yt3.googleusercontent.com/ytc/AIdro_lSk0TpqM-SxI52i5LwI00Y_84Dd-2NLmGa8CsSNoFDF7E=s900-c-k-c0x00ffffff-no-rj',
      url: 'https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q',
      followers: 8_840,
      posts: 258,
      verified: false,
    });
  });

  it('reads lockupViewModel cards with the channel as author, and the continuation', () => {
    const owner = channelOwner(videos);
    const page = parseBrowse(videos, owner)!;
    expect(page.items).toHaveLength(30);
    expect(page.items[0]).toEqual({
      native_id: 'BD-LB23rRBE',
      type: 'video',
      url: 'https://www.youtube.com/watch?v=BD-LB23rRBE',
      title: 'Expert Panel III: Global Perspectives on Open Heritage and Diversity, Inclusion, and Sustainability',
      author: 'Creative Commons',
      author_id: 'UCTwECeGqMZee77BjdoYtI2Q',
      author_handle: '@creativecommons',
      thumb: 'https://i.ytimg.com/vi/BD-LB23rRBE/hqdefault.jpg?sqp=-oaymwEcCNACELwBSFXyq4qpAw4IARUAAIhCGAFwAcABBg==&rs=AOn4CLAekK0HiqHjHB86mfB-W7fZE916oQ',
      duration_s: 4054,
      stats: { views: 28 },
    });
    expect(page.items.find((i) => i.native_id === 'MjH_xSkc59I')?.stats.views).toBe(12_000);
    expect(page.next).toBe(sent('posts-channel-videos-creativecommons.har', 1).continuation);
    const more = parseBrowse(body('posts-channel-videos-creativecommons.har', 1), owner)!;
    expect(more.items).toHaveLength(30);
    expect(more.items[0]).toMatchObject({ native_id: 'CIFHx7_z3Vc', author_id: 'UCTwECeGqMZee77BjdoYtI2Q', stats: { views: 117 }, duration_s: 3601 });
    expect(more.next).toBeTruthy();
  });

  it('the gaming trending tab: a shelf grid of gridVideoRenderers; a collaboration is credited to its first channel', () => {
    const kiosk = body('trending-gaming.har');
    expect(selectedTabIsVideos(kiosk)).toBe(false);
    const page = parseBrowse(kiosk)!;
    expect(page.items).toHaveLength(50);
    expect(page.next).toBeUndefined();
    expect(page.items[0]).toMatchObject({
      native_id: '-_DaUyAB_DE',
      title: 'Minecraft Speedrunner VS 5 Hunters REVIVAL',
      author: 'Dream',
      author_id: 'UCTkXRDQl0luXxVQrRQvWS6w',
      author_handle: '@dream',
      duration_s: 3160,
      stats: { views: 3_172_670 },
    });
    const collab = page.items.find((i) => i.native_id === 'TpMVMxs2pS8')!;
    // The byline reads "S2G and CaniSports"; the item is credited to the first listed channel, by name and id.
    expect(collab.author).toBe('S2G');
    expect(collab.author_id).toMatch(/^UC/);
    const trends = trendsOf(page.items);
    expect(trends.map((t) => t.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(trends[0]).toEqual({ word: 'Minecraft Speedrunner VS 5 Hunters REVIVAL', source: 'youtube', rank: 1, hot_value: 3_172_670, url: 'https://www.youtube.com/watch?v=-_DaUyAB_DE' });
  });

  it('a terminated channel carries no channel metadata', () => {
    expect(parseChannel(body('error-channel-terminated.har'))).toMatchObject({ id: 'UCoaO4U_p7G7AwalqSbGCZOA', followers: undefined });
    expect(parseBrowse(body('error-channel-terminated.har'))).toBeUndefined();
  });
});

describe('youtube comment answers', () => {
  it('finds the comment section continuation on the watch page', () => {
    expect(commentsEntry(body('comments-video-xaQJbozY_Is.har', 0))).toEqual({ token: sent('comments-video-xaQJbozY_Is.har', 1).continuation });
    expect(commentsEntry(body('detail-watch-tjz2u2DiveM.har', 4))).toEqual({ token: 'Eg0SC3RqejJ1MkRpdmVNGAYyJSIRIgt0anoydTJEaXZlTTAAeAJCEGNvbW1lbnRzLXNlY3Rpb24%3D' });
    expect(commentsEntry({})).toEqual({ missing: true });
  });

  it('reads threads from commentViewModel + commentEntityPayload mutations', () => {
    const now = at('comments-video-xaQJbozY_Is.har', 1);
    const page = parseCommentThreads(body('comments-video-xaQJbozY_Is.har', 1), 'xaQJbozY_Is', now);
    expect(page.total).toBe(21_051);
    expect(page.threads).toHaveLength(20);
    expect(page.threads[0].comment).toEqual({
      cid: 'UgwSOM0QHBLysE3vZE54AaABAg',
      text: 'The 12,022 Calendar is sold out check out more scienc-y products created with love here: https://kgs.link/shop-151',
      likes: 9_800,
      reply_total: 327,
      user_id: 'UCsXVk37bltHxD1rDPwtNM8Q',
      handle: '@kurzgesagt',
      user_name: '@kurzgesagt',
      created_at: Math.floor(now / 1000) - 4 * 365 * 86_400,
      source: 'youtube',
      url: 'https://www.youtube.com/watch?v=xaQJbozY_Is&lc=UgwSOM0QHBLysE3vZE54AaABAg',
      parent_id: undefined,
    });
    expect(page.threads[0].replies).toBe(sent('replies-comment-xaQJbozY_Is.har').continuation);
    expect(page.threads.filter((t) => t.replies)).toHaveLength(18);
    expect(page.next).toMatch(/^Eg0SC3hhUUpib3pZX0lz/);
  });

  it('a commenter without a handle keeps the name and an empty handle', () => {
    const answer = {
      onResponseReceivedEndpoints: [{ appendContinuationItemsAction: { continuationItems: [{ commentThreadRenderer: { commentViewModel: { commentViewModel: { commentKey: 'k1', commentId: 'Ugx1' } } } }] } }],
      frameworkUpdates: { entityBatchUpdate: { mutations: [{ entityKey: 'k1', payload: { commentEntityPayload: { properties: { commentId: 'Ugx1', content: { content: 'hi' }, publishedTime: '2 hours ago' }, author: { channelId: 'UCx', displayName: 'Old Channel Name', channelCommand: { innertubeCommand: { browseEndpoint: { browseId: 'UCx', canonicalBaseUrl: '/channel/UCx' } } } }, toolbar: { likeCountNotliked: '', replyCount: '' } } } }] } },
    };
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseCommentThreads(answer, 'tjz2u2DiveM', now).threads[0].comment).toMatchObject({ cid: 'Ugx1', handle: '', user_name: 'Old Channel Name', likes: 0, reply_total: 0, created_at: now / 1000 - 7200 });
  });

  it('a comment count past 2^53 is no total', () => {
    const header = (simpleText: string) => ({ onResponseReceivedEndpoints: [{ reloadContinuationItemsCommand: { continuationItems: [{ commentsHeaderRenderer: { countText: { simpleText } } }] } }] });
    expect(parseCommentThreads(header('1,234 Comments'), 'Abc123def45', 0).total).toBe(1234);
    expect(parseCommentThreads(header(`${'9'.repeat(30)} Comments`), 'Abc123def45', 0).total).toBeUndefined();
  });

  it('reads a page of replies, each pointing at its thread', () => {
    const replies = parseReplies(body('replies-comment-xaQJbozY_Is.har'), 'xaQJbozY_Is', 'UgwSOM0QHBLysE3vZE54AaABAg', at('replies-comment-xaQJbozY_Is.har'));
    expect(replies.items).toHaveLength(10);
    expect(replies.items.every((c) => c.parent_id === 'UgwSOM0QHBLysE3vZE54AaABAg' && c.cid.startsWith('UgwSOM0QHBLysE3vZE54AaABAg.'))).toBe(true);
    expect(replies.items[0]).toMatchObject({ cid: 'UgwSOM0QHBLysE3vZE54AaABAg.9TOrAAD78Z59TP5tOBhBXP', text: 'First', likes: 52, reply_total: 0, handle: '@andrefarfan4372', user_id: 'UCYMtcMCKn6YNUoR6K_caE9A' });
    expect(replies.next).toBeTruthy(); // "Show more replies"
  });
});

describe('youtube player answers', () => {
  const reel = body('detail-watch-tjz2u2DiveM.har', 1).playerResponse;

  it('offers the progressive format that has a direct URL', () => {
    const choice = playableStream(reel);
    expect(choice).toEqual({ stream: { url: reel.streamingData.formats[0].url, width: 288, height: 360, duration_s: 11.075 } });
  });

  it('without a progressive format, the HLS playlist of the Apple client, sized like its best rendition', () => {
    const pr = body('detail-player-tjz2u2DiveM.har', 1);
    expect(playableStream(pr)).toEqual({ stream: { url: pr.streamingData.hlsManifestUrl, width: 384, height: 480 } });
  });

  it('says why there is no stream: adaptive-only answers, ciphered formats', () => {
    const { hlsManifestUrl: _hls, ...adaptiveOnly } = body('detail-player-tjz2u2DiveM.har', 1).streamingData;
    expect(playableStream({ streamingData: adaptiveOnly })).toEqual({ none: expect.stringMatching(/only adaptive/) });
    expect(playableStream({ streamingData: { formats: [{ itag: 18, signatureCipher: 's=abc&sp=sig&url=https://x' }] } })).toEqual({ none: expect.stringMatching(/signature-ciphered/) });
    expect(playableStream({})).toEqual({ none: 'YouTube sent no streamingData' });
  });

  it('reads likes, comment count, date and handle from the watch page', () => {
    expect(watchExtras(body('detail-watch-tjz2u2DiveM.har', 4))).toEqual({ likes: 1_697, comments: 7, date: '22 May 2019', handle: '@jonytube131' });
    expect(watchExtras(body('comments-video-xaQJbozY_Is.har', 0))).toMatchObject({ comments: 21_000, date: '12 Oct 2021' });
  });

  it('assembles the detail draft from the player, the microformat and the watch page', () => {
    const micro = body('detail-watch-tjz2u2DiveM.har', 3).microformat.playerMicroformatRenderer;
    const stream = (playableStream(reel) as { stream: any }).stream;
    const d = detailDraft({ videoId: 'tjz2u2DiveM', player: reel, micro, extras: watchExtras(body('detail-watch-tjz2u2DiveM.har', 4)), stream, ts: parseIso(micro.publishDate) });
    expect(d).toEqual({
      native_id: 'tjz2u2DiveM',
      type: 'video',
      url: 'https://www.youtube.com/watch?v=tjz2u2DiveM',
      title: 'dog',
      text: 'https://www.ahnegao.com.br/',
      author: 'Jony Tube',
      author_id: 'UCjKFYf7oRKTDX57VeFHnLoQ',
      author_handle: '@jonytube131',
      thumb: reel.videoDetails.thumbnail.thumbnails[3].url,
      media: [{ kind: 'video', url: stream.url, w: 288, h: 360, duration_s: 11.075 }],
      ts: Date.parse('2019-05-22T18:45:33Z') / 1000,
      duration_s: 11,
      aspect: { width: 288, height: 360 },
      stats: { views: 142_650, likes: 1_697, comments: 7 },
    });
  });

  it('without stream or microformat: metadata only, shape from the adaptive formats', () => {
    const d = detailDraft({ videoId: 'tjz2u2DiveM', player: body('detail-player-tjz2u2DiveM.har', 1) });
    expect(d).toMatchObject({ title: 'dog', author: 'Jony Tube', media: [], duration_s: 11, aspect: { width: 384, height: 480 }, stats: { views: 142_650 } });
    expect(d.ts).toBeUndefined();
    expect(d.author_handle).toBeUndefined();
  });
});

// Hand-written answers in the shapes other real recordings use (no fixture holds them).
describe('youtube answer variants', () => {
  const UC = 'UCabcdefghijklmnopqrstuv';
  const tab = (title: string, params: string, selected: boolean, content?: unknown) => ({ tabRenderer: { title, selected, endpoint: { browseEndpoint: { browseId: UC, params } }, content } });

  it('a Shorts tab: shortsLockupViewModel cards carry id, title, rounded views, thumb and the frame shape', () => {
    const short = {
      shortsLockupViewModel: {
        entityId: 'shorts-shelf-item-Abc123def45',
        onTap: { innertubeCommand: { reelWatchEndpoint: { videoId: 'Abc123def45', thumbnail: { thumbnails: [{ url: 'https://i.ytimg.com/vi/Abc123def45/frame0.jpg', width: 720, height: 1280 }], isOriginalAspectRatio: true } } } },
        overlayMetadata: { primaryText: { content: 'A very short clip' }, secondaryText: { content: '1.5k views' } },
        thumbnailViewModel: { thumbnailViewModel: { image: { sources: [{ url: 'https://i.ytimg.com/vi/Abc123def45/oar2.jpg', width: 405, height: 720 }] } } },
      },
    };
    const answer = { contents: { twoColumnBrowseResultsRenderer: { tabs: [tab('Videos', 'EgZ2aWRlb3PyBgQKAjoA', false), tab('Shorts', 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D', true, { richGridRenderer: { contents: [{ richItemRenderer: { content: short } }] } })] } } };
    expect(selectedTabIsVideos(answer)).toBe(false);
    expect(selectedUploadsTab(answer)).toBe('shorts');
    const page = parseBrowse(answer, { id: UC, name: 'Chan', handle: '@chan' })!;
    expect(page.items).toEqual([
      {
        native_id: 'Abc123def45',
        type: 'video',
        url: 'https://www.youtube.com/watch?v=Abc123def45',
        title: 'A very short clip',
        author: 'Chan',
        author_id: UC,
        author_handle: '@chan',
        thumb: 'https://i.ytimg.com/vi/Abc123def45/oar2.jpg',
        aspect: { width: 720, height: 1280 },
        stats: { views: 1_500 },
      },
    ]);
  });

  it('the older trending page: an expanded shelf of videoRenderers inside the selected tab', () => {
    const v = (id: string, views: string) => ({ videoRenderer: { videoId: id, title: { runs: [{ text: `t ${id}` }] }, viewCountText: { simpleText: views } } });
    const answer = { contents: { twoColumnBrowseResultsRenderer: { tabs: [
      { tabRenderer: { title: 'Now', selected: true, content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ shelfRenderer: { content: { expandedShelfContentsRenderer: { items: [v('Trend000001', '5,864,963 views'), v('Trend000002', '12k views')] } } } }] } }] } } } },
      { tabRenderer: { title: 'Music', selected: false } },
    ] } } };
    const page = parseBrowse(answer)!;
    expect(page.items.map((i) => [i.native_id, i.stats.views])).toEqual([['Trend000001', 5_864_963], ['Trend000002', 12_000]]);
    expect(trendsOf(page.items).map((t) => t.rank)).toEqual([1, 2]);
  });

  it('the Live tab counts as an uploads tab; Home does not', () => {
    const live = { contents: { twoColumnBrowseResultsRenderer: { tabs: [tab('Home', 'EgRob21l', false), tab('Live', 'EgdzdHJlYW1z8gYECgJ6AA%3D%3D', true)] } } };
    const home = { contents: { twoColumnBrowseResultsRenderer: { tabs: [tab('Home', 'EgRob21l', true), tab('Live', 'EgRsaXZl', false)] } } };
    expect(selectedUploadsTab(live)).toBe('streams');
    expect(selectedUploadsTab(home)).toBeUndefined();
  });

  it('a search answer of channels only says how many non-video results it left out', () => {
    const answer = {
      contents: { twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [
        { channelRenderer: { channelId: UC, title: { simpleText: 'Chan' } } },
        { lockupViewModel: { contentId: 'PLxyz', contentType: 'LOCKUP_CONTENT_TYPE_PLAYLIST' } },
      ] } }] } } } },
    };
    expect(parseSearch(answer)).toEqual({ items: [], next: undefined, said: undefined, others: 2 });
  });

  it('a collaboration byline credits the first listed channel by its own name and handle', () => {
    const byline = {
      runs: [{
        text: 'First Chan and Second Chan',
        navigationEndpoint: { showDialogCommand: { panelLoadingStrategy: { inlineContent: { dialogViewModel: { customContent: { listViewModel: { listItems: [
          { listItemViewModel: { title: { content: 'First Chan ' }, subtitle: { content: '\u200e\u2068@firstchan\u2069 • \u20681k subscribers\u2069' }, rendererContext: { commandContext: { onTap: { innertubeCommand: { browseEndpoint: { browseId: UC } } } } } } },
          { listItemViewModel: { title: { content: 'Second Chan' }, subtitle: { content: '@second' }, rendererContext: { commandContext: { onTap: { innertubeCommand: { browseEndpoint: { browseId: 'UCzyxwvutsrqponmlkjihgfe' } } } } } } },
        ] } } } } } } },
      }],
    };
    const page = parseSearch({
      contents: { twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ videoRenderer: { videoId: 'Abc123def45', title: { runs: [{ text: 't' }] }, ownerText: byline } }] } }] } } } },
    })!;
    expect(page.items[0]).toMatchObject({ author: 'First Chan', author_id: UC, author_handle: '@firstchan' });
  });

  it('system channels without channelMetadataRenderer: topic carousel and game headers, microformat', () => {
    const topic = {
      header: { carouselHeaderRenderer: { contents: [{ carouselItemRenderer: {} }, { topicChannelDetailsRenderer: {
        title: { simpleText: 'Sports' },
        avatar: { thumbnails: [{ url: '//yt3.googleusercontent.com/av=s88', width: 88, height: 88 }, { url: '//yt3.googleusercontent.com/av=s176', width: 176, height: 176 }] },
        subtitle: { simpleText: '74.4m subscribers' },
        subscribeButton: { subscribeButtonRenderer: { channelId: UC } },
      } }] } },
      contents: { twoColumnBrowseResultsRenderer: { tabs: [tab('', '', true)] } },
    };
    expect(parseChannel(topic)).toEqual({ id: UC, source: 'youtube', name: 'Sports', avatar: 'https://yt3.googleusercontent.com/av=s176', url: `https://www.youtube.com/channel/${UC}`, followers: 74_400_000, handle: undefined, bio: undefined, posts: undefined, verified: undefined });

    const game = {
      header: { interactiveTabbedHeaderRenderer: { title: { simpleText: 'Some Game' }, description: { simpleText: 'Build things.' }, boxArt: { thumbnails: [{ url: 'https://yt3.googleusercontent.com/box', width: 195, height: 270 }] } } },
      microformat: { microformatDataRenderer: { urlCanonical: `https://www.youtube.com/channel/${UC}`, title: 'Some Game - Topic', description: 'Build thi...' } },
    };
    expect(parseChannel(game)).toMatchObject({ id: UC, name: 'Some Game - Topic', bio: 'Build things.', avatar: 'https://yt3.googleusercontent.com/box' });
    // An answer that never names its channel is known by the id it was fetched under, never invented.
    expect(parseChannel({ header: { interactiveTabbedHeaderRenderer: { title: { simpleText: 'X' } } } }, UC)).toMatchObject({ id: UC, name: 'X' });
    expect(parseChannel({ responseContext: {} }, UC)).toBeUndefined();
  });

  it('a reply page handed back as a cursor: bare comments, each threaded under the id before the dot', () => {
    const answer = {
      onResponseReceivedEndpoints: [{ appendContinuationItemsAction: { continuationItems: [
        { commentViewModel: { commentKey: 'k1' } },
        { continuationItemRenderer: { button: { buttonRenderer: { command: { continuationCommand: { token: 'MORE' } } } } } },
      ] } }],
      frameworkUpdates: { entityBatchUpdate: { mutations: [{ entityKey: 'k1', payload: { commentEntityPayload: {
        properties: { commentId: 'UgParent123.9ReplyAbc', content: { content: 'a reply' }, publishedTime: '2 days ago', replyLevel: 1 },
        author: { channelId: UC, displayName: '@replier' },
        toolbar: { likeCountNotliked: '3', replyCount: '' },
      } } }] } },
    };
    const page = parseCommentThreads(answer, 'Abc123def45', Date.UTC(2026, 0, 10) );
    expect(page.next).toBe('MORE');
    expect(page.threads).toEqual([{ comment: {
      cid: 'UgParent123.9ReplyAbc', text: 'a reply', likes: 3, reply_total: 0, user_id: UC, handle: '@replier', user_name: '@replier',
      created_at: Date.UTC(2026, 0, 10) / 1000 - 2 * 86_400, source: 'youtube', url: 'https://www.youtube.com/watch?v=Abc123def45&lc=UgParent123.9ReplyAbc', parent_id: 'UgParent123',
    } }]);
  });
});
