import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noteFromUrl, noteUrl, parseNoteRef, parseUserRef, userFromUrl, userUrl } from '../../src/platforms/xiaohongshu/refs.js';
import { initialState, literalToJson, snakeKeys, stateLiteral } from '../../src/platforms/xiaohongshu/state.js';

const id24 = fc.stringMatching(/^[0-9a-f]{24}$/);
/** xsec tokens are base64 with the url-safe characters and '=' padding (seen in every recording). */
const token = fc.stringMatching(/^[A-Za-z0-9_-]{20,60}={0,2}$/);
const source = fc.constantFrom('pc_search', 'pc_feed', 'pc_user', 'pc_note', 'app_share');

describe('xiaohongshu note references', () => {
  it('every note link form gives back the id, and the token with its source', () => {
    fc.assert(
      fc.property(id24, token, source, (id, t, s) => {
        const q = `xsec_token=${encodeURIComponent(t)}&xsec_source=${s}`;
        expect(parseNoteRef(id)).toEqual({ id });
        for (const form of [
          `https://www.xiaohongshu.com/explore/${id}?${q}`,
          `www.xiaohongshu.com/discovery/item/${id}?app_platform=ios&${q}&share_id=1`,
          `https://www.xiaohongshu.com/user/profile/5f1e2d3c000000000101a1b1/${id}?${q}`,
          `https://www.rednote.com/explore/${id}?${q}`,
          `看看这篇 https://www.xiaohongshu.com/explore/${id}?${q} 复制本条信息`,
        ]) {
          expect(parseNoteRef(form)).toEqual({ id, xsecToken: t, xsecSource: s });
        }
        // The url an item carries is itself a reference to the same note and token.
        expect(parseNoteRef(noteUrl(id, { xsecToken: t, xsecSource: s }))).toEqual({ id, xsecToken: t, xsecSource: s });
      }),
    );
  });
  it('a token pasted with a raw "+" keeps it; a source without a token is dropped', () => {
    expect(noteFromUrl(new URL('https://www.xiaohongshu.com/explore/6745c0a1000000000703d1e1?xsec_token=AB+cd=&xsec_source=pc_feed'))).toEqual({ id: '6745c0a1000000000703d1e1', xsecToken: 'AB+cd=', xsecSource: 'pc_feed' });
    expect(parseNoteRef('https://www.xiaohongshu.com/explore/6745c0a1000000000703d1e1?xsec_source=pc_feed')).toEqual({ id: '6745c0a1000000000703d1e1' });
  });
  it('share links stay short links (followed later), from a share text too', () => {
    expect(parseNoteRef('【旅行的人的笔记】 😆 http://xhslink.com/a/Bx8sDemo，复制本条信息，打开【小红书】App查看精彩内容！')).toEqual({ short: 'https://xhslink.com/a/Bx8sDemo' });
    expect(parseNoteRef('xhslink.com/m/AbC123')).toEqual({ short: 'https://xhslink.com/m/AbC123' });
    expect(parseUserRef('https://xhslink.com/u/Zz9')).toEqual({ short: 'https://xhslink.com/u/Zz9' });
  });
  it('refuses other sites, short and uppercase ids, and says which forms work', () => {
    expect(() => parseNoteRef('https://www.douyin.com/note/7300000000000000001')).toThrow(/not a xiaohongshu note reference/);
    expect(() => parseNoteRef('6745C0A1000000000703D1E1')).toThrow(/24-hex note id/);
    expect(() => parseNoteRef('')).toThrow(/required/);
    expect(noteFromUrl(new URL('https://evil.example/explore/6745c0a1000000000703d1e1'))).toBeUndefined();
    expect(noteFromUrl(new URL('https://www.xiaohongshu.com/user/profile/5f1e2d3c000000000101a1b1'))).toBeUndefined();
  });
});

describe('xiaohongshu user references', () => {
  it('every user link form gives back the id (and token)', () => {
    fc.assert(
      fc.property(id24, token, (id, t) => {
        expect(parseUserRef(id)).toEqual({ userId: id });
        expect(parseUserRef(`https://www.xiaohongshu.com/user/profile/${id}`)).toEqual({ userId: id });
        expect(parseUserRef(`https://www.xiaohongshu.com/user/profile/${id}?xsec_token=${encodeURIComponent(t)}&xsec_source=pc_note`)).toEqual({ userId: id, xsecToken: t, xsecSource: 'pc_note' });
        expect(userFromUrl(new URL(userUrl(id)))).toEqual({ userId: id });
      }),
    );
  });
  it('a 小红书号 is refused with the way to the user id', () => {
    expect(() => parseUserRef('95270001')).toThrow(/小红书号.*type=users/);
    expect(() => parseUserRef('https://www.xiaohongshu.com/explore/6745c0a1000000000703d1e1')).toThrow(/not a xiaohongshu user reference/);
  });
});

describe('xiaohongshu page state (window.__INITIAL_STATE__)', () => {
  it('reads the JS literal without evaluating it: bare undefined becomes null, strings are left alone', () => {
    const html = '<script>window.__INITIAL_STATE__={"a":undefined,"s":"undefined is a word; so is {\\"}","n":[1,undefined,NaN],"k":{"noteId":"x"}}</script><script>var x = 1</script>';
    expect(stateLiteral(html)).toBe('{"a":undefined,"s":"undefined is a word; so is {\\"}","n":[1,undefined,NaN],"k":{"noteId":"x"}}');
    expect(initialState(html)).toEqual({ a: null, s: 'undefined is a word; so is {"}', n: [1, null, null], k: { note_id: 'x' } });
  });
  it('a page without the state, or with a broken one, has none (no exception)', () => {
    expect(initialState('<html>verify</html>')).toBeUndefined();
    expect(initialState('<script>window.__INITIAL_STATE__={"a":</script>')).toBeUndefined();
    expect(initialState('<script>window.__INITIAL_STATE__ = {"a": alert(1)}</script>')).toBeUndefined();
  });
  it('never runs code: a function call in the literal is not JSON and is refused', () => {
    expect(literalToJson('{"a":undefined,"b":x()}')).toBe('{"a":null,"b":x()}');
  });
  it('any JSON value survives the literal reading unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify({ v });
        expect(JSON.parse(literalToJson(text))).toEqual(JSON.parse(text));
      }),
    );
  });
  it('camelCase keys become snake_case; ids as keys are kept', () => {
    expect(snakeKeys({ noteDetailMap: { '6745c0a1000000000703d1e1': { imageList: [{ urlDefault: 'u', infoList: [{ imageScene: 'WB_DFT' }] }] } }, FStatus: 'none' })).toEqual({
      note_detail_map: { '6745c0a1000000000703d1e1': { image_list: [{ url_default: 'u', info_list: [{ image_scene: 'WB_DFT' }] }] } },
      fstatus: 'none',
    });
  });
});
