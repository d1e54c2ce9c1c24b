import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CreatorResult, Envelope } from '../../src/domain/results.js';
import { pinterest } from '../../src/platforms/pinterest/index.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { decodeCursor } from '../../src/tasks/cursor.js';
import { probeCtx } from '../helpers/probe-ctx.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every pinterest recording, replayed through the real catalog validation, adapter and normalization. The real
 * ones (fixtures/pinterest) are two 2024 BaseSearchResource pages, a PinResource pin in a rebuilt envelope and
 * the hand-written 403 "Invalid Resource Request"; the hand-made sandbox (sandbox/pinterest) covers what no
 * real recording does: users, user and board feeds, related pins, video and idea pins, short links, errors.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/pinterest');
const SANDBOX = resolve(process.cwd(), 'sandbox/pinterest');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const body = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);
const recordedUrl = (file: string, i = 0): URL => new URL(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].request.url);
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;
const sent = (request: string): URL => new URL(request.slice(request.indexOf(' ') + 1));

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'pinterest', action, params, replay, ...extra });

/** A test-only hand-made answer in a temp HAR (for a request no recording of the case holds). */
function tempHar(url: string, answer: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pinterest-')), 'answer.har');
  const text = JSON.stringify(answer);
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [{ comment: 'hand-made test recording', request: { method: 'GET', url, headers: [] }, response: { status: 200, statusText: 'OK', headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text } } }] } }));
  return file;
}

describe('pinterest on real recordings', () => {
  it('search: the 2024 pins page gives its pins with originals, 736x covers, reactions and the bookmark', async () => {
    const file = real('search-pins-nature-aesthetic.har');
    const raw = body(file).resource_response.data.results;
    const { result, requests } = await run('search', { query: 'nature aesthetic', limit: 25 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.source).toBe('live');
    expect(env.items.map((i) => i.id)).toEqual(raw.map((p: any) => `pinterest:${p.id}`));
    const [first, second] = env.items;
    expect(first).toMatchObject({ type: 'image', author: 'Ellsah Hairani', author_handle: 'ellsahhairani', author_id: '298785893936934077', author_url: 'https://www.pinterest.com/ellsahhairani/', url: 'https://www.pinterest.com/pin/298785756542286548/', ts: Date.parse('Sun, 01 Jan 2023 04:25:28 +0000') / 1000 });
    expect(first!.title).toBeUndefined();
    expect(first!.text).toBeUndefined();
    expect(first!.stats).toEqual({ likes: 141 });
    expect(origin(first!.thumb!)).toBe(raw[0].images['736x'].url);
    expect(first!.media).toHaveLength(1);
    expect(origin(first!.media[0]!.url)).toBe(raw[0].images.orig.url);
    expect(first!.media[0]).toMatchObject({ kind: 'image', w: 736, h: 1308 });
    // A grid title stands in for an empty title; the description is the text.
    expect(second).toMatchObject({ title: raw[1].grid_title, text: raw[1].description, stats: { likes: 59 } });
    // The video pin: the 720p MP4 (V_EXP7's /720p/ path), not HLS and not the lower V_EXP tiers.
    const vIdx = raw.findIndex((p: any) => p.videos);
    const v = env.items[vIdx]!;
    expect(v.type).toBe('video');
    expect(v.duration_s).toBeCloseTo(14.166, 3);
    expect(v.media).toHaveLength(1);
    expect(new URL(v.media[0]!.url, 'http://x').searchParams.get('kind')).toBe('video');
    expect(origin(v.media[0]!.url)).toBe(raw[vIdx].videos.video_list.V_EXP7.url);
    expect(v.aspect).toEqual({ width: 1080, height: 1920 });
    // The pin the answer lists without any image keeps its metadata, with no media and no cover.
    const bare = env.items.find((i) => i.id === 'pinterest:19984792090590113')!;
    expect(bare).toMatchObject({ type: 'image', title: 'find peace outside', media: [] });
    expect(bare.thumb).toBeUndefined();
    // The request is the web's own: the same data param as recorded, the search page as source_url.
    const u = sent(requests[0]!);
    expect(requests[0]!.startsWith('GET ')).toBe(true);
    expect(u.searchParams.get('data')).toBe(recordedUrl(file).searchParams.get('data'));
    expect(u.searchParams.get('source_url')).toBe('/search/pins/?q=nature%20aesthetic&rs=typed');
    expect(env.next_cursor).toBeDefined();
  });

  it('search: next_cursor carries the bookmark; the follow-up page is a form POST answered by the recorded page', async () => {
    const first = real('search-pins-nature-aesthetic.har');
    const next = real('search-pins-next-page-bookmark.har');
    const page2 = body(next).resource_response.data.results;
    const memo = new MemoryMemo();
    const one = await run('search', { query: 'nature aesthetic', limit: 25 }, [first], { memo });
    expect(decodeCursor((one.result as Envelope).next_cursor).c).toBe(body(first).resource_response.bookmark);
    // The two recordings are separate captures: the follow-up answers its own bookmark, passed natively.
    const recorded = JSON.parse(new URLSearchParams(JSON.parse(readFileSync(next, 'utf8')).log.entries[0].request.postData.text).get('data')!).options.bookmarks[0];
    const { result, requests } = await run('search', { query: 'nature aesthetic', limit: 25, cursor: recorded }, [next], { memo });
    const env = result as Envelope;
    expect(requests).toEqual(['POST https://www.pinterest.com/resource/BaseSearchResource/get/']);
    expect(env.items.map((i) => i.id)).toEqual(page2.map((p: any) => `pinterest:${p.id}`));
    const vIdx = page2.findIndex((p: any) => p.videos);
    expect(env.items[vIdx]!.type).toBe('video');
    // The recorded follow-up ends with a bookmark of its own: the feed goes on.
    expect(env.next_cursor).toBeDefined();
  });

  it('search: a walk past the first page asks for the second with the first page’s bookmark (another capture’s page 2 is never served)', async () => {
    const files = [real('search-pins-nature-aesthetic.har'), real('search-pins-next-page-bookmark.har')];
    const { result, requests, warnings } = await run('search', { query: 'nature aesthetic', limit: 30 }, files);
    expect((result as Envelope).items.length).toBe(body(files[0]!).resource_response.data.results.filter((r: any) => r.type === 'pin' && !r.is_promoted).length);
    expect(requests.map((r) => r.split(' ')[0])).toEqual(['GET', 'POST']);
    expect(warnings.join(' ')).toMatch(/stopped after 1 page\(s\).*data\.options\.bookmarks differs/);
  });

  it('detail: the PinResource pin gives the original picture, counts, pinner and creation time', async () => {
    const file = real('detail-pin-672584525610478245.har');
    const pin = body(file).resource_response.data;
    for (const query of ['672584525610478245', 'https://www.pinterest.de/pin/672584525610478245/', 'https://br.pinterest.com/pin/unhas--672584525610478245/?mt=login']) {
      const { result, requests } = await run('detail', { query }, [file]);
      const env = result as Envelope;
      expect(env.ok).toBe(true);
      expect(env.items).toHaveLength(1);
      const item = env.items[0]!;
      expect(item).toMatchObject({
        id: 'pinterest:672584525610478245',
        type: 'image',
        title: '💅🏼💅🏼',
        author: 'maria eduarda',
        author_handle: 'dudadelsanto',
        author_id: '672584663008554825',
        url: 'https://www.pinterest.com/pin/672584525610478245/',
        ts: Date.parse(pin.created_at) / 1000,
        aspect: { width: 828, height: 1461 },
        stats: { likes: 0, comments: 0, shares: 1454 },
      });
      expect(item.text).toBeUndefined();
      expect(origin(item.media[0]!.url)).toBe('https://i.pinimg.com/originals/c7/2f/d8/c72fd8ee489409cdea7af99f4d944b0c.jpg');
      expect(origin(item.thumb!)).toBe(pin.images['736x'].url);
      const u = sent(requests[0]!);
      expect(JSON.parse(u.searchParams.get('data')!)).toEqual({ options: { id: '672584525610478245', field_set_key: 'detailed' }, context: {} });
      expect(u.searchParams.get('source_url')).toBe('/pin/672584525610478245/');
    }
  });

  it('posts of a board: BoardFeed refused with 403 "Invalid Resource Request" is an upstream error naming the resource, never a block or a login', async () => {
    const boardData = encodeURIComponent(JSON.stringify({ options: { username: 'bridgehere', slug: 'fun-pictures-and-videos', field_set_key: 'detailed' }, context: {} }));
    const board = tempHar(`https://www.pinterest.com/resource/BoardResource/get/?data=${boardData}`, { resource_response: { status: 'success', data: { type: 'board', id: '658018264245344065', name: 'Fun pictures', url: '/bridgehere/fun-pictures-and-videos/' } } });
    const { result, requests } = await run('posts', { query: 'https://www.pinterest.com/bridgehere/fun-pictures-and-videos/' }, [board, real('error-invalid-resource-request-403.har')]);
    const env = result as Envelope;
    expect(env.ok).toBe(false);
    expect(env.source).not.toBe('blocked');
    expect(env.error).toMatchObject({ code: 'upstream_error', retryable: true });
    expect(env.error!.message).toContain('Invalid Resource Request');
    expect(env.error!.message).toContain('BoardFeedResource');
    const feed = sent(requests.find((r) => r.includes('BoardFeedResource'))!);
    expect(JSON.parse(feed.searchParams.get('data')!).options).toMatchObject({ board_id: '658018264245344065', field_set_key: 'react_grid_pin' });
  });
});

describe('pinterest on the hand-made sandbox', () => {
  it('search: ads are left out; a video pin streams V_720P; an idea pin keeps every page; page 2 by POST', async () => {
    const { result, requests } = await run('search', { query: 'harbor lights', limit: 10 }, [sand('search-pins-harbor-lights.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['pinterest:981234567890120001', 'pinterest:981234567890120002', 'pinterest:981234567890120003', 'pinterest:981234567890120004', 'pinterest:981234567890120005']);
    expect(requests.map((r) => r.split(' ')[0])).toEqual(['GET', 'POST']);
    expect(env.next_cursor).toBeUndefined();
    const [image, video, idea, carousel, old] = env.items;
    expect(image).toMatchObject({ type: 'image', title: 'Harbor lights after rain', text: 'Long exposure from the north pier.', stats: { likes: 417 } });
    expect(video).toMatchObject({ type: 'video', duration_s: 14.5, aspect: { width: 720, height: 1280 } });
    expect(origin(video!.media[0]!.url)).toBe('https://v1.pinimg.com/videos/mc/720p/a1/c0/ff/ee/c0ffeea1.mp4');
    expect(idea!.type).toBe('video');
    expect(idea!.media.map((m) => m.kind)).toEqual(['image', 'video', 'image']);
    expect(origin(idea!.media[1]!.url)).toMatch(/\/720p\/.*\.mp4$/);
    expect(carousel!.media.map((m) => origin(m.url))).toEqual([
      'https://i.pinimg.com/originals/5a/00/00/5a000000000000000000000000000041.jpg',
      'https://i.pinimg.com/originals/5a/00/00/5a000000000000000000000000000042.jpg',
    ]);
    expect(old!.title).toBeUndefined();
    expect(old).toMatchObject({ text: 'Night ferry, 2019', stats: { likes: 0 } });
  });

  it('search type=boards: boards as items with board: ids, covers and owners', async () => {
    const { result, requests } = await run('search', { query: 'lighthouse', type: 'boards' }, [sand('search-boards-lighthouse.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['pinterest:board:813000000000000101', 'pinterest:board:813000000000000102']);
    expect(env.items[0]).toMatchObject({ type: 'image', title: 'Lighthouses at dusk', url: 'https://www.pinterest.com/harborlight/lighthouses-at-dusk/', author_handle: 'harborlight', author_url: 'https://www.pinterest.com/harborlight/' });
    expect(origin(env.items[0]!.thumb!)).toContain('/400x300/');
    expect(JSON.parse(sent(requests[0]!).searchParams.get('data')!).options.scope).toBe('boards');
  });

  it('search with no results is an honest empty', async () => {
    const { result } = await run('search', { query: 'zzqxv nothing' }, [sand('search-pins-empty.har')]);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0 });
  });

  it('user: the UserResource profile', async () => {
    for (const query of ['harborlight', '@harborlight', 'https://www.pinterest.fr/harborlight/_created/', 'harborlight/lighthouses-at-dusk']) {
      const { result } = await run('user', { query }, [sand('user-harborlight.har')]);
      const r = result as CreatorResult;
      expect(r.ok).toBe(true);
      expect(r.data!.author).toMatchObject({ id: '812345678901234001', source: 'pinterest', handle: 'harborlight', name: 'Harbor Light Studio', bio: 'Coastal photographs, mostly after dark.', url: 'https://www.pinterest.com/harborlight/', followers: 18400, following: 212, posts: 1377, verified: true });
      expect(origin(r.data!.author.avatar!)).toContain('/280x280_RS/');
    }
  });

  it('user that does not exist is not_found', async () => {
    const { result } = await run('user', { query: 'nosuchpinner' }, [sand('error-user-not-found.har')]);
    expect((result as CreatorResult).error).toMatchObject({ code: 'not_found' });
    expect((result as CreatorResult).error!.message).toContain('User not found.');
  });

  it("posts: a user's pins, walked over the bookmark", async () => {
    const { result, requests } = await run('posts', { query: 'https://www.pinterest.com/harborlight/', max_items: 10 }, [sand('posts-user-harborlight.har')]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['pinterest:981234567890120001', 'pinterest:981234567890120002', 'pinterest:981234567890120005']);
    expect(requests).toHaveLength(2);
    expect(sent(requests[0]!).searchParams.get('source_url')).toBe('/harborlight/pins/');
  });

  it('posts: created pins by the /_created/ link or by feed=created', async () => {
    for (const params of [{ query: 'https://www.pinterest.com/harborlight/_created/' }, { query: 'harborlight', feed: 'created' }]) {
      const { result, requests } = await run('posts', params, [sand('posts-created-harborlight.har')]);
      expect((result as Envelope).items.map((i) => i.id)).toEqual(['pinterest:981234567890120002']);
      expect(requests[0]).toContain('/UserActivityPinsResource/');
    }
  });

  it("posts: a board's pins by user/board and by a pin.it link to a country domain (only the redirect is asked)", async () => {
    for (const query of ['harborlight/lighthouses-at-dusk', 'look at this board https://pin.it/9bRdSbx']) {
      const { result, requests } = await run('posts', { query }, [sand('posts-board-lighthouses.har'), sand('resolve-short-links.har')]);
      const env = result as Envelope;
      expect(env.items.map((i) => i.id)).toEqual(['pinterest:981234567890120001', 'pinterest:981234567890120002', 'pinterest:981234567890120005']);
      expect(requests.some((r) => r.includes('pinterest.co.uk'))).toBe(false);
      const feed = sent(requests.find((r) => r.includes('BoardFeedResource'))!);
      expect(JSON.parse(feed.searchParams.get('data')!).options.board_id).toBe('813000000000000101');
    }
  });

  it('posts of a secret (or missing) board is not_found, saying so', async () => {
    const { result } = await run('posts', { query: 'harborlight/private-plans' }, [sand('error-board-secret.har')]);
    expect((result as Envelope).error).toMatchObject({ code: 'not_found' });
    expect((result as Envelope).error!.message).toMatch(/secret board/);
  });

  it('a resource that wants a login: session_expired naming the profile to add; with a stored login, to log in again', async () => {
    const anon = (await run('posts', { query: 'lockedpinner' }, [sand('error-login-required.har')])).result as Envelope;
    expect(anon.error).toMatchObject({ code: 'session_expired' });
    expect(anon.error!.message).toMatch(/add a pinterest profile/);
    expect(anon.error!.message).toContain('"default"');
    const withLogin = (await run('posts', { query: 'lockedpinner' }, [sand('error-login-required.har')], { session: { cookies: '_auth=1; _pinterest_sess=x; csrftoken=abc' } })).result as Envelope;
    expect(withLogin.error).toMatchObject({ code: 'session_expired' });
    expect(withLogin.error!.message).toMatch(/no longer accepts the stored login of profile "default"/);
  });

  it('a refused csrftoken is minted again once, and the page answers', async () => {
    const { result, requests, warnings } = await run('posts', { query: 'dune_walker', max_items: 5 }, [sand('error-csrf-refused-then-ok.har')]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['pinterest:981234567890120003', 'pinterest:981234567890120004']);
    expect(requests.filter((r) => r.startsWith('POST'))).toHaveLength(2);
    expect(warnings.join(' ')).toMatch(/minted again/);
  });

  it('HTTP 429 is rate_limited; a web page where JSON belongs is blocked, never empty', async () => {
    const limited = (await run('search', { query: 'too fast' }, [sand('error-search-429.har')])).result as Envelope;
    expect(limited).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    const walled = (await run('search', { query: 'walled' }, [sand('error-search-html-wall.har')])).result as Envelope;
    expect(walled).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
  });

  it('detail of a video pin: the V_720P stream, counts; by a pin.it link without fetching the pin page', async () => {
    for (const query of ['981234567890120002', 'https://pin.it/4xYzSbx']) {
      const { result, requests } = await run('detail', { query }, [sand('detail-pin-981234567890120002.har'), sand('resolve-short-links.har')]);
      const item = (result as Envelope).items[0]!;
      expect(item).toMatchObject({ id: 'pinterest:981234567890120002', type: 'video', duration_s: 14.5, stats: { likes: 1507, comments: 17, shares: 2310 } });
      expect(origin(item.media[0]!.url)).toBe('https://v1.pinimg.com/videos/mc/720p/a1/c0/ff/ee/c0ffeea1.mp4');
      expect(origin(item.thumb!)).toMatch(/^https:\/\/i\.pinimg\.com\/736x\//);
      expect(requests.some((r) => r.startsWith('GET https://www.pinterest.com/pin/'))).toBe(false);
    }
  });

  it('detail of an idea pin: its image and video pages in order', async () => {
    const { result } = await run('detail', { query: 'https://www.pinterest.com/pin/981234567890120003/' }, [sand('detail-pin-981234567890120003.har')]);
    const item = (result as Envelope).items[0]!;
    expect(item.media.map((m) => [m.kind, m.w, m.h])).toEqual([
      ['image', 1080, 1920],
      ['video', 720, 1280],
      ['image', 1080, 1920],
    ]);
    expect(item.stats).toEqual({ likes: 88, comments: 2, shares: 140 });
  });

  it('detail of a deleted pin is not_found; a short link to the home page too', async () => {
    expect(((await run('detail', { query: '981234567890129999' }, [sand('error-pin-not-found.har')])).result as Envelope).error).toMatchObject({ code: 'not_found' });
    const nowhere = (await run('detail', { query: 'pin.it/0nowhere' }, [sand('resolve-short-links.har')])).result as Envelope;
    expect(nowhere.error).toMatchObject({ code: 'not_found' });
  });

  it('recommended: related modules, pins only (a header module and an ad are left out)', async () => {
    const { result, requests } = await run('recommended', { query: '981234567890120001' }, [sand('recommended-981234567890120001.har')]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['pinterest:981234567890120002', 'pinterest:981234567890120004']);
    expect(sent(requests[0]!).searchParams.get('source_url')).toBe('/pin/981234567890120001/');
  });

  it('recommended: when the modules resource refuses its options, the related pin feed answers', async () => {
    const { result, requests } = await run('recommended', { query: '981234567890120005' }, [sand('recommended-fallback-981234567890120005.har')]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['pinterest:981234567890120001', 'pinterest:981234567890120003']);
    expect(requests.map((r) => /resource\/(\w+)\//.exec(r)![1])).toEqual(['RelatedModulesResource', 'RelatedPinFeedResource']);
  });
});

describe('pinterest login probe', () => {
  it('a settings answer with a username is ok; "Authorization failed" is session_expired; a web page stays a block', async () => {
    const SETTINGS = 'https://www.pinterest.com/resource/UserSettingsResource/get/';
    expect(await pinterest.probe!(probeCtx(pinterest, [sand('probe-settings.har')], '_auth=1; csrftoken=abc'))).toBe('ok');
    const failed = { resource_response: { status: 'failure', error: { status: 'failure', http_status: 401, code: 3, message: 'Authorization failed.' } } };
    expect(await pinterest.probe!(probeCtx(pinterest, [], '_auth=1; csrftoken=abc', { url: SETTINGS, status: 401, body: failed }))).toBe('session_expired');
    expect(await pinterest.probe!(probeCtx(pinterest, [], '_auth=0', { url: SETTINGS, body: { resource_response: { status: 'success', data: {} }, client_context: { is_authenticated: false } } }))).toBe('session_expired');
    await expect(pinterest.probe!(probeCtx(pinterest, [], '_auth=1', { url: SETTINGS, body: '<!DOCTYPE html><html>verify</html>' }))).rejects.toMatchObject({ code: 'blocked' });
  });
});

describe('pinterest bad input', () => {
  it.each([
    ['detail', { query: 'https://www.youtube.com/watch?v=abc' }],
    ['detail', { query: 'harborlight/lighthouses-at-dusk' }],
    ['recommended', { query: 'https://www.pinterest.com/search/pins/?q=x' }],
    ['posts', { query: 'https://www.pinterest.com/pin/981234567890120001/' }],
    ['posts', { query: 'https://www.pinterest.com/harborlight/board/section/' }],
    ['user', { query: 'not a user!' }],
    ['search', { query: 'harbor lights', cursor: 'not a bookmark!' }],
  ])('%s %j is invalid_request before any request', async (action, params) => {
    const { result, requests } = await run(action, params, [SANDBOX]);
    expect((result as { error?: { code: string } }).error?.code).toBe('invalid_request');
    expect(requests).toEqual([]);
  });
  it('search type must be pins, videos or boards (catalog enum)', async () => {
    await expect(run('search', { query: 'x', type: 'users' }, [SANDBOX])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).filter((f) => !usedSandbox.has(f))).toEqual([]);
});
