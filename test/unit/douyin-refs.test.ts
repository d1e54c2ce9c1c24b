import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePostRef, parseUserRef, postIdFromUrl, secUidFromUrl } from '../../src/platforms/douyin/refs.js';
import { awemeToDraft, bestStream, commentOf, imageUrl, withoutWatermark } from '../../src/platforms/douyin/parse.js';
import { readWebJson, webQuery } from '../../src/platforms/douyin/api.js';
import { verifyFp, randomMsToken } from '../../src/platforms/douyin/guest.js';
import type { HttpResponse } from '../../src/crawl/http.js';

const awemeId = fc.bigInt({ min: 10n ** 18n, max: 10n ** 19n - 1n }).map(String);
const secUid = fc.stringMatching(/^[A-Za-z0-9_-]{30,60}$/).map((s) => `MS4wLjABAAAA${s}`);

describe('douyin references', () => {
  it('every post link form gives back the aweme id', () => {
    fc.assert(
      fc.property(awemeId, (id) => {
        for (const form of [
          id,
          `https://www.douyin.com/video/${id}`,
          `www.douyin.com/note/${id}?previous_page=app_code_link`,
          `https://www.douyin.com/discover?modal_id=${id}`,
          `https://www.douyin.com/user/MS4wLjABAAAAx?modal_id=${id}`,
          `https://www.iesdouyin.com/share/video/${id}/?region=CN&mid=1`,
          `https://m.douyin.com/share/note/${id}`,
          `复制此链接，打开抖音搜索 https://www.douyin.com/video/${id} 直接观看`,
        ]) {
          expect(parsePostRef(form)).toEqual({ id });
        }
      }),
    );
  });
  it('short links stay short links (followed later), from a share text too', () => {
    expect(parsePostRef('7.43 复制打开抖音 https://v.douyin.com/iRNBho6u/ O@x.Sl')).toEqual({ short: 'https://v.douyin.com/iRNBho6u/' });
    expect(parseUserRef('https://v.douyin.com/AbC123/')).toEqual({ short: 'https://v.douyin.com/AbC123/' });
  });
  it('every user link form gives back the sec_uid', () => {
    fc.assert(
      fc.property(secUid, (sec) => {
        for (const form of [sec, `https://www.douyin.com/user/${sec}`, `https://www.douyin.com/user/${sec}?from_tab_name=main&modal_id=7300000000000000001`, `https://www.iesdouyin.com/share/user/${sec}?u_code=1`]) {
          expect(parseUserRef(form)).toEqual({ secUid: sec });
        }
      }),
    );
  });
  it('refuses other sites, numeric uids and junk with a message naming the forms', () => {
    expect(() => parsePostRef('https://www.tiktok.com/@a/video/7300000000000000001')).toThrow(/not a douyin post/);
    expect(() => parsePostRef('')).toThrow(/required/);
    expect(() => parseUserRef('52895175925')).toThrow(/sec_uid/);
    expect(postIdFromUrl(new URL('https://evil.example/video/7300000000000000001'))).toBeUndefined();
    expect(secUidFromUrl(new URL('https://www.douyin.com/user/self'))).toBeUndefined();
  });
});

describe('douyin parsing', () => {
  it('playwm becomes play; download_addr is never the stream', () => {
    expect(withoutWatermark('https://aweme.snssdk.com/aweme/v1/playwm/?video_id=v1')).toBe('https://aweme.snssdk.com/aweme/v1/play/?video_id=v1');
    expect(bestStream({ download_addr: { url_list: ['https://x.douyinvod.com/wm.mp4'] } })).toBeUndefined();
    expect(bestStream({ play_addr: { url_list: ['//v.douyinvod.com/a.mp4'], width: 720, height: 1280 } })).toMatchObject({ url: 'https://v.douyinvod.com/a.mp4', w: 720, h: 1280 });
  });
  it('heic is skipped when a browser format of the same image is listed', () => {
    expect(imageUrl({ url_list: ['https://p3.douyinpic.com/a.heic?x=1', 'https://p3.douyinpic.com/a.jpeg?x=1'] })).toBe('https://p3.douyinpic.com/a.jpeg?x=1');
    expect(imageUrl({ url_list: ['https://p3.douyinpic.com/a.heic'] })).toBe('https://p3.douyinpic.com/a.heic');
  });
  it('an aweme without an id, or with an id that lost digits as a number, is no item', () => {
    expect(awemeToDraft({ desc: 'x' })).toBeUndefined();
    expect(awemeToDraft({ aweme_id: 7300000000000000001 })).toBeUndefined();
    expect(awemeToDraft(null)).toBeUndefined();
  });
  it('a text-only aweme is a text item; zero views are not reported as zero', () => {
    const d = awemeToDraft({ aweme_id: '7300000000000000001', desc: 'hi', statistics: { play_count: 0, digg_count: 0 } })!;
    expect(d.type).toBe('text');
    expect(d.stats).toEqual({ likes: 0 });
  });
  it('a reply names the reply it answers, else its root', () => {
    expect(commentOf({ cid: '2', reply_id: '1', reply_to_reply_id: '0' }, '9')!.parent_id).toBe('1');
    expect(commentOf({ cid: '3', reply_id: '1', reply_to_reply_id: '2' }, '9')!.parent_id).toBe('2');
    expect(commentOf({ cid: '1', reply_id: '0' }, '9')!.parent_id).toBeUndefined();
  });
});

const res = (status: number, text: string, headers: Record<string, string> = {}): HttpResponse => ({ status, url: 'https://www.douyin.com/x', redirects: [], headers, body: Buffer.from(text), text: () => text, json: () => JSON.parse(text) });

describe('douyin outcomes', () => {
  it.each([
    [res(200, ''), 'blocked'],
    [res(200, 'blocked'), 'blocked'],
    [res(200, '<html>请完成验证 captcha</html>'), 'blocked'],
    [res(200, '{}', { 'x-vc-bdturing-parameters': '{"code":"10000"}' }), 'blocked'],
    [res(200, '{"status_code":8,"status_msg":"用户未登录"}'), 'session_expired'],
    [res(200, '{"status_code":2483}'), 'rate_limited'],
    [res(200, '{"status_code":5,"status_msg":"参数不合法"}'), 'upstream_error'],
    [res(200, '{"status_code":0,"data":[],"search_nil_info":{"search_nil_type":"verify_check"}}'), 'blocked'],
    [res(429, ''), 'rate_limited'],
    [res(403, ''), 'blocked'],
    [res(302, '', { location: 'https://www.douyin.com/passport/web/login' }), 'session_expired'],
    [res(200, '<html>hello</html>'), 'upstream_error'],
  ])('%#: maps to %s', (r, code) => {
    expect(() => readWebJson(r, 'x')).toThrow(expect.objectContaining({ code }));
  });
  it('an honest empty answer is not an error', () => {
    expect(readWebJson(res(200, '{"status_code":0,"aweme_list":[],"has_more":0}'), 'x').aweme_list).toEqual([]);
  });
});

describe('douyin guest values and query', () => {
  it('verifyFp has the page’s layout; msToken is long and url-safe', () => {
    expect(verifyFp(1700000000000)).toMatch(/^verify_loyw3v28_[A-Za-z0-9]{8}_[A-Za-z0-9]{4}_4[A-Za-z0-9]{3}_[A-Za-z0-9]{4}_[A-Za-z0-9]{12}$/);
    expect(randomMsToken()).toMatch(/^[A-Za-z0-9_-]{156}$/);
  });
  it('the query keeps the endpoint params after the app ids and encodes them once', () => {
    const q = webQuery('Mozilla/5.0 Chrome/130.0.0.0 Safari/537.36', { keyword: '猫 咪&x', offset: 0 }, 'tok');
    expect(q.startsWith('device_platform=webapp&aid=6383&channel=channel_pc_web&keyword=%E7%8C%AB%20%E5%92%AA%26x&offset=0&')).toBe(true);
    expect(q).toContain('browser_version=130.0.0.0');
    expect(q.endsWith('&msToken=tok')).toBe(true);
  });
});
