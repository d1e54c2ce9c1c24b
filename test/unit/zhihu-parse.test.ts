import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToText, imagesFromHtml, initialData } from '../../src/platforms/zhihu/html.js';
import { answerDraft, authorOf, bestStream, commentOf, contentDraft, hotDraft, searchDrafts, wordTrends } from '../../src/platforms/zhihu/parse.js';

describe('zhihu HTML bodies', () => {
  it('paragraphs and <br> become lines; formulas keep their TeX; entities decode; noscript copies and placeholders vanish', () => {
    const html =
      '<p>一&amp;二</p><p>甲<br/>乙</p><figure><noscript><img src="https://pic1.zhimg.com/v2-aaaaaaaaaaaaaaaa_b.jpg"/></noscript><img src="data:image/svg+xml;utf8,&lt;svg&gt;" data-original="https://pic1.zhimg.com/v2-aaaaaaaaaaaaaaaa_r.jpg"/><figcaption>图注</figcaption></figure><p>式 <img eeimg="1" alt="a^2" src="https://www.zhihu.com/equation?tex=a%5E2"/> 完</p>';
    expect(htmlToText(html)).toBe('一&二\n甲\n乙\n图注\n\n式  a^2  完');
    expect(htmlToText('plain  ')).toBe('plain');
    expect(htmlToText(undefined)).toBe('');
    expect(htmlToText('<em>知乎</em>用户')).toBe('知乎用户');
  });

  it('pictures: the full-size rendition once, sizes from data-raw*, noscript-only pictures found, formulas and placeholders skipped', () => {
    const html =
      '<figure><noscript><img src="https://pic1.zhimg.com/v2-aaaaaaaaaaaaaaaa_b.jpg" data-rawwidth="640" data-rawheight="480"/></noscript><img src="data:image/svg+xml;utf8,x" data-rawwidth="640" data-rawheight="480" data-original="https://pic1.zhimg.com/v2-aaaaaaaaaaaaaaaa_r.jpg" data-actualsrc="https://pic1.zhimg.com/v2-aaaaaaaaaaaaaaaa_b.jpg"/></figure>' +
      '<noscript><img src="//pic2.zhimg.com/v2-bbbbbbbbbbbbbbbb_b.png"/></noscript><img eeimg="1" src="https://www.zhihu.com/equation?tex=x" alt="x"/>';
    expect(imagesFromHtml(html)).toEqual([
      { url: 'https://pic1.zhimg.com/v2-aaaaaaaaaaaaaaaa_r.jpg', w: 640, h: 480 },
      { url: 'https://pic2.zhimg.com/v2-bbbbbbbbbbbbbbbb_b.png', w: undefined, h: undefined },
    ]);
    expect(imagesFromHtml('<p>no pictures</p>')).toEqual([]);
  });

  it('js-initialData is read; a page without it (or with broken JSON) gives nothing', () => {
    expect(initialData('<script id="js-initialData" type="text/json">{"initialState":{"a":1}}</script>')).toEqual({ initialState: { a: 1 } });
    expect(initialData('<html></html>')).toBeUndefined();
    expect(initialData('<script id="js-initialData" type="text/json">{oops</script>')).toBeUndefined();
  });

  it('never throws and never leaves a tag, whatever the markup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('<p>', '</p>', '<br>', 'a', '文', '&amp;', '<img src="x">', '<noscript>', '</noscript>', '<em>', ' ', '\n', '<div class="x">'), { maxLength: 40 }), (parts) => {
        const text = htmlToText(parts.join(''));
        expect(text).not.toMatch(/<\/?(p|br|img|em|div|noscript)\b/);
      }),
    );
  });
});

describe('zhihu items', () => {
  it('an answer whose 19-digit id lost digits in JSON takes it from its URL; its question id likewise', () => {
    const d = answerDraft({ id: 1900000000000000001, url: 'https://www.zhihu.com/api/v4/answers/1900000000000000001', question: { id: 1800000000000000001, url: 'https://api.zhihu.com/questions/1800000000000000001', title: 'Q' }, content: '<p>x</p>', voteup_count: '12' })!;
    expect(d.native_id).toBe('answer:1900000000000000001');
    expect(d.url).toBe('https://www.zhihu.com/question/1800000000000000001/answer/1900000000000000001');
    expect(d.stats).toEqual({ likes: 12 });
    expect(answerDraft({ id: 1900000000000000001 })).toBeUndefined();
  });

  it('anonymous authors keep the name and drop the identity', () => {
    expect(answerDraft({ id: '5', author: { id: '0', url_token: '', name: '匿名用户' } })).toMatchObject({ author: '匿名用户', author_id: undefined, author_handle: undefined });
  });

  it('video streams: FHD over HD over SD over LD, lower-case keys and playlist_v2 too; none without an http URL', () => {
    const v = { duration: 10, playlist: { LD: { url: 'https://vdn1.vzuu.com/ld.mp4', width: 640, height: 360 }, HD: { url: 'https://vdn1.vzuu.com/hd.mp4', width: 1280, height: 720 } } };
    expect(bestStream(v)).toEqual({ url: 'https://vdn1.vzuu.com/hd.mp4', w: 1280, h: 720, duration: 10 });
    expect(bestStream({ playlist_v2: { fhd: { play_url: 'https://vdn3.vzuu.com/f.mp4', duration: 5 } } })).toMatchObject({ url: 'https://vdn3.vzuu.com/f.mp4', duration: 5 });
    expect(bestStream({ playlist: { HD: { url: 'vzuu/hd.mp4' } } })).toBeUndefined();
    expect(bestStream(undefined)).toBeUndefined();
  });

  it('hot cards: mobile (link), desktop (API URL or id and type), and a card pointing elsewhere is skipped', () => {
    expect(hotDraft({ target: { title_area: { text: 'T' }, link: { url: 'https://www.zhihu.com/question/42' } } })).toMatchObject({ native_id: 'question:42', title: 'T', type: 'text' });
    expect(hotDraft({ target: { id: 43, type: 'question', title: 'D', excerpt: 'E', created: 5, comment_count: 2 }, children: [{ thumbnail: 'https://pic1.zhimg.com/t.jpg' }] })).toMatchObject({ native_id: 'question:43', text: 'E', ts: 5, thumb: 'https://pic1.zhimg.com/t.jpg', stats: { comments: 2 } });
    expect(hotDraft({ target: { link: { url: 'https://www.zhihu.com/theater/55785' } } })).toBeUndefined();
    expect(hotDraft({})).toBeUndefined();
  });

  it('search cards without an object (related queries, boxes) and unknown objects are skipped', () => {
    expect(searchDrafts({ data: [{ type: 'relevant_query' }, { type: 'search_result', object: { type: 'topic', id: '1' } }, { type: 'search_result', highlight: { title: '<em>Q</em>' }, object: { type: 'question', id: '7' } }] }).map((d) => [d.native_id, d.title])).toEqual([['question:7', 'Q']]);
  });

  it('parsers never throw on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.anything(), fc.constantFrom('answer', 'article', 'question', 'zvideo', 'people', undefined), (raw, type) => {
        const o = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as object), type } : raw;
        contentDraft(o);
        hotDraft({ target: o } as never);
        searchDrafts({ data: [{ object: o }] });
        commentOf(o, '1');
        authorOf(o);
        wordTrends([o]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('zhihu comments, members, words', () => {
  const c = (id: string, reply: string) => ({ id, type: 'comment', content: '<p>x</p>', reply_comment_id: reply, like_count: 2, child_comment_count: 1, created_time: 9, author: { id: 'u', url_token: 't', name: 'N' } });
  it('parent_id: the root for a direct reply ("0"), the comment answered otherwise; no parent on root comments', () => {
    expect(commentOf(c('11', '0'), '10')!.parent_id).toBe('10');
    expect(commentOf(c('12', '11'), '10')!.parent_id).toBe('11');
    expect(commentOf(c('10', '0'))!.parent_id).toBeUndefined();
    expect(commentOf({ ...c('13', '0'), type: 'ad' }, '10')).toBeUndefined();
    // Older answers wrap the person in author.member.
    expect(commentOf({ ...c('14', '0'), author: { member: { id: 'm', url_token: 'mt', name: 'M' }, role: 'normal' } })).toMatchObject({ user_id: 'm', handle: 'mt', user_name: 'M' });
  });

  it('members: camelCase page fields, the {size} avatar template, posts only when a count was reported', () => {
    expect(authorOf({ id: 'abc', urlToken: 'x', name: 'N', followerCount: 3, articlesCount: 2, answerCount: 1, avatarUrlTemplate: 'https://pic1.zhimg.com/v2-a_{size}.jpg' })).toMatchObject({ handle: 'x', followers: 3, posts: 3, avatar: 'https://pic1.zhimg.com/v2-a_xl.jpg' });
    expect(authorOf({ id: 'abc', name: 'N' })!.posts).toBeUndefined();
    expect(authorOf({ id: '0', name: '匿名用户' })).toBeUndefined();
  });

  it('hot words from the page, the v2 API and the older top_search shape; blank words skipped, ranks dense', () => {
    expect(wordTrends([{ queryDisplay: ' A ', realQuery: 'a' }, { query_display: '' }, { query_display: 'B', real_query: 'b' }, { display_query: 'C', query: 'c' }]).map((t) => [t.word, t.rank, t.url])).toEqual([
      ['A', 1, 'https://www.zhihu.com/search?type=content&q=a'],
      ['B', 2, 'https://www.zhihu.com/search?type=content&q=b'],
      ['C', 3, 'https://www.zhihu.com/search?type=content&q=c'],
    ]);
  });
});
