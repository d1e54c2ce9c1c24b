// Writes the hand-made youtube sandbox recordings next to this file: node --import tsx sandbox/youtube/generate.ts
// Shapes follow the real InnerTube answers in ../shared/fixtures/youtube (renderer and view-model keys, continuation
// wrappers, entity mutations); the channel, videos and comments are invented.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const WEB = 'https://www.youtube.com';
const GAPIS = 'https://youtubei.googleapis.com';
const WEB_VERSION = '2.20260519.10.00';
const ANDROID_UA = 'com.google.android.youtube/21.03.36 (Linux; U; Android 15; GB) gzip';
const STARTED = '2026-06-01T12:00:00Z';
const DATE = 'Mon, 01 Jun 2026 12:00:00 GMT';

type J = Record<string, unknown>;

const webContext = (watch = false, visitorData?: string): J => ({
  client: watch
    ? { clientName: 'WEB', clientVersion: WEB_VERSION, clientScreen: 'WATCH', platform: 'DESKTOP', ...(visitorData ? { visitorData } : {}), hl: 'en-GB', gl: 'GB', utcOffsetMinutes: 0 }
    : { hl: 'en-GB', gl: 'GB', clientName: 'WEB', clientVersion: WEB_VERSION, originalUrl: WEB, platform: 'DESKTOP', utcOffsetMinutes: 0 },
  request: { internalExperimentFlags: [], useSsl: true },
  user: { lockedSafetyMode: false },
});
const androidContext = (visitorData?: string): J => ({
  client: {
    clientName: 'ANDROID', clientVersion: '21.03.36', clientScreen: 'WATCH', platform: 'MOBILE', ...(visitorData ? { visitorData } : {}),
    osName: 'Android', osVersion: '16', androidSdkVersion: 36, hl: 'en-GB', gl: 'GB', utcOffsetMinutes: 0,
  },
  request: { internalExperimentFlags: [], useSsl: true },
  user: { lockedSafetyMode: false },
});
const WEB_HEADERS = [
  { name: 'Referer', value: WEB },
  { name: 'Origin', value: WEB },
  { name: 'X-YouTube-Client-Version', value: WEB_VERSION },
  { name: 'X-YouTube-Client-Name', value: '1' },
  { name: 'Content-Type', value: 'application/json' },
];
const ANDROID_HEADERS = [
  { name: 'User-Agent', value: ANDROID_UA },
  { name: 'Content-Type', value: 'application/json' },
];

interface Ex {
  url: string;
  body: J;
  reqHeaders?: Array<{ name: string; value: string }>;
  status?: number;
  statusText?: string;
  headers?: Array<{ name: string; value: string }>;
  answer: unknown;
  comment: string;
}

function har(entries: Ex[]): string {
  return (
    JSON.stringify(
      {
        log: {
          version: '1.2',
          creator: { name: 'hand-made (youtube adapter sandbox)', version: '1' },
          entries: entries.map((e) => {
            const u = new URL(e.url);
            const text = typeof e.answer === 'string' ? e.answer : JSON.stringify(e.answer);
            const mime = 'application/json; charset=UTF-8';
            return {
              startedDateTime: STARTED,
              time: 0,
              request: {
                method: 'POST', url: e.url, httpVersion: 'HTTP/1.1', headers: e.reqHeaders ?? WEB_HEADERS,
                queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
                headersSize: -1, bodySize: -1, cookies: [],
                postData: { mimeType: 'application/json', text: JSON.stringify(e.body) },
              },
              response: {
                status: e.status ?? 200, statusText: e.statusText ?? 'OK', httpVersion: 'HTTP/1.1',
                headers: [{ name: 'content-type', value: mime }, { name: 'date', value: DATE }, ...(e.headers ?? [])], cookies: [],
                content: { size: Buffer.byteLength(text), mimeType: mime, text },
                redirectURL: '', headersSize: -1, bodySize: -1,
              },
              cache: {}, timings: { send: 0, wait: 0, receive: 0 },
              comment: `hand-made sandbox recording: ${e.comment}`,
            };
          }),
        },
      },
      null,
      1,
    ) + '\n'
  );
}

const write = (name: string, entries: Ex[]) => writeFileSync(join(OUT, name), har(entries));
const api = (endpoint: string, query = '') => `${WEB}/youtubei/v1/${endpoint}?prettyPrint=false${query}`;
const gapi = (endpoint: string, query = '') => `${GAPIS}/youtubei/v1/${endpoint}?prettyPrint=false${query}`;
const runs = (t: string) => ({ runs: [{ text: t }] });
const ctxResp = (visitorData?: string) => ({ responseContext: { ...(visitorData ? { visitorData } : {}), serviceTrackingParams: [], mainAppWebResponseContext: { loggedOut: true } } });
const token = (label: string) => Buffer.from(`\x12\x0bsandbox\x18\x06${label}`).toString('base64').replace(/=/g, '%3D');
const contItem = (tok: string, request: string, apiUrl: string) => ({
  continuationItemRenderer: {
    trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN',
    continuationEndpoint: { commandMetadata: { webCommandMetadata: { sendPost: true, apiUrl } }, continuationCommand: { token: tok, request } },
  },
});
const ytimg = (id: string, name: string) => `https://i.ytimg.com/vi/${id}/${name}.jpg?sqp=-oaymwEcCNACELwBSFXyq4qpAw4IARUAAIhCGAFwAcABBg==&rs=AOn4CLsandbox${id}`;

// ---- people ------------------------------------------------------------------------------------------------

interface Channel { id: string; name: string; handle: string }
const KITCHEN: Channel = { id: 'UCSandboxKitchen00000000', name: 'Sandbox Kitchen', handle: '@sandboxkitchen' };
const BAKER: Channel = { id: 'UCSandboxBakery000000000', name: 'Crumb & Crust', handle: '@crumbandcrust' };
const GRANNY: Channel = { id: 'UCSandboxGranny000000000', name: 'Granny Loaf', handle: '@grannyloaf' };
const STREAMER: Channel = { id: 'UCSandboxStreamer0000000', name: 'Pixel Forge', handle: '@pixelforge' };
const SPEEDRUN: Channel = { id: 'UCSandboxSpeedrun0000000', name: 'Frame Perfect', handle: '@frameperfect' };
const byline = (c: Channel) => ({ runs: [{ text: c.name, navigationEndpoint: { browseEndpoint: { browseId: c.id, canonicalBaseUrl: `/${c.handle}` } } }] });
const avatar = (c: Channel, size = 68) => `https://yt3.ggpht.com/sandbox-${c.handle.slice(1)}=s${size}-c-k-c0x00ffffff-no-rj`;

// ---- search ------------------------------------------------------------------------------------------------

interface V { id: string; title: string; channel: Channel; length?: string; views: string; ago: string; snippet?: string; live?: boolean }
const videoRenderer = (v: V) => ({
  videoRenderer: {
    videoId: v.id,
    thumbnail: { thumbnails: [{ url: ytimg(v.id, 'hq720'), width: 360, height: 202 }, { url: ytimg(v.id, 'hq720_2'), width: 720, height: 404 }] },
    title: { runs: [{ text: v.title }], accessibility: { accessibilityData: { label: v.title } } },
    longBylineText: byline(v.channel),
    ...(v.live ? {} : { publishedTimeText: { simpleText: v.ago } }),
    ...(v.length ? { lengthText: { simpleText: v.length } } : {}),
    viewCountText: v.live ? { runs: [{ text: v.views }, { text: ' watching' }] } : { simpleText: v.views },
    navigationEndpoint: { watchEndpoint: { videoId: v.id } },
    ownerText: byline(v.channel),
    shortBylineText: byline(v.channel),
    ...(v.live ? { badges: [{ metadataBadgeRenderer: { style: 'BADGE_STYLE_TYPE_LIVE_NOW', label: 'LIVE' } }] } : {}),
    channelThumbnailSupportedRenderers: { channelThumbnailWithLinkRenderer: { thumbnail: { thumbnails: [{ url: avatar(v.channel), width: 68, height: 68 }] } } },
    ...(v.snippet ? { detailedMetadataSnippets: [{ snippetText: { runs: [{ text: v.snippet }] }, snippetHoverText: runs('From the video description') }] } : {}),
  },
});

const SEARCH_PARAMS = 'EgIQAfABAQ%3D%3D';
const S1 = [
  { id: 'SbxSourdo01', title: 'Sourdough for beginners: the whole process', channel: BAKER, length: '18:42', views: '1,204,311 views', ago: '2 years ago', snippet: 'Everything from feeding the starter to the final bake ...' },
  { id: 'SbxSourdo02', title: 'Why my sourdough is flat (and how I fixed it)', channel: KITCHEN, length: '9:05', views: '88,420 views', ago: '5 months ago', snippet: 'A dense, flat loaf has three usual causes: a sleepy starter, short bulk fermentation and weak shaping ...' },
  { id: 'SbxSourdo03', title: 'Baking bread all night — live', channel: GRANNY, views: '312', ago: '', live: true, snippet: 'Come bake with me: two loaves, one night, questions welcome in the chat ...' },
];
const SHELF_VIDEO = { id: 'SbxShelfVd1', title: 'Popular near you: croissants', channel: KITCHEN, length: '4:12', views: '5,000 views', ago: '1 day ago', snippet: 'Laminated dough at home without a sheeter ...' };
const S2 = [
  { id: 'SbxSourdo04', title: 'Sourdough discard crackers', channel: KITCHEN, length: '6:31', views: '12k views', ago: '3 weeks ago', snippet: 'Do not throw the discard away: crackers in twenty minutes ...' },
  { id: 'SbxSourdo05', title: 'A 100-year-old starter', channel: GRANNY, length: '1:02:09', views: '2.3m views', ago: '8 years ago', snippet: 'This starter came over on a ship in 1920 and is still fed every morning ...' },
];
const searchTok = token('search-sourdough-page2');

write('search-sourdough-bread.har', [
  {
    url: api('search'),
    body: { context: webContext(), query: 'sourdough bread', params: SEARCH_PARAMS },
    answer: {
      ...ctxResp('CgtTYnhTZWFyY2gxKICAgIAG'),
      estimatedResults: '2417880',
      contents: {
        twoColumnSearchResultsRenderer: {
          primaryContents: {
            sectionListRenderer: {
              contents: [
                {
                  itemSectionRenderer: {
                    contents: [
                      videoRenderer(S1[0]),
                      videoRenderer(S1[1]),
                      { shelfRenderer: { title: { simpleText: 'Popular near you' }, content: { verticalListRenderer: { items: [videoRenderer(SHELF_VIDEO)] } } } },
                      videoRenderer(S1[2]),
                    ],
                  },
                },
                contItem(searchTok, 'CONTINUATION_REQUEST_TYPE_SEARCH', '/youtubei/v1/search'),
              ],
            },
          },
        },
      },
    },
    comment: 'search "sourdough bread" page 1 (videos filter): three videoRenderers (one live), a recommendation shelf, a continuation — shape of search-videos-test.har#0',
  },
  {
    url: api('search'),
    body: { context: webContext(), continuation: searchTok },
    answer: {
      ...ctxResp(),
      estimatedResults: '2417880',
      onResponseReceivedCommands: [{ appendContinuationItemsAction: { continuationItems: [{ itemSectionRenderer: { contents: S2.map(videoRenderer) } }], targetId: 'search-feed' } }],
    },
    comment: 'search "sourdough bread" page 2: the last page (no continuation item) — shape of search-videos-test.har#1',
  },
]);

write('search-empty.har', [
  {
    url: api('search'),
    body: { context: webContext(), query: 'qzxv sandbox nothing', params: SEARCH_PARAMS },
    answer: {
      ...ctxResp(),
      estimatedResults: '0',
      contents: {
        twoColumnSearchResultsRenderer: {
          primaryContents: {
            sectionListRenderer: {
              contents: [{ itemSectionRenderer: { contents: [{ backgroundPromoRenderer: { title: runs('No results found'), bodyText: runs('Try different keywords or remove search filters') } }] } }],
            },
          },
        },
      },
    },
    comment: 'search with no results: YouTube\'s backgroundPromoRenderer "No results found" (the honest empty answer)',
  },
]);

write('error-search-429.har', [
  {
    url: api('search'),
    body: { context: webContext(), query: 'sandbox throttled', params: SEARCH_PARAMS },
    status: 429,
    statusText: 'Too Many Requests',
    headers: [{ name: 'retry-after', value: '120' }],
    answer: { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } },
    comment: 'HTTP 429 on search (Google API error body), no real recording of one exists',
  },
]);

// ---- channel: resolve, Videos tab (posts + user) -----------------------------------------------------------

interface L { id: string; title: string; views: string; ago: string; length: string }
const lockup = (v: L) => ({
  richItemRenderer: {
    content: {
      lockupViewModel: {
        contentImage: {
          thumbnailViewModel: {
            image: { sources: [{ url: ytimg(v.id, 'hqdefault'), width: 168, height: 94 }, { url: ytimg(v.id, 'hqdefault_2'), width: 336, height: 188 }] },
            overlays: [{ thumbnailBottomOverlayViewModel: { badges: [{ thumbnailBadgeViewModel: { text: v.length, badgeStyle: 'THUMBNAIL_OVERLAY_BADGE_STYLE_DEFAULT', animationActivationTargetId: v.id } }] } }],
          },
        },
        metadata: {
          lockupMetadataViewModel: {
            title: { content: v.title },
            metadata: { contentMetadataViewModel: { metadataRows: [{ metadataParts: [{ text: { content: v.views } }, { text: { content: v.ago } }] }], delimiter: ' • ' } },
          },
        },
        contentId: v.id,
        contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
        rendererContext: { commandContext: { onTap: { innertubeCommand: { watchEndpoint: { videoId: v.id } } } } },
      },
    },
  },
});
const P1: L[] = [
  { id: 'SbxKitchen1', title: 'One-pan lemon chicken in 12 minutes', views: '48k views', ago: '2 months ago', length: '12:34' },
  { id: 'SbxKitchen2', title: 'Knife skills: the claw grip', views: '1.1m views', ago: '4 months ago', length: '8:02' },
  { id: 'SbxKitchen3', title: 'Stock from scraps', views: '903 views', ago: '5 months ago', length: '1:01:15' },
];
const P2: L[] = [
  { id: 'SbxKitchen4', title: 'Rice, three ways', views: '27k views', ago: '7 months ago', length: '15:00' },
  { id: 'SbxKitchen5', title: 'Our first video', views: '2,140 views', ago: '3 years ago', length: '3:09' },
];
const postsTok = token('browse-sandboxkitchen-videos-page2');
const tab = (title: string, params: string, selected = false, content?: unknown) => ({
  tabRenderer: {
    endpoint: { browseEndpoint: { browseId: KITCHEN.id, params, canonicalBaseUrl: `/${KITCHEN.handle}` } },
    title,
    ...(selected ? { selected: true, content } : {}),
  },
});

write('posts-sandboxkitchen.har', [
  {
    url: api('navigation/resolve_url'),
    body: { context: webContext(), url: `${WEB}/${KITCHEN.handle}` },
    answer: {
      ...ctxResp(),
      endpoint: {
        commandMetadata: { webCommandMetadata: { url: '/youtubei/v1/navigation/resolve_url', webPageType: 'WEB_PAGE_TYPE_CHANNEL', rootVe: 3611, apiUrl: '/youtubei/v1/browse' }, resolveUrlCommandMetadata: { isVanityUrl: true } },
        browseEndpoint: { browseId: KITCHEN.id, params: 'EgC4AQCSAwDyBgQKAjIA' },
      },
    },
    comment: '@sandboxkitchen → browseId through navigation/resolve_url — shape of resolve-channel-url-creativecommons.har',
  },
  {
    url: api('browse'),
    body: { context: webContext(), browseId: KITCHEN.id, params: 'EgZ2aWRlb3PyBgQKAjoA' },
    answer: {
      ...ctxResp('CgtTYnhDaGFubmVsMSiAgICABg%3D%3D'),
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [
            tab('Home', 'EghmZWF0dXJlZPIGBAoCMgA%3D'),
            tab('Videos', 'EgZ2aWRlb3PyBgQKAjoA', true, {
              richGridRenderer: { contents: [...P1.map(lockup), contItem(postsTok, 'CONTINUATION_REQUEST_TYPE_BROWSE', '/youtubei/v1/browse')], targetId: `browse-feed${KITCHEN.id}videos102` },
            }),
            tab('Shorts', 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D'),
          ],
        },
      },
      header: {
        pageHeaderRenderer: {
          pageTitle: KITCHEN.name,
          content: {
            pageHeaderViewModel: {
              title: {
                dynamicTextViewModel: {
                  text: {
                    content: KITCHEN.name,
                    attachmentRuns: [{ startIndex: KITCHEN.name.length, length: 0, element: { type: { imageType: { image: { sources: [{ clientResource: { imageName: 'CHECK_CIRCLE_FILLED' }, width: 14, height: 14 }] } } } }, alignment: 'ALIGNMENT_VERTICAL_CENTER' }],
                  },
                  maxLines: 2,
                },
              },
              image: { decoratedAvatarViewModel: { avatar: { avatarViewModel: { image: { sources: [72, 120, 160].map((s) => ({ url: avatar(KITCHEN, s), width: s, height: s })) }, avatarImageSize: 'AVATAR_SIZE_XL' } } } },
              metadata: {
                contentMetadataViewModel: {
                  metadataRows: [
                    { metadataParts: [{ text: { content: KITCHEN.handle }, enableTruncation: true }] },
                    { metadataParts: [{ text: { content: '1.2M subscribers' }, accessibilityLabel: '1.2 million subscribers' }, { text: { content: '412 videos' } }] },
                  ],
                  delimiter: '•',
                },
              },
              description: { descriptionPreviewViewModel: { description: { content: 'Weeknight cooking without fuss.' }, maxLines: 2 } },
            },
          },
        },
      },
      metadata: {
        channelMetadataRenderer: {
          title: KITCHEN.name,
          description: 'Weeknight cooking without fuss.\nNew videos every Friday.',
          rssUrl: `${WEB}/feeds/videos.xml?channel_id=${KITCHEN.id}`,
          externalId: KITCHEN.id,
          ownerUrls: [`http://www.youtube.com/${KITCHEN.handle}`],
          avatar: { thumbnails: [{ url: avatar(KITCHEN, 900), width: 900, height: 900 }] },
          channelUrl: `${WEB}/channel/${KITCHEN.id}`,
          isFamilySafe: true,
          vanityChannelUrl: `http://www.youtube.com/${KITCHEN.handle}`,
        },
      },
    },
    comment: 'browse Videos tab of @sandboxkitchen: pageHeaderViewModel (verified), channelMetadataRenderer, three lockupViewModels and a continuation — shape of posts-channel-videos-creativecommons.har#0',
  },
  {
    url: api('browse'),
    body: { context: webContext(), continuation: postsTok },
    answer: { ...ctxResp(), onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: P2.map(lockup), targetId: `browse-feed${KITCHEN.id}videos102` } }] },
    comment: 'browse continuation of the Videos tab: the last page — shape of posts-channel-videos-creativecommons.har#1',
  },
]);

// ---- detail + comments of SbxKitchen1 ------------------------------------------------------------------------

const VID = 'SbxKitchen1';
const STREAM = `https://rr1---sn-sbx0000.googlevideo.com/videoplayback?expire=1780888920&ei=sandbox&ip=203.0.113.7&id=o-sandbox-${VID}&itag=18&source=youtube&requiressl=yes&mime=video%2Fmp4&dur=754.123&c=ANDROID&txp=5538434&sig=AJfQdSsandbox`;
const VIDEO_DETAILS = {
  videoId: VID,
  title: 'One-pan lemon chicken in 12 minutes',
  lengthSeconds: '754',
  channelId: KITCHEN.id,
  isOwnerViewing: false,
  shortDescription: 'Lemon, garlic, thighs, one pan.\nIngredients in the pinned comment.',
  isCrawlable: true,
  thumbnail: { thumbnails: [{ url: ytimg(VID, 'default'), width: 120, height: 90 }, { url: ytimg(VID, 'hqdefault'), width: 480, height: 360 }, { url: ytimg(VID, 'maxresdefault'), width: 1280, height: 720 }] },
  allowRatings: true,
  viewCount: '48213',
  author: KITCHEN.name,
  isPrivate: false,
  isUnpluggedCorpus: false,
  isLiveContent: false,
};
const commentsTok = token(`comments-section-${VID}`);
const visitorAnswer = (v: string) => ({ responseContext: { visitorData: v, serviceTrackingParams: [] } });
const reel = (id: string, player: unknown, comment: string): Ex => ({
  url: gapi('reel/reel_item_watch', `&t=SbxT0k3n0001&id=${id}&$fields=playerResponse`),
  body: { context: androidContext('CgtTYnhBbmRyb2lkKICAgIAG'), playerRequest: { videoId: id, cpn: 'SbxCpn0000000001', contentCheckOk: true, racyCheckOk: true }, disablePlayerResponse: false },
  reqHeaders: ANDROID_HEADERS,
  answer: player === undefined ? {} : { playerResponse: player },
  comment,
});
const playerCtx = { responseContext: { serviceTrackingParams: [{ service: 'CSI', params: [{ key: 'c', value: 'ANDROID' }, { key: 'cver', value: '21.03.36' }] }] } };

write(`detail-${VID}.har`, [
  {
    url: gapi('visitor_id'),
    body: { context: androidContext() },
    reqHeaders: ANDROID_HEADERS,
    answer: visitorAnswer('CgtTYnhBbmRyb2lkKICAgIAG'),
    comment: 'ANDROID visitor_id on youtubei.googleapis.com — shape of detail-watch-tjz2u2DiveM.har#0',
  },
  reel(VID, {
    ...playerCtx,
    playabilityStatus: { status: 'OK', playableInEmbed: true },
    streamingData: {
      expiresInSeconds: '21540',
      formats: [{
        itag: 18, url: STREAM, mimeType: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"', bitrate: 503111, width: 640, height: 360,
        lastModified: '1773500000000000', quality: 'medium', fps: 30, qualityLabel: '360p', projectionType: 'RECTANGULAR',
        audioQuality: 'AUDIO_QUALITY_LOW', approxDurationMs: '754123', audioSampleRate: '44100', audioChannels: 2,
      }],
      adaptiveFormats: [{
        itag: 136, url: STREAM.replace('itag=18', 'itag=136'), mimeType: 'video/mp4; codecs="avc1.4d401f"', bitrate: 1500000, width: 1280, height: 720,
        quality: 'hd720', fps: 30, qualityLabel: '720p', approxDurationMs: '754080',
      }],
    },
    videoDetails: VIDEO_DETAILS,
  }, `ANDROID reel_item_watch for ${VID}: playability OK, one progressive format (itag 18) with a direct URL — shape of detail-watch-tjz2u2DiveM.har#1`),
  {
    url: api('visitor_id'),
    body: { context: webContext(true) },
    answer: visitorAnswer('CgtTYnhXZWIwMDAxKICAgIAG'),
    comment: 'WEB visitor_id on www.youtube.com — shape of detail-watch-tjz2u2DiveM.har#2',
  },
  {
    url: api('player', '&$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId'),
    body: { context: webContext(true, 'CgtTYnhXZWIwMDAxKICAgIAG'), videoId: VID, contentCheckOk: true, racyCheckOk: true },
    answer: {
      videoDetails: { videoId: VID, thumbnail: VIDEO_DETAILS.thumbnail },
      microformat: {
        playerMicroformatRenderer: {
          thumbnail: { thumbnails: [{ url: ytimg(VID, 'maxresdefault'), width: 1280, height: 720 }] },
          embed: { iframeUrl: `${WEB}/embed/${VID}`, width: 1280, height: 720 },
          title: { simpleText: VIDEO_DETAILS.title },
          description: { simpleText: VIDEO_DETAILS.shortDescription },
          lengthSeconds: '754',
          ownerProfileUrl: `http://www.youtube.com/${KITCHEN.handle}`,
          externalChannelId: KITCHEN.id,
          isFamilySafe: true,
          isUnlisted: false,
          hasYpcMetadata: false,
          viewCount: '48213',
          category: 'Howto & Style',
          publishDate: '2026-03-14T09:30:00-07:00',
          ownerChannelName: KITCHEN.name,
          uploadDate: '2026-03-14T09:30:00-07:00',
          externalVideoId: VID,
          likeCount: '2315',
          canonicalUrl: `${WEB}/watch?v=${VID}`,
        },
      },
    },
    comment: `WEB metadata player ($fields microformat) for ${VID}: publishDate, likeCount, ownerProfileUrl — shape of detail-watch-tjz2u2DiveM.har#3`,
  },
  {
    url: api('next'),
    body: { context: webContext(), videoId: VID, contentCheckOk: true, racyCheckOk: true },
    answer: {
      ...ctxResp(),
      contents: {
        twoColumnWatchNextResults: {
          results: {
            results: {
              contents: [
                {
                  videoPrimaryInfoRenderer: {
                    title: runs(VIDEO_DETAILS.title),
                    viewCount: { videoViewCountRenderer: { viewCount: { simpleText: '48,213 views' }, shortViewCount: { simpleText: '48k views' } } },
                    videoActions: {
                      menuRenderer: {
                        topLevelButtons: [{
                          segmentedLikeDislikeButtonViewModel: {
                            likeButtonViewModel: { likeButtonViewModel: { toggleButtonViewModel: { toggleButtonViewModel: {
                              defaultButtonViewModel: { buttonViewModel: { iconName: 'LIKE', title: '2.3k', accessibilityText: 'like this video along with 2,315 other people' } },
                            } } } },
                          },
                        }],
                      },
                    },
                    dateText: { simpleText: '14 Mar 2026' },
                    relativeDateText: { simpleText: '2 months ago' },
                  },
                },
                {
                  videoSecondaryInfoRenderer: {
                    owner: {
                      videoOwnerRenderer: {
                        thumbnail: { thumbnails: [{ url: avatar(KITCHEN, 48), width: 48, height: 48 }] },
                        title: byline(KITCHEN),
                        navigationEndpoint: { browseEndpoint: { browseId: KITCHEN.id, canonicalBaseUrl: `/${KITCHEN.handle}` } },
                        subscriberCountText: { simpleText: '1.2M subscribers' },
                      },
                    },
                  },
                },
                {
                  itemSectionRenderer: {
                    contents: [contItem(commentsTok, 'CONTINUATION_REQUEST_TYPE_WATCH_NEXT', '/youtubei/v1/next')],
                    sectionIdentifier: 'comment-item-section',
                    targetId: 'comments-section',
                  },
                },
              ],
            },
          },
        },
      },
      engagementPanels: [{
        engagementPanelSectionListRenderer: {
          panelIdentifier: 'engagement-panel-comments-section',
          header: { engagementPanelTitleHeaderRenderer: { title: runs('Comments'), contextualInfo: runs('5') } },
          targetId: 'engagement-panel-comments-section',
        },
      }],
    },
    comment: `WEB next (watch page) for ${VID}: likes, date, owner, comment count, comment section continuation — shape of detail-watch-tjz2u2DiveM.har#4`,
  },
]);

interface C { id: string; text: string; by: Channel | { id: string; handle: string }; ago: string; likes: string; replies?: string }
const key = (id: string) => Buffer.from(`\x12${String.fromCharCode(id.length)}${id} (\x28\x01`).toString('base64').replace(/=/g, '%3D');
const viewModel = (c: C) => ({ commentViewModel: { commentKey: key(c.id), commentId: c.id, toolbarStateKey: key(`${c.id}.state`), inlineRepliesKey: 'empty_inline_replies' } });
const entity = (c: C, level: number) => ({
  entityKey: key(c.id),
  type: 'ENTITY_MUTATION_TYPE_REPLACE',
  payload: {
    commentEntityPayload: {
      key: key(c.id),
      properties: { commentId: c.id, content: { content: c.text }, publishedTime: c.ago, replyLevel: level, authorButtonA11y: c.by.handle },
      author: { channelId: c.by.id, displayName: c.by.handle, avatarThumbnailUrl: `https://yt3.ggpht.com/sandbox-${c.by.handle.slice(1)}=s88-c-k-c0x00ffffff-no-rj`, isVerified: false, isCurrentUser: false, isCreator: c.by.id === KITCHEN.id },
      toolbar: { likeCountLiked: c.likes, likeCountNotliked: c.likes, replyCount: c.replies ?? '', likeCountA11y: `${c.likes || 0} likes`, replyCountA11y: `${c.replies || 0} replies` },
    },
  },
});
const T: C[] = [
  { id: 'UgzSbxPinnedComment0001', text: 'Ingredients: 6 thighs, 2 lemons, 1 head of garlic, thyme.', by: KITCHEN, ago: '2 months ago', likes: '1.2k', replies: '2' },
  { id: 'UgxSbxQuestionComment002', text: 'Can I use breasts instead of thighs?', by: { id: 'UCSandboxViewerA00000000', handle: '@homecook_ana' }, ago: '1 month ago', likes: '34' },
  { id: 'UgySbxThanksComment00003', text: 'Made it tonight, family loved it', by: { id: 'UCSandboxViewerB00000000', handle: '@dad_in_kitchen' }, ago: '3 days ago', likes: '' },
];
const R: C[] = [
  { id: 'UgzSbxPinnedComment0001.SbxReply00001', text: 'Saving this!', by: { id: 'UCSandboxViewerC00000000', handle: '@mealprepmia' }, ago: '2 months ago', likes: '12' },
  { id: 'UgzSbxPinnedComment0001.SbxReply00002', text: '@mealprepmia same', by: { id: 'UCSandboxViewerA00000000', handle: '@homecook_ana' }, ago: '7 weeks ago', likes: '3' },
];
const repliesTok = token(`comment-replies-item-${T[0].id}`);

write(`comments-${VID}.har`, [
  {
    url: api('next'),
    body: { context: webContext(), continuation: commentsTok },
    answer: {
      ...ctxResp(),
      onResponseReceivedEndpoints: [
        { reloadContinuationItemsCommand: { targetId: 'comments-section', continuationItems: [{ commentsHeaderRenderer: { countText: { runs: [{ text: '5' }, { text: ' Comments' }] }, commentsCount: runs('5') } }], slot: 'RELOAD_CONTINUATION_SLOT_HEADER' } },
        {
          reloadContinuationItemsCommand: {
            targetId: 'comments-section',
            continuationItems: T.map((c, i) => ({
              commentThreadRenderer: {
                ...(i === 0
                  ? { replies: { commentRepliesRenderer: { contents: [contItem(repliesTok, 'CONTINUATION_REQUEST_TYPE_WATCH_NEXT', '/youtubei/v1/next')], viewReplies: { buttonRenderer: { text: runs('2 replies') } }, targetId: `comment-replies-item-${c.id}` } } }
                  : {}),
                renderingPriority: i === 0 ? 'RENDERING_PRIORITY_PINNED_COMMENT' : 'RENDERING_PRIORITY_UNKNOWN',
                commentViewModel: viewModel(c),
              },
            })),
            slot: 'RELOAD_CONTINUATION_SLOT_BODY',
          },
        },
      ],
      frameworkUpdates: { entityBatchUpdate: { mutations: T.map((c) => entity(c, 0)) } },
    },
    comment: `comment section of ${VID}: header (5 comments) and three threads as commentViewModel + commentEntityPayload mutations, the pinned one with a replies continuation; no further page — shape of comments-video-xaQJbozY_Is.har#1`,
  },
  {
    url: api('next'),
    body: { context: webContext(), continuation: repliesTok },
    answer: {
      ...ctxResp(),
      onResponseReceivedEndpoints: [{ appendContinuationItemsAction: { continuationItems: R.map((c) => viewModel(c)), targetId: `comment-replies-item-${T[0].id}` } }],
      frameworkUpdates: { entityBatchUpdate: { mutations: R.map((c) => entity(c, 1)) } },
    },
    comment: `replies to the pinned comment of ${VID}: two commentViewModels, no "Show more replies" — shape of replies-comment-xaQJbozY_Is.har`,
  },
]);

// Older answers (still served to some sessions) carry commentRenderer objects instead of entity payloads.
const LEGACY = 'SbxLegacyCm';
const legacyTok = token(`comments-section-${LEGACY}`);
const legacyRepliesTok = token(`comment-replies-item-UgwSbxLegacyThread0001`);
const commentRenderer = (id: string, handle: string, channelId: string, textValue: string, ago: string, votes: string, replyCount?: number) => ({
  commentRenderer: {
    authorText: { simpleText: handle },
    authorThumbnail: { thumbnails: [{ url: `https://yt3.ggpht.com/sandbox-${handle.slice(1)}=s48-c-k-c0x00ffffff-no-rj`, width: 48, height: 48 }] },
    authorEndpoint: { browseEndpoint: { browseId: channelId, canonicalBaseUrl: `/${handle}` } },
    contentText: { runs: [{ text: textValue }] },
    publishedTimeText: { runs: [{ text: ago }] },
    isLiked: false,
    commentId: id,
    voteCount: { simpleText: votes },
    ...(replyCount ? { replyCount } : {}),
  },
});
write(`comments-legacy-${LEGACY}.har`, [
  {
    url: api('next'),
    body: { context: webContext(), videoId: LEGACY },
    answer: {
      ...ctxResp(),
      contents: { twoColumnWatchNextResults: { results: { results: { contents: [
        { videoPrimaryInfoRenderer: { title: runs('Old upload with the classic comment renderer'), dateText: { simpleText: '2 Feb 2019' } } },
        { itemSectionRenderer: { contents: [contItem(legacyTok, 'CONTINUATION_REQUEST_TYPE_WATCH_NEXT', '/youtubei/v1/next')], sectionIdentifier: 'comment-item-section' } },
      ] } } } },
    },
    comment: `watch page of ${LEGACY}: the comment section continuation — shape of comments-video-xaQJbozY_Is.har#0`,
  },
  {
    url: api('next'),
    body: { context: webContext(), continuation: legacyTok },
    answer: {
      ...ctxResp(),
      onResponseReceivedEndpoints: [
        { reloadContinuationItemsCommand: { targetId: 'comments-section', continuationItems: [{ commentsHeaderRenderer: { countText: { runs: [{ text: '3' }, { text: ' Comments' }] } } }], slot: 'RELOAD_CONTINUATION_SLOT_HEADER' } },
        {
          reloadContinuationItemsCommand: {
            targetId: 'comments-section',
            slot: 'RELOAD_CONTINUATION_SLOT_BODY',
            continuationItems: [
              {
                commentThreadRenderer: {
                  comment: commentRenderer('UgwSbxLegacyThread0001', '@oldtimer', 'UCSandboxOldTimer0000000', 'Still the best video on this', '7 years ago', '45', 1),
                  replies: { commentRepliesRenderer: { contents: [contItem(legacyRepliesTok, 'CONTINUATION_REQUEST_TYPE_WATCH_NEXT', '/youtubei/v1/next')] } },
                },
              },
              { commentThreadRenderer: { comment: commentRenderer('UgwSbxLegacyThread0002', '@newcomer', 'UCSandboxNewcomer0000000', 'Who is here in 2026?', '1 week ago', '') } },
            ],
          },
        },
      ],
    },
    comment: `comment threads of ${LEGACY} in the older commentThreadRenderer.comment.commentRenderer shape`,
  },
  {
    url: api('next'),
    body: { context: webContext(), continuation: legacyRepliesTok },
    answer: {
      ...ctxResp(),
      onResponseReceivedEndpoints: [{ appendContinuationItemsAction: { continuationItems: [commentRenderer('UgwSbxLegacyThread0001.SbxOldReply1', '@sbxfan', 'UCSandboxFan000000000000', 'Agreed', '6 years ago', '2')] } }],
    },
    comment: `the reply page of the first ${LEGACY} thread, as a bare commentRenderer`,
  },
]);

write('comments-off-SbxNoComms1.har', [
  {
    url: api('next'),
    body: { context: webContext(), videoId: 'SbxNoComms1' },
    answer: {
      ...ctxResp(),
      contents: { twoColumnWatchNextResults: { results: { results: { contents: [
        { videoPrimaryInfoRenderer: { title: runs('Comments are off on this one'), dateText: { simpleText: '1 May 2026' } } },
        { itemSectionRenderer: { contents: [{ messageRenderer: { text: { runs: [{ text: 'Comments are turned off. ' }, { text: 'Learn more' }] } } }], sectionIdentifier: 'comment-item-section' } },
      ] } } } },
    },
    comment: 'watch page whose comment section says "Comments are turned off." (an honest empty comments answer)',
  },
]);

// ---- detail outcomes -----------------------------------------------------------------------------------------

const status = (s: J, details?: J) => ({ ...playerCtx, playabilityStatus: s, ...(details ? { videoDetails: details } : {}) });
write('error-bot-check-SbxBotCheck.har', [
  reel('SbxBotCheck', status({
    status: 'LOGIN_REQUIRED',
    reason: 'Sign in to confirm you’re not a bot',
    errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: 'Sign in to confirm you’re not a bot' }, subreason: { runs: [{ text: 'This helps protect our community. ' }, { text: 'Learn more' }] } } },
  }), 'reel_item_watch answering the bot check (LOGIN_REQUIRED "Sign in to confirm you’re not a bot"); no real recording of one exists'),
]);
write('error-age-gate-SbxAgeGate1.har', [
  reel('SbxAgeGate1', status({
    status: 'LOGIN_REQUIRED',
    reason: 'Sign in to confirm your age',
    messages: ['This video may be inappropriate for some users.'],
  }), 'reel_item_watch for an age-restricted video (LOGIN_REQUIRED "Sign in to confirm your age")'),
]);
write('error-nonexistent-SbxNoSuchVd.har', [
  reel('SbxNoSuchVd', undefined, 'reel_item_watch for an id that names no video: the 2-byte body {} (documented in the fixtures README, NewPipe notavailable/nonexistent mocks)'),
]);
write('error-removed-SbxRemoved1.har', [
  reel('SbxRemoved1', status({ status: 'ERROR', reason: 'This video has been removed by the uploader' }), 'reel_item_watch for a removed video (status ERROR)'),
]);
write('error-try-later-SbxTryLater.har', [
  reel('SbxTryLater', status({ status: 'UNPLAYABLE', reason: "This content isn't available, try again later." }), "reel_item_watch throttling the session (UNPLAYABLE \"This content isn't available, try again later.\")"),
]);
write('detail-upcoming-SbxLiveSoon.har', [
  reel('SbxLiveSoon', status(
    { status: 'LIVE_STREAM_OFFLINE', reason: 'This live event will begin in 3 days.', playableInEmbed: true },
    { ...VIDEO_DETAILS, videoId: 'SbxLiveSoon', title: 'Sunday roast — live cook-along', lengthSeconds: '0', viewCount: '0', isLiveContent: true, isUpcoming: true },
  ), 'reel_item_watch for a scheduled live stream (LIVE_STREAM_OFFLINE, videoDetails, no streamingData)'),
]);

// ---- gaming trending (hot / trending) --------------------------------------------------------------------------

const grid = (v: V) => ({
  gridVideoRenderer: {
    videoId: v.id,
    thumbnail: { thumbnails: [{ url: ytimg(v.id, 'hqdefault'), width: 168, height: 94 }, { url: ytimg(v.id, 'hqdefault_2'), width: 336, height: 188 }] },
    title: { runs: [{ text: v.title }] },
    publishedTimeText: { simpleText: v.ago },
    viewCountText: { simpleText: v.views },
    navigationEndpoint: { watchEndpoint: { videoId: v.id } },
    shortBylineText: byline(v.channel),
    thumbnailOverlays: [{ thumbnailOverlayTimeStatusRenderer: { text: { simpleText: v.length }, style: 'DEFAULT' } }],
    shortViewCountText: { simpleText: v.views.replace(/,\d{3}(?=[^,]*$)/, 'k') },
  },
});
const G: V[] = [
  { id: 'SbxGaming01', title: 'Any% world record, frame by frame', channel: SPEEDRUN, length: '24:10', views: '2,104,552 views', ago: '14 hours ago' },
  { id: 'SbxGaming02', title: 'I built a castle in one stream', channel: STREAMER, length: '3:12:40', views: '811,090 views', ago: '1 day ago' },
  { id: 'SbxGaming03', title: 'Patch notes, explained', channel: STREAMER, length: '11:58', views: '96,410 views', ago: '20 hours ago' },
];
const gaming: Ex = {
  url: api('browse'),
  body: { context: webContext(), browseId: 'UCOpNcN46UbXVtpKMrmU4Abg', params: 'Egh0cmVuZGluZw%3D%3D' },
  answer: {
    ...ctxResp(),
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [{
          tabRenderer: {
            selected: true,
            content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ shelfRenderer: { title: runs('Trending videos'), content: { gridRenderer: { items: G.map(grid), isCollapsible: false } } } }] } }] } },
          },
        }],
      },
    },
    header: { pageHeaderRenderer: { pageTitle: 'Gaming', content: { pageHeaderViewModel: { title: { dynamicTextViewModel: { text: { content: 'Gaming' } } } } } } },
  },
  comment: 'browse of the Gaming destination\'s trending tab: a "Trending videos" shelf of three gridVideoRenderers — shape of trending-gaming.har',
};
write('hot-gaming.har', [gaming]);
write('trending-retired-fetrending.har', [
  {
    url: api('browse'),
    body: { context: webContext(), browseId: 'FEtrending', params: '4gIOGgxtb3N0X3BvcHVsYXI%3D' },
    status: 400,
    statusText: 'Bad Request',
    answer: { error: { code: 400, message: 'Request contains an invalid argument.', errors: [{ message: 'Request contains an invalid argument.', domain: 'global', reason: 'badRequest' }], status: 'INVALID_ARGUMENT' } },
    comment: 'the retired general trending page (browse FEtrending) answering 400 INVALID_ARGUMENT — same answer as error-trending-invalid-argument.har',
  },
]);
