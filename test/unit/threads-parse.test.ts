import { describe, expect, it } from 'vitest';
import { appNext, postPageOf, profileFeedOf, userRecordOf } from '../../src/platforms/threads/answers.js';
import { authorOf, postOf, postToComment, postToDraft, threadPosts, userCard } from '../../src/platforms/threads/parse.js';

const user = { pk: '7', username: 'ana', full_name: 'Ana' };

describe('threads post records', () => {
  it('a record without pk still has one from its code; one with neither is no post', () => {
    expect(postOf({ code: 'CuXRXDdNOtH', user })?.pk).toBe('3141055616164096839');
    expect(postOf({ id: '3141055616164096839_95561' })?.code).toBe('CuXRXDdNOtH');
    expect(postOf({ caption: { text: 'x' } })).toBeUndefined();
    expect(postOf('nope')).toBeUndefined();
    expect(postOf({ code: 'not a code!' })).toBeUndefined();
  });
  it('a rounded JSON number is not taken as an id (the id string or the code is)', () => {
    expect(postOf({ pk: 3143857175171939857, id: '3143857175171939857_314216' })?.pk).toBe('3143857175171939857');
  });
  it('text: the caption, else the 2026 text fragments', () => {
    expect(postOf({ pk: '1', caption: null, text_post_app_info: { text_fragments: { fragments: [{ fragment_type: 'plaintext', plaintext: 'hi ' }, { fragment_type: 'mention', plaintext: '@bo' }] } } })?.text).toBe('hi @bo');
  });
  it('hidden counts are absent, not 0; reposts are shares', () => {
    const d = postToDraft(postOf({ pk: '1', user, like_count: 0, like_and_view_counts_disabled: true, text_post_app_info: { direct_reply_count: 4, repost_count: 2 } })!);
    expect(d.stats).toEqual({ comments: 4, shares: 2 });
  });
  it('a repost stands for the post it shares', () => {
    const p = postOf({ pk: '1', user, caption: null, text_post_app_info: { share_info: { reposted_post: { pk: '2', code: 'B', user: { pk: '9', username: 'bo' }, caption: { text: 'original' } } } } })!;
    expect(p).toMatchObject({ pk: '2', text: 'original', user: { handle: 'bo' } });
  });
  it('a video without video_versions but a video_url; the cover is the thumb', () => {
    const d = postToDraft(postOf({ pk: '1', user, video_url: 'https://scontent.cdninstagram.com/v.mp4', image_versions2: { candidates: [{ url: 'https://scontent.cdninstagram.com/c.jpg', width: 10, height: 20 }] }, original_width: 1080, original_height: 1920 })!);
    expect(d).toMatchObject({ type: 'video', thumb: 'https://scontent.cdninstagram.com/c.jpg', media: [{ kind: 'video', url: 'https://scontent.cdninstagram.com/v.mp4', w: 1080, h: 1920 }] });
  });
  it('a text post with the 612×612 placeholder has no media and no aspect', () => {
    const d = postToDraft(postOf({ pk: '1', user, original_width: 612, original_height: 612, image_versions2: { candidates: [] }, video_versions: [] })!);
    expect(d).toMatchObject({ type: 'text', media: [] });
    expect(d.aspect).toBeUndefined();
  });
  it('a post without an author links to /t/<code>; its comment names nobody but stays a comment', () => {
    const p = postOf({ pk: '3141055616164096839' })!;
    expect(postToDraft(p).url).toBe('https://www.threads.com/t/CuXRXDdNOtH');
    expect(postToComment(p, '5')).toMatchObject({ cid: '3141055616164096839', text: '', user_id: '', handle: '', likes: 0, reply_total: 0, parent_id: '5' });
  });
  it('unavailable posts are flagged', () => {
    expect(postOf({ pk: '1', text_post_app_info: { is_post_unavailable: true } })?.unavailable).toBe(true);
  });
  it('thread rows: web edges, app rows and bare posts', () => {
    expect(threadPosts({ node: { thread_items: [{ post: { pk: '1' } }, { post: { pk: '2' } }] } }).map((p) => p.pk)).toEqual(['1', '2']);
    expect(threadPosts({ thread_items: [{ post: { pk: '3' } }] }).map((p) => p.pk)).toEqual(['3']);
    expect(threadPosts({ pk: '4', code: 'E' }).map((p) => p.pk)).toEqual(['4']);
    expect(threadPosts({ post: { pk: '5' } }).map((p) => p.pk)).toEqual(['5']);
  });
});

describe('threads user records', () => {
  it('an author needs an id; bio from text_app_biography when biography is empty; the HD avatar first', () => {
    expect(authorOf({ username: 'x' })).toBeNull();
    expect(authorOf({ pk: '1', username: 'x', biography: '', text_app_biography: { text_fragments: { fragments: [{ plaintext: 'bio' }] } }, hd_profile_pic_url_info: { url: 'https://scontent.cdninstagram.com/hd.jpg' }, profile_pic_url: 'https://scontent.cdninstagram.com/s.jpg' })).toMatchObject({
      id: '1',
      bio: 'bio',
      avatar: 'https://scontent.cdninstagram.com/hd.jpg',
    });
  });
  it('search cards leave out accounts that never joined Threads', () => {
    expect(userCard({ pk: 1, username: 'a', has_onboarded_to_text_post_app: false })).toBeUndefined();
    expect(userCard({ pk: 1, username: 'a', is_active_on_text_post_app: false })).toBeUndefined();
    expect(userCard({ pk: 1, username: 'a' })).toMatchObject({ native_id: '@a', type: 'text', url: 'https://www.threads.com/@a' });
  });
});

describe('threads envelopes', () => {
  const edge = (pk: string) => ({ node: { thread_items: [{ post: { pk } }] }, cursor: `c${pk}` });
  it('post page 2026: the focal thread is the one holding the post; a later page is replies only', () => {
    const first = postPageOf({ data: { data: { edges: [edge('9'), edge('10')], page_info: { has_next_page: true, end_cursor: 'N' } } } }, '9', true)!;
    expect(first.focal.map((p) => p.pk)).toEqual(['9']);
    expect(first.replies.map((t) => t[0]!.pk)).toEqual(['10']);
    expect(first.next).toBe('N');
    const later = postPageOf({ data: { data: { edges: [edge('11'), edge('12')], page_info: { has_next_page: false } } } }, '9', false)!;
    expect(later.focal).toEqual([]);
    expect(later.replies).toHaveLength(2);
    expect(later.next).toBeUndefined();
    expect(postPageOf({ data: { data: { edges: [] } } }, '9', true)).toBeUndefined();
    expect(postPageOf({ data: { data: null } }, '9', true)).toBeUndefined();
  });
  it('post page 2023 and app: containing_thread + reply_threads; the app pages by paging_tokens.downwards', () => {
    expect(postPageOf({ data: { data: { containing_thread: null, reply_threads: [] } } }, '9', true)).toBeUndefined();
    const app = postPageOf({ containing_thread: { thread_items: [{ post: { pk: '9' } }] }, reply_threads: [{ thread_items: [{ post: { pk: '10' } }] }], paging_tokens: { downwards: 'D' } }, '9', true)!;
    expect(app.next).toBe('D');
  });
  it('app next tokens: has_more / more_available false end the walk even with a token echoed', () => {
    expect(appNext({ next_max_id: 'M' })).toBe('M');
    expect(appNext({ next_max_id: 'M', more_available: false })).toBeUndefined();
    expect(appNext({ page_token: 'P', has_more: false })).toBeUndefined();
    expect(appNext({})).toBeUndefined();
  });
  it('profiles: an unknown envelope is no page; users: null means none, absence means another shape', () => {
    expect(profileFeedOf({ data: { something: [] } })).toBeUndefined();
    expect(profileFeedOf({ items: [], next_max_id: 'M' })).toEqual({ rows: [], next: 'M' });
    expect(userRecordOf({ data: { user: null } })).toBeNull();
    expect(userRecordOf({ data: { userData: { user: null } } })).toBeNull();
    expect(userRecordOf({ data: {} })).toBeUndefined();
    expect(userRecordOf({ user: { pk: 1 } })).toEqual({ pk: 1 });
  });
});
