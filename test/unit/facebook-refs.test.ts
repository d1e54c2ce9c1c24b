import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleFromHref, parsePageRef, parsePostRef, postRefFromUrl, postUrl, profileIdFromHref, shortLink, type PostRef } from '../../src/platforms/facebook/refs.js';
import { ROUTES } from '../../src/platforms/facebook/api.js';

const postId = fc.bigInt({ min: 10n ** 13n, max: 10n ** 17n - 1n }).map(String);
const pfbid = fc.stringMatching(/^[0-9A-Za-z]{20,60}$/).map((s) => `pfbid${s}`);
const handle = fc
  .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{2,20}$/), fc.constantFrom('', '.', '.page'))
  .map(([a, b]) => `${a}${b}`)
  .filter((h) => !['watch', 'groups', 'pages', 'people', 'reel', 'reels', 'events', 'photos', 'videos', 'posts', 'search', 'share', 'login', 'help', 'settings', 'stories', 'gaming', 'marketplace', 'hashtag', 'live', 'latest', 'media', 'business', 'ads', 'browse', 'comment', 'ajax', 'checkpoint', 'messages', 'notifications', 'friends', 'privacy', 'policies', 'plugins', 'sharer', 'photo', 'video', 'dialog', 'fundraisers', 'me', 'pg'].includes(h.toLowerCase()));
const host = fc.constantFrom('https://www.facebook.com', 'https://m.facebook.com', 'https://mbasic.facebook.com', 'https://web.facebook.com', 'https://facebook.com', 'http://www.facebook.com', 'm.facebook.com', 'www.facebook.com');
const slug = fc.stringMatching(/^[a-z][a-z0-9-]{2,40}$/);

describe('facebook post references', () => {
  it('every post link form on every host gives the post id (and the page where the link names it)', () => {
    fc.assert(
      fc.property(postId, handle, host, postId, (id, page, h, owner) => {
        expect(parsePostRef(id)).toEqual({ kind: 'post', id });
        expect(parsePostRef(`${h}/${page}/posts/${id}`)).toEqual({ kind: 'post', id, page });
        expect(parsePostRef(`${h}/${page}/posts/${id}/?comment_id=1&__tn__=R`)).toEqual({ kind: 'post', id, page });
        expect(parsePostRef(`${h}/${id}`)).toEqual({ kind: 'post', id });
        expect(parsePostRef(`${h}/permalink.php?story_fbid=${id}&id=${owner}`)).toEqual({ kind: 'story', id, owner });
        expect(parsePostRef(`${h}/story.php?story_fbid=${id}&id=${owner}&refsrc=x&_rdr`)).toEqual({ kind: 'story', id, owner });
        expect(parsePostRef(`${h}/groups/${page}/permalink/${id}/`)).toEqual({ kind: 'group', id, group: page });
        expect(parsePostRef(`${h}/groups/${owner}/posts/${id}`)).toEqual({ kind: 'group', id, group: owner });
        expect(parsePostRef(`${h}/photo.php?fbid=${id}&set=a.1&type=3`)).toEqual({ kind: 'photo', id });
        expect(parsePostRef(`${h}/${page}/photos/a.${owner}/${id}/?type=3`)).toEqual({ kind: 'photo', id, path: `/${page}/photos/a.${owner}/${id}/` });
        expect(parsePostRef(`${h}/${page}/photos/pcb.${owner}/${id}`)).toEqual({ kind: 'photo', id, path: `/${page}/photos/pcb.${owner}/${id}/` });
      }),
    );
  });

  it('every video link form gives the video id', () => {
    fc.assert(
      fc.property(postId, handle, host, slug, (id, page, h, s) => {
        expect(parsePostRef(`${h}/watch/?v=${id}`)).toEqual({ kind: 'video', id });
        expect(parsePostRef(`${h}/watch?v=${id}&ref=sharing`)).toEqual({ kind: 'video', id });
        expect(parsePostRef(`${h}/video.php?v=${id}`)).toEqual({ kind: 'video', id });
        expect(parsePostRef(`${h}/reel/${id}`)).toEqual({ kind: 'video', id });
        expect(parsePostRef(`${h}/${page}/videos/${id}/`)).toEqual({ kind: 'video', id, page });
        expect(parsePostRef(`${h}/${page}/videos/${s}/${id}/?extid=SEO----`)).toEqual({ kind: 'video', id, page });
      }),
    );
  });

  it('opaque pfbid ids travel with their page or owner; alone they are refused with the forms that work', () => {
    fc.assert(
      fc.property(pfbid, handle, postId, (id, page, owner) => {
        expect(parsePostRef(`https://www.facebook.com/${page}/posts/${id}`)).toEqual({ kind: 'post', id, page });
        expect(parsePostRef(`https://www.facebook.com/story.php?story_fbid=${id}&id=${owner}`)).toEqual({ kind: 'story', id, owner });
        expect(() => parsePostRef(id)).toThrow(/opaque pfbid id/);
      }),
    );
  });

  it('short links stay short (their redirect is read later): fb.watch and /share/(p|v|r)/', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{6,14}$/), fc.constantFrom('p', 'v', 'r'), (code, k) => {
        expect(parsePostRef(`https://fb.watch/${code}/`)).toEqual({ kind: 'short', url: `https://fb.watch/${code}/` });
        expect(parsePostRef(`fb.watch/${code}`)).toEqual({ kind: 'short', url: `https://fb.watch/${code}/` });
        expect(parsePostRef(`https://www.facebook.com/share/${k}/${code}/`)).toEqual({ kind: 'short', url: `https://www.facebook.com/share/${k}/${code}/` });
      }),
    );
  });

  it('round trip: the www URL of a reference parses back to the same reference; the m. route names the same post', () => {
    const ref: fc.Arbitrary<Exclude<PostRef, { kind: 'short' }>> = fc.oneof(
      fc.record({ kind: fc.constant('post' as const), id: postId, page: handle }),
      fc.record({ kind: fc.constant('post' as const), id: postId }),
      fc.record({ kind: fc.constant('story' as const), id: postId, owner: postId }),
      fc.record({ kind: fc.constant('video' as const), id: postId, page: handle }),
      fc.record({ kind: fc.constant('video' as const), id: postId }),
      fc.record({ kind: fc.constant('photo' as const), id: postId }),
      fc.tuple(postId, handle, postId).map(([id, page, album]) => ({ kind: 'photo' as const, id, path: `/${page}/photos/a.${album}/${id}/` })),
      fc.record({ kind: fc.constant('group' as const), id: postId, group: handle }),
    );
    fc.assert(
      fc.property(ref, (r) => {
        expect(postRefFromUrl(new URL(postUrl(r)))).toEqual(r);
        const m = new URL(ROUTES.post(r));
        expect(m.hostname).toBe('m.facebook.com');
        const back = postRefFromUrl(m);
        expect(back?.id).toBe(r.id);
      }),
    );
  });

  it('refuses other sites and junk, naming the accepted forms', () => {
    expect(() => parsePostRef('')).toThrow(/required/);
    expect(() => parsePostRef('https://www.instagram.com/p/Cabc/')).toThrow(/not a facebook post reference.*fb\.watch/);
    expect(() => parsePostRef('https://evil.example/Nintendo/posts/4193752747375813')).toThrow(/not a facebook post/);
    expect(() => parsePostRef('https://www.facebook.com/Nintendo')).toThrow(/not a facebook post/);
    expect(() => parsePostRef('https://www.facebook.com/watch/?v=abc')).toThrow(/not a facebook post/);
    expect(postRefFromUrl(new URL('https://notfacebook.com/Nintendo/posts/1234567'))).toBeUndefined();
    expect(shortLink(new URL('https://fb.watch/'))).toBeUndefined();
    expect(shortLink(new URL('https://evilfb.watch/abcdef/'))).toBeUndefined();
  });
});

describe('facebook page references', () => {
  it('every page form gives the page; profiles and groups are told apart', () => {
    fc.assert(
      fc.property(handle, postId, host, (page, id, h) => {
        expect(parsePageRef(page)).toEqual({ kind: 'page', page });
        expect(parsePageRef(`@${page}`)).toEqual({ kind: 'page', page });
        expect(parsePageRef(id)).toEqual({ kind: 'page', page: id });
        expect(parsePageRef(`${h}/${page}`)).toEqual({ kind: 'page', page });
        expect(parsePageRef(`${h}/${page}/posts/?ref=page_internal`)).toEqual({ kind: 'page', page });
        expect(parsePageRef(`${h}/pg/${page}/posts/`)).toEqual({ kind: 'page', page });
        expect(parsePageRef(`${h}/pages/Some-Name/${id}`)).toEqual({ kind: 'page', page: id });
        expect(parsePageRef(`${h}/profile.php?id=${id}`)).toEqual({ kind: 'profile', id });
        expect(parsePageRef(`${h}/people/Some-Name/${id}/`)).toEqual({ kind: 'profile', id });
        expect(parsePageRef(`${h}/groups/${page}/`)).toEqual({ kind: 'group', group: page });
      }),
    );
  });
  it('the m. timeline route of each kind', () => {
    expect(ROUTES.timeline({ kind: 'page', page: 'Nintendo' })).toBe('https://m.facebook.com/Nintendo/posts/');
    expect(ROUTES.timeline({ kind: 'profile', id: '4' })).toBe('https://m.facebook.com/profile.php?id=4');
    expect(ROUTES.timeline({ kind: 'group', group: '117507531664134' })).toBe('https://m.facebook.com/groups/117507531664134/');
  });
  it('refuses facebook routes and other sites', () => {
    expect(() => parsePageRef('')).toThrow(/required/);
    expect(() => parsePageRef('watch')).toThrow(/not a facebook page/);
    expect(() => parsePageRef('www.facebook.com')).toThrow(/not a facebook page/);
    expect(() => parsePageRef('https://fb.watch/abcdef/')).toThrow(/not a facebook page/);
    expect(() => parsePageRef('https://twitter.com/Nintendo')).toThrow(/not a facebook page/);
    expect(() => parsePageRef('https://www.facebook.com/watch/?v=1')).toThrow(/not a facebook page/);
  });
  it('handles and profile ids in links', () => {
    expect(handleFromHref('/Nintendo/?__tn__=C-R')).toBe('Nintendo');
    expect(handleFromHref('https://www.facebook.com/tyler.n.nix')).toBe('tyler.n.nix');
    expect(handleFromHref('/profile.php?id=100008324983460')).toBeUndefined();
    expect(handleFromHref('/story.php?story_fbid=1&id=2')).toBeUndefined();
    expect(handleFromHref('https://evil.example/Nintendo')).toBeUndefined();
    expect(profileIdFromHref('https://www.facebook.com/profile.php?id=100008324983460')).toBe('100008324983460');
    expect(profileIdFromHref('/119240841493711/')).toBe('119240841493711');
    expect(profileIdFromHref('/Nintendo/')).toBeUndefined();
  });
});
