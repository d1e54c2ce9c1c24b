import { readFileSync, readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import { aidToBvid } from '../../src/platforms/bilibili/ids.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every bilibili recording, replayed through the real catalog validation, adapter and runner
 * normalization. Hand-made sandbox recordings (sandbox/bilibili) stand in where no real one exists:
 * the view that names a playurl fixture's cid, page 2 of a walk, the error answers, and the demo set.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bilibili');
const SANDBOX = resolve(process.cwd(), 'sandbox/bilibili');
const used = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => resolve(SANDBOX, name);
const raw = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);
const NAV = (): string => real('error-101-nav-not-logged-in.har');

const run = (action: string, params: Record<string, unknown>, replay: string[]) => runAction({ source: 'bilibili', action, params, replay });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=bilibili&profile=default`;
const https = (u: string): string => (u.startsWith('//') ? `https:${u}` : u.replace(/^http:\/\//, 'https://'));
const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' };
const searchTitle = (s: string): string => s.replace(/<[^>]*>/g, '').replace(/&(?:lt|gt|amp|quot);/g, (e) => ENTITIES[e]);
const clock = (s: string): number => s.split(':').reduce((a, p) => a * 60 + Number(p), 0);
const paths = (requests: string[]): string[] => requests.map((r) => r.replace(/\?.*$/, ''));
const param = (request: string, name: string): string | null => new URL(request.replace(/^[A-Z]+ /, '')).searchParams.get(name);

describe('bilibili.search', () => {
  it('reads the recorded video search page, field by field, WBI-signed with the nav keys', async () => {
    const file = real('search-video-huoying.har');
    const { result, requests, warnings } = await run('search', { query: '火影忍者', limit: 42 }, [file, NAV()]);
    expect(paths(requests)).toEqual([
      'GET https://api.bilibili.com/x/frontend/finger/spi',
      'GET https://api.bilibili.com/x/web-interface/nav',
      'GET https://api.bilibili.com/x/web-interface/wbi/search/type',
    ]);
    const sent = requests[2];
    expect([param(sent, 'search_type'), param(sent, 'keyword'), param(sent, 'page'), param(sent, 'page_size')]).toEqual(['video', '火影忍者', '1', '42']);
    expect(param(sent, 'w_rid')).toMatch(/^[0-9a-f]{32}$/);
    expect(param(sent, 'wts')).toMatch(/^\d{10}$/);
    expect(warnings).toEqual([]);

    const env = result as Envelope;
    const results = raw(file).data.result;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 42 });
    expect(env.items.map((i) => i.id)).toEqual(results.map((r: any) => `bilibili:${r.bvid}`));
    const r = results[0];
    expect(env.items[0]).toEqual({
      id: 'bilibili:BV19wFGzzEPZ',
      type: 'video',
      provider: 'bilibili',
      title: '【火-影-忍-者】全720集 4K超清未删减完整版 reaction',
      author: r.author,
      author_id: String(r.mid),
      author_handle: r.author,
      author_url: `https://space.bilibili.com/${r.mid}`,
      url: 'https://www.bilibili.com/video/BV19wFGzzEPZ',
      thumb: image(https(r.pic)),
      media: [],
      ts: r.pubdate,
      duration_s: 14150 * 60 + 36,
      stats: { likes: r.like, comments: r.review, views: r.play },
      provenance: 'live',
    });
    for (const [i, item] of env.items.entries()) {
      expect(item.title).toBe(searchTitle(results[i].title));
      expect(item.duration_s).toBe(clock(results[i].duration));
      expect(item.thumb).toBe(image(https(results[i].pic)));
    }
    expect(env.next_cursor).toBeTruthy();
  });

  it('the next page asks page=2 (and fails loudly, naming it, since it is not recorded)', async () => {
    const first = (await run('search', { query: '火影忍者', limit: 42 }, [real('search-video-huoying.har'), NAV()])).result as Envelope;
    await expect(run('search', { query: '火影忍者', cursor: first.next_cursor }, [real('search-video-huoying.har'), NAV()])).rejects.toThrow(/wbi\/search\/type\?.*page=2/);
  });

  it('-352 risk control is blocked, not empty', async () => {
    const { result } = await run('search', { query: '火影忍者' }, [real('error-352-risk-control.har'), NAV()]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', count: 0, items: [], error: { code: 'blocked', retryable: true } });
  });

  it('sandbox: no hits is an honest empty; a voucher-only answer is blocked; -799 is rate_limited', async () => {
    expect((await run('search', { query: 'zqxjkvwy无结果' }, [sand('error-search-empty.har'), NAV()])).result).toMatchObject({ ok: true, source: 'empty', count: 0 });
    expect((await run('search', { query: '风控测试' }, [sand('error-search-voucher.har'), NAV()])).result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    expect((await run('search', { query: '频率测试' }, [sand('error-search-799.har'), NAV()])).result).toMatchObject({ ok: false, error: { code: 'rate_limited', retryable: true } });
  });
});

describe('bilibili.posts', () => {
  it('uploads: the signed list is tried first, the recorded unsigned path answers', async () => {
    const file = real('posts-space-arc-search-53456.har');
    const { result, requests } = await run('posts', { query: 'https://space.bilibili.com/53456', limit: 2 }, [file, NAV()]);
    expect(paths(requests).slice(2)).toEqual(['GET https://api.bilibili.com/x/space/wbi/arc/search', 'GET https://api.bilibili.com/x/space/arc/search']);
    expect(requests[3]).toBe('GET https://api.bilibili.com/x/space/arc/search?mid=53456&ps=30&pn=1');
    const env = result as Envelope;
    const [a, b] = raw(file).data.list.vlist;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 2 });
    expect(env.items[0]).toEqual({
      id: 'bilibili:BV1ac5yzhE94',
      type: 'video',
      provider: 'bilibili',
      title: a.title,
      text: a.description,
      author: '影视飓风',
      author_id: '946974',
      author_handle: '影视飓风',
      author_url: 'https://space.bilibili.com/946974',
      url: 'https://www.bilibili.com/video/BV1ac5yzhE94',
      thumb: image(https(a.pic)),
      media: [],
      ts: a.created,
      duration_s: 22 * 60 + 11,
      stats: { comments: a.comment, views: a.play },
      provenance: 'live',
    });
    expect(env.items[1]).toMatchObject({ id: `bilibili:${b.bvid}`, ts: b.created, thumb: image(b.pic), stats: { comments: 0, views: 8506 } });
    expect(env.items[1].duration_s).toBeUndefined();
    expect(env.next_cursor).toBeTruthy();
  });

  it('walks to page 2 with max_items (page 2 hand-made, on the signed path)', async () => {
    const { result, requests } = await run('posts', { query: '53456', max_items: 3 }, [real('posts-space-arc-search-53456.har'), sand('posts-arc-53456-page2.har'), NAV()]);
    const env = result as Envelope;
    const page2 = raw(sand('posts-arc-53456-page2.har')).data.list.vlist[0];
    expect(env.items.map((i) => i.id)).toEqual(['bilibili:BV1ac5yzhE94', 'bilibili:BV1WB5ezxEnz', `bilibili:${page2.bvid}`]);
    expect(page2.bvid).toBe(aidToBvid(page2.aid));
    expect(param(requests[requests.length - 1], 'pn')).toBe('2');
    expect(env.next_cursor).toBeTruthy();
  });

  it('dynamics: tab=dynamics reads the space feed, field by field', async () => {
    const file = real('posts-161775300-dynamics.har');
    const { result, requests, warnings } = await run('posts', { query: '161775300', tab: 'dynamics', limit: 12 }, [file, NAV()]);
    expect(paths(requests).slice(2)).toEqual(['GET https://api.bilibili.com/x/polymer/web-dynamic/v1/feed/space']);
    expect([param(requests[2], 'host_mid'), param(requests[2], 'offset')]).toEqual(['161775300', '']);
    expect(warnings).toEqual([]);
    const env = result as Envelope;
    const items = raw(file).data.items;
    expect(env.count).toBe(12);
    expect(env.items.map((i) => i.id)).toEqual(items.map((it: any) => (it.type === 'DYNAMIC_TYPE_AV' ? `bilibili:${it.modules.module_dynamic.major.archive.bvid}` : `bilibili:${it.id_str}`)));
    expect(env.items.map((i) => i.type)).toEqual(items.map((it: any) => ({ DYNAMIC_TYPE_DRAW: 'image', DYNAMIC_TYPE_AV: 'video', DYNAMIC_TYPE_FORWARD: 'text' })[it.type as string]));
    const draw = items[0].modules;
    expect(env.items[0]).toMatchObject({
      author: '明日方舟',
      author_id: '161775300',
      author_url: 'https://space.bilibili.com/161775300',
      url: 'https://t.bilibili.com/916751749918752793',
      text: draw.module_dynamic.desc.text,
      ts: draw.module_author.pub_ts,
      stats: { likes: draw.module_stat.like.count, comments: draw.module_stat.comment.count, shares: draw.module_stat.forward.count },
    });
    const pic = draw.module_dynamic.major.draw.items[0];
    expect(env.items[0].media).toEqual([{ kind: 'image', url: image(pic.src), w: pic.width, h: pic.height }]);
    const av = items[8].modules.module_dynamic.major.archive;
    expect(env.items[8]).toMatchObject({ id: 'bilibili:BV1Jp421y72e', title: av.title, thumb: image(https(av.cover)), duration_s: 326, stats: { views: 1_903_000 } });
    expect(env.next_cursor).toBeTruthy();
  });

  it('dynamics page 2 is asked with the offset of page 1 (page 2 hand-made)', async () => {
    const first = (await run('posts', { query: '161775300', tab: 'dynamics', limit: 12 }, [real('posts-161775300-dynamics.har'), NAV()])).result as Envelope;
    const { result, requests } = await run('posts', { query: '161775300', cursor: first.next_cursor }, [sand('posts-dynamics-161775300-page2.har'), NAV()]);
    expect(param(requests[requests.length - 1], 'offset')).toBe(raw(resolve(FIXTURES, 'posts-161775300-dynamics.har')).data.offset);
    expect((result as Envelope).items.map((i) => [i.id, i.type])).toEqual([['bilibili:915400000000000001', 'text']]);
    expect((result as Envelope).next_cursor).toBeUndefined();
  });

  it('with no tab, a creator whose uploads list cannot be read is served from the dynamics feed, with a warning', async () => {
    const { result, warnings } = await run('posts', { query: '161775300', limit: 3 }, [real('posts-161775300-dynamics.har'), NAV()]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['bilibili:916751749918752793', 'bilibili:917925942426337285', 'bilibili:917569936907305028']);
    expect(warnings).toEqual([expect.stringMatching(/uploads list of 161775300 could not be read.*dynamics/)]);
  });

  it('tab=videos never falls back to dynamics', async () => {
    await expect(run('posts', { query: '161775300', tab: 'videos' }, [real('posts-161775300-dynamics.har'), NAV()])).rejects.toThrow(/x\/space\/wbi\/arc\/search/);
  });
});

describe('bilibili.user', () => {
  it('the card answers everything in one request', async () => {
    const { result, requests } = await run('user', { query: '2' }, [real('user-card-mid2.har')]);
    expect(requests).toEqual(['GET https://api.bilibili.com/x/frontend/finger/spi', 'GET https://api.bilibili.com/x/web-interface/card?mid=2&photo=true']);
    expect(result as CreatorResult).toEqual({
      ok: true,
      source: 'live',
      items: [],
      ms: expect.any(Number),
      data: {
        platform: 'bilibili',
        author: {
          id: '2',
          source: 'bilibili',
          handle: '碧诗',
          name: '碧诗',
          bio: 'kami.im 直男过气网红 # av362830 “We Are Star Dust”',
          avatar: image('https://i2.hdslb.com/bfs/face/ef0457addb24141e15dfac6fbf45293ccf1e32ab.jpg'),
          url: 'https://space.bilibili.com/2',
          followers: 969999,
          following: 234,
          posts: 37,
          likes: 3547978,
          verified: true,
        },
      },
    });
  });

  it('falls back to the signed space profile (followers unreported without relation/stat)', async () => {
    const { result, requests, warnings } = await run('user', { query: 'UID:2' }, [real('user-wbi-acc-info-mid2.har'), NAV()]);
    expect(paths(requests).slice(1)).toEqual([
      'GET https://api.bilibili.com/x/web-interface/card',
      'GET https://api.bilibili.com/x/web-interface/nav',
      'GET https://api.bilibili.com/x/space/wbi/acc/info',
      'GET https://api.bilibili.com/x/relation/stat',
    ]);
    const d = raw(resolve(FIXTURES, 'user-wbi-acc-info-mid2.har')).data;
    expect((result as CreatorResult).data!.author).toEqual({ id: '2', source: 'bilibili', handle: d.name, name: d.name, bio: d.sign, avatar: image(d.face), url: 'https://space.bilibili.com/2', verified: true });
    expect(warnings).toEqual([expect.stringMatching(/followers\/following of 2 are not reported/)]);
  });

  it('the 2022 unsigned acc/info of 161775300', async () => {
    const { result, requests } = await run('user', { query: 'https://space.bilibili.com/161775300/dynamic' }, [real('user-161775300-space-acc-info.har'), NAV()]);
    expect(requests).toContain('GET https://api.bilibili.com/x/space/acc/info?mid=161775300');
    expect((result as CreatorResult).data!.author).toMatchObject({
      id: '161775300',
      name: '明日方舟',
      bio: '重铸未来 方舟启航',
      avatar: image('https://i0.hdslb.com/bfs/face/89154378c06a5ed332c40c2ca56f50cd641c0c90.jpg'),
      verified: true,
    });
  });

  it('followers/following come from relation/stat (profile hand-made)', async () => {
    const { result, requests } = await run('user', { query: '332704117' }, [real('user-relation-stat-332704117.har'), sand('user-wbi-acc-info-332704117.har'), NAV()]);
    expect(requests[requests.length - 1]).toBe('GET https://api.bilibili.com/x/relation/stat?vmid=332704117');
    expect((result as CreatorResult).data!.author).toMatchObject({ id: '332704117', followers: 919515, following: 32, verified: false });
  });

  it('a mid that does not exist is not_found (sandbox)', async () => {
    expect((await run('user', { query: '999999999999' }, [sand('error-user-404.har')])).result).toMatchObject({ ok: false, error: { code: 'not_found', retryable: false } });
  });
});

describe('bilibili.detail', () => {
  it('view: metadata field by field; without a playurl recording the item comes with a warning and no stream', async () => {
    const file = real('detail-view-BV117411r7R1.har');
    const { result, requests, warnings } = await run('detail', { query: 'https://www.bilibili.com/video/BV117411r7R1/' }, [file]);
    expect(requests.slice(1)).toEqual([
      'GET https://api.bilibili.com/x/web-interface/view?aid=85440373&bvid=BV117411r7R1',
      'GET https://api.bilibili.com/x/player/playurl?avid=85440373&bvid=BV117411r7R1&cid=146044693&fnval=4048&fnver=0&fourk=1',
    ]);
    const d = raw(file).data;
    expect((result as Envelope).items).toEqual([
      {
        id: 'bilibili:BV117411r7R1',
        type: 'video',
        provider: 'bilibili',
        title: d.title,
        text: d.desc,
        author: d.owner.name,
        author_id: String(d.owner.mid),
        author_handle: d.owner.name,
        author_url: 'https://space.bilibili.com/66606350',
        url: 'https://www.bilibili.com/video/BV117411r7R1',
        thumb: image(https(d.pic)),
        media: [],
        ts: d.pubdate,
        duration_s: d.duration,
        aspect: { width: 1920, height: 1080 },
        stats: { likes: d.stat.like, comments: d.stat.reply, shares: d.stat.share, views: d.stat.view },
        provenance: 'live',
      },
    ]);
    expect(warnings).toEqual([expect.stringMatching(/^no playable stream for BV117411r7R1: replay: no recording matches GET .*playurl/)]);
  });

  it('view + playurl (hand-made, a two-segment FLV): both segments, PCDN avoided', async () => {
    const { result, warnings } = await run('detail', { query: 'BV117411r7R1' }, [real('detail-view-BV117411r7R1.har'), sand('detail-playurl-BV117411r7R1.har')]);
    const durl = raw(sand('detail-playurl-BV117411r7R1.har')).data.durl;
    expect((result as Envelope).items[0].media).toEqual([
      { kind: 'video', url: video(durl[0].url), w: 1920, h: 1080, duration_s: 243 },
      { kind: 'video', url: video(durl[1].backup_url[0]), w: 1920, h: 1080, duration_s: 243 },
    ]);
    expect(warnings).toEqual(['the progressive stream comes in 2 consecutive segments (media[] in order)']);
  });

  it('view/detail answers when view cannot; an av id is converted locally', async () => {
    const file = real('detail-view-detail-BV17x411w7KC.har');
    const { result, requests, warnings } = await run('detail', { query: 'av170001' }, [file]);
    expect(paths(requests).slice(1)).toEqual([
      'GET https://api.bilibili.com/x/web-interface/view',
      'GET https://api.bilibili.com/x/web-interface/view/detail',
      'GET https://api.bilibili.com/x/player/playurl',
    ]);
    expect(param(requests[3], 'cid')).toBe('279786');
    const v = raw(file).data.View;
    expect((result as Envelope).items[0]).toMatchObject({
      id: 'bilibili:BV17x411w7KC',
      title: v.title,
      author: '冰封.虾子',
      author_id: '122541',
      thumb: image(https(v.pic)),
      ts: 1320850533,
      duration_s: 2412,
      aspect: { width: 512, height: 288 },
      stats: { likes: 928358, comments: 184686, shares: 12779204, views: 45252521 },
    });
    expect(warnings[0]).toMatch(/10 parts; media\[\] is part 1/);
  });

  it('?p=N picks that part for the stream', async () => {
    const { requests } = await run('detail', { query: 'https://www.bilibili.com/video/BV17x411w7KC?p=2' }, [real('detail-view-detail-BV17x411w7KC.har')]);
    expect(param(requests[requests.length - 1], 'cid')).toBe('275431');
  });

  it('playurl durl (FLV, 2022): the progressive stream (view hand-made)', async () => {
    const file = real('detail-playurl-flv-BV1y7411Q7Eq.har');
    const { result, requests, warnings } = await run('detail', { query: 'BV1y7411Q7Eq' }, [file, sand('detail-view-BV1y7411Q7Eq.har')]);
    expect([param(requests[2], 'bvid'), param(requests[2], 'cid')]).toEqual(['BV1y7411Q7Eq', '171776208']);
    const d = raw(file).data;
    expect((result as Envelope).items[0].media).toEqual([{ kind: 'video', url: video(d.durl[0].url), w: 1920, h: 1080, duration_s: d.durl[0].length / 1000 }]);
    expect(warnings).toEqual([]);
  });

  it('playurl DASH (2025): the best AVC video track from a bilibili mirror, and a warning that audio is separate', async () => {
    const file = real('detail-playurl-dash-BV1rp4y1e745.har');
    const { result, warnings } = await run('detail', { query: 'https://m.bilibili.com/video/BV1rp4y1e745' }, [file, sand('detail-view-BV1rp4y1e745.har')]);
    const d = raw(file).data;
    const track = d.dash.video.find((v: any) => v.id === 80 && v.codecid === 7);
    expect(new URL(track.base_url).hostname).toMatch(/mcdn\.bilivideo\.cn$/);
    expect((result as Envelope).items[0].media).toEqual([{ kind: 'video', url: video(track.backup_url[0]), w: track.width, h: track.height, duration_s: d.timelength / 1000 }]);
    expect(warnings).toEqual([expect.stringMatching(/^DASH stream: media\[0\] is the video-only track \(quality 80, avc1/)]);
  });

  it('playurl DASH with AI-dubbed audio (2026): quality 112', async () => {
    const file = real('detail-playurl-dash-ai-dub-BV1pR6UB3ENW.har');
    const { result } = await run('detail', { query: 'BV1pR6UB3ENW' }, [file, sand('detail-view-BV1pR6UB3ENW.har')]);
    const track = raw(file).data.dash.video[0];
    expect(track).toMatchObject({ id: 112, codecid: 7 });
    expect((result as Envelope).items[0].media).toEqual([{ kind: 'video', url: video(track.base_url), w: 1920, h: 1080, duration_s: 173.1 }]);
  });

  it('a b23.tv short link is followed to its video (HEAD, no hop into bilibili itself)', async () => {
    const { result, requests } = await run('detail', { query: 'https://b23.tv/BV1JxC6Y8EP5' }, [real('resolve-b23-BV1JxC6Y8EP5.har'), sand('detail-BV1JxC6Y8EP5.har')]);
    expect(requests[0]).toBe('HEAD https://b23.tv/BV1JxC6Y8EP5');
    expect(requests.filter((r) => r.includes('www.bilibili.com'))).toEqual([]);
    expect((result as Envelope).items[0]).toMatchObject({ id: 'bilibili:BV1JxC6Y8EP5', aspect: { width: 1920, height: 1080 } });
  });

  it('sandbox: -404 and 62002 are not_found', async () => {
    expect((await run('detail', { query: 'av10' }, [sand('error-view-404.har')])).result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await run('detail', { query: 'av11' }, [sand('error-view-62002.har')])).result).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('bilibili.comments', () => {
  it('x/v2/reply (2026): roots, each followed by its inline replies threaded by parent_id', async () => {
    const file = real('comments-BV1M1421t7hT-page1.har');
    const { result, requests, warnings } = await run('comments', { query: 'BV1M1421t7hT', limit: 100 }, [file, NAV()]);
    expect(paths(requests).slice(2)).toEqual([
      'GET https://api.bilibili.com/x/v2/reply/wbi/main',
      'GET https://api.bilibili.com/x/v2/reply/main',
      'GET https://api.bilibili.com/x/v2/reply',
      'GET https://api.bilibili.com/x/v2/reply',
    ]);
    expect(requests[4]).toBe('GET https://api.bilibili.com/x/v2/reply?type=1&oid=1556386640&sort=1&ps=20&pn=1&nohot=1');
    // The page list goes on where the recording ends: the runner keeps page 1 and says so.
    expect(param(requests[5], 'pn')).toBe('2');
    expect(warnings).toEqual([expect.stringMatching(/^stopped after 1 page\(s\): replay: no recording matches/)]);
    const res = result as CommentsResult;
    const replies = raw(file).data.replies;
    const expected: Array<[string, string | null]> = [];
    for (const r of replies) {
      expected.push([String(r.rpid), null]);
      for (const c of r.replies ?? []) expected.push([String(c.rpid), String(c.parent)]);
    }
    expect(res).toMatchObject({ source: 'live', total: 2240 });
    expect(res.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual(expected);
    const sub = replies[0].replies[2];
    expect(res.items[3]).toEqual({
      cid: String(sub.rpid),
      text: sub.content.message,
      likes: sub.like,
      reply_total: sub.rcount,
      user_id: String(sub.mid),
      handle: sub.member.uname,
      user_name: sub.member.uname,
      created_at: sub.ctime,
      source: 'bilibili',
      url: `https://www.bilibili.com/video/BV1M1421t7hT#reply${sub.rpid}`,
      parent_id: '237109513696',
    });
  });

  it('x/v2/reply sorted by likes (2022): page 1 and the cursor of page 2', async () => {
    const file = real('comments-reply-av2-sort1-page1.har');
    const { result } = await run('comments', { query: 'av2', limit: 5 }, [file]);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 76792, has_more: true });
    expect(res.items.map((c) => c.cid)).toEqual(raw(file).data.replies.map((r: any) => r.rpid_str));
    expect(res.items[0]).toMatchObject({ user_id: '621197713', handle: '小鹿不跑路', likes: 1, created_at: 1646205507, url: 'https://www.bilibili.com/video/BV1xx411c7mD#reply104192624480' });
    await expect(run('comments', { query: 'av2', cursor: res.cursor }, [file])).rejects.toThrow(/x\/v2\/reply\?.*pn=2/);
  });

  it('x/v2/reply/hot (2020) answers hot order when the other lists cannot', async () => {
    const file = real('comments-hot-av2.har');
    const { result, requests } = await run('comments', { query: 'https://www.bilibili.com/video/av2', limit: 5 }, [file]);
    expect(paths(requests).slice(-1)).toEqual(['GET https://api.bilibili.com/x/v2/reply/hot']);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 76796 });
    expect(res.items.map((c) => [c.cid, c.likes, c.reply_total, c.handle])).toEqual(raw(file).data.replies.map((r: any) => [String(r.rpid), r.like, r.rcount, '']));
  });

  it('wbi/main newest first (2024), then page 2 with pagination_str (page 2 hand-made)', async () => {
    const file = real('comments-wbi-main-av2-mode2.har');
    const { result, requests } = await run('comments', { query: 'BV1xx411c7mD', sort: 'time', limit: 2 }, [file, NAV()]);
    expect([param(requests[2], 'oid'), param(requests[2], 'mode'), param(requests[2], 'pagination_str')]).toEqual(['2', '2', null]);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 86234, has_more: true });
    expect(res.items.map((c) => [c.cid, c.handle, c.created_at])).toEqual([
      ['237740291920', '天堂いyoulin', 1723639342],
      ['237689432448', '小烟同学424', 1723624563],
    ]);
    const next = await run('comments', { query: 'BV1xx411c7mD', sort: 'time', cursor: res.cursor }, [sand('comments-wbi-main-av2-mode2-page2.har'), NAV()]);
    expect(JSON.parse(param(next.requests[2], 'pagination_str')!)).toEqual({ offset: raw(file).data.cursor.pagination_reply.next_offset });
    expect(next.result as CommentsResult).toMatchObject({ has_more: false, items: [{ cid: '237600000001' }] });
  });

  it('replies_of pages one thread (x/v2/reply/reply); each reply names the comment it answers', async () => {
    const file = real('replies-reply-av201022189-root3030790837.har');
    const { result, requests } = await run('comments', { query: 'av201022189', replies_of: '3030790837', limit: 5 }, [file]);
    expect(requests[1]).toBe('GET https://api.bilibili.com/x/v2/reply/reply?type=1&oid=201022189&root=3030790837&ps=20&pn=1');
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 230, has_more: true });
    expect(res.items.map((c) => [c.cid, c.parent_id])).toEqual(raw(file).data.replies.map((r: any) => [String(r.rpid), String(r.parent)]));
  });

  it('sandbox: -101 is session_expired; a closed comment area is an honest empty with a warning', async () => {
    expect((await run('comments', { query: 'av12' }, [sand('error-comments-101.har'), NAV()])).result).toMatchObject({ source: 'live', error: { code: 'session_expired' } });
    const closed = await run('comments', { query: 'av13' }, [sand('error-comments-closed.har'), NAV()]);
    expect(closed.result).toMatchObject({ source: 'empty', total: 0, items: [] });
    expect(closed.warnings).toEqual(['the comment area of BV1xx411c7mm is closed']);
  });
});

describe('bilibili.hot', () => {
  it('popular (default category): archive items with stats and aspect', async () => {
    const file = real('hot-popular-ps2-pn1.har');
    const { result, requests } = await run('hot', { limit: 2 }, [file, NAV()]);
    expect([param(requests[requests.length - 1], 'pn'), param(requests[requests.length - 1], 'ps')]).toEqual(['1', '20']);
    const env = result as Envelope;
    const [a] = raw(file).data.list;
    expect(env.items.map((i) => i.id)).toEqual(['bilibili:BV1tz421i7zb', 'bilibili:BV1MU411S7Cc']);
    expect(env.items[0]).toMatchObject({
      title: a.title,
      author: a.owner.name,
      author_id: String(a.owner.mid),
      ts: a.pubdate,
      duration_s: a.duration,
      aspect: { width: 1080, height: 1920 },
      thumb: image(https(a.pic)),
      stats: { likes: a.stat.like, comments: a.stat.reply, shares: a.stat.share, views: a.stat.view },
    });
    expect(env.next_cursor).toBeTruthy();
  });

  it('ranking of a partition (category douga = rid 1): the recorded top list', async () => {
    const file = real('hot-ranking-v2-tid1-all.har');
    const { result, requests } = await run('hot', { category: 'douga', limit: 100 }, [file, NAV()]);
    const sent = requests[requests.length - 1];
    expect([param(sent, 'rid'), param(sent, 'tid'), param(sent, 'type')]).toEqual(['1', '1', 'all']);
    const env = result as Envelope;
    const list = raw(file).data.list;
    expect(env.items.map((i) => i.id)).toEqual(list.map((a: any) => `bilibili:${a.bvid}`));
    expect(env.items[0]).toMatchObject({ title: list[0].title, duration_s: 752, stats: { views: 1156543, likes: 136884 } });
    expect(env.next_cursor).toBeUndefined();
  });

  it('another partition never takes the rid 1 recording; HTTP 412 is blocked (sandbox)', async () => {
    await expect(run('hot', { category: 'music' }, [real('hot-ranking-v2-tid1-all.har'), NAV()])).rejects.toThrow(/ranking\/v2/);
    expect((await run('hot', { category: 'music' }, [sand('error-ranking-412.har'), NAV()])).result).toMatchObject({ source: 'blocked', error: { code: 'blocked' } });
  });
});

describe('bilibili.trending', () => {
  it('the web search square, ranked in order', async () => {
    const file = real('trending-search-square-limit4.har');
    const { result, requests } = await run('trending', {}, [file]);
    expect(requests[1]).toBe('GET https://api.bilibili.com/x/web-interface/search/square?limit=50');
    const list = raw(file).data.trending.list;
    expect((result as TrendResult).data!.trends).toEqual(
      list.map((e: any, i: number) => ({ word: e.show_name, source: 'bilibili', rank: i + 1, url: `https://search.bilibili.com/all?keyword=${encodeURIComponent(e.keyword)}` })),
    );
  });

  it('the app ranking when the square cannot answer (rank = position)', async () => {
    const file = real('trending-app-search-ranking.har');
    const { result, requests } = await run('trending', {}, [file]);
    expect(paths(requests).slice(1)).toEqual(['GET https://api.bilibili.com/x/web-interface/search/square', 'GET https://app.bilibili.com/x/v2/search/trending/ranking']);
    const trends = (result as TrendResult).data!.trends;
    expect(trends.map((t) => [t.rank, t.word])).toEqual(raw(file).data.list.map((e: any) => [e.position, e.show_name]));
  });

  it('the s.search hotword list last (rank = pos); board=hotword asks it directly', async () => {
    const file = real('trending-hotword.har');
    const { result } = await run('trending', {}, [file]);
    const list = raw(file).list;
    expect((result as TrendResult)).toMatchObject({ ok: true, source: 'live' });
    expect((result as TrendResult).data!.trends.map((t) => [t.rank, t.word])).toEqual(list.map((e: any) => [e.pos, e.show_name]));
    const direct = await run('trending', { board: 'hotword' }, [file]);
    expect(direct.requests).toEqual(['GET https://api.bilibili.com/x/frontend/finger/spi', 'GET https://s.search.bilibili.com/main/hotword']);
  });
});

describe('bilibili sandbox (what npm run demo replays)', () => {
  const demo = (action: string, params: Record<string, unknown>) => runAction({ source: 'bilibili', action, params, replay: [SANDBOX] });

  it('search 洛天依 walks both pages', async () => {
    const { result, warnings } = await demo('search', { query: '洛天依', limit: 10 });
    const env = result as Envelope;
    expect(env.items.map((i) => i.title)).toEqual([
      '【洛天依】2020.7.12洛天依生日会',
      '【洛天依原创曲】万分之一的光',
      '洛天依2020官方专辑《Moments》试听PV',
      '【洛天依】sandbox page 2, first result',
      '【洛天依】sandbox page 2, second result',
    ]);
    expect(env.items[2].text).toBe('8是数字也是象征；&∞是循环也是无限');
    expect(env.items[3].duration_s).toBe(3723);
    expect(env.items[4].text).toBeUndefined();
    expect(env.next_cursor).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('posts: the whole uploads list of 946974, by @name and by short link, and the dynamics tab', async () => {
    const all = (await demo('posts', { query: '946974', max_items: -1 })).result as Envelope;
    expect(all.count).toBe(4);
    expect(all.next_cursor).toBeUndefined();
    const byName = (await demo('posts', { query: '@影视飓风', limit: 1 })).result as Envelope;
    expect(byName.items[0].id).toBe('bilibili:BV1ac5yzhE94');
    const dyn = (await demo('posts', { query: 'https://b23.tv/Sp4ce9x', tab: 'dynamics' })).result as Envelope;
    expect(dyn.items.map((i) => [i.id, i.type, i.media.length])).toEqual([
      ['bilibili:1000000000000000001', 'image', 2],
      ['bilibili:BV1ac5yzhE94', 'video', 0],
      ['bilibili:1000000000000000003', 'text', 0],
    ]);
    expect(dyn.items[1].stats).toEqual({ likes: 15000, comments: 985, shares: 300, views: 224_000 });
  });

  it('user, detail (via short link), comments and a thread', async () => {
    expect(((await demo('user', { query: 'space.bilibili.com/946974' })).result as CreatorResult).data!.author).toMatchObject({ id: '946974', followers: 13_000_000, posts: 786, verified: true });
    const detail = (await demo('detail', { query: 'https://b23.tv/3kNp9Xq' })).result as Envelope;
    expect(detail.items[0]).toMatchObject({ id: 'bilibili:BV1ac5yzhE94', duration_s: 1331, aspect: { width: 3840, height: 2160 } });
    expect(detail.items[0].media).toEqual([
      { kind: 'video', url: video(raw(sand('detail-BV1ac5yzhE94.har'), 1).data.durl[0].url), w: 3840, h: 2160, duration_s: 1331 },
    ]);
    const comments = (await demo('comments', { query: 'BV1ac5yzhE94', limit: 20 })).result as CommentsResult;
    expect(comments.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['260000000001', null],
      ['260000000002', null],
      ['260000000003', '260000000002'],
      ['260000000004', '260000000003'],
      ['260000000005', null],
      ['260000000006', null],
    ]);
    expect(comments).toMatchObject({ total: 7, has_more: false });
    const thread = (await demo('comments', { query: 'BV1ac5yzhE94', replies_of: '260000000002' })).result as CommentsResult;
    expect(thread.items.map((c) => c.parent_id)).toEqual(['260000000002', '260000000003']);
  });

  it('hot (popular, whole-site ranking), recommended and trending', async () => {
    expect(((await demo('hot', {})).result as Envelope).items.map((i) => i.aspect)).toEqual([
      { width: 1920, height: 1080 },
      { width: 1080, height: 1920 },
    ]);
    expect(((await demo('hot', { category: 'all' })).result as Envelope).count).toBe(2);
    const rec = (await demo('recommended', { limit: 3 })).result as Envelope;
    expect(rec.items.map((i) => i.title)).toEqual(['首页推荐 sandbox 一', '首页推荐 sandbox 二', '首页推荐 sandbox 三']);
    const trends = ((await demo('trending', {})).result as TrendResult).data!.trends;
    expect(trends.map((t) => [t.rank, t.word])).toEqual([
      [1, '影视飓风西藏样片日记'],
      [2, '洛天依生日会'],
      [3, '黑神话'],
    ]);
  });

  it('every sandbox entry is marked hand-made', () => {
    for (const f of readdirSync(SANDBOX).filter((n) => n.endsWith('.har'))) {
      for (const e of JSON.parse(readFileSync(resolve(SANDBOX, f), 'utf8')).log.entries) expect(e.comment).toMatch(/^hand-made sandbox recording: /);
    }
  });
});

describe('bilibili recordings', () => {
  it('the published WBI vector is covered by test/unit/bilibili-signing.test.ts', () => {
    expect(readdirSync(FIXTURES)).toContain('wbi-vector.json');
  });

  // Runs last (vitest keeps file order): every real recording must have been replayed above.
  it('every recording in ../shared/fixtures/bilibili was replayed', () => {
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(all.filter((f) => !used.has(basename(f)))).toEqual([]);
  });
});
