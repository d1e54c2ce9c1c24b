import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestMp4, conversationOf, cursorOf, entriesOf, pbsUrl, postCount, syndicationNode, timeOf, trendsOf, trendUrl, tweetNode, tweetText, tweetToDraft, userOf } from '../../src/platforms/twitter/parse.js';

const tweet = (over: Record<string, unknown> = {}, legacy: Record<string, unknown> = {}) => ({
  __typename: 'Tweet',
  rest_id: '2045936718443446274',
  core: { user_results: { result: { __typename: 'User', rest_id: '1580000000000000001', core: { screen_name: 'harborweather', name: 'Harbor Weather' } } } },
  legacy: { id_str: '2045936718443446274', full_text: 'hello', created_at: 'Sun Apr 19 18:45:00 +0000 2026', favorite_count: 1, reply_count: 2, retweet_count: 3, ...legacy },
  ...over,
});

describe('media URLs', () => {
  it.each([
    ['https://pbs.twimg.com/media/HMvMNUDXcAA3HY3.jpg', 'https://pbs.twimg.com/media/HMvMNUDXcAA3HY3?format=jpg&name=orig'],
    ['https://pbs.twimg.com/media/HMvMNUEXEAAuqM5.png', 'https://pbs.twimg.com/media/HMvMNUEXEAAuqM5?format=png&name=orig'],
    ['https://pbs.twimg.com/media/Abc?format=webp&name=small', 'https://pbs.twimg.com/media/Abc?format=webp&name=orig'],
    ['https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/x.jpg', 'https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/x?format=jpg&name=orig'],
    ['https://pbs.twimg.com/profile_images/1683501992314798080/xl1POYLw_normal.jpg', 'https://pbs.twimg.com/profile_images/1683501992314798080/xl1POYLw.jpg'],
    ['https://pbs.twimg.com/profile_banners/2244994945/1690213128', 'https://pbs.twimg.com/profile_banners/2244994945/1690213128'],
    ['https://video.twimg.com/tweet_video/x.mp4', 'https://video.twimg.com/tweet_video/x.mp4'],
    ['not a url', 'not a url'],
  ])('%s → %s', (from, to) => {
    expect(pbsUrl(from)).toBe(to);
  });

  it('the best mp4: highest bitrate, playlists skipped, GIF variants (bitrate 0) kept, syndication {src,type} read', () => {
    expect(bestMp4({ variants: [{ content_type: 'application/x-mpegURL', url: 'https://v/p.m3u8' }, { bitrate: 256000, content_type: 'video/mp4', url: 'https://v/a.mp4' }, { bitrate: 2176000, content_type: 'video/mp4', url: 'https://v/b.mp4' }] })).toEqual({ url: 'https://v/b.mp4', bitrate: 2176000 });
    expect(bestMp4({ variants: [{ bitrate: 0, content_type: 'video/mp4', url: 'https://v/gif.mp4' }] })?.url).toBe('https://v/gif.mp4');
    expect(bestMp4({ variants: [{ type: 'video/mp4', src: 'https://v/s.mp4' }] })?.url).toBe('https://v/s.mp4');
    expect(bestMp4({ variants: [{ content_type: 'application/x-mpegURL', url: 'https://v/p.m3u8' }] })).toBeUndefined();
    expect(bestMp4(undefined)).toBeUndefined();
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (rates) => {
      const best = bestMp4({ variants: rates.map((b, i) => ({ bitrate: b, content_type: 'video/mp4', url: `https://v/${i}.mp4` })) });
      expect(best!.bitrate).toBe(Math.max(...rates));
    }));
  });
});

describe('values', () => {
  it('times: X’s created_at and ISO', () => {
    expect(timeOf('Wed Jul 08 21:59:10 +0000 2026')).toBe(Date.UTC(2026, 6, 8, 21, 59, 10) / 1000);
    expect(timeOf('Tue Mar 21 20:50:14 +0000 2006')).toBe(1142974214);
    expect(timeOf('2026-04-16T15:40:00.000Z')).toBe(Date.UTC(2026, 3, 16, 15, 40) / 1000);
    expect(timeOf('soon')).toBeUndefined();
    expect(timeOf(undefined)).toBeUndefined();
  });

  it('post counts of trends', () => {
    expect(postCount('1,699 posts')).toBe(1699);
    expect(postCount('1 day ago · Sports · 152K posts')).toBe(152000);
    expect(postCount('2 days ago · Entertainment · 4M posts')).toBe(4_000_000);
    expect(postCount('12.4K posts')).toBe(12400);
    expect(postCount('3,180 Tweets')).toBe(3180);
    expect(postCount('Trending in Sports')).toBeUndefined();
  });

  it('trend links: the search deep link, the story deep link, a name', () => {
    expect(trendUrl('twitter://search/?query=%23Nets&src=trend_click', '#Nets')).toBe('https://x.com/search?q=%23Nets');
    expect(trendUrl('twitter://trending/2079212121376645555', 'x')).toBe('https://x.com/i/trending/2079212121376645555');
    expect(trendUrl(undefined, 'Spring tide')).toBe('https://x.com/search?q=Spring%20tide');
  });
});

describe('tweets', () => {
  it('a Tweet, one inside TweetWithVisibilityResults, a tombstone, an unavailable one, nothing', () => {
    expect(tweetNode(tweet())).toMatchObject({ kind: 'tweet' });
    expect(tweetNode({ __typename: 'TweetWithVisibilityResults', tweet: tweet() })).toMatchObject({ kind: 'tweet' });
    expect(tweetNode({ __typename: 'TweetTombstone', tombstone: { text: { text: 'This Post is from a suspended account. Learn more' } } })).toEqual({ kind: 'tombstone', text: 'This Post is from a suspended account.' });
    expect(tweetNode({ __typename: 'TweetUnavailable', reason: 'Protected' })).toEqual({ kind: 'unavailable', reason: 'Protected', message: undefined });
    expect(tweetNode({})).toBeUndefined();
    expect(tweetNode(null)).toBeUndefined();
  });

  it('text: the note tweet’s whole text, t.co links written out, media links and entities decoded', () => {
    const t = tweet({}, {
      full_text: 'Storm &amp; swell https://t.co/aaa https://t.co/media1',
      entities: { urls: [{ url: 'https://t.co/aaa', expanded_url: 'https://example.org/a' }], media: [{ url: 'https://t.co/media1' }] },
    });
    expect(tweetText(t)).toBe('Storm & swell https://example.org/a');
    const note = tweet({ note_tweet: { note_tweet_results: { result: { text: 'The whole long text https://t.co/n1', entity_set: { urls: [{ url: 'https://t.co/n1', expanded_url: 'https://n.example' }] } } } } });
    expect(tweetText(note)).toBe('The whole long text https://n.example');
  });

  it('a draft never throws on missing optional fields; stats X did not report stay absent', () => {
    const d = tweetToDraft({ __typename: 'Tweet', rest_id: '2045936718443446274', legacy: { id_str: '2045936718443446274' } })!;
    expect(d).toMatchObject({ native_id: '2045936718443446274', type: 'text', media: [], url: 'https://x.com/i/web/status/2045936718443446274' });
    expect(d.ts).toBe(Math.floor(Date.UTC(2026, 3, 19, 18, 45) / 1000));
    expect(d.stats).toEqual({ likes: undefined, comments: undefined, shares: undefined, views: undefined });
    expect(tweetToDraft({ legacy: {} })).toBeUndefined();
  });

  it('a repost is the reposted post', () => {
    const original = tweet({ rest_id: '2045000000000000001' }, { id_str: '2045000000000000001', full_text: 'original' });
    const rt = tweet({}, { full_text: 'RT @x: original', retweeted_status_result: { result: original } });
    expect(tweetToDraft(rt)).toMatchObject({ native_id: '2045000000000000001', text: 'original' });
  });

  it('a video with only an HLS playlist is a video post without a stream', () => {
    const hls = tweet({}, { extended_entities: { media: [{ type: 'video', media_url_https: 'https://pbs.twimg.com/amplify_video_thumb/1/img/t.jpg', video_info: { duration_millis: 5000, variants: [{ content_type: 'application/x-mpegURL', url: 'https://video.twimg.com/amplify_video/1/pl/p.m3u8' }] } }] } });
    expect(tweetToDraft(hls)).toMatchObject({ type: 'video', media: [], duration_s: 5, thumb: 'https://pbs.twimg.com/amplify_video_thumb/1/img/t?format=jpg&name=small' });
  });

  it('a GIF is a video (its one mp4); a photo post is an image; pictures at name=orig', () => {
    const gif = tweet({}, { extended_entities: { media: [{ type: 'animated_gif', media_url_https: 'https://pbs.twimg.com/tweet_video_thumb/F.jpg', original_info: { width: 300, height: 304 }, video_info: { variants: [{ bitrate: 0, content_type: 'video/mp4', url: 'https://video.twimg.com/tweet_video/F.mp4' }] } }] } });
    expect(tweetToDraft(gif)).toMatchObject({ type: 'video', media: [{ kind: 'video', url: 'https://video.twimg.com/tweet_video/F.mp4', w: 300, h: 304 }] });
    const pic = tweet({}, { extended_entities: { media: [{ type: 'photo', media_url_https: 'https://pbs.twimg.com/media/P.jpg' }] } });
    expect(tweetToDraft(pic)).toMatchObject({ type: 'image', media: [{ kind: 'image', url: 'https://pbs.twimg.com/media/P?format=jpg&name=orig' }], thumb: 'https://pbs.twimg.com/media/P?format=jpg&name=small' });
  });
});

describe('users', () => {
  it('the 2026 shape and the legacy one read alike', () => {
    const now = userOf({ __typename: 'User', rest_id: '12', core: { screen_name: 'jack', name: 'jack' }, avatar: { image_url: 'https://pbs.twimg.com/profile_images/1/a_normal.jpg' }, relationship_counts: { followers: 10, following: 3 }, tweet_counts: { tweets: 5 }, privacy: { protected: true } });
    const old = userOf({ __typename: 'User', rest_id: '12', legacy: { screen_name: 'jack', name: 'jack', profile_image_url_https: 'https://pbs.twimg.com/profile_images/1/a_normal.jpg', followers_count: 10, friends_count: 3, statuses_count: 5, protected: true } });
    expect(now).toEqual(old);
    expect(now).toMatchObject({ handle: 'jack', avatar: 'https://pbs.twimg.com/profile_images/1/a.jpg', followers: 10, following: 3, posts: 5, protected: true, verified: false });
    expect(userOf({ __typename: 'UserUnavailable', rest_id: '1' })).toBeUndefined();
    expect(userOf({ __typename: 'User' })).toBeUndefined();
  });
});

describe('timelines', () => {
  const item = (id: string, t: unknown) => ({ entryId: `tweet-${id}`, content: { __typename: 'TimelineTimelineItem', itemContent: { __typename: 'TimelineTweet', tweet_results: { result: t } } } });
  it('entries from added, pinned, replaced and module-added instructions; cursors by preference', () => {
    const ins = [
      { type: 'TimelinePinEntry', entry: item('1', tweet()) },
      { type: 'TimelineAddEntries', entries: [item('2', tweet()), { entryId: 'cursor-bottom-1', content: { __typename: 'TimelineTimelineCursor', cursorType: 'Bottom', value: 'B1' } }] },
      { type: 'TimelineReplaceEntry', entry: { entryId: 'cursor-top-1', content: { __typename: 'TimelineTimelineCursor', cursorType: 'Top', value: 'T1' } } },
      { type: 'TimelineAddToModule', moduleEntryId: 'conversationthread-9', moduleItems: [{ entryId: 'conversationthread-9-tweet-3', item: { itemContent: { __typename: 'TimelineTweet', tweet_results: { result: tweet() } } } }] },
    ];
    expect(entriesOf(ins).map((e) => [e.entryId, e.module])).toEqual([['tweet-1', undefined], ['tweet-2', undefined], ['cursor-bottom-1', undefined], ['cursor-top-1', undefined], ['conversationthread-9-tweet-3', 'conversationthread-9']]);
    expect(cursorOf(ins, 'ShowMoreThreads', 'Bottom')).toBe('B1');
    expect(cursorOf(ins, 'Gap')).toBeUndefined();
  });

  it('a conversation: ancestors before the focal post are not its replies', () => {
    const reply = (id: string, to: string) => tweet({ rest_id: id }, { id_str: id, in_reply_to_status_id_str: to });
    const ins = [{ type: 'TimelineAddEntries', entries: [item('2045000000000000001', reply('2045000000000000001', '2044000000000000000')), item('2045936718443446274', reply('2045936718443446274', '2045000000000000001')), { entryId: 'conversationthread-5', content: { __typename: 'TimelineTimelineModule', items: [{ entryId: 'conversationthread-5-tweet-2046000000000000005', item: { itemContent: { __typename: 'TimelineTweet', tweet_results: { result: reply('2046000000000000005', '2045936718443446274') } } } }] } }] }];
    const c = conversationOf(ins, '2045936718443446274');
    expect(c.focal).toMatchObject({ kind: 'tweet' });
    expect(c.replies.map((r) => [r.cid, r.parent_id])).toEqual([['2046000000000000005', undefined]]);
  });

  it('trends skip promoted ones and rank the rest', () => {
    const trend = (name: string, extra = {}) => ({ entryId: `trend-${name}`, content: { __typename: 'TimelineTimelineItem', itemContent: { __typename: 'TimelineTrend', name, trend_metadata: { meta_description: '5 posts' }, ...extra } } });
    const out = trendsOf([{ type: 'TimelineAddEntries', entries: [trend('a'), trend('ad', { promoted_metadata: {} }), trend('b')] }]);
    expect(out.map((t) => [t.word, t.rank, t.hot_value])).toEqual([['a', 1, 5], ['b', 2, 5]]);
  });
});

describe('the embed endpoint', () => {
  it('a tweet-result reads like a GraphQL tweet; a tombstone is one', () => {
    const node = syndicationNode({ __typename: 'Tweet', id_str: '2045936718443446274', text: 'hi', created_at: '2026-04-16T15:40:00.000Z', favorite_count: 7, conversation_count: 2, user: { id_str: '12', screen_name: 'jack', name: 'jack' }, mediaDetails: [{ type: 'video', media_url_https: 'https://pbs.twimg.com/x.jpg', video_info: { duration_millis: 1000, variants: [{ bitrate: 1, content_type: 'video/mp4', url: 'https://video.twimg.com/a.mp4' }] } }] });
    expect(node?.kind).toBe('tweet');
    const d = tweetToDraft((node as { tweet: Record<string, unknown> }).tweet)!;
    expect(d).toMatchObject({ native_id: '2045936718443446274', type: 'video', author_handle: 'jack', stats: { likes: 7, comments: 2 }, duration_s: 1, ts: Date.UTC(2026, 3, 16, 15, 40) / 1000 });
    expect(syndicationNode({ __typename: 'TweetTombstone', tombstone: { text: { text: 'gone' } } })).toEqual({ kind: 'tombstone', text: 'gone' });
    expect(syndicationNode({})).toBeUndefined();
  });
});
