import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import type { PageSigning } from '../../src/platforms/types.js';
import { decodeCursor } from '../../src/tasks/cursor.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every kuaishou recording, replayed through the real catalog validation, adapter and runner
 * normalization. The real ones (../shared/fixtures/kuaishou) cover posts and user over GraphQL, the 2001
 * captcha and the 2020 WeChat mini-program API; hand-made sandbox recordings (sandbox/kuaishou) stand
 * in for GraphQL search/detail, the share pages, REST comments, the hot board, the signed REST list and
 * the error answers no one recorded.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/kuaishou');
const SANDBOX = resolve(process.cwd(), 'sandbox/kuaishou');
const used = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => resolve(SANDBOX, name);
const har = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));
const raw = (file: string, i = 0): any => JSON.parse(har(file).log.entries[i].response.content.text);

const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin.startsWith('//') ? `https:${origin}` : origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=kuaishou&profile=default`;
const paths = (requests: string[]): string[] => requests.map((r) => r.replace(/\?.*$/, ''));
const GQL = 'POST https://www.kuaishou.com/graphql';
const MINT = 'GET https://www.kuaishou.com/';

/** A mini-program session as a profile would carry it (values invented). */
const WX = { credentials: { wxmini_cookie: 'clientid=13; kpn=WECHAT_SMALL_APP; did=wxo_handmade; kuaishou.wechat.app_st=handmade', wxmini_user_id: '834536258' } };

type RunInput = Partial<Parameters<typeof runAction>[0]>;
const run = (action: string, params: Record<string, unknown>, replay: string[], more: RunInput = {}) => runAction({ source: 'kuaishou', action, params, replay, ...more });

/** A copy of a recording (in a temp dir) whose request body, left out when it was recorded, is the one the adapter sends. */
function withRequestBody(file: string, body: unknown): string {
  const h = har(file);
  for (const e of h.log.entries) e.request.postData = { mimeType: 'application/json', text: JSON.stringify(body) };
  const dir = mkdtempSync(join(tmpdir(), 'kuaishou-'));
  const out = join(dir, basename(file));
  writeFileSync(out, JSON.stringify(h));
  return out;
}
/** A one-exchange HAR with a hand-written answer, for shapes that would clash with the sandbox's own. */
function handHar(method: string, url: string, answer: { status?: number; body: string; type?: string; headers?: Array<[string, string]> }, post?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'kuaishou-hand-'));
  const file = join(dir, 'hand.har');
  const headers = [{ name: 'content-type', value: answer.type ?? 'application/json' }, ...(answer.headers ?? []).map(([name, value]) => ({ name, value }))];
  const request: any = { method, url };
  if (post !== undefined) request.postData = { mimeType: 'application/json', text: JSON.stringify(post) };
  const entry = { request, response: { status: answer.status ?? 200, headers, content: { text: answer.body } }, comment: 'hand-made (test)' };
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
  return file;
}

function fakeSigner(signature = 'HUDR_fake_signature'): PageSigning & { calls: any[] } {
  const calls: any[] = [];
  return {
    calls,
    sign: async (req) => {
      calls.push(req);
      return signature as never;
    },
  };
}

// ---------------------------------------------------------------------------------------------

describe('kuaishou.posts (GraphQL visionProfilePhotoList)', () => {
  it('reads the recorded page field by field; its pcursor is the next cursor', async () => {
    const file = real('posts-3x27q2f82gnxn4e-visionProfilePhotoList.har');
    const { result, requests } = await run('posts', { query: 'https://www.kuaishou.com/profile/3x27q2f82gnxn4e', limit: 1 }, [file]);
    expect(paths(requests)).toEqual([MINT, GQL]);
    const env = result as Envelope;
    const p = raw(file).data.visionProfilePhotoList.feeds[0].photo;
    const rep = p.manifest.adaptationSet[0].representation[0];
    expect(env).toMatchObject({ ok: true, source: 'live', count: 1 });
    expect(env.items[0]).toEqual({
      id: 'kuaishou:3xa7hvqbt9rg9my',
      type: 'video',
      provider: 'kuaishou',
      text: p.caption,
      author: '徐医 .',
      author_id: '3x27q2f82gnxn4e',
      author_url: 'https://www.kuaishou.com/profile/3x27q2f82gnxn4e',
      url: 'https://www.kuaishou.com/short-video/3xa7hvqbt9rg9my',
      thumb: image(p.coverUrl),
      // The h264 representation, not the hevc one (manifestH265): it plays everywhere.
      media: [{ kind: 'video', url: video(rep.url), w: 720, h: 1280, duration_s: 9.8 }],
      ts: 1653048380,
      duration_s: 9.8,
      aspect: { width: 720, height: 1280 },
      stats: { likes: 7610, views: 154028 },
      provenance: 'live',
    });
    expect(rep.url).not.toBe(p.manifestH265.adaptationSet[0].representation[0].url);
    expect(decodeCursor(env.next_cursor).c).toBe('1.648548115016E12');
  });

  it('walks to the end: page 2 (sandbox) answers pcursor no_more, so no next_cursor', async () => {
    const { result, requests } = await run('posts', { query: '3x27q2f82gnxn4e', max_items: -1 }, [real('posts-3x27q2f82gnxn4e-visionProfilePhotoList.har'), sand('posts-3x27q2f82gnxn4e-page2.har')]);
    expect(paths(requests)).toEqual([MINT, GQL, GQL]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['kuaishou:3xa7hvqbt9rg9my', 'kuaishou:3xhn6w4ct8vp2ze']);
    expect(env.next_cursor).toBeUndefined();
    expect(env.warnings).toBeUndefined();
  });

  it('passing the native cursor back asks exactly that page', async () => {
    const { result } = await run('posts', { query: '3x27q2f82gnxn4e', cursor: '1.648548115016E12' }, [sand('posts-3x27q2f82gnxn4e-page2.har')]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['kuaishou:3xhn6w4ct8vp2ze']);
  });

  it('sandbox: a creator reached through a v.kuaishou.com profile share link, walked over two pages', async () => {
    const { result, requests } = await run('posts', { query: 'https://v.kuaishou.com/pRfL8k', max_items: -1 }, [SANDBOX]);
    expect(paths(requests).slice(0, 1)).toEqual(['GET https://v.kuaishou.com/pRfL8k']);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['kuaishou:3xs9d8k2mf4nq6e', 'kuaishou:3xy2vg8ne6kr9tu', 'kuaishou:3xfz7n3kp9s2tgb']);
    expect(env.items[1].stats).toEqual({ likes: 56012, views: 130000000 });
    expect(env.next_cursor).toBeUndefined();
  });
});

describe('kuaishou.posts: the __NS_hxfalcon-signed REST list (in-page signer)', () => {
  const file = sand('posts-signed-3xq8rz5ht2mw7ke.har');

  it('auto: GraphQL refuses, the page signs exactly the path, query and body sent', async () => {
    const signer = fakeSigner();
    const { result, requests, warnings } = await run('posts', { query: '3xq8rz5ht2mw7ke' }, [file], { signer });
    expect(requests.slice(1)).toEqual([GQL, 'POST https://www.kuaishou.com/rest/v/profile/feed?__NS_hxfalcon=HUDR_fake_signature&caver=2']);
    expect(signer.calls).toHaveLength(1);
    const call = signer.calls[0];
    expect(call.pageUrl).toBe('https://www.kuaishou.com/');
    expect(call.fn).toBeUndefined();
    expect(call.expression).toContain("realm.call('$encode'");
    expect(call.expression).toContain('window.__ks_realm');
    expect(call.args).toEqual(['/rest/v/profile/feed', { caver: 2 }, { user_id: '3xq8rz5ht2mw7ke', pcursor: '', page: 'profile' }]);
    expect(warnings.join('\n')).toMatch(/profile_feed: the platform refused our native signature \(.*no native implementation.*\); signed in the page/);
    const env = result as Envelope;
    const p = raw(file, 1).feeds[0].photo;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 1 });
    expect(env.items[0]).toEqual({
      id: 'kuaishou:3xgb3m9xw5dq7nr',
      type: 'video',
      provider: 'kuaishou',
      text: p.caption,
      author: '签名测试号',
      author_id: '3xq8rz5ht2mw7ke',
      author_url: 'https://www.kuaishou.com/profile/3xq8rz5ht2mw7ke',
      url: 'https://www.kuaishou.com/short-video/3xgb3m9xw5dq7nr',
      thumb: image(p.coverUrl),
      media: [{ kind: 'video', url: video(p.photoUrls[0].url), duration_s: 20.5 }],
      ts: 1779718149,
      duration_s: 20.5,
      stats: { likes: 427, views: 34046 },
      provenance: 'live',
    });
    expect(env.next_cursor).toBeUndefined();
  });

  it('browser mode signs in the page without trying a native route first', async () => {
    const signer = fakeSigner();
    const { result, warnings } = await run('posts', { query: '3xq8rz5ht2mw7ke' }, [file], { signer, signModes: new Map([['kuaishou.profile_feed', 'browser']]) });
    expect((result as Envelope).count).toBe(1);
    expect(signer.calls).toHaveLength(1);
    expect(warnings.join('\n')).not.toMatch(/refused our native signature/);
  });

  it('native mode never calls the page: the signed route is skipped and GraphQL’s refusal is reported', async () => {
    const signer = fakeSigner();
    const { result, requests } = await run('posts', { query: '3xq8rz5ht2mw7ke' }, [file], { signer, signModes: new Map([['kuaishou', 'native']]) });
    expect(signer.calls).toHaveLength(0);
    expect(requests.filter((r) => r.includes('/rest/v/'))).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'upstream_error' } });
    expect((result as Envelope).error?.message).toMatch(/GraphQL answered errors/);
  });

  it('replay mode opens no page either', async () => {
    const signer = fakeSigner();
    const { result } = await run('posts', { query: '3xq8rz5ht2mw7ke' }, [file], { signer, replayMode: true });
    expect(signer.calls).toHaveLength(0);
    expect(result).toMatchObject({ ok: false, error: { code: 'upstream_error' } });
  });

  it('a signed-list cursor where no page can sign is an upstream error saying so, not a block', async () => {
    const { result, requests } = await run('posts', { query: '3xq8rz5ht2mw7ke', cursor: 'r:1.7E12' }, [file]);
    expect(requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'upstream_error' } });
    expect((result as Envelope).error?.message).toMatch(/only the in-page signer can sign/);
  });

  it('result 50 on the signed request is a refused signature (blocked), never an empty list', async () => {
    const { result } = await run('posts', { query: '3xw5nb8gd3fj2ly' }, [sand('error-signed-result-50.har')], { signer: fakeSigner('HUDR_refused') });
    expect(result).toMatchObject({ ok: false, source: 'blocked', count: 0, error: { code: 'blocked', retryable: true } });
    expect((result as Envelope).error?.message).toMatch(/result 50: 签 名验证失败/);
  });

  it('an empty 200 answer to the signed request is a refused signature too', async () => {
    const gql = handHar('POST', 'https://www.kuaishou.com/graphql', { body: JSON.stringify({ errors: [{ message: 'boom' }] }) }, { operationName: 'visionProfilePhotoList', variables: { userId: '3xw5nb8gd3fj2lz' } });
    const rest = handHar('POST', 'https://www.kuaishou.com/rest/v/profile/feed?__NS_hxfalcon=x&caver=2', { body: '' }, { user_id: '3xw5nb8gd3fj2lz', pcursor: '', page: 'profile' });
    const { result } = await run('posts', { query: '3xw5nb8gd3fj2lz' }, [gql, rest], { signer: fakeSigner() });
    expect(result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    expect((result as Envelope).error?.message).toMatch(/empty body to the signed request/);
  });
});

// ---------------------------------------------------------------------------------------------

describe('kuaishou.user', () => {
  it('GraphQL visionProfile: every field; "169.8w" fans read as 1698000', async () => {
    const file = real('user-3x27q2f82gnxn4e-visionProfile.har');
    const { result, requests } = await run('user', { query: 'www.kuaishou.com/profile/3x27q2f82gnxn4e' }, [file]);
    expect(paths(requests)).toEqual([MINT, GQL]);
    const p = raw(file).data.visionProfile.userProfile.profile;
    expect(result as CreatorResult).toMatchObject({ ok: true, source: 'live' });
    expect((result as CreatorResult).data).toEqual({
      platform: 'kuaishou',
      author: {
        id: '3x27q2f82gnxn4e',
        source: 'kuaishou',
        name: '徐医 .',
        bio: p.user_text,
        avatar: image(p.headurl),
        url: 'https://www.kuaishou.com/profile/3x27q2f82gnxn4e',
        followers: 1698000,
        following: 396,
        posts: 202,
      },
    });
  });

  it('mini-program profile (numeric id, with a mini-program session): counts, kwaiId, verified', async () => {
    const file = real('user-wxmini-555258693.har');
    const { result, requests } = await run('user', { query: '555258693' }, [file], { session: WX });
    // GraphQL is asked first (not recorded here), then the mini-program profile answers.
    expect(paths(requests)).toEqual([MINT, GQL, 'POST https://wxmini-api.uyouqu.com/rest/wd/wechatApp/user/profile']);
    const p = raw(file).userProfile.profile;
    expect((result as CreatorResult).data?.author).toEqual({
      id: '555258693',
      source: 'kuaishou',
      handle: 'QQ552310885',
      name: '快√手⇒518',
      bio: p.user_text,
      avatar: image(p.headurl),
      followers: 17276,
      following: 830,
      posts: 387,
      verified: false,
    });
  });

  it('@kwaiId and @name are looked up by the mini-program user search, exact match only', async () => {
    const users = withRequestBody(real('search-wxmini-users.har'), { keyword: 'QQ552310885', pcursor: '', ussid: '' });
    const profile = real('user-wxmini-555258693.har');
    const { result, requests } = await run('user', { query: '@QQ552310885' }, [users, profile], { session: WX });
    expect(paths(requests)[0]).toBe('POST https://wxmini-api.uyouqu.com/rest/wd/search/user');
    expect((result as CreatorResult).data?.author).toMatchObject({ id: '555258693', handle: 'QQ552310885', followers: 17276 });

    const byName = withRequestBody(real('search-wxmini-users.har'), { keyword: '快√手⇒518', pcursor: '', ussid: '' });
    const named = await run('user', { query: '@快√手⇒518' }, [byName, profile], { session: WX });
    expect((named.result as CreatorResult).data?.author).toMatchObject({ id: '555258693', name: '快√手⇒518' });

    const fuzzy = withRequestBody(real('search-wxmini-users.har'), { keyword: '早上好', pcursor: '', ussid: '' });
    const miss = await run('user', { query: '@早上好' }, [fuzzy], { session: WX });
    expect(miss.result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect((miss.result as CreatorResult).error?.message).toMatch(/exactly .*found 15 similar/);
  });

  it('@name without a mini-program session is a request error naming the fix', async () => {
    const { result, requests } = await run('user', { query: '@QQ552310885' }, [SANDBOX]);
    expect(requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('sandbox: demo creator; a redirect to the login page is session_expired', async () => {
    const { result } = await run('user', { query: '3xk7hbmn2q4wfzs' }, [SANDBOX]);
    expect((result as CreatorResult).data?.author).toMatchObject({ id: '3xk7hbmn2q4wfzs', name: '川味小厨·老陈', followers: 523000, following: 188, posts: 431 });
    const expired = await run('user', { query: '3xz9login2exp7q' }, [SANDBOX]);
    expect(expired.requests.at(-1)).toMatch(/^GET https:\/\/passport\.kuaishou\.com\//);
    expect(expired.result).toMatchObject({ ok: false, source: 'live', error: { code: 'session_expired' } });
  });

  it('a GraphQL error saying the user does not exist is not_found', async () => {
    const gql = handHar('POST', 'https://www.kuaishou.com/graphql', { body: JSON.stringify({ errors: [{ message: '用户不存在' }], data: null }) }, { operationName: 'visionProfile', variables: { userId: '3xnouser0000000' } });
    const { result } = await run('user', { query: '3xnouser0000000' }, [gql]);
    expect(result).toMatchObject({ ok: false, error: { code: 'not_found', retryable: false } });
  });
});

// ---------------------------------------------------------------------------------------------

describe('kuaishou.search', () => {
  it('mini-program video search (recorded 2020): ids from share_info, app-shaped cards, the ussid in the cursor', async () => {
    const file = withRequestBody(real('search-wxmini-feed.har'), { keyword: '早上好', pcursor: '', ussid: '' });
    const { result, requests } = await run('search', { query: '早上好', limit: 15 }, [file], { session: WX });
    expect(paths(requests)).toEqual([MINT, GQL, 'POST https://wxmini-api.uyouqu.com/rest/wd/search/feed']);
    const body = raw(file);
    const f = body.feeds[0];
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 15 });
    expect(env.items.map((i) => i.id)).toEqual(body.feeds.map((x: any) => `kuaishou:${new URLSearchParams(x.share_info).get('photoId')}`));
    expect(env.items[0]).toEqual({
      id: 'kuaishou:3xikfwbxncn8fr6',
      type: 'video',
      provider: 'kuaishou',
      text: f.caption,
      author: f.userName,
      author_id: '3xa5v5bh5yedypc',
      author_handle: 'wanqing1988515',
      author_url: 'https://www.kuaishou.com/profile/3xa5v5bh5yedypc',
      url: 'https://www.kuaishou.com/short-video/3xikfwbxncn8fr6',
      thumb: image(f.coverUrls[0].url),
      media: [{ kind: 'video', url: video(f.mainMvUrls[0].url), w: 1080, h: 1920, duration_s: 140 }],
      ts: 1595283325,
      duration_s: 140,
      aspect: { width: 1080, height: 1920 },
      stats: { likes: 251, comments: 653, views: 2714 },
      provenance: 'live',
    });
    expect(decodeCursor(env.next_cursor).c).toBe(`w:2|${body.ussid}`);
  });

  it('without a mini-program session the mini-program route is not tried', async () => {
    const file = withRequestBody(real('search-wxmini-feed.har'), { keyword: '早上好', pcursor: '', ussid: '' });
    await expect(run('search', { query: '早上好' }, [file])).rejects.toThrow(/no recording matches POST https:\/\/www\.kuaishou\.com\/graphql/);
  });

  it('sandbox GraphQL search: two pages, the searchSessionId carried in the cursor', async () => {
    const file = sand('search-meishi.har');
    const first = await run('search', { query: '美食', limit: 3 }, [file]);
    const env = first.result as Envelope;
    const f = raw(file).data.visionSearchPhoto.feeds[0].photo;
    expect(env.items.map((i) => i.id)).toEqual(['kuaishou:3xs9d8k2mf4nq6e', 'kuaishou:3xp4tq7wz3hb5ca', 'kuaishou:3xy2vg8ne6kr9tu']);
    const best = f.manifest.adaptationSet[0].representation.find((r: any) => r.width === 1080);
    expect(env.items[0]).toMatchObject({ media: [{ kind: 'video', url: video(best.url), w: 1080, h: 1920, duration_s: 15.2 }], stats: { likes: 12034, comments: 321, views: 356000 } });
    const session = raw(file).data.visionSearchPhoto.searchSessionId;
    expect(decodeCursor(env.next_cursor).c).toBe(`g:1|${session}`);
    const second = (await run('search', { query: '美食', cursor: env.next_cursor }, [file])).result as Envelope;
    expect(second.items.map((i) => i.id)).toEqual(['kuaishou:3xdm5c2rj7wq8ha']);
    expect(second.next_cursor).toBeUndefined();
  });

  it('sandbox: no hits is an honest empty; result 2 is rate_limited, not empty', async () => {
    expect((await run('search', { query: 'zqxjkvwy无结果' }, [SANDBOX])).result).toMatchObject({ ok: true, source: 'empty', count: 0 });
    expect((await run('search', { query: '限流测试' }, [SANDBOX])).result).toMatchObject({ ok: false, source: 'live', error: { code: 'rate_limited', retryable: true } });
  });

  it('a cursor of another shape is refused', async () => {
    expect((await run('search', { query: '美食', cursor: 'x:1' }, [SANDBOX])).result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});

// ---------------------------------------------------------------------------------------------

describe('kuaishou.detail', () => {
  it('the recorded 2001 captcha of the mobile detail call is blocked, after the guest identity was renewed once', async () => {
    const file = withRequestBody(real('error-2001-captcha.har'), { photoId: '3xq5xfdec5rr779', isLongVideo: false });
    const { result, requests, warnings } = await run('detail', { query: 'https://www.kuaishou.com/short-video/3xq5xfdec5rr779?authorId=3x27q2f82gnxn4e' }, [file]);
    expect(paths(requests)).toEqual([
      MINT,
      GQL,
      'GET https://www.kuaishou.com/short-video/3xq5xfdec5rr779',
      'GET https://v.m.chenzhongtech.com/fw/photo/3xq5xfdec5rr779',
      'POST https://v.m.chenzhongtech.com/rest/wd/photo/info',
      MINT,
      'POST https://v.m.chenzhongtech.com/rest/wd/photo/info',
    ]);
    expect(warnings.join('\n')).toMatch(/blocked the guest identity .*retried once with a fresh one/);
    expect(result).toMatchObject({ ok: false, source: 'blocked', count: 0, items: [], error: { code: 'blocked', retryable: true } });
    expect((result as Envelope).error?.message).toMatch(/captcha/);
  });

  it('sandbox GraphQL visionVideoDetail: the largest h264 representation is the stream', async () => {
    const file = sand('detail-3xs9d8k2mf4nq6e.har');
    const { result, requests } = await run('detail', { query: 'https://v.kuaishou.com/hM7dQx' }, [file, sand('resolve-share-links.har')]);
    expect(paths(requests)).toEqual(['GET https://v.kuaishou.com/hM7dQx', MINT, GQL]);
    const p = raw(file).data.visionVideoDetail.photo;
    const hd = p.manifest.adaptationSet[0].representation[1];
    expect(hd.width).toBe(1080);
    expect((result as Envelope).items[0]).toEqual({
      id: 'kuaishou:3xs9d8k2mf4nq6e',
      type: 'video',
      provider: 'kuaishou',
      text: p.caption,
      author: '川味小厨·老陈',
      author_id: '3xk7hbmn2q4wfzs',
      author_url: 'https://www.kuaishou.com/profile/3xk7hbmn2q4wfzs',
      url: 'https://www.kuaishou.com/short-video/3xs9d8k2mf4nq6e',
      thumb: image(p.coverUrl),
      media: [{ kind: 'video', url: video(hd.url), w: 1080, h: 1920, duration_s: 15.2 }],
      ts: 1732096000,
      duration_s: 15.2,
      aspect: { width: 1080, height: 1920 },
      stats: { likes: 12034, views: 356000 },
      provenance: 'live',
    });
  });

  it('sandbox: GraphQL errors, the short-video page’s __APOLLO_STATE__ answers', async () => {
    const { result, requests } = await run('detail', { query: '3xp4tq7wz3hb5ca' }, [sand('detail-share-page-3xp4tq7wz3hb5ca.har')]);
    expect(paths(requests)).toEqual([MINT, GQL, 'GET https://www.kuaishou.com/short-video/3xp4tq7wz3hb5ca']);
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'kuaishou:3xp4tq7wz3hb5ca', author: '山城吃货日记', author_id: '3xr2bt6kq9zm4vw', text: '重庆小面的灵魂是这一勺油辣子', ts: 1731990000, stats: { likes: 8810, views: 120340 } });
    expect(item.media).toHaveLength(1);
    expect(decodeURIComponent(item.media[0].url)).toMatch(/v2\.kwaicdn\.com\/.*_hd_B.*\.mp4\?pkey=/);
    expect(item.media[0]).toMatchObject({ w: 1080, h: 1920 });
  });

  it('sandbox: a www.kuaishou.com/f/ share link to the mobile page; INIT_STATE holds an image post', async () => {
    const { result, requests } = await run('detail', { query: '复制打开快手 https://www.kuaishou.com/f/X-7hmDemoTok3n 看看' }, [sand('resolve-share-links.har'), sand('detail-mobile-page-3xjc8p2vf6ht3ya.har')]);
    expect(paths(requests)).toEqual([
      'GET https://www.kuaishou.com/f/X-7hmDemoTok3n',
      MINT,
      GQL,
      'GET https://www.kuaishou.com/short-video/3xjc8p2vf6ht3ya',
      'GET https://v.m.chenzhongtech.com/fw/photo/3xjc8p2vf6ht3ya',
    ]);
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({
      id: 'kuaishou:3xjc8p2vf6ht3ya',
      type: 'image',
      author: '山城吃货日记',
      author_id: '3xr2bt6kq9zm4vw',
      stats: { likes: 2310, comments: 88, shares: 56, views: 40120 },
      aspect: { width: 1080, height: 1440 },
    });
    expect(item.media.map((m) => m.url)).toEqual([0, 1, 2].map((i) => image(`https://p2.a.yximgs.com/ufile/atlas/3xjc8p2vf6ht3ya_${i}.jpg`)));
    expect(item.duration_s).toBeUndefined();
  });

  it('every route answering without the photo is not_found', async () => {
    const gql = handHar('POST', 'https://www.kuaishou.com/graphql', { body: JSON.stringify({ data: { visionVideoDetail: { status: 1, type: 'NORMAL', author: null, photo: null } } }) }, { operationName: 'visionVideoDetail', variables: { photoId: '3xgone000000000' } });
    const page = handHar('GET', 'https://www.kuaishou.com/short-video/3xgone000000000', { type: 'text/html', body: '<script>window.__APOLLO_STATE__={"defaultClient":{}};</script>' });
    const mobile = handHar('GET', 'https://v.m.chenzhongtech.com/fw/photo/3xgone000000000', { type: 'text/html', body: '<script>window.INIT_STATE = {"a":{"result":1}}</script>' });
    const info = handHar('POST', 'https://v.m.chenzhongtech.com/rest/wd/photo/info', { body: JSON.stringify({ result: 1 }) }, { photoId: '3xgone000000000' });
    const { result } = await run('detail', { query: '3xgone000000000' }, [gql, page, mobile, info]);
    expect(result).toMatchObject({ ok: false, error: { code: 'not_found', retryable: false } });
  });

  it('a verification page instead of the share page is blocked', async () => {
    const gql = handHar('POST', 'https://www.kuaishou.com/graphql', { status: 502, body: 'bad gateway', type: 'text/plain' });
    const page = handHar('GET', 'https://www.kuaishou.com/short-video/3xverify0000000', { type: 'text/html', body: '<html><body>请完成安全验证 <div id="captcha"></div></body></html>' });
    const { result } = await run('detail', { query: '3xverify0000000' }, [gql, page]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
  });

  it('references that are not kuaishou videos are request errors', async () => {
    for (const query of ['https://www.douyin.com/video/123', 'https://www.kuaishou.com/profile/3x27q2f82gnxn4e', 'not an id']) {
      expect((await run('detail', { query }, [SANDBOX])).result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('kuaishou.comments', () => {
  const file = sand('comments-3xs9d8k2mf4nq6e.har');

  it('REST comment list, two pages, total from commentCountV2', async () => {
    const { result, requests } = await run('comments', { query: '3xs9d8k2mf4nq6e', limit: 50 }, [file]);
    expect(paths(requests)).toEqual([MINT, 'POST https://www.kuaishou.com/rest/v/photo/comment/list', 'POST https://www.kuaishou.com/rest/v/photo/comment/list']);
    const r = result as CommentsResult;
    const c = raw(file).rootCommentsV2[0];
    expect(r).toMatchObject({ source: 'live', total: 305, has_more: false });
    expect(r.items.map((i) => i.cid)).toEqual(['1174060219763', '1173900000001', '1172200000002', '1170632227650']);
    expect(r.items[0]).toEqual({
      cid: '1174060219763',
      text: c.content,
      likes: 128,
      reply_total: 2,
      user_id: '3xa9m2k4hq7w3bz',
      handle: '爱吃辣的小王',
      user_name: '爱吃辣的小王',
      created_at: 1732100000,
      source: 'kuaishou',
      url: 'https://www.kuaishou.com/short-video/3xs9d8k2mf4nq6e',
    });
    expect(r.items.every((i) => i.parent_id === undefined)).toBe(true);
  });

  it('the first page stops at limit; its cursor is the native pcursorV2', async () => {
    const r = (await run('comments', { query: '3xs9d8k2mf4nq6e', limit: 3 }, [file])).result as CommentsResult;
    expect(r.items).toHaveLength(3);
    expect(r.has_more).toBe(true);
    expect(decodeCursor(r.cursor).c).toBe('1170632227652');
  });

  it('replies=all follows each thread that has replies with its reply pages (parent_id set)', async () => {
    const { result, requests } = await run('comments', { query: '3xs9d8k2mf4nq6e', replies: 'all', limit: 5 }, [file]);
    expect(paths(requests)).toEqual([MINT, 'POST https://www.kuaishou.com/rest/v/photo/comment/list', 'POST https://www.kuaishou.com/rest/v/photo/comment/sublist']);
    const r = result as CommentsResult;
    expect(r.items.map((i) => [i.cid, i.parent_id])).toEqual([
      ['1174060219763', undefined],
      ['1174070000010', '1174060219763'],
      ['1174080000011', '1174060219763'],
      ['1173900000001', undefined],
      ['1172200000002', undefined],
    ]);
    expect(r.items[1]).toMatchObject({ user_id: '3xk7hbmn2q4wfzs', user_name: '川味小厨·老陈', likes: 40, created_at: 1732101000 });
  });

  it('replies_of pages one thread through the sublist', async () => {
    const r = (await run('comments', { query: '3xs9d8k2mf4nq6e', replies_of: '1174060219763' }, [file])).result as CommentsResult;
    expect(r.items.map((i) => i.cid)).toEqual(['1174070000010', '1174080000011']);
    expect(r.items.every((i) => i.parent_id === '1174060219763')).toBe(true);
    expect(r.has_more).toBe(false);
    expect((await run('comments', { query: '3xs9d8k2mf4nq6e', replies_of: 'abc' }, [file])).result).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('GraphQL commentListQuery answers when the REST list cannot; its inline replies carry parent_id', async () => {
    const { result, requests } = await run('comments', { query: 'https://www.kuaishou.com/short-video/3xp4tq7wz3hb5ca' }, [SANDBOX]);
    expect(paths(requests).slice(1)).toEqual(['POST https://www.kuaishou.com/rest/v/photo/comment/list', GQL]);
    const r = result as CommentsResult;
    expect(r.items.map((i) => [i.cid, i.parent_id, i.likes])).toEqual([
      ['910000000001', undefined, 12],
      ['910000000002', '910000000001', 1],
      ['910000000003', undefined, 0],
    ]);
    expect(r.items[0]).toMatchObject({ reply_total: 1, user_name: '面条控', created_at: 1732000100 });
  });

  it('a video without comments is an honest empty', async () => {
    expect((await run('comments', { query: '3xuv5k7rm2cz9wd' }, [SANDBOX])).result).toMatchObject({ source: 'empty', total: 0, has_more: false, items: [] });
  });
});

// ---------------------------------------------------------------------------------------------

describe('kuaishou.hot / kuaishou.trending (home page __APOLLO_STATE__)', () => {
  const file = sand('hot-home.har');

  it('hot: the video leading each hot word; a word without one is left out and said so', async () => {
    const memo = new MemoryMemo();
    const { result, requests, warnings } = await run('hot', {}, [file], { memo });
    expect(requests).toEqual(['GET https://www.kuaishou.com/?isHome=1']);
    const env = result as Envelope;
    expect(env.items.map((i) => [i.id, i.title])).toEqual([
      ['kuaishou:3xs9d8k2mf4nq6e', '快手年度美食榜'],
      ['kuaishou:3xp4tq7wz3hb5ca', '重庆小面'],
      ['kuaishou:3xy2vg8ne6kr9tu', '回锅肉做法'],
    ]);
    expect(env.items[0].thumb).toBe(image('https://p2.a.yximgs.com/upic/2024/11/21/08/BMjAyNDExMjEwODAwMDBfaG90XzA0_B0hot.jpg?tag=1-1732176000-xpchomehot-0-hm0&clientCacheKey=3xs9d8k2mf4nq6e.jpg&di=b70be6e3&bp=14734'));
    expect(env.items[0].url).toBe('https://www.kuaishou.com/short-video/3xs9d8k2mf4nq6e');
    expect(warnings.join()).toMatch(/1 hot-board entry names no video/);
  });

  it('trending: every word, ranked, hot values read from "1523.4万"', async () => {
    const { result } = await run('trending', {}, [file]);
    const r = result as TrendResult;
    expect(r).toMatchObject({ ok: true, source: 'live' });
    expect(r.data?.trends).toEqual([
      { word: '快手年度美食榜', source: 'kuaishou', rank: 1, hot_value: 15234000, url: 'https://www.kuaishou.com/search/video?searchKey=%E5%BF%AB%E6%89%8B%E5%B9%B4%E5%BA%A6%E7%BE%8E%E9%A3%9F%E6%A6%9C' },
      { word: '重庆小面', source: 'kuaishou', rank: 2, hot_value: 9861000, url: 'https://www.kuaishou.com/search/video?searchKey=%E9%87%8D%E5%BA%86%E5%B0%8F%E9%9D%A2' },
      { word: '冬天第一顿火锅', source: 'kuaishou', rank: 3, hot_value: 5320000, url: 'https://www.kuaishou.com/search/video?searchKey=%E5%86%AC%E5%A4%A9%E7%AC%AC%E4%B8%80%E9%A1%BF%E7%81%AB%E9%94%85' },
      { word: '回锅肉做法', source: 'kuaishou', rank: 4, hot_value: 882000, url: 'https://www.kuaishou.com/search/video?searchKey=%E5%9B%9E%E9%94%85%E8%82%89%E5%81%9A%E6%B3%95' },
    ]);
  });

  it('a verification page instead of the home page is blocked; a page without the board is an upstream error', async () => {
    const verify = handHar('GET', 'https://www.kuaishou.com/?isHome=1', { type: 'text/html', body: '<html><title>安全验证</title><body>captcha</body></html>' });
    expect((await run('hot', {}, [verify])).result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    const changed = handHar('GET', 'https://www.kuaishou.com/?isHome=1', { type: 'text/html', body: '<script>window.__APOLLO_STATE__={"defaultClient":{"ROOT_QUERY":{}}};</script>' });
    expect((await run('trending', {}, [changed])).result).toMatchObject({ ok: false, error: { code: 'upstream_error' } });
  });
});

// ---------------------------------------------------------------------------------------------

describe('kuaishou.recommended (mini-program recommend feed)', () => {
  it('reads the recorded 2020 batch; a repeated batch (same llsid) ends the feed', async () => {
    const file = real('recommended-wxmini-feed.har');
    const { result, requests } = await run('recommended', { limit: 24 }, [file], { session: WX });
    expect(requests).toEqual(['POST https://wxmini-api.uyouqu.com/rest/wd/feed/recommend', 'POST https://wxmini-api.uyouqu.com/rest/wd/feed/recommend']);
    const feeds = raw(file).feeds;
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 8 });
    expect(env.items.map((i) => i.id)).toEqual(feeds.map((f: any) => `kuaishou:${new URLSearchParams(f.share_info).get('photoId')}`));
    const f = feeds[0];
    expect(env.items[0]).toEqual({
      id: 'kuaishou:3x54fyas22mwf5k',
      type: 'video',
      provider: 'kuaishou',
      text: f.caption,
      author: '掌阅远山',
      author_id: '3xwwpz3m24v3qv9',
      author_url: 'https://www.kuaishou.com/profile/3xwwpz3m24v3qv9',
      url: 'https://www.kuaishou.com/short-video/3x54fyas22mwf5k',
      thumb: image(f.coverUrls[0].url),
      media: [{ kind: 'video', url: video(f.mainMvUrls[0].url), w: 720, h: 1280, duration_s: 173.799 }],
      ts: 1598007600,
      duration_s: 173.799,
      aspect: { width: 720, height: 1280 },
      stats: { likes: 19872, comments: 817, views: 471547 },
      provenance: 'live',
    });
    expect(env.next_cursor).toBeUndefined();
  });

  it('without a mini-program session: session_expired naming the credential, no request', async () => {
    const { result, requests } = await run('recommended', {}, [SANDBOX]);
    expect(requests).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
    expect((result as Envelope).error?.message).toMatch(/credentials\.wxmini_cookie/);
  });

  it('sandbox batch', async () => {
    const env = (await run('recommended', { limit: 2 }, [SANDBOX], { session: WX })).result as Envelope;
    expect(env.items.map((i) => [i.id, i.author_handle])).toEqual([
      ['kuaishou:3xfz7n3kp9s2tgb', 'laochen_chuancai'],
      ['kuaishou:3xdm5c2rj7wq8ha', undefined],
    ]);
  });
});

describe('recordings', () => {
  it('every real kuaishou recording was replayed above', () => {
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(all.sort()).toEqual([...used].sort());
  });
  it('every sandbox recording says it is hand-made', () => {
    for (const f of readdirSync(SANDBOX)) {
      for (const e of har(join(SANDBOX, f)).log.entries) expect(e.comment, f).toMatch(/^hand-made/);
    }
  });
});
