import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import type { PageSigning } from '../../src/platforms/types.js';
import { tieba } from '../../src/platforms/tieba/index.js';
import { readResponse } from '../../src/platforms/tieba/api.js';
import { computeSign, SALTS } from '../../src/platforms/tieba/sign.js';
import { runAction } from '../helpers/run-action.js';
import { tiebaCtx } from '../helpers/tieba-ctx.js';

/*
 * Every tieba recording, replayed through the real catalog validation, adapter and normalization. The real
 * ones (fixtures/tieba, MediaCrawler's 2024 test pages) are the HTML flow: search fragment, forum page,
 * thread pages (DOM snapshots), floor replies, the empty-200 block and the not-logged-in JSON. The
 * hand-made sandbox (sandbox/tieba) covers what none of them does: GBK pages, pagers, users, the user
 * thread list, hot topics, the PC JSON routes of a logged-in profile, jump links and the error pages.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/tieba');
const SANDBOX = resolve(process.cwd(), 'sandbox/tieba');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const text = (file: string, i = 0): string => JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text;
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;
/** The native cursor inside the service's cursor. */
const native = (cursor: string | undefined): string | undefined => (cursor ? JSON.parse(Buffer.from(cursor.slice(3), 'base64url').toString('utf8')).c : undefined);
/** 2024-08-05 16:56 in China time. */
const cst = (y: number, mo: number, d: number, h: number, mi: number): number => Date.UTC(y, mo - 1, d, h - 8, mi) / 1000;
const LOGIN = { cookies: 'BDUSS=sandboxBDUSS; STOKEN=sandboxSTOKEN' };

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'tieba', action, params, replay, ...extra });

describe('tieba on real recordings', () => {
  it('search: every hit of the result fragment, with the GBK-encoded author link decoded; no pager, no cursor', async () => {
    const file = real('search-keyword-fragment.har');
    const html = text(file);
    const { result, requests } = await run('search', { query: '东南亚', limit: 10 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.source).toBe('live');
    expect(env.items.map((i) => i.id)).toEqual([...html.matchAll(/data-tid="(\d+)"/g)].map((m) => `tieba:${m[1]}`));
    const first = env.items[0]!;
    expect(first).toMatchObject({
      type: 'text',
      title: '武汉交互空间科技：富士康10亿加码中国大陆，印度为何逐渐“失宠',
      author: 'VR虚拟达人',
      author_handle: 'VR虚拟达人',
      author_url: 'https://tieba.baidu.com/home/main?un=VR%E8%99%9A%E6%8B%9F%E8%BE%BE%E4%BA%BA&ie=utf-8',
      url: 'https://tieba.baidu.com/p/9117888152?pid=150718967291#150718967291',
      ts: cst(2024, 8, 5, 16, 45),
      stats: {},
    });
    expect(first.text).toMatch(/^全球知名的电子制造服务巨头富士康/);
    // Line breaks in the page source are layout whitespace, not the author's.
    expect(first.text).toContain('升级。 项目一期选址位于郑东新区');
    // The second author link is GBK too (贴吧用户_GC64AUS), the third plain ASCII.
    expect(env.items.slice(1, 3).map((i) => i.author_handle)).toEqual(['贴吧用户_GC64AUS', 'zhaot_188']);
    expect(env.next_cursor).toBeUndefined();
    const sent = new URL(requests[0]!.slice(4));
    expect(Object.fromEntries(sent.searchParams)).toEqual({ ie: 'utf-8', isnew: '1', qw: '东南亚', rn: '10', pn: '1', sm: '1', only_thread: '0' });
  });

  it('search: sort and threads_only become sm and only_thread', async () => {
    const { requests } = await run('search', { query: '东南亚', sort: 'relevance', threads_only: true, limit: 1 }, [real('search-keyword-fragment.har')]);
    const sent = new URL(requests[0]!.slice(4));
    expect([sent.searchParams.get('sm'), sent.searchParams.get('only_thread')]).toEqual(['2', '1']);
  });

  it('posts: the forum page’s 48 threads from the Bigpipe pagelet, with authors, portraits, reply counts and images; the pager’s pn=50 is the cursor', async () => {
    const file = real('posts-forum-daomubiji.har');
    const html = text(file);
    const { result, requests, warnings } = await run('posts', { query: '盗墓笔记', limit: 100 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    const tids = [...html.matchAll(/j_thread_list[^>]*data-tid='(\d+)'/g)].map((m) => m[1]);
    expect(tids).toHaveLength(48);
    expect(env.items.map((i) => i.id)).toEqual(tids.map((t) => `tieba:${t}`));
    const [a, b, c] = env.items;
    expect(a).toMatchObject({
      type: 'image',
      title: '盗墓笔记全集+txt小说，已整理',
      author: '公子伯仲',
      author_handle: '公子伯仲',
      author_id: 'tb.1.9115cccc.su4IfywmJ43rT4i5q38OeQ',
      author_url: 'https://tieba.baidu.com/home/main?id=tb.1.9115cccc.su4IfywmJ43rT4i5q38OeQ',
      url: 'https://tieba.baidu.com/p/9079949995',
      stats: { comments: 18 },
    });
    expect(a!.media.map((m) => origin(m.url))).toEqual([
      'https://tiebapic.baidu.com/forum/pic/item/e0121e23dd54564eb1f3aa06f5de9c82d0584fc5.jpg?tbpicau=2024-08-10-05_3087b2f983905b3b5e1adc0eb39a263a',
      'https://tiebapic.baidu.com/forum/pic/item/c5c7970a19d8bc3e9c9e48f5c48ba61ea9d345c5.jpg?tbpicau=2024-08-10-05_5ee42f784cc1d0486457d2711760c6ee',
      'https://tiebapic.baidu.com/forum/pic/item/f7999ab1cb1349542988a65b104e9258d0094ac5.jpg?tbpicau=2024-08-10-05_7edb039ec4798b24c1d38fe7ce1b2c9a',
    ]);
    expect(origin(a!.thumb!)).toMatch(/^https:\/\/tiebapic\.baidu\.com\/forum\/wh%3D160%2C90\/sign=74876ad0/);
    // The nickname the list shows is the author; the user name is the handle.
    expect(b).toMatchObject({ type: 'text', author: '张海楼🍀', author_handle: '海楼ot', stats: { comments: 36 } });
    expect(b!.text).toMatch(/^有人知道张海琪后来怎么样了吗 南部档案/);
    expect(c).toMatchObject({ author: '高锦💥', author_handle: '金苹果336633' });
    // Page 2 is asked for by the pager's pn; no recording answers it, so the walk stops there with the cursor.
    expect(requests).toEqual([
      'GET https://tieba.baidu.com/f?kw=%E7%9B%97%E5%A2%93%E7%AC%94%E8%AE%B0&ie=utf-8&pn=0',
      'GET https://tieba.baidu.com/f?kw=%E7%9B%97%E5%A2%93%E7%AC%94%E8%AE%B0&ie=utf-8&pn=50',
    ]);
    expect(warnings.join(' ')).toMatch(/stopped/);
    expect(native(env.next_cursor)).toBe('50');
  });

  it('posts: a /f?kw= link with the name in GBK asks for the same forum as the name', async () => {
    const gbk = [...iconv.encode('盗墓笔记', 'gbk')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const { result, requests } = await run('posts', { query: `https://tieba.baidu.com/f?kw=${gbk}&fr=home`, limit: 2 }, [real('posts-forum-daomubiji.har')]);
    expect((result as Envelope).items).toHaveLength(2);
    expect(requests[0]).toBe('GET https://tieba.baidu.com/f?kw=%E7%9B%97%E5%A2%93%E7%AC%94%E8%AE%B0&ie=utf-8&pn=0');
  });

  it('detail: the opening floor of the DOM snapshot: title, shown name, portrait without ?t=, the image, time, reply count', async () => {
    const file = real('detail-thread-9117905169.har');
    const { result, requests } = await run('detail', { query: 'https://tieba.baidu.com/p/9117905169?share=9105&fr=sharewise&see_lz=0&sfc=copy&client_type=2&st=1722942841&unique=ABC' }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    const item = env.items[0]!;
    expect(item).toMatchObject({
      id: 'tieba:9117905169',
      type: 'image',
      title: '对于一个父亲来说，这个女儿14岁就死了',
      author: '章景轩',
      author_handle: '怪物大宝贝',
      author_id: 'tb.1.6ae447d1.1kSMO_ldLGD7OUTJ7rd_Bw',
      url: 'https://tieba.baidu.com/p/9117905169',
      ts: cst(2024, 8, 5, 16, 56),
      stats: { comments: 786 },
    });
    // The floor holds only an image; the page script's "点击展开" tip is not the author's text.
    expect(item.text).toBeUndefined();
    expect(item.media).toHaveLength(1);
    expect(item.media[0]).toMatchObject({ kind: 'image', w: 560, h: 4369 });
    expect(origin(item.media[0]!.url)).toBe('https://tiebapic.baidu.com/forum/w%3D580/sign=38506042de22720e7bcee2f24bca0a3a/0a763eeff01f3a291c5210eedf25bc315c607c18.jpg?tbpicau=2024-08-17-05_ff738b4f1cd44821a9ce4ffe7e563a8d');
    expect(requests).toEqual(['GET https://tieba.baidu.com/p/9117905169']);
  });

  it('comments: page 1’s floors after the opening one, ads skipped; reply totals, users, times; total and the next page', async () => {
    const file = real('comments-thread-9119688421-page1-dom.har');
    const { result } = await run('comments', { query: '9119688421', limit: 29 }, [file]);
    const res = result as CommentsResult;
    expect(res.source).toBe('live');
    expect(res.total).toBe(251);
    expect(res.items).toHaveLength(29);
    expect(res.items.some((c) => c.cid === '150726491368')).toBe(false);
    expect(res.items[0]).toEqual({
      cid: '150726496253',
      text: '全后卫冕成功，还是动作质量高，小炸也赢了',
      likes: 0,
      reply_total: 4,
      user_id: 'tb.1.b08d8f12.IR-tbLlZ2GkD6ARA-mfGOA',
      handle: 'heinzfrentzen',
      user_name: 'heinzfrentzen',
      created_at: cst(2024, 8, 6, 22, 10),
      source: 'tieba',
      url: 'https://tieba.baidu.com/p/9119688421?pid=150726496253#150726496253',
    });
    const floor7 = res.items.find((c) => c.cid === '150726500312')!;
    expect(floor7).toMatchObject({ reply_total: 16, handle: '娜样全满贯' });
    // A user without a user name still has a portrait and a shown name.
    const noName = res.items.find((c) => c.cid === '150726498817')!;
    expect(noName.handle).toBe('');
    expect(noName.user_id).toBe('tb.1.8dc972ac.znRKFyg-PHj8SHelpqgZGg');
    expect(noName.user_name).not.toBe('');
    expect(res.has_more).toBe(true);
    expect(native(res.cursor)).toBe('2');
  });

  it('comments replies_of: the floor’s 楼中楼 from /p/comment (fid read from the thread page), parent_id the floor', async () => {
    const file = real('replies-lzl-9119688421-pid150726500312.har');
    const { result, requests } = await run('comments', { query: 'https://tieba.baidu.com/p/9119688421', replies_of: '150726500312', limit: 10 }, [file, real('comments-thread-9119688421-page1-dom.har')]);
    const res = result as CommentsResult;
    expect(res.total).toBe(16);
    expect(res.items).toHaveLength(10);
    expect(res.items.every((c) => c.parent_id === '150726500312')).toBe(true);
    expect(res.items[0]).toMatchObject({ cid: '150726504693', text: '[表情] [表情]', handle: 'heinzfrentzen', user_id: 'tb.1.b08d8f12.IR-tbLlZ2GkD6ARA-mfGOA', created_at: cst(2024, 8, 6, 22, 11) });
    expect(res.items[1]).toMatchObject({ cid: '150726506822', text: '陈芋汐水花也不小', handle: '可爱的搬运工94' });
    // Shown name and user name differ; a reply to someone keeps tieba's "回复 X :" wording.
    expect(res.items[2]).toMatchObject({ handle: '蚂蚁雅虎哈哈', user_name: '国际体坛巨星青椒肉丝' });
    expect(res.items.at(-1)!.text).toBe('回复 美味蟹黄堡💞 :你不会看起跳高度和空中姿态？');
    expect(native(res.cursor)).toBe('2');
    expect(requests).toEqual(['GET https://tieba.baidu.com/p/9119688421', 'GET https://tieba.baidu.com/p/comment?tid=9119688421&pid=150726500312&fid=4513750&pn=1']);
  });

  it('an empty 200 is blocked, never empty; with a guest BAIDUID in use, it is retried once with a fresh one', async () => {
    const file = real('error-empty-200-block.har');
    const { result } = await run('detail', { query: '9117905169' }, [file]);
    expect((result as Envelope).source).toBe('blocked');
    expect((result as Envelope).error!.code).toBe('blocked');
    const { ctx, requests, warnings, sent } = tiebaCtx([file], { guest: { 'tieba:baiduid': 'OLDGUEST:FG=1' } });
    await expect(tieba.actions.detail!.shape === 'items' && (tieba.actions.detail as any).page(ctx, { query: '9117905169' })).rejects.toMatchObject({ code: 'blocked' });
    expect(requests).toEqual(['GET https://tieba.baidu.com/p/9117905169', 'GET https://tieba.baidu.com/p/9117905169']);
    expect(sent.map((s) => s.headers['cookie'])).toEqual(['BAIDUID=OLDGUEST:FG=1', undefined]);
    expect(warnings.join(' ')).toMatch(/BAIDUID/);
  });

  it('the not-logged-in JSON (error_code "1", needlogin "1") is session_expired', async () => {
    const { ctx } = tiebaCtx([real('error-not-logged-in.har')]);
    const res = await ctx.http.request({ method: 'POST', url: 'https://tieba.baidu.com/mo/q/somepath', form: {} });
    expect(() => readResponse(res, 'a PC form call')).toThrow(expect.objectContaining({ code: 'session_expired' }));
    expect(() => readResponse(res, 'a PC form call')).toThrow(/用户未登录或登录失败/);
  });
});

describe('tieba on the hand-made sandbox', () => {
  it('search: GBK pages (header-declared, then meta-declared), walked by the pager; <em> marks dropped', async () => {
    const { result, requests } = await run('search', { query: '旅行', limit: 10 }, [sand('search-lvxing-gbk.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['tieba:7000000001', 'tieba:7000000002', 'tieba:7000000003']);
    expect(env.items[0]).toMatchObject({ title: '山里的旅行，雾还没散', text: '早上六点出发，山里的雾还没散。第二张是山顶。', author: '旅行的人', author_handle: '旅行的人', ts: cst(2025, 11, 18, 6, 32) });
    expect(env.items[1]!.author_handle).toBe('看海·的人');
    expect(env.items[2]!.title).toBe('旅行的意义');
    expect(requests.map((r) => new URL(r.slice(4)).searchParams.get('pn'))).toEqual(['1', '2']);
    expect(env.next_cursor).toBeUndefined();
  });

  it('search: tieba’s "no results" page is an honest empty; its security check is blocked', async () => {
    expect(((await run('search', { query: 'zzqqxx' }, [sand('search-no-results.har')])).result as Envelope).source).toBe('empty');
    const verify = (await run('search', { query: 'verifyme' }, [sand('error-verify-page.har')])).result as Envelope;
    expect(verify.source).toBe('blocked');
    expect(verify.error!.message).toContain('百度安全验证');
  });

  it('posts (forum): two pages walked by pn; a forum without threads is empty; closed and unknown forums are not_found', async () => {
    const { result, requests } = await run('posts', { query: '沙盒旅行', max_items: 10 }, [sand('posts-forum-lvxing.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['tieba:7000000001', 'tieba:7000000003', 'tieba:7000000004']);
    expect(env.items[1]).toMatchObject({ author: 'traveler_sbx', author_handle: 'traveler_sbx', stats: { comments: 12 } });
    expect(requests.map((r) => new URL(r.slice(4)).searchParams.get('pn'))).toEqual(['0', '50']);
    expect(((await run('posts', { query: '沙盒空吧' }, [sand('posts-forum-empty.har')])).result as Envelope).source).toBe('empty');
    const closed = (await run('posts', { query: '封禁' }, [sand('error-forum-closed.har')])).result as Envelope;
    expect(closed.error).toMatchObject({ code: 'not_found' });
    const missing = (await run('posts', { query: 'https://tieba.baidu.com/f?ie=utf-8&kw=%E6%B2%99%E7%9B%92%E4%B8%8D%E5%AD%98%E5%9C%A8%E7%9A%84%E5%90%A7' }, [sand('error-forum-missing.har')])).result as Envelope;
    expect(missing.error).toMatchObject({ code: 'not_found' });
    expect(missing.error!.message).toContain('/f/search/res');
  });

  it('posts (user): of=user by name walks getthread; a portrait link needs no of= and is named by /home/get/panel first', async () => {
    const byName = (await run('posts', { query: 'traveler_sbx', of: 'user', max_items: 10 }, [sand('posts-user-traveler.har')])).result as Envelope;
    expect(byName.items.map((i) => i.id)).toEqual(['tieba:7000000001', 'tieba:7000000003', 'tieba:7000000005']);
    expect(byName.items[0]).toMatchObject({ title: '山里的清晨，雾还没散', author_handle: 'traveler_sbx', ts: 1763418720, stats: { comments: 4 }, type: 'image' });
    const { result, requests } = await run('posts', { query: 'https://tieba.baidu.com/home/main?id=tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA?t=1760000000&fr=frs', limit: 2 }, [sand('posts-user-traveler.har'), sand('user-panel-traveler.har')]);
    expect((result as Envelope).items[0]).toMatchObject({ author_id: 'tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA', author_url: 'https://tieba.baidu.com/home/main?id=tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA' });
    expect(requests).toEqual(['GET https://tieba.baidu.com/home/get/panel?id=tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA&ie=utf-8', 'GET https://tieba.baidu.com/home/get/getthread?un=traveler_sbx&pn=1&ie=utf-8']);
  });

  it('user: /home/get/panel by portrait link or by name, "1.2万" posts read as 12000; an unknown user is not_found', async () => {
    for (const query of ['https://tieba.baidu.com/home/main?id=tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA?t=1760000000&fr=frs', 'traveler_sbx']) {
      const r = (await run('user', { query }, [sand('user-panel-traveler.har')])).result as CreatorResult;
      expect(r.data!.author).toEqual({
        id: 'tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA',
        source: 'tieba',
        handle: 'traveler_sbx',
        name: '旅行的人',
        avatar: expect.stringContaining('/v1/media?u=https%3A%2F%2Fgss0.bdstatic.com%2F6LZ1dD3d1sgCo2Kml5_Y_D3%2Fsys%2Fportrait%2Fitem%2Ftb.1.5a4db0c1.SandboxTravelerAAAAAAAAA'),
        url: 'https://tieba.baidu.com/home/main?id=tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA',
        followers: 3456,
        posts: 12000,
      });
    }
    const missing = (await run('user', { query: 'nobody_sbx' }, [sand('error-user-missing.har')])).result as CreatorResult;
    expect(missing.error).toMatchObject({ code: 'not_found' });
  });

  it('detail: the sandbox thread (emoticon as [表情], <br> as a line break), and the same thread through a jump2.bdimg.com link', async () => {
    const file = sand('detail-thread-7000000001.har');
    const { result } = await run('detail', { query: '7000000001' }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ id: 'tieba:7000000001', type: 'image', title: '山里的清晨，雾还没散', text: '早上六点出发，山里的雾还没散。\n第二张是山顶。[表情]', author: '旅行的人', author_handle: 'traveler_sbx', ts: cst(2025, 11, 18, 6, 32), stats: { comments: 3 } });
    expect(item.media[0]).toMatchObject({ w: 560, h: 373 });
    const jump = await run('detail', { query: '复制这条链接 https://jump2.bdimg.com/safecheck/index?url=rN3wPs8te/pL4AOY0zAwhz3wi8AXlR5gsMEbyYdIw61zRZu5MSsvRXzX7TzLWwl5 到浏览器' }, [sand('resolve-jump-link.har'), file]);
    expect((jump.result as Envelope).items[0]!.id).toBe('tieba:7000000001');
    expect(jump.requests).toEqual(['GET https://jump2.bdimg.com/safecheck/index?url=rN3wPs8te/pL4AOY0zAwhz3wi8AXlR5gsMEbyYdIw61zRZu5MSsvRXzX7TzLWwl5', 'GET https://tieba.baidu.com/p/7000000001']);
  });

  it('detail: a deleted thread (404, or a 200 error page) is not_found; the security-check redirect is blocked', async () => {
    const gone = (await run('detail', { query: '7000000099' }, [sand('error-thread-deleted.har')])).result as Envelope;
    expect(gone.error).toMatchObject({ code: 'not_found' });
    const gone200 = (await run('detail', { query: '7000000097' }, [sand('error-thread-deleted-200.har')])).result as Envelope;
    expect(gone200.error).toMatchObject({ code: 'not_found' });
    expect(gone200.error!.message).toContain('deleted');
    const verify = (await run('detail', { query: '7000000098' }, [sand('error-verify.har')])).result as Envelope;
    expect(verify.source).toBe('blocked');
    expect(verify.error!.message).toContain('wappass');
  });

  it('comments: floors walked over both pages; a floor without user name; replies walked with parent_id', async () => {
    const file = sand('detail-thread-7000000001.har');
    const { result, requests } = await run('comments', { query: '7000000001', limit: 10 }, [file]);
    const res = result as CommentsResult;
    expect(res.items.map((c) => c.cid)).toEqual(['160000000002', '160000000003', '160000000004']);
    expect(res.items[1]).toMatchObject({ handle: '', user_name: '水手', user_id: 'tb.1.7c6fd2e3.SandboxSailorCCCCCCCCCCC' });
    expect(res.items[2]!.text).toBe('浙西的大明山\n早上人少');
    expect(res.total).toBe(3);
    expect(res.has_more).toBe(false);
    expect(requests).toEqual(['GET https://tieba.baidu.com/p/7000000001', 'GET https://tieba.baidu.com/p/7000000001?pn=2']);
    const replies = await run('comments', { query: '7000000001', replies_of: '160000000002', limit: 10 }, [file, sand('replies-7000000001-160000000002.har')]);
    const r = replies.result as CommentsResult;
    expect(r.items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['160000000101', '160000000002'],
      ['160000000102', '160000000002'],
      ['160000000103', '160000000002'],
    ]);
    expect(r.items[1]!.text).toBe('回复 旅行的人 :谢谢！[表情]');
    expect(r.total).toBe(3);
    expect(replies.requests.filter((q) => q.includes('/p/7000000001'))).toHaveLength(1);
  });

  it('hot: the topic board as items (ids topic-<id>, &amp; undone in the URL); trending: the words ranked with their heat', async () => {
    const file = sand('hot-topics.har');
    const env = (await run('hot', {}, [file])).result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['tieba:topic-9900001', 'tieba:topic-9900002']);
    expect(env.items[0]).toMatchObject({ type: 'image', title: '沙盒初雪', text: '今年的第一场雪落在了哪里', url: 'https://tieba.baidu.com/hottopic/browse/hottopic?topic_id=9900001&topic_name=%E6%B2%99%E7%9B%92%E5%88%9D%E9%9B%AA', ts: 1763600000, stats: { comments: 2345678 } });
    expect(env.items[1]).toMatchObject({ type: 'text', text: '雾里的松树' });
    const t = (await run('trending', {}, [file])).result as TrendResult;
    expect(t.data!.trends).toEqual([
      { word: '沙盒初雪', source: 'tieba', rank: 1, hot_value: 2345678, url: 'https://tieba.baidu.com/hottopic/browse/hottopic?topic_id=9900001&topic_name=%E6%B2%99%E7%9B%92%E5%88%9D%E9%9B%AA' },
      { word: '山里的清晨', source: 'tieba', rank: 2, hot_value: 876543, url: 'https://tieba.baidu.com/hottopic/browse/hottopic?topic_id=9900002&topic_name=%E5%B1%B1%E9%87%8C%E7%9A%84%E6%B8%85%E6%99%A8' },
    ]);
  });
});

describe('tieba with a logged-in profile (PC JSON, md5 sign)', () => {
  const pc = () => sand('pc-api-logged-in.har');

  it('detail: tbs, then the signed page_pc POST; fragments read (text, emoticon name, original image with its size)', async () => {
    const { result, requests } = await run('detail', { query: '7000000001' }, [pc()], { session: LOGIN });
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ title: '山里的清晨，雾还没散', text: '早上六点出发，山里的雾还没散。\n第二张是山顶。[滑稽]', author: '旅行的人', author_handle: 'traveler_sbx', author_id: 'tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA', ts: 1763418720, stats: { comments: 3 } });
    expect(item.media[0]).toMatchObject({ w: 1440, h: 960 });
    expect(origin(item.media[0]!.url)).toBe('https://tiebapic.baidu.com/forum/pic/item/sandbox0000000000000000000000000000001.jpg?tbpicau=2025-11-21-05_fedcba9876543210fedcba9876543210');
    expect(requests).toEqual(['GET https://tieba.baidu.com/dc/common/tbs', 'POST https://tieba.baidu.com/c/f/pb/page_pc']);
  });

  it('the POST body is the md5-signed form, encoded once: sign over every other pair with the PC salt', async () => {
    const { ctx, sent } = tiebaCtx([pc()], { cookies: LOGIN.cookies });
    await (tieba.actions.detail as any).page(ctx, { query: '7000000001' });
    const post = sent.find((s) => s.path.startsWith('/c/f/pb/page_pc'))!;
    const pairs = [...new URLSearchParams(post.body)];
    expect(pairs.map(([k]) => k)).toEqual(['pn', 'lz', 'r', 'mark_type', 'back', 'fr', 'kz', 'session_request_times', 'tbs', 'subapp_type', '_client_type', 'sign']);
    expect(Object.fromEntries(pairs)).toMatchObject({ kz: '7000000001', pn: '1', tbs: 'sandboxtbs000000000001', subapp_type: 'pc', _client_type: '20' });
    expect(pairs.at(-1)![1]).toBe(computeSign(pairs.slice(0, -1), SALTS.pc));
    expect(post.headers['cookie']).toContain('BDUSS=sandboxBDUSS');
  });

  it('comments: the PC floors without the opening one; likes from agree; an image-only floor is [图片]', async () => {
    const { result } = await run('comments', { query: '7000000001', limit: 2 }, [pc()], { session: LOGIN });
    const res = result as CommentsResult;
    expect(res.items.map((c) => [c.cid, c.text, c.likes, c.reply_total])).toEqual([
      ['160000000002', '这是哪座山？求位置', 5, 2],
      ['160000000003', '[图片]', 0, 0],
    ]);
    expect(res.items[0]).toMatchObject({ user_id: 'tb.1.6b5ec1d2.SandboxHikerBBBBBBBBBBBB', handle: 'hiker_sbx', user_name: '爬山的人', created_at: 1763420700 });
    expect(res.total).toBe(3);
    expect(native(res.cursor)).toBe('2');
  });

  it('search: the signed multsearch GET; the portrait read out of an avatar URL', async () => {
    const { result, requests } = await run('search', { query: '旅行' }, [pc()], { session: LOGIN });
    const env = result as Envelope;
    expect(env.items).toHaveLength(1);
    expect(env.items[0]).toMatchObject({ id: 'tieba:7000000001', author: '旅行的人', author_id: 'tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA', stats: { comments: 4 }, ts: 1763418720, type: 'image' });
    const sent = new URL(requests[0]!.slice(4));
    expect(sent.pathname).toBe('/mo/q/search/multsearch');
    const pairs = [...sent.searchParams];
    expect(pairs.at(-1)).toEqual(['sign', computeSign(pairs.slice(0, -1), SALTS.pc)]);
    expect(env.next_cursor).toBeUndefined();
  });

  it('user: the PC sidebar (following, bio) for a portrait', async () => {
    const r = (await run('user', { query: 'tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA' }, [pc()], { session: LOGIN })).result as CreatorResult;
    expect(r.data!.author).toMatchObject({ id: 'tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA', handle: 'traveler_sbx', name: '旅行的人', bio: '走过的路都算数', followers: 3456, following: 78 });
  });

  it('a lapsed login (is_login 0) and a needlogin answer are session_expired, not a silent fall back to guest', async () => {
    const lapsed = (await run('detail', { query: '7000000001' }, [sand('error-login-lapsed.har'), sand('detail-thread-7000000001.har')], { session: LOGIN })).result as Envelope;
    expect(lapsed.error).toMatchObject({ code: 'session_expired' });
    const need = (await run('detail', { query: '7000000001' }, [sand('error-pc-needlogin.har'), sand('detail-thread-7000000001.har')], { session: LOGIN })).result as Envelope;
    expect(need.error).toMatchObject({ code: 'session_expired' });
  });
});

describe('tieba signing modes', () => {
  const refused = () => sand('error-pc-refused.har');
  const pbJson = () => text(sand('pc-api-logged-in.har'), 1);

  it('auto: an empty 200 on the signed call is a refusal; the profile’s page sends the same signed request, and the result says so', async () => {
    const calls: Array<{ pageUrl: string; args?: unknown[] }> = [];
    const signer: PageSigning = { sign: async (req) => (calls.push(req), { status: 200, text: pbJson() } as never) };
    const { result, warnings } = await run('detail', { query: '7000000001' }, [refused()], { session: LOGIN, signer });
    expect((result as Envelope).items[0]!.title).toBe('山里的清晨，雾还没散');
    expect(warnings.join(' ')).toMatch(/refused our native signature/);
    expect(calls).toHaveLength(1);
    const [url, method, body] = calls[0]!.args as [string, string, string];
    expect([url, method, calls[0]!.pageUrl]).toEqual(['https://tieba.baidu.com/c/f/pb/page_pc', 'POST', 'https://tieba.baidu.com/']);
    const pairs = [...new URLSearchParams(body)];
    expect(pairs.at(-1)![1]).toBe(computeSign(pairs.slice(0, -1), SALTS.pc));
  });

  it('native: the page is never asked; the refused PC route gives way to the anonymous thread page', async () => {
    const signer: PageSigning = { sign: async () => { throw new Error('the page must not be asked'); } };
    const { result, requests, warnings } = await run('detail', { query: '7000000001' }, [refused(), sand('detail-thread-7000000001.har')], { session: LOGIN, signer, signModes: new Map([['tieba', 'native']]) });
    expect((result as Envelope).items[0]!.text).toBe('早上六点出发，山里的雾还没散。\n第二张是山顶。[表情]');
    expect(requests.at(-1)).toBe('GET https://tieba.baidu.com/p/7000000001');
    // A logged-in profile answered from anonymous pages is said, never silent.
    expect(warnings.join(' ')).toMatch(/logged-in PC API failed .*anonymous pages/);
  });

  it('browser: the page sends the signed call straight away; no native signed request goes out', async () => {
    const signer: PageSigning = { sign: async () => ({ status: 200, text: pbJson() }) as never };
    const { result, requests } = await run('detail', { query: '7000000001' }, [refused()], { session: LOGIN, signer, signModes: new Map([['tieba.thread', 'browser']]) });
    expect((result as Envelope).ok).toBe(true);
    expect(requests).toEqual(['GET https://tieba.baidu.com/dc/common/tbs']);
  });
});

describe('tieba signing mode browser without a browser', () => {
  it('says so and the anonymous page answers', async () => {
    const { result, warnings } = await run('detail', { query: '7000000001' }, [sand('pc-api-logged-in.har'), sand('detail-thread-7000000001.har')], { session: LOGIN, signModes: new Map([['tieba', 'browser']]) });
    expect((result as Envelope).ok).toBe(true);
    expect(warnings.join(' ')).toMatch(/signing mode is browser .* no browser is available/);
  });
});

describe('tieba login probe', () => {
  it('is_login 1 is ok, 0 is session_expired, an empty answer stays a block', async () => {
    expect(await tieba.probe!(tiebaCtx([sand('pc-api-logged-in.har')], { cookies: LOGIN.cookies }).ctx)).toBe('ok');
    expect(await tieba.probe!(tiebaCtx([sand('error-login-lapsed.har')], { cookies: LOGIN.cookies }).ctx)).toBe('session_expired');
    const { probeCtx } = await import('../helpers/probe-ctx.js');
    await expect(tieba.probe!(probeCtx(tieba, [], LOGIN.cookies, { url: 'https://tieba.baidu.com/dc/common/tbs', body: '' }))).rejects.toMatchObject({ code: 'blocked' });
  });
});

describe('tieba bad input', () => {
  it.each([
    ['detail', { query: 'https://www.douyin.com/video/7300000000000000001' }],
    ['detail', { query: 'tieba thread' }],
    ['comments', { query: '7000000001', replies_of: 'abc' }],
    ['posts', { query: 'two words', of: 'user' }],
    ['user', { query: 'https://tieba.baidu.com/p/7000000001' }],
  ])('%s %j is invalid_request before any request', async (action, params) => {
    const { result, requests } = await run(action, params, [SANDBOX]);
    expect((result as { error?: { code: string } }).error?.code).toBe('invalid_request');
    expect(requests).toEqual([]);
  });
  it.each([
    ['search', { query: '旅行', sort: 'hot' }],
    ['search', { query: '   ' }],
    ['posts', { query: '沙盒旅行', of: 'topic' }],
  ])('%s %j is refused by the catalog (enum, required)', async (action, params) => {
    await expect(run(action, params, [SANDBOX])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).filter((f) => !usedSandbox.has(f))).toEqual([]);
});
