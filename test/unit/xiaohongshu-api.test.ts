import { describe, expect, it } from 'vitest';
import { Blocked, InvalidInput, NotFound, RateLimited, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpResponse } from '../../src/crawl/http.js';
import { SignatureRefused } from '../../src/crawl/signing.js';
import { classifyRedirect, encodeQuery, explainMissingToken, readApi, XsecRefused } from '../../src/platforms/xiaohongshu/api.js';
import { bestImage, bestStream, commentOf, commentsOf, count, imageToken, noteDraft, userDraft } from '../../src/platforms/xiaohongshu/parse.js';

const res = (status: number, text: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  url: 'https://edith.xiaohongshu.com/api/x',
  redirects: [],
  headers,
  body: Buffer.from(text),
  text: () => text,
  json: () => JSON.parse(text),
});
const answer = (code: number, msg = '', success = false) => res(200, JSON.stringify({ code, success, msg }));
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
};

describe('xiaohongshu outcome table', () => {
  it.each([
    [-100, SessionExpired],
    [-101, SessionExpired],
    [-104, SessionExpired],
    [300011, SessionExpired],
    [300012, Blocked],
    [300013, RateLimited],
    [300015, SignatureRefused],
    [-1, SignatureRefused],
    [300017, XsecRefused],
    [-510000, NotFound],
    [-510001, NotFound],
    [12345, UpstreamError],
  ])('business code %i → %o', (code, kind) => {
    expect(thrown(() => readApi(answer(code), 'call'))).toBeInstanceOf(kind);
  });
  it('300031 is a refused token without one, a note that cannot be seen with one', () => {
    expect(thrown(() => readApi(answer(300031), 'call', false))).toBeInstanceOf(XsecRefused);
    expect(thrown(() => readApi(answer(300031), 'call', true))).toBeInstanceOf(NotFound);
  });
  it('blocks are blocks and the login errors are not: each class keeps its code', () => {
    expect(thrown(() => readApi(answer(300012), 'call'))).toMatchObject({ code: 'blocked' });
    expect(thrown(() => readApi(answer(300011), 'call'))).toMatchObject({ code: 'session_expired' });
    expect(thrown(() => readApi(answer(300015), 'call'))).toMatchObject({ code: 'blocked' });
  });
  it.each([
    [461, { verifytype: '124', verifyuuid: 'u-1' }, Blocked, /captcha \(HTTP 461, Verifytype 124, Verifyuuid u-1\)/],
    [471, { verifytype: '102', verifyuuid: 'u-2' }, Blocked, /captcha/],
    [200, { verifytype: '102' }, Blocked, /captcha/],
    [406, {}, SignatureRefused, /HTTP 406/],
    [401, {}, Blocked, /HTTP 401/],
    [403, {}, Blocked, /HTTP 403/],
    [429, { 'retry-after': '30' }, RateLimited, /429/],
    [404, {}, NotFound, /404/],
    [502, {}, UpstreamError, /502/],
  ])('HTTP %i %j → %o', (status, headers, kind, message) => {
    const e = thrown(() => readApi(res(status, '', headers as Record<string, string>), 'call'));
    expect(e).toBeInstanceOf(kind);
    expect((e as Error).message).toMatch(message);
  });
  it('429 keeps Retry-After', () => {
    expect(thrown(() => readApi(res(429, '', { 'retry-after': '30' }), 'call'))).toMatchObject({ retryAfterS: 30 });
  });
  it('an empty 200 is a refused signature, a verify page a block, other non-JSON a parse error', () => {
    expect(thrown(() => readApi(res(200, ''), 'call'))).toBeInstanceOf(SignatureRefused);
    expect(thrown(() => readApi(res(200, '<html>website-login/captcha</html>'), 'call'))).toBeInstanceOf(Blocked);
    expect(thrown(() => readApi(res(200, '<html>hello</html>'), 'call'))).toMatchObject({ code: 'upstream_error' });
  });
  it('success is success:true, or code 0/1000 without the flag; data comes back', () => {
    expect(readApi(res(200, JSON.stringify({ code: 0, success: true, data: { a: 1 } })), 'c')).toEqual({ a: 1 });
    expect(readApi(res(200, JSON.stringify({ code: 1000, data: { b: 2 } })), 'c')).toEqual({ b: 2 });
    expect(readApi(res(200, JSON.stringify({ code: 0, success: true })), 'c')).toEqual({});
  });
});

describe('xiaohongshu page redirects', () => {
  const W = 'https://www.xiaohongshu.com';
  it.each([
    [`${W}/website-login/captcha?redirectPath=x&verifyUuid=4a1c&verifyType=102&verifyBiz=461`, false, Blocked],
    [`${W}/website-login/error?redirectPath=x&error_code=300013&error_msg=%E8%AE%BF`, true, RateLimited],
    [`${W}/website-login/error?error_code=300012`, true, Blocked],
    [`${W}/website-login/error?error_code=999`, true, Blocked],
    [`${W}/404?source=x&error_code=300031`, false, XsecRefused],
    [`${W}/404?source=x&error_code=300031`, true, NotFound],
    [`${W}/404?source=x`, true, NotFound],
    [`${W}/404?source=x`, false, XsecRefused],
    [`${W}/explore`, false, XsecRefused],
    [`${W}/login?redirectPath=x`, true, SessionExpired],
    ['https://elsewhere.example/x', true, UpstreamError],
  ])('%s (token %s) → %o', (location, hadToken, kind) => {
    expect(classifyRedirect(location, 'page', hadToken)).toBeInstanceOf(kind);
  });
  it('a refused token with none given becomes advice to pass the note URL; anything else is left as it is', () => {
    const refused = new XsecRefused('x');
    expect(explainMissingToken(refused, false, 'detail 1')).toBeInstanceOf(InvalidInput);
    expect(explainMissingToken(refused, true, 'detail 1')).toBe(refused);
    const blocked = new Blocked('y');
    expect(explainMissingToken(blocked, false, 'detail 1')).toBe(blocked);
  });
});

describe('xiaohongshu requests', () => {
  it('queries are encoded once, commas kept, "=" escaped as the signer expects', () => {
    expect(encodeQuery([['num', 30], ['cursor', ''], ['image_formats', 'jpg,webp,avif'], ['xsec_token', 'AB+c/d=']])).toBe('num=30&cursor=&image_formats=jpg,webp,avif&xsec_token=AB%2Bc%2Fd%3D');
  });
});

describe('xiaohongshu parsing', () => {
  it('counts: plain and display forms, never a guess beyond them', () => {
    expect([count('1234'), count(56), count('1.2万'), count('10万+'), count('3亿'), count('2k'), count(''), count('-1'), count('abc'), count(-3)]).toEqual([1234, 56, 12000, 100000, 300000000, 2000, undefined, undefined, undefined, undefined]);
  });
  it('the picture original comes from the file token behind the signed prefix; otherwise the full picture', () => {
    expect(imageToken('http://sns-webpic-qc.xhscdn.com/202409181841/a738/1040g008313ul3ln81c6g5o8vavbg961a6bl9og0!nd_dft_wlteh_webp_3')).toBe('1040g008313ul3ln81c6g5o8vavbg961a6bl9og0');
    expect(imageToken('https://sns-webpic-qc.xhscdn.com/202403211200/ab/spectrum/1040g0k0abc!nd_dft')).toBe('spectrum/1040g0k0abc');
    expect(imageToken('https://sns-na-i8-a.xhscdn.com/notes_pre_post/1040g3k8?imageView2')).toBeUndefined();
    expect(bestImage({ url_default: 'http://sns-webpic-qc.xhscdn.com/202409181841/a738/1040g0abc!nd_dft_wlteh_webp_3' })).toBe('https://sns-img-bd.xhscdn.com/1040g0abc');
    expect(bestImage({ url_size_large: 'https://sns-na-i8-a.xhscdn.com/notes_pre_post/1040g3k8?imageView2/2/w/1440' })).toBe('https://sns-na-i8-a.xhscdn.com/notes_pre_post/1040g3k8?imageView2/2/w/1440');
    expect(bestImage({ url_pre: 'https://x.xhscdn.com/p.jpg' })).toBe('https://x.xhscdn.com/p.jpg');
    expect(bestImage({})).toBeUndefined();
  });
  it('the best stream: tallest first, h264 before h265 at one height, then bit rate; a backup URL when the master is missing', () => {
    const s = (h: number, br: number, url: string) => ({ master_url: url, height: h, width: h / 2, video_bitrate: br, duration: 10000 });
    expect(bestStream({ media: { stream: { h264: [s(720, 900, 'https://a/720'), s(1080, 1000, 'https://a/1080')], h265: [s(1080, 2000, 'https://b/1080'), s(2160, 500, 'https://b/2160')] } } })!.url).toBe('https://b/2160');
    expect(bestStream({ media: { stream: { h264: [s(1080, 1000, 'https://a/1080')], h265: [s(1080, 2000, 'https://b/1080')] } } })!.url).toBe('https://a/1080');
    expect(bestStream({ media: { stream: { h264: [{ backup_urls: ['http://sns-bak-v8.xhscdn.com/s.mp4'], height: 720 }] } } })!.url).toBe('https://sns-bak-v8.xhscdn.com/s.mp4');
    expect(bestStream({ media: { stream: { h264: [] } } })).toBeUndefined();
    expect(bestStream(undefined)).toBeUndefined();
  });
  it('a note without an id, with a malformed id, or of another card kind is no item; a missing field is absent, not zero', () => {
    expect(noteDraft({ note_card: { type: 'normal' } })).toBeUndefined();
    expect(noteDraft({ id: '123', note_card: {} })).toBeUndefined();
    expect(noteDraft({ id: '6745c0a1000000000703d1e1', model_type: 'rec_query' })).toBeUndefined();
    const d = noteDraft({ id: '6745c0a1000000000703d1e1', note_card: { type: 'normal' } })!.draft;
    expect(d).toMatchObject({ native_id: '6745c0a1000000000703d1e1', type: 'text', media: [], stats: {} });
    expect(d.ts).toBeUndefined();
    expect(d.url).toBe('https://www.xiaohongshu.com/explore/6745c0a1000000000703d1e1');
  });
  it('a video note in a flat list has no stream (metadata only), but stays a video', () => {
    const d = noteDraft({ id: '6745c0a1000000000703d1e1', note_card: { type: 'video', cover: { url_pre: 'https://x.xhscdn.com/c.jpg', width: 9, height: 16 } } })!.draft;
    expect(d).toMatchObject({ type: 'video', media: [], thumb: 'https://x.xhscdn.com/c.jpg', aspect: { width: 9, height: 16 } });
  });
  it('a reply names the comment it answers (target_comment), else its root; a root names none', () => {
    expect(commentOf({ id: 'b', target_comment: { id: 'a' } }, 'n')!.parent_id).toBe('a');
    expect(commentOf({ id: 'c' }, 'n', 'r')!.parent_id).toBe('r');
    expect(commentOf({ id: 'r', target_comment: { id: 'r' } }, 'n')!.parent_id).toBeUndefined();
    expect(commentOf({ content: 'no id' }, 'n')).toBeUndefined();
    expect(commentsOf([{ id: 'r', sub_comments: [{ id: 'r1' }, { id: 'r' }] }, { id: 'r' }], 'n').map((c) => [c.cid, c.parent_id])).toEqual([
      ['r', undefined],
      ['r1', 'r'],
    ]);
  });
  it('a user card without a 24-hex id is no item', () => {
    expect(userDraft({ id: 'abc', name: 'x' })).toBeUndefined();
    expect(userDraft({ id: '5f1e2d3c000000000101a1b1', name: 'x', sub_title: '小红书号：1' })).toMatchObject({ native_id: 'user:5f1e2d3c000000000101a1b1', text: '小红书号：1', media: [] });
  });
});
