import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentUrl, nativeId, parseColumnRef, parseContentRef, parseMemberRef, peopleUrl, type ContentRef } from '../../src/platforms/zhihu/refs.js';
import { zhihu } from '../../src/platforms/zhihu/index.js';

const id = fc.bigInt({ min: 1n, max: 10n ** 19n - 1n }).map(String);
const token = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,30}$/);
const kind = fc.constantFrom('answer', 'article', 'question', 'zvideo' as const);

describe('zhihu content references', () => {
  it('every answer link form gives the answer id (and its question when the link names it)', () => {
    fc.assert(
      fc.property(id, id, (aid, qid) => {
        const withQ = { kind: 'answer', id: aid, question: qid };
        for (const form of [
          `https://www.zhihu.com/question/${qid}/answer/${aid}`,
          `www.zhihu.com/question/${qid}/answer/${aid}?utm_psn=1&utm_source=wechat`,
          `http://zhihu.com/question/${qid}/answer/${aid}/`,
          `这个回答不错 https://www.zhihu.com/question/${qid}/answer/${aid} 分享自知乎`,
        ]) {
          expect(parseContentRef(form)).toEqual(withQ);
        }
        for (const form of [`https://www.zhihu.com/answer/${aid}`, `answer:${aid}`, `zhihu:answer:${aid}`, `https://api.zhihu.com/answers/${aid}`, `https://www.zhihu.com/api/v4/answers/${aid}`]) {
          expect(parseContentRef(form)).toEqual({ kind: 'answer', id: aid });
        }
      }),
    );
  });

  it('articles, questions and videos in every form', () => {
    fc.assert(
      fc.property(id, (n) => {
        for (const form of [`https://zhuanlan.zhihu.com/p/${n}`, `zhuanlan.zhihu.com/p/${n}?share_code=x`, `https://www.zhihu.com/p/${n}`, `article:${n}`, `https://api.zhihu.com/articles/${n}`]) {
          expect(parseContentRef(form)).toEqual({ kind: 'article', id: n });
        }
        for (const form of [`https://www.zhihu.com/question/${n}`, `https://www.zhihu.com/question/${n}/answers/updated`, `question:${n}`, `https://www.zhihu.com/api/v4/questions/${n}`]) {
          expect(parseContentRef(form)).toEqual({ kind: 'question', id: n });
        }
        for (const form of [`https://www.zhihu.com/zvideo/${n}`, `zvideo:${n}`]) expect(parseContentRef(form)).toEqual({ kind: 'zvideo', id: n });
      }),
    );
  });

  it('round trips: the canonical URL and the native id of any reference parse back to it', () => {
    fc.assert(
      fc.property(kind, id, fc.option(id, { nil: undefined }), (k, n, q) => {
        const ref: ContentRef = k === 'answer' && q ? { kind: k, id: n, question: q } : { kind: k, id: n };
        expect(parseContentRef(contentUrl(ref))).toEqual(ref);
        expect(parseContentRef(nativeId(ref))).toEqual({ kind: k, id: n });
        expect(parseContentRef(`zhihu:${nativeId(ref)}`)).toEqual({ kind: k, id: n });
      }),
    );
  });

  it('refuses bare numbers (ambiguous), pins, other sites and junk, naming the forms', () => {
    expect(() => parseContentRef('1900000000000000001')).toThrow(/bare number/);
    expect(() => parseContentRef('https://www.zhihu.com/pin/1234')).toThrow(/not a zhihu link/);
    expect(() => parseContentRef('https://www.example.com/question/1/answer/2')).toThrow(/not a zhihu link/);
    expect(() => parseContentRef('')).toThrow(/required/);
    expect(() => parseContentRef('question:1', ['answer', 'article', 'zvideo'])).toThrow(/not a question/);
  });
});

describe('zhihu member and column references', () => {
  it('every member form gives the url_token; the profile URL parses back', () => {
    fc.assert(
      fc.property(token, (t) => {
        for (const form of [t, `@${t}`, `people:${t}`, `https://www.zhihu.com/people/${t}`, `https://www.zhihu.com/people/${t}/answers`, `www.zhihu.com/org/${t}/posts`, `https://www.zhihu.com/api/v4/members/${t}?include=x`, peopleUrl(t)]) {
          expect(parseMemberRef(form)).toBe(t);
        }
      }),
    );
  });

  it('the 32-hex member id is a member reference too; the adapter links it', () => {
    expect(parseMemberRef('c9b28ce4b50bf0444d17d010224cb06f')).toBe('c9b28ce4b50bf0444d17d010224cb06f');
    expect(zhihu.authorUrl({ id: 'c9b28ce4b50bf0444d17d010224cb06f' })).toBe('https://www.zhihu.com/people/c9b28ce4b50bf0444d17d010224cb06f');
    expect(zhihu.authorUrl({ id: '0' })).toBeUndefined();
    expect(zhihu.authorUrl({ handle: 'houziliaorenwu', id: 'x' })).toBe('https://www.zhihu.com/people/houziliaorenwu');
  });

  it('refuses non-member links and junk', () => {
    expect(() => parseMemberRef('https://www.zhihu.com/question/1')).toThrow(/not a zhihu member/);
    expect(() => parseMemberRef('two words')).toThrow(/not a zhihu member/);
    expect(() => parseMemberRef('')).toThrow(/required/);
  });

  it('columns: zhuanlan.zhihu.com/<id>, www.zhihu.com/column/<id>, column:<id>, a bare c_<digits>; articles and members are not columns', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{6,19}$/), (digits) => {
        const c = `c_${digits}`;
        for (const form of [c, `column:${c}`, `https://zhuanlan.zhihu.com/${c}`, `https://www.zhihu.com/column/${c}`]) expect(parseColumnRef(form)).toBe(c);
      }),
    );
    expect(parseColumnRef('https://zhuanlan.zhihu.com/wontfallinyourlap')).toBe('wontfallinyourlap');
    expect(parseColumnRef('https://zhuanlan.zhihu.com/p/123')).toBeUndefined();
    expect(parseColumnRef('sandbox-writer')).toBeUndefined();
    expect(parseColumnRef('https://www.zhihu.com/people/x')).toBeUndefined();
    expect(() => parseColumnRef('column:bad id!')).toThrow(/not a zhihu column/);
  });
});
