import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostMatches } from '../../src/crawl/http.js';
import { Registry } from '../../src/platforms/registry.js';
import { FIXTURES, SANDBOX } from '../helpers/run-action.js';
import { resolveDownload } from '../helpers/resolve-download.js';

/*
 * Every URL a plan names (derived ones too: xiaohongshu originals, reddit audio tracks and i.redd.it
 * originals, tieba /forum/pic/item/, pinterest /originals/) must sit on a CDN the platform declares: the
 * core refuses anything else before a byte goes out.
 */
const CASES: Array<{ source: string; query: string; replay: string[]; cookies?: string }> = [
  { source: 'xiaohongshu', query: 'https://www.xiaohongshu.com/explore/6745c0a2000000001e01f2a2?xsec_token=ABsbxN2videoToken0123456789abcdefGHIJKLmno_-%3D', replay: [resolve(SANDBOX, 'xiaohongshu/detail-feed-video.har')], cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530' },
  { source: 'xiaohongshu', query: 'https://www.xiaohongshu.com/explore/66696f98000000000d00f289?xsec_token=ABZ-_OXhUoJXvDZeOemUyk6oifaI3tE-Q_HaTaQUyDRb4=&xsec_source=pc_search', replay: [resolve(FIXTURES, 'xiaohongshu/detail-feed-66696f98000000000d00f289.har')], cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530' },
  { source: 'reddit', query: 'https://www.reddit.com/comments/1kq7v2a', replay: [resolve(SANDBOX, 'reddit/detail-video-1kq7v2a.har')] },
  { source: 'reddit', query: 'https://www.reddit.com/comments/1kq6m0c', replay: [resolve(SANDBOX, 'reddit/detail-gallery-1kq6m0c.har')] },
  { source: 'tieba', query: '9117905169', replay: [resolve(FIXTURES, 'tieba/detail-thread-9117905169.har')] },
  { source: 'pinterest', query: '672584525610478245', replay: [resolve(FIXTURES, 'pinterest/detail-pin-672584525610478245.har')] },
  { source: 'facebook', query: 'https://www.facebook.com/Nintendo/posts/4193752747375813', replay: [resolve(FIXTURES, 'facebook/detail-video-nintendo-286348296528911.har')] },
  { source: 'twitter', query: 'https://x.com/TheFigen_/status/1671508600538161153', replay: [resolve(FIXTURES, 'twitter/detail-tweet-with-video-1671508600538161153.har')], cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' },
  { source: 'instagram', query: 'https://www.instagram.com/jlo/p/CAnqPB-Jzcj/', replay: [resolve(FIXTURES, 'instagram/detail-media-a1-CAnqPB-Jzcj.har')], cookies: 'sessionid=52418700001%3AsbxSession%3A12; csrftoken=SbxWriterCsrf0001; ds_user_id=52418700001' },
  { source: 'kuaishou', query: '3xp4tq7wz3hb5ca', replay: [resolve(SANDBOX, 'kuaishou/detail-share-page-3xp4tq7wz3hb5ca.har')] },
  { source: 'weibo', query: 'https://m.weibo.cn/detail/4645748019299849', replay: [resolve(FIXTURES, 'weibo/detail-statuses-show-4645748019299849.har')] },
  { source: 'zhihu', query: 'zvideo:1600000000000000001', replay: [resolve(SANDBOX, 'zhihu/detail-zvideo-1600000000000000001.har')] },
  { source: 'toutiao', query: 'https://www.toutiao.com/video/7505382061495176511/', replay: [resolve(SANDBOX, 'toutiao/detail-video.har'), resolve(SANDBOX, 'toutiao/ttwid-register.har')] },
  { source: 'telegram', query: 't.me/s/anna_news/46908', replay: [resolve(FIXTURES, 'telegram/detail-message-photo-and-video-anna_news-46908.har')] },
  { source: 'bluesky', query: 'at://did:plc:kvwvcn5iqfooopmyzvb4qzba/app.bsky.feed.post/3kaheyt6vpc22', replay: [resolve(FIXTURES, 'bluesky/detail-post-thread-3kaheyt6vpc22.har')] },
];

describe('download plans name only the platform\'s declared media hosts', () => {
  const registry = new Registry();
  it.each(CASES.map((c) => [`${c.source} ${c.query.slice(-40)}`, c] as const))('%s', async (_, c) => {
    const { plan } = await resolveDownload({ source: c.source, params: { query: c.query }, replay: c.replay, session: c.cookies ? { cookies: c.cookies } : undefined });
    const hosts = registry.get(c.source)!.mediaHosts;
    const urls = plan.slots.flatMap((s) => s.candidates.flatMap((x) => [x.url, x.audio_url].filter((u): u is string => !!u)));
    expect(urls.length).toBeGreaterThan(0);
    for (const u of urls) expect(hostMatches(new URL(u).hostname, hosts), u).toBe(true);
  });
});
