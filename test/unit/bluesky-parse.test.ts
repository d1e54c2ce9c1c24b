import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  feedToDrafts,
  flattenReplies,
  isoSeconds,
  nextCursor,
  postKey,
  postToDraft,
  postsToDrafts,
  profileToAuthor,
  threadFromV2,
  threadKind,
  trendingTopics,
  visualOf,
} from '../../src/platforms/bluesky/parse.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bluesky');
const SANDBOX = resolve(process.cwd(), 'sandbox/bluesky');
const body = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);

const mkbhd = body(resolve(FIXTURES, 'posts-author-feed-mkbhd.har'));
const thread = body(resolve(FIXTURES, 'detail-post-thread-3kaheyt6vpc22.har'));
const follows = body(resolve(FIXTURES, 'user-follows-test.marshal.dev.har'));

describe('postToDraft on the recorded author feed', () => {
  it('a plain text post', () => {
    expect(postToDraft(mkbhd.feed[0].post)).toEqual({
      native_id: 'did:plc:ys5aypbbeqmwn42edy5t3sho/3lsy4fwoq6s23',
      type: 'text',
      text: '2025 is 50% over 🫣',
      author: 'Marques Brownlee',
      author_id: 'did:plc:ys5aypbbeqmwn42edy5t3sho',
      author_handle: 'mkbhd.com',
      url: 'https://bsky.app/profile/mkbhd.com/post/3lsy4fwoq6s23',
      thumb: undefined,
      media: [],
      ts: 1751455850,
      aspect: undefined,
      stats: { likes: 418, comments: 20, shares: 24 },
    });
  });

  it('images: fullsize as media with the aspect ratio, the first thumbnail as cover', () => {
    const d = postToDraft(mkbhd.feed[2].post)!;
    const view = mkbhd.feed[2].post.embed.images;
    expect(d.type).toBe('image');
    expect(d.media).toEqual(view.map((i: any) => ({ kind: 'image', url: i.fullsize, w: i.aspectRatio.width, h: i.aspectRatio.height })));
    expect(d.thumb).toBe(view[0].thumb);
    expect(d.aspect).toEqual({ width: view[0].aspectRatio.width, height: view[0].aspectRatio.height });
  });

  it('video: the HLS playlist is the media, the thumbnail the cover', () => {
    const d = postToDraft(mkbhd.feed[15].post)!;
    expect(d).toMatchObject({
      type: 'video',
      thumb: mkbhd.feed[15].post.embed.thumbnail,
      aspect: { width: 4096, height: 2048 },
      media: [{ kind: 'video', url: mkbhd.feed[15].post.embed.playlist, w: 4096, h: 2048 }],
    });
    expect(d.duration_s).toBeUndefined();
  });

  it('every recorded post parses, with a unique native id', () => {
    const drafts = feedToDrafts(mkbhd.feed, true);
    expect(drafts).toHaveLength(30);
    expect(new Set(drafts.map((d) => d.native_id)).size).toBe(30);
  });
});

describe('embeds', () => {
  it('recordWithMedia: the post\'s own images (the recorded thread), no aspect when the view has none', () => {
    expect(visualOf(thread.thread.post.embed)).toEqual({
      type: 'image',
      media: [{ kind: 'image', url: thread.thread.post.embed.media.images[0].fullsize }],
      thumb: thread.thread.post.embed.media.images[0].thumb,
      aspect: undefined,
    });
  });

  it('recordWithMedia with a video', () => {
    const v = visualOf({
      $type: 'app.bsky.embed.recordWithMedia#view',
      record: { record: { $type: 'app.bsky.embed.record#viewRecord' } },
      media: { $type: 'app.bsky.embed.video#view', playlist: 'https://video.bsky.app/watch/x/y/playlist.m3u8', thumbnail: 'https://video.bsky.app/watch/x/y/thumbnail.jpg' },
    });
    expect(v).toEqual({ type: 'video', media: [{ kind: 'video', url: 'https://video.bsky.app/watch/x/y/playlist.m3u8' }], thumb: 'https://video.bsky.app/watch/x/y/thumbnail.jpg', aspect: undefined });
  });

  it('a quote of a post with media takes none of it', () => {
    expect(visualOf(mkbhd.feed[11].post.embed)).toEqual({ type: 'text', media: [] });
  });

  it('a link card lends its thumbnail, or nothing', () => {
    expect(visualOf(mkbhd.feed[3].post.embed)).toEqual({ type: 'text', media: [], thumb: mkbhd.feed[3].post.embed.external.thumb });
    expect(visualOf({ $type: 'app.bsky.embed.external#view', external: { uri: 'https://x.test' } })).toEqual({ type: 'text', media: [], thumb: undefined });
  });

  it('a gallery (app.bsky.embed.gallery#view): every item at full size, the first thumbnail as cover', () => {
    const gallery = {
      $type: 'app.bsky.embed.gallery#view',
      items: [
        { $type: 'app.bsky.embed.gallery#viewImage', thumbnail: 'https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:g/a', fullsize: 'https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:g/a', aspectRatio: { width: 40, height: 30 } },
        { $type: 'app.bsky.embed.gallery#viewImage', thumbnail: 'https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:g/b', fullsize: 'https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:g/b' },
        { $type: 'app.bsky.embed.gallery#viewImage', thumbnail: 'https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:g/c' },
      ],
    };
    expect(visualOf(gallery)).toEqual({
      type: 'image',
      media: [
        { kind: 'image', url: 'https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:g/a', w: 40, h: 30 },
        { kind: 'image', url: 'https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:g/b' },
      ],
      thumb: 'https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:g/a',
      aspect: { width: 40, height: 30 },
    });
    expect(visualOf({ $type: 'app.bsky.embed.recordWithMedia#view', media: gallery }).media).toHaveLength(2);
    expect(visualOf({ $type: 'app.bsky.embed.gallery#view', items: [] }).type).toBe('text');
  });

  it('broken or unknown embeds are text', () => {
    for (const e of [undefined, null, 1, 'x', {}, { $type: 'app.bsky.embed.images#view' }, { $type: 'app.bsky.embed.images#view', images: [{ thumb: 't' }] }, { $type: 'app.bsky.embed.video#view' }, { $type: 'x.y#view' }]) {
      expect(visualOf(e).type).toBe('text');
    }
  });
});

describe('feeds', () => {
  const sandboxFeed = body(resolve(SANDBOX, 'posts-author-feed-bsky.app.har'));

  it('an author feed leaves out reposts of others and keeps the author\'s replies', () => {
    const all = feedToDrafts(sandboxFeed.feed);
    const own = feedToDrafts(sandboxFeed.feed, true);
    expect(all).toHaveLength(5);
    expect(own).toHaveLength(4);
    expect(own.every((d) => d.author_handle === 'bsky.app')).toBe(true);
    expect(own.map((d) => d.text)).toContain('@alice-demo.bsky.social love this! Feeds for every niche.');
  });

  it('the cursor continues only a non-empty page', () => {
    expect(nextCursor(mkbhd, mkbhd.feed)).toBe('2025-01-09T16:54:06.992Z');
    expect(nextCursor({ cursor: 'x' }, [])).toBeUndefined();
    expect(nextCursor({}, [1])).toBeUndefined();
    expect(nextCursor({ cursor: '' }, [1])).toBeUndefined();
  });

  it('skips entries without a usable post', () => {
    expect(feedToDrafts([null, {}, { post: {} }, { post: { uri: 'not-at' } }, { post: { uri: 'at://handle.test/app.bsky.feed.post/x' } }])).toEqual([]);
    expect(postsToDrafts('nope')).toEqual([]);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        feedToDrafts(v);
        feedToDrafts([{ post: v }], true);
        postToDraft(v);
        flattenReplies(v);
        profileToAuthor(v);
        trendingTopics(v);
        visualOf(v);
      }),
    );
  });
});

describe('fallbacks for missing fields', () => {
  it('no displayName: the handle; handle.invalid: the DID in URLs; no createdAt: the TID', () => {
    const d = postToDraft({
      uri: 'at://did:plc:abc/app.bsky.feed.post/3lsy4fwoq6s23',
      author: { did: 'did:plc:abc', handle: 'handle.invalid' },
      record: { text: 'x' },
    })!;
    expect(d).toMatchObject({ author: undefined, author_handle: undefined, author_id: 'did:plc:abc', url: 'https://bsky.app/profile/did:plc:abc/post/3lsy4fwoq6s23', ts: 1751455850, stats: {} });
    expect(postToDraft({ uri: 'at://did:plc:abc/app.bsky.feed.post/self', author: { handle: 'a.test' }, indexedAt: '2024-01-01T00:00:00Z' })).toMatchObject({ author: 'a.test', ts: 1704067200 });
  });

  it('isoSeconds and postKey', () => {
    expect(isoSeconds('2023-09-28T12:49:36.735Z')).toBe(1695905376);
    expect(isoSeconds('garbage')).toBeUndefined();
    expect(postKey({ uri: 'at://did:plc:abc/app.bsky.feed.post/r' })).toEqual({ did: 'did:plc:abc', rkey: 'r', uri: 'at://did:plc:abc/app.bsky.feed.post/r' });
  });
});

describe('threads', () => {
  const tree = body(resolve(SANDBOX, 'comments-post-thread-bsky.app-3lbaafjknk22b.har')).thread;

  it('kinds of thread roots', () => {
    expect(threadKind(thread.thread)).toBe('post');
    expect(threadKind({ $type: 'app.bsky.feed.defs#notFoundPost', uri: 'at://x', notFound: true })).toBe('notFound');
    expect(threadKind({ $type: 'app.bsky.feed.defs#blockedPost', uri: 'at://x', blocked: true })).toBe('blocked');
    expect(threadKind({})).toBe('unknown');
    expect(threadKind(undefined)).toBe('unknown');
  });

  it('the recorded thread has no replies', () => {
    expect(flattenReplies(thread.thread)).toEqual({ comments: [], cutOff: 0 });
  });

  it('depth-first with parent ids; not-found and blocked replies skipped', () => {
    const { comments, cutOff } = flattenReplies(tree);
    expect(cutOff).toBe(0);
    expect(comments.map((c) => [c.text, c.parent_id ? comments.findIndex((p) => p.cid === c.parent_id) : -1])).toEqual([
      ['This is so much clearer than the docs!', -1],
      ['Agreed. Is there a list of feeds somewhere?', 0],
      ['The Explore tab has one.', 1],
      ['+1', 0],
      ['Can we get captions on these?', -1],
    ]);
    expect(comments.every((c) => c.source === 'bluesky' && c.cid.startsWith('at://did:plc:'))).toBe(true);
  });

  it('getPostThreadV2 lists become the same tree: parents above the anchor dropped, a blocked branch kept as blocked', () => {
    const p = (uri: string) => ({ $type: 'app.bsky.unspecced.defs#threadItemPost', post: { uri, record: { text: uri.slice(-2) } } });
    const t = threadFromV2({
      thread: [
        { uri: 'at://did:plc:u/app.bsky.feed.post/up', depth: -1, value: p('at://did:plc:u/app.bsky.feed.post/up') },
        { uri: 'at://did:plc:a/app.bsky.feed.post/aa', depth: 0, value: p('at://did:plc:a/app.bsky.feed.post/aa') },
        { uri: 'at://did:plc:b/app.bsky.feed.post/bb', depth: 1, value: { $type: 'app.bsky.unspecced.defs#threadItemBlocked' } },
        { uri: 'at://did:plc:c/app.bsky.feed.post/cc', depth: 2, value: p('at://did:plc:c/app.bsky.feed.post/cc') },
        { uri: 'at://did:plc:d/app.bsky.feed.post/dd', depth: 1, value: p('at://did:plc:d/app.bsky.feed.post/dd') },
        { uri: 'at://did:plc:e/app.bsky.feed.post/ee', depth: 3, value: p('at://did:plc:e/app.bsky.feed.post/ee') },
      ],
    });
    expect(threadKind(t)).toBe('post');
    expect((t as any).post.uri).toBe('at://did:plc:a/app.bsky.feed.post/aa');
    expect((t as any).replies.map((r: any) => threadKind(r))).toEqual(['blocked', 'post']);
    expect(flattenReplies(t).comments.map((c) => c.text)).toEqual(['dd']);
    expect(threadFromV2({ thread: [] })).toBeUndefined();
    expect(threadFromV2(null)).toBeUndefined();
  });

  it('counts replies below the depth asked for', () => {
    const cut = { post: tree.post, replies: [{ ...tree.replies[0], replies: undefined }] };
    expect(flattenReplies(cut)).toMatchObject({ cutOff: 2 });
    expect(flattenReplies(cut).comments).toHaveLength(1);
  });
});

describe('profiles', () => {
  it('the recorded getFollows subject: no counts reported, so none given', () => {
    expect(profileToAuthor(follows.subject)).toEqual({
      id: 'did:plc:kvwvcn5iqfooopmyzvb4qzba',
      source: 'bluesky',
      handle: 'test.marshal.dev',
      name: 'Python SDK',
      bio: follows.subject.description,
      avatar: follows.subject.avatar,
      url: 'https://bsky.app/profile/test.marshal.dev',
    });
  });

  it('every recorded follow parses', () => {
    const authors = follows.follows.map(profileToAuthor);
    expect(authors).toHaveLength(6);
    expect(authors[0]).toMatchObject({ id: 'did:plc:vpkhqolt662uhesyj6nxm7ys', handle: 'why.bsky.team', name: 'Why' });
  });

  it('verification: valid status or trusted verifier is verified; none is not; absent stays absent', () => {
    const base = { did: 'did:plc:x', handle: 'x.test' };
    expect(profileToAuthor({ ...base, verification: { verifiedStatus: 'valid', trustedVerifierStatus: 'none' } })!.verified).toBe(true);
    expect(profileToAuthor({ ...base, verification: { verifiedStatus: 'none', trustedVerifierStatus: 'none' } })!.verified).toBe(false);
    expect('verified' in profileToAuthor(base)!).toBe(false);
    expect(profileToAuthor({ handle: 'x.test' })).toBeUndefined();
  });
});

describe('trending topics', () => {
  it('ranks topics, prefers displayName, resolves links against bsky.app, ignores the suggested menu', () => {
    expect(
      trendingTopics({
        topics: [{ topic: 'a', link: '/profile/trending.bsky.app/feed/1' }, { topic: '#b', displayName: 'B!', link: '/hashtag/b' }, { link: '/x' }, { topic: 'c' }],
        suggested: [{ topic: 'Popular with Friends', link: '/profile/bsky.app/feed/with-friends' }],
      }),
    ).toEqual([
      { word: 'a', source: 'bluesky', rank: 1, url: 'https://bsky.app/profile/trending.bsky.app/feed/1' },
      { word: 'B!', source: 'bluesky', rank: 2, url: 'https://bsky.app/hashtag/b' },
      { word: 'c', source: 'bluesky', rank: 3 },
    ]);
  });
});
