import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../src/crawl/errors.js';
import {
  accountToAuthor,
  cleanUrl,
  commentListing,
  commentToDraft,
  continuedReplies,
  flattenThings,
  flattenTree,
  listingOf,
  postOf,
  postToDraft,
  postsOf,
  writeData,
  writeErrors,
} from '../../src/platforms/reddit/parse.js';
import { reddit } from '../../src/platforms/reddit/index.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/reddit');
const SANDBOX = resolve(process.cwd(), 'sandbox/reddit');
const body = (file: string, i: number, dir = FIXTURES): any =>
  JSON.parse(JSON.parse(readFileSync(resolve(dir, file), 'utf8')).log.entries[i].response.content.text);

const hot = body('hot-popular.har', 1);
const hotPosts = hot.data.children.map((c: any) => c.data);
const byId = (id: string): any => hotPosts.find((p: any) => p.id === id);

const inMediaHosts = (u: string): boolean => {
  const h = new URL(u).hostname;
  return reddit.mediaHosts.some((p) => (p.startsWith('.') ? h.endsWith(p) : h === p));
};

describe('listings', () => {
  it('reads the Listing envelope and its after cursor', () => {
    const l = listingOf(hot, 'hot');
    expect(l.children).toHaveLength(100);
    expect(l.after).toBe('t3_1skbyfv');
    expect(listingOf(body('search-all-praw.har', 1), 'search').after).toBeUndefined();
    expect(listingOf(body('error-empty-info-listing.har', 1), 'info')).toEqual({ children: [], after: undefined });
  });

  it('anything but a Listing is a parse error, never an empty page', () => {
    expect(() => listingOf({ message: 'Forbidden', error: 403 }, 'x')).toThrow(ParseError);
    expect(() => listingOf([], 'x')).toThrow(ParseError);
    expect(() => listingOf({ kind: 't2', data: {} }, 'x')).toThrow(ParseError);
    expect(() => listingOf(null, 'x')).toThrow(ParseError);
  });
});

describe('posts (t3) from r/popular (2026 recording)', () => {
  const drafts = postsOf(listingOf(hot, 'hot'));

  it('drafts every post, ids and raw numbers as reddit reports them', () => {
    expect(drafts).toHaveLength(100);
    drafts.forEach((d, i) => {
      const p = hotPosts[i];
      expect(d.native_id).toBe(p.id);
      expect(d.title).toBe(p.title);
      expect(d.ts).toBe(p.created_utc);
      expect(d.url).toBe(`https://www.reddit.com${p.permalink}`);
      expect(d.author).toBe(p.author);
      expect(d.author_handle).toBe(p.author);
      expect(d.author_id).toBe(p.author_fullname.slice(3));
      expect(d.stats).toEqual({ likes: p.score, comments: p.num_comments, shares: p.num_crossposts, views: undefined });
    });
  });

  it('types follow the media: 24 v.redd.it videos, 1 embed, 14 galleries, 50 images, 11 text', () => {
    const count = (t: string) => drafts.filter((d) => d.type === t).length;
    expect(count('video')).toBe(25);
    expect(count('image')).toBe(64);
    expect(count('text')).toBe(11);
  });

  it('a v.redd.it post carries its fallback mp4 with size and duration', () => {
    const p = byId('1skl1i1');
    const rv = p.secure_media.reddit_video;
    const d = postToDraft(p)!;
    expect(d.type).toBe('video');
    expect(d.media).toEqual([{ kind: 'video', url: rv.fallback_url, w: 1080, h: 1920, duration_s: 147 }]);
    expect(rv.fallback_url).toBe('https://v.redd.it/dqm10oy4d0vg1/CMAF_1080.mp4?source=fallback');
    expect(d.duration_s).toBe(147);
    expect(d.aspect).toEqual({ width: 1080, height: 1920 });
    const r640 = p.preview.images[0].resolutions.find((r: any) => r.width === 640);
    expect(d.thumb).toBe(r640.url);
    expect(d.text).toBeUndefined();
  });

  it('a gallery lists every image in gallery_data order at full size', () => {
    const p = byId('1skh6dk');
    const d = postToDraft(p)!;
    expect(d.type).toBe('image');
    const expected = p.gallery_data.items.map((it: any) => {
      const s = p.media_metadata[it.media_id].s;
      return { kind: 'image', url: s.u, w: s.x, h: s.y };
    });
    expect(d.media).toEqual(expected);
    expect(d.media).toHaveLength(2);
    expect(d.aspect).toEqual({ width: 2160, height: 2160 });
    expect(d.thumb).toBe(p.media_metadata.l4qy0l5ppzug1.p.find((r: any) => r.x === 640).u);
    expect(d.text).toBe("I don't know who this is tbh I don't play Diablo but it looks cool");
  });

  it('an i.redd.it image is the original, sized by the preview source', () => {
    const p = byId('1skii2f');
    const d = postToDraft(p)!;
    expect(d.type).toBe('image');
    expect(d.media).toEqual([{ kind: 'image', url: 'https://i.redd.it/rrinwcmrxzug1.jpeg', w: 3024, h: 4032 }]);
    expect(d.aspect).toEqual({ width: 3024, height: 4032 });
    const gif = postToDraft(byId('1skbyfv'))!;
    expect(gif.media).toEqual([{ kind: 'image', url: 'https://i.redd.it/u7ld6zcktyug1.gif', w: 1152, h: 648 }]);
  });

  it('self posts are text with their body; link posts carry the link', () => {
    const self = postToDraft(byId('1sk894v'))!;
    expect(self).toMatchObject({ type: 'text', media: [], text: byId('1sk894v').selftext });
    expect(self.thumb).toBeUndefined();
    const link = postToDraft(byId('1skbgql'))!;
    expect(link.type).toBe('text');
    expect(link.text).toBe('https://www.themirror.com/news/us-news/breaking-trump-humiliation-judge-dismisses-1787238');
    expect(link.thumb).toMatch(/^https:\/\/external-preview\.redd\.it\/J111DtocQj8kTwi3iU380FS_6dXEXfYTXFNvyG1MXbA\.jpeg\?width=640&/);
  });

  it('an embedded player is a video post without a stream', () => {
    const d = postToDraft(byId('1skjxta'))!;
    expect(d.type).toBe('video');
    expect(d.media).toEqual([]);
    expect(d.duration_s).toBeUndefined();
    expect(d.thumb).toMatch(/^https:\/\/external-preview\.redd\.it\/qZIuPQ3/);
  });

  it('every media and thumb URL is on a host the media proxy allows', () => {
    for (const d of drafts) {
      for (const m of d.media ?? []) expect(inMediaHosts(m.url), m.url).toBe(true);
      if (d.thumb) expect(inMediaHosts(d.thumb), d.thumb).toBe(true);
    }
  });
});

describe('posts from 2016 listings', () => {
  it('u/spez submissions: no author_fullname then, thumbnails "self"/"default" are not pictures', () => {
    const drafts = postsOf(listingOf(body('posts-user-spez-submitted-new.har', 1), 'posts'));
    expect(drafts).toHaveLength(100);
    expect(drafts[0]).toMatchObject({ native_id: '434h6c', type: 'text', author: 'spez', title: 'Reddit in 2016', ts: 1454004343, stats: { likes: 2079, comments: 5771 } });
    expect(drafts[0].author_id).toBeUndefined();
    expect(drafts[0].thumb).toBeUndefined();
    const wiki = drafts[6];
    expect(wiki).toMatchObject({ native_id: '3dk1jh', type: 'text', text: 'https://en.wikipedia.org/wiki/Orville_Redenbacher?repost=true' });
    expect(wiki.thumb).toBeUndefined();
  });

  it('an imgur gifv (rich:video) keeps reddit-hosted previews only: http thumbnails become https', () => {
    const post: any = postOf(body('replies-morechildren-3hahrw.har', 1), 'detail');
    const d = postToDraft(post)!;
    expect(d.type).toBe('video');
    expect(d.media).toEqual([]);
    expect(d.thumb).toBe(post.preview.images[0].resolutions[3].url);
    expect(d.thumb).toMatch(/^https:\/\/i\.redditmedia\.com\//);
    expect(d.text).toBe('http://i.imgur.com/eoF76hj.gifv');
  });

  it('a deleted post has no author', () => {
    const d = postToDraft(postOf(body('write-delete-submission.har', 2), 'detail')!)!;
    expect(d).toMatchObject({ native_id: '4b1tfm', type: 'text', text: '[deleted]', title: 'A Test from PRAWCORE.' });
    expect(d.author).toBeUndefined();
    expect(d.author_handle).toBeUndefined();
  });
});

describe('URLs', () => {
  it('decodes &amp; (answers without raw_json=1) and moves reddit CDNs to https', () => {
    expect(cleanUrl('https://preview.redd.it/x.jpg?width=640&amp;crop=smart&amp;s=abc')).toBe('https://preview.redd.it/x.jpg?width=640&crop=smart&s=abc');
    expect(cleanUrl('http://b.thumbs.redditmedia.com/S_gf.jpg')).toBe('https://b.thumbs.redditmedia.com/S_gf.jpg');
    expect(cleanUrl('http://example.org/a')).toBe('http://example.org/a');
    expect(cleanUrl('//i.redd.it/a.png')).toBe('https://i.redd.it/a.png');
    for (const v of ['self', 'default', 'nsfw', 'spoiler', 'image', '', null, 3]) expect(cleanUrl(v)).toBeUndefined();
  });

  it('an escaped listing gives the same draft as the raw_json one', () => {
    const p = byId('1skh6dk');
    const escaped = JSON.parse(JSON.stringify(p).replace(/&/g, '&amp;'));
    expect(postToDraft(escaped)!.media).toEqual(postToDraft(p)!.media);
    const v = byId('1skl1i1');
    expect(postToDraft(JSON.parse(JSON.stringify(v).replace(/&/g, '&amp;')))!.thumb).toBe(postToDraft(v)!.thumb);
  });
});

describe('crossposts', () => {
  it('take the media of the original post', () => {
    const crosspost = body('detail-crosspost-1kq2t7g.har', 0, SANDBOX)[0].data.children[0].data;
    const d = postToDraft(crosspost)!;
    const rv = crosspost.crosspost_parent_list[0].secure_media.reddit_video;
    expect(d).toMatchObject({ native_id: '1kq2t7g', type: 'video', duration_s: rv.duration });
    expect(d.media).toEqual([{ kind: 'video', url: rv.fallback_url, w: rv.width, h: rv.height, duration_s: rv.duration }]);
  });

  it("a crosspost with no words of its own shows the original's self text or shared link", () => {
    const self = {
      id: 'xp1',
      title: 'shared along',
      selftext: '',
      is_self: false,
      url: 'https://www.reddit.com/r/somewhere/comments/orig1/original/',
      crosspost_parent: 't3_orig1',
      crosspost_parent_list: [{ id: 'orig1', is_self: true, selftext: 'the words of the original', url: 'https://www.reddit.com/r/somewhere/comments/orig1/original/' }],
    };
    expect(postToDraft(self)).toMatchObject({ native_id: 'xp1', type: 'text', text: 'the words of the original', media: [] });
    const link = { ...self, crosspost_parent_list: [{ id: 'orig1', is_self: false, selftext: '', url: 'https://example.org/story' }] };
    expect(postToDraft(link)!.text).toBe('https://example.org/story');
    // Its own words win over the original's.
    expect(postToDraft({ ...self, is_self: true, selftext: 'my comment on it' })!.text).toBe('my comment on it');
  });
});

describe('comment trees', () => {
  it('2gmzqe: a reply follows its parent and names it', () => {
    const raw = body('comments-submission-2gmzqe.har', 1);
    const flat = flattenTree(commentListing(raw, 'c').children, '2gmzqe');
    expect(flat.stubs).toEqual([]);
    expect(flat.comments).toEqual([
      {
        cid: 'cklfmye',
        text: raw[1].data.children[0].data.body,
        likes: 1,
        reply_total: 1,
        user_id: '',
        handle: 'paneer_burrito',
        user_name: 'paneer_burrito',
        created_at: 1411005112,
        source: 'reddit',
        url: 'https://www.reddit.com/comments/2gmzqe/_/cklfmye/',
      },
      {
        cid: 'cklhv0f',
        text: "Yes it does. That fix is also in the master branch, we just haven't made a release for it (and we probably won't until 3.0).",
        likes: 1,
        reply_total: 0,
        user_id: '',
        handle: 'bboe',
        user_name: 'bboe',
        created_at: 1411010034,
        source: 'reddit',
        url: 'https://www.reddit.com/comments/2gmzqe/_/cklhv0f/',
        parent_id: 'cklfmye',
      },
    ]);
  });

  it('3hahrw: 476 comments sent, 12 "load more" and 6 "continue this thread" stubs in reading order', () => {
    const raw = body('replies-morechildren-3hahrw.har', 1);
    const flat = flattenTree(commentListing(raw, 'c').children, '3hahrw');
    expect(flat.comments).toHaveLength(476);
    expect(flat.stubs.filter((s) => 'children' in s)).toHaveLength(12);
    expect(flat.stubs.filter((s) => 'continueFrom' in s)).toHaveLength(6);
    expect(flat.stubs[0]).toEqual({ continueFrom: 'cu61zil' });
    expect(flat.stubs.at(-1)).toEqual({ children: ['cu5tt8h', 'cu5v9yd', 'cu5twf5', 'cu5tkk4', 'cu5tead', 'cu5rxpy', 'cu5oufs', 'cu5tpek', 'cu5pbdh'] });
    const seen = new Set<string>();
    for (const c of flat.comments) {
      if (c.parent_id) expect(seen.has(c.parent_id), c.cid).toBe(true);
      seen.add(c.cid);
    }
    const first = raw[1].data.children[0].data;
    expect(flat.comments[0]).toMatchObject({ cid: 'cu5pebp', likes: first.score, created_at: Math.trunc(first.created_utc), handle: 'johnnwho' });
    expect(flat.comments[0].parent_id).toBeUndefined();
    // cu5p1hh has seven replies sent and one more id behind "load more".
    expect(flat.comments.find((c) => c.cid === 'cu5p1hh')?.reply_total).toBe(8);
  });

  it('morechildren: a flat list put back in tree order', () => {
    const raw = body('replies-morechildren-3hahrw.har', 2);
    const flat = flattenThings(raw, '3hahrw', 'more');
    expect(flat.comments.map((c) => [c.cid, c.parent_id])).toEqual([
      ['cu5pg2h', 'cu5p1hh'],
      ['cu5pjjs', 'cu5pg2h'],
      ['cu5pr04', 'cu5pjjs'],
      ['cu5r2ne', 'cu5pr04'],
      ['cu5sb33', 'cu5r2ne'],
      ['cu5tau6', 'cu5sb33'],
      ['cu5tuyu', 'cu5sb33'],
      ['cu5t5yg', 'cu5pg2h'],
      ['cu5uv18', 'cu5pg2h'],
      ['cu5sy4c', 'cu5pg2h'],
      ['cu5sy4l', 'cu5pg2h'],
    ]);
    expect(flat.comments[0].reply_total).toBe(5);
    const top = flattenThings(body('replies-morechildren-3hahrw.har', 4), '3hahrw', 'more');
    expect(top.comments).toHaveLength(7);
    expect(top.comments.every((c) => c.parent_id === undefined)).toBe(true);
  });

  it('morechildren answers out of order still put parents first', () => {
    const raw = body('replies-morechildren-3hahrw.har', 5);
    const things = [...raw.json.data.things].reverse();
    const flat = flattenThings({ json: { errors: [], data: { things } } }, '3hahrw', 'more');
    const seen = new Set<string>(['cu5t0tk']);
    for (const c of flat.comments) {
      expect(seen.has(c.parent_id!), c.cid).toBe(true);
      seen.add(c.cid);
    }
    expect(flat.comments).toHaveLength(6);
  });

  it('"continue this thread": the replies below the comment, not the comment again', () => {
    const flat = continuedReplies(body('replies-morechildren-3hahrw.har', 18), 'cu5w5nv', '3hahrw', 'cont');
    expect(flat.comments.map((c) => [c.cid, c.parent_id])).toEqual([
      ['cu5wf0c', 'cu5w5nv'],
      ['cu5wgsi', 'cu5wf0c'],
    ]);
    expect(continuedReplies(body('replies-morechildren-3hahrw.har', 18), 'nothere', '3hahrw', 'cont')).toEqual({ comments: [], stubs: [] });
  });

  it('a sandbox tree with permalinks and author ids', () => {
    const raw = body('comments-1kq4x1e.har', 0, SANDBOX);
    const flat = flattenTree(commentListing(raw, 'c').children, '1kq4x1e');
    expect(flat.comments.map((c) => c.cid)).toEqual(['lm4a001', 'lm4a002', 'lm4a003', 'lm4a004']);
    expect(flat.stubs).toEqual([{ continueFrom: 'lm4a003' }, { children: ['lm4a005', 'lm4a006'] }, { children: ['lm4a007', 'lm4a008'] }]);
    expect(flat.comments[0]).toMatchObject({ user_id: '9x2c4v6b', handle: 'lubed_linears', url: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/linear_vs_tactile_for_long_typing_sessions_looking/lm4a001/' });
    expect(flat.comments[2].reply_total).toBe(1);
    expect(flat.comments[3].reply_total).toBe(2);
  });

  it('a comment alone (detail on t1_) becomes a text item', () => {
    const created = body('write-comment-reply-submission.har', 1).json.data.things[0].data;
    expect(commentToDraft(created)).toEqual({
      native_id: 'd162ara',
      type: 'text',
      title: undefined,
      text: 'Test reply',
      author: '<USERNAME>',
      author_handle: '<USERNAME>',
      author_id: undefined,
      url: 'https://www.reddit.com/comments/4b1tfm/_/d162ara/',
      media: [],
      ts: 1458423567,
      stats: { likes: 1 },
    });
  });
});

describe('accounts (t2)', () => {
  it('/user/<name>/about', () => {
    expect(accountToAuthor(body('user-about-lil_spazbot.har', 1))).toEqual({
      id: '3ebyblla',
      source: 'reddit',
      handle: 'Lil_SpazBot',
      name: 'x',
      avatar: 'https://www.redditstatic.com/avatars/defaults/v2/avatar_default_6.png',
      url: 'https://www.reddit.com/user/Lil_SpazBot/',
      followers: 0,
      likes: 1,
      verified: true,
    });
  });

  it('/api/v1/me answers the account itself, without the t2 wrapper', () => {
    const me = body('user-about-lil_spazbot.har', 1).data;
    expect(accountToAuthor(me)?.handle).toBe('Lil_SpazBot');
    expect(accountToAuthor({ name: 'old', link_karma: 3, comment_karma: 4 })).toEqual({ id: 'old', source: 'reddit', handle: 'old', name: 'old', url: 'https://www.reddit.com/user/old/', likes: 7 });
    expect(accountToAuthor({})).toBeUndefined();
  });
});

describe('write answers', () => {
  it('json.errors and the 400 validation shape', () => {
    expect(writeErrors(body('write-submit-link-selftext.har', 1))).toEqual([]);
    expect(writeData(body('write-submit-link-selftext.har', 1))).toMatchObject({ id: '1kh35wk', name: 't3_1kh35wk' });
    expect(writeErrors({ json: { errors: [['SUBREDDIT_NOEXIST', "that community doesn't exist", 'sr']] } })).toEqual([
      { code: 'SUBREDDIT_NOEXIST', message: "that community doesn't exist", field: 'sr' },
    ]);
    expect(writeErrors({ fields: ['title'], explanation: 'Title is required', error_type: 'SUBMIT_VALIDATION_ERROR', message: 'Bad Request', reason: 'SUBMIT_VALIDATION_TITLE_REQUIRED' })).toEqual([
      { code: 'SUBMIT_VALIDATION_TITLE_REQUIRED', message: 'Title is required', field: 'title' },
    ]);
    expect(writeErrors({})).toEqual([]);
  });
});

describe('robustness', () => {
  it('never throws on arbitrary post, comment or account objects (property)', () => {
    const anything = fc.anything({ maxDepth: 3 });
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('id', 'title', 'preview', 'media', 'secure_media', 'media_metadata', 'gallery_data', 'url', 'selftext', 'author', 'crosspost_parent_list', 'replies', 'children', 'subreddit', 'parent_id', 'body'), anything), (o) => {
        postToDraft(o);
        commentToDraft(o);
        accountToAuthor(o);
        flattenTree([{ kind: 't1', data: o }, { kind: 'more', data: o }], 'x');
        writeErrors(o);
      }),
      { numRuns: 400 },
    );
  });

  it('a created_utc that is no unix time in range (1e300) leaves created_at unreported; a fractional one is truncated', () => {
    const at = (created_utc: unknown) => flattenTree([{ kind: 't1', data: { id: 'c1', body: 'x', created_utc } }], 'p').comments[0].created_at;
    expect([at(1e300), at(-1e300), at(1411005112.9), at('1411005112')]).toEqual([0, 0, 1411005112, 0]);
  });

  it('keeps a self post that lost everything but its id', () => {
    expect(postToDraft({ id: 'abc' })).toEqual({
      native_id: 'abc',
      type: 'text',
      title: undefined,
      text: undefined,
      url: 'https://www.reddit.com/comments/abc/',
      thumb: undefined,
      media: [],
      ts: undefined,
      duration_s: undefined,
      aspect: undefined,
      stats: { likes: undefined, comments: undefined, shares: undefined, views: undefined },
    });
    expect(postToDraft({ title: 'no id' })).toBeUndefined();
  });
});
