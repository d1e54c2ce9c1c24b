import { describe, expect, it } from 'vitest';
import { chinaTime, fragmentText, jsField, pageDataBlock, unwrapPagelets } from '../../src/platforms/tieba/html.js';
import { parseFloorReplies, parseForumPage, parseSearchPage, parseThreadPage, threadDraft } from '../../src/platforms/tieba/parse-html.js';
import { fragments, panelAuthor, parsePcSearch, parsePcThread, topicDrafts, topicTrends, userThreads, when } from '../../src/platforms/tieba/parse-json.js';
import { count, httpsUrl, idOf } from '../../src/platforms/tieba/values.js';

describe('tieba page helpers', () => {
  it('PageData literals: quoted or bare keys, single or double quotes, \\u escapes, nested braces in strings', () => {
    const html = `<script>PageData.forum = { 'id': 1525417, "name": "\\u76d7\\u5893", first_class: '文\\'学', note: "a}b" };
PageData.thread = { author: "x", thread_id:9117905169, title: "标题 \\"引号\\"", topic: { is_topic: false }, reply_num:787 };</script>`;
    const forum = pageDataBlock(html, 'forum');
    expect(jsField(forum, 'id')).toBe(1525417);
    expect(jsField(forum, 'name')).toBe('盗墓');
    expect(jsField(forum, 'first_class')).toBe("文'学");
    expect(jsField(forum, 'note')).toBe('a}b');
    const thread = pageDataBlock(html, 'thread');
    expect(jsField(thread, 'title')).toBe('标题 "引号"');
    expect(jsField(thread, 'reply_num')).toBe(787);
    expect(jsField(thread, 'missing')).toBeUndefined();
    expect(pageDataBlock(html, 'pager')).toBeUndefined();
  });
  it('Bigpipe pagelets are put back in place', () => {
    expect(unwrapPagelets('<code class="pagelet_html" id="p" style="display:none;"><!--<ul><li>a</li></ul>--></code>')).toBe('<div class="pagelet"><ul><li>a</li></ul></div>');
  });
  it('China time to unix seconds; malformed dates are none', () => {
    expect(chinaTime('2024-8-6 22:11')).toBe(Date.UTC(2024, 7, 6, 14, 11) / 1000);
    expect(chinaTime('2024-08-05')).toBe(Date.UTC(2024, 7, 4, 16, 0) / 1000);
    expect(chinaTime('7-6')).toBeUndefined();
    expect(chinaTime('2024-13-01 10:00')).toBeUndefined();
  });
  it('fragment text: <br> breaks lines, source newlines are spaces, smileys are [表情], images dropped', () => {
    expect(fragmentText('a<br>\n  b <img class="BDE_Image" src="x"><img class="BDE_Smiley" src="y"><br><br>c')).toBe('a\nb [表情]\n\nc');
    expect(fragmentText('<div class="replace_tip">点击展开，查看完整图片</div>')).toBe('');
  });
  it('counts as tieba writes them; ids that lost digits are none; http upgraded', () => {
    expect([count('1.2万'), count('3亿'), count('1,234'), count(12), count('-'), count(-1), count(1.5)]).toEqual([12000, 300000000, 1234, 12, undefined, undefined, undefined]);
    expect(idOf(2 ** 60, '0', 'x', '123')).toBe('123');
    expect(httpsUrl('http://tiebapic.baidu.com/a.jpg?x=1&amp;y=2')).toBe('https://tiebapic.baidu.com/a.jpg?x=1&y=2');
    expect(httpsUrl('//gss0.bdstatic.com/a')).toBe('https://gss0.bdstatic.com/a');
    expect(httpsUrl('javascript:alert(1)')).toBeUndefined();
    expect([when(1763418720), when('1763418720'), when('2025-11-18 06:32'), when(0), when('soon')]).toEqual([1763418720, 1763418720, 1763418720, undefined, undefined]);
  });
});

describe('tieba HTML parsing edge cases', () => {
  it('a forum page without a list or forum data says so (no silent empty)', () => {
    const p = parseForumPage('<html><body>nothing here</body></html>');
    expect(p).toMatchObject({ drafts: [], hasList: false, forumId: undefined });
  });
  it('thread floors without an author or post id (ads) are skipped; page 2 has no opening floor for detail', () => {
    const floor = (pid: number, no: number) =>
      `<div class="l_post" data-field="${JSON.stringify({ author: { user_name: 'u', portrait: 'tb.1.abcdef12.XYZxyz' }, content: { post_id: pid, post_no: no, comment_num: 1 } }).replace(/"/g, '&quot;')}"><div id="post_content_${pid}">t${no}</div></div>`;
    const html = `<script>PageData.thread = { thread_id:5, title: "T", reply_num:3 };PageData.pager = {"cur_page":2,"total_page":2}</script>${floor(11, 31)}<div class="l_post" data-field="{}"></div>${floor(12, 32)}`;
    const page = parseThreadPage(html);
    expect(page.floors.map((f) => [f.pid, f.text, f.replyTotal])).toEqual([['11', 't31', 1], ['12', 't32', 1]]);
    expect(page.replies).toBe(2);
    expect(threadDraft(page, '5')).toMatchObject({ title: 'T', text: undefined, author: undefined });
  });
  it('floor replies without a pager give no totals; search without hits or pager', () => {
    expect(parseFloorReplies('<li class="lzl_single_post" data-field="{}"></li>', '1', '2')).toEqual({ comments: [], total: undefined, totalPages: undefined });
    expect(parseSearchPage('<div class="s_post_list"></div>')).toEqual({ drafts: [], hasNext: false, hasList: true });
  });
});

describe('tieba JSON parsing edge cases', () => {
  it('content fragments: text, link, @, emoticon by name, images by their best source and size', () => {
    expect(
      fragments([
        { type: 0, text: 'hi ' },
        { type: 1, text: 'link', link: 'http://x' },
        { type: 4, text: '@someone' },
        { type: 2, text: 'image_emoticon', c: '呵呵' },
        { type: 3, cdn_src: 'http://a/1.jpg', origin_src: 'http://a/1-big.jpg', bsize: '640,480' },
        { type: 3, src: 'http://a/2.jpg' },
        { type: 3 },
      ]),
    ).toEqual({ text: 'hi link@someone[呵呵]', images: [{ kind: 'image', url: 'https://a/1-big.jpg', w: 640, h: 480 }, { kind: 'image', url: 'https://a/2.jpg' }] });
    expect(fragments('plain')).toEqual({ text: 'plain', images: [] });
    expect(fragments(undefined)).toEqual({ text: '', images: [] });
  });
  it('the PC thread: floor 1 is the detail, never a comment; users found by author_id', () => {
    const t = parsePcThread({ thread: { title: 'T', reply_num: '2' }, first_floor: { id: 1, author_id: 9 }, post_list: [{ id: 1, floor: 1 }, { id: 2, author_id: 9, content: [{ type: 0, text: 'r' }] }], user_list: [{ id: 9, name: 'n', name_show: 'N', portrait: 'tb.1.abcdef12.XYZxyz?t=1' }] }, '5');
    expect(t.draft).toMatchObject({ native_id: '5', title: 'T', author: 'N', author_handle: 'n', author_id: 'tb.1.abcdef12.XYZxyz', stats: { comments: 2 } });
    expect(t.comments.map((c) => [c.cid, c.text, c.handle])).toEqual([['2', 'r', 'n']]);
    expect(parsePcThread({}, '5')).toEqual({ draft: undefined, comments: [], total: undefined, totalPages: undefined, forumId: undefined });
  });
  it('search cards other than threads are skipped; has_more absent is unknown', () => {
    expect(parsePcSearch({ data: { card_list: [{ cardInfo: 'forum', data: { tid: 1 } }, { cardStyle: 'thread', data: { tid: '2', title: 't' } }] } })).toMatchObject({ drafts: [{ native_id: '2', title: 't' }], hasMore: undefined });
  });
  it('panel without a portrait is no author; user threads without ids are skipped', () => {
    expect(panelAuthor({ no: 0, data: { name: 'x' } })).toBeUndefined();
    expect(userThreads({ data: { thread_list: [{ title: 'no id' }, { thread_id: '7', title: 't', reply_num: '3' }], has_more: '1' } }, { handle: 'u' })).toMatchObject({ drafts: [{ native_id: '7', author_handle: 'u', stats: { comments: 3 } }], hasMore: true });
  });
  it('topics without id or name are left out of items; trends keep rank order', () => {
    const json = { data: { bang_topic: { topic_list: [{ topic_id: 1 }, { topic_name: 'noid' }, { topic_id: 2, topic_name: 'ok', discuss_num: '1.5万', topic_url: 'https://tieba.baidu.com/hottopic/browse/hottopic?topic_id=2&amp;a=b' }] } } };
    expect(topicDrafts(json).map((d) => d.native_id)).toEqual(['topic-2']);
    expect(topicTrends(json)).toEqual([
      { word: 'noid', source: 'tieba', rank: 1 },
      { word: 'ok', source: 'tieba', rank: 2, hot_value: 15000, url: 'https://tieba.baidu.com/hottopic/browse/hottopic?topic_id=2&a=b' },
    ]);
    expect(topicDrafts({})).toEqual([]);
  });
});
