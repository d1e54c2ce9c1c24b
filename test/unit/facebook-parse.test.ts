import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countIn, cssUrl, decodeEntities, isoDuration, isoSeconds, liveData, nextTimelineHref, readAsync, uncomment } from '../../src/platforms/facebook/markup.js';
import { attrJson, bestSource, embeddedSource, fbcdn, inlineVideo, permalinkDraft, timelineDrafts } from '../../src/platforms/facebook/parse.js';
import { ldComments, pageComments } from '../../src/platforms/facebook/thread.js';
import { hasNextPage } from '../../src/platforms/facebook/feeds.js';

const esc = (o: unknown): string => JSON.stringify(o).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/{/g, '&#123;').replace(/}/g, '&#125;');
const ft = (id: string, extra: Record<string, unknown> = {}) => esc({ top_level_post_id: id, mf_story_key: id, content_owner_id_new: '42', ...extra });

describe('facebook markup readers', () => {
  it('CSS background URLs with facebook escapes', () => {
    expect(cssUrl("background: url(&#039;https\\3a //scontent.x.fbcdn.net/v/a.jpg?_nc_cat\\3d 110\\26 oh\\3d ab&#039;) no-repeat")).toBe('https://scontent.x.fbcdn.net/v/a.jpg?_nc_cat=110&oh=ab');
    expect(cssUrl("background-image: url('https://scontent.x.fbcdn.net/b.jpg')")).toBe('https://scontent.x.fbcdn.net/b.jpg');
    expect(cssUrl('color: red')).toBeUndefined();
    expect(cssUrl("url('javascript:alert(1)')")).toBeUndefined();
  });
  it('ISO durations as facebook writes them, and dates with a -0700 offset', () => {
    expect(isoDuration('T3M58S')).toBe(238);
    expect(isoDuration('PT0H3M57.035S')).toBeCloseTo(237.035, 3);
    expect(isoDuration('PT1H')).toBe(3600);
    expect(isoDuration('')).toBeUndefined();
    expect(isoDuration('soon')).toBeUndefined();
    expect(isoSeconds('2021-06-04T08:03:25-0700')).toBe(Date.parse('2021-06-04T15:03:25Z') / 1000);
    expect(isoSeconds('2021-06-04T08:00:35-07:00')).toBe(Date.parse('2021-06-04T15:00:35Z') / 1000);
    expect(isoSeconds('last Wed')).toBeUndefined();
  });
  it('MLiveData counters in page scripts (JS object) and in async answers (JSON)', () => {
    const js = '["MLiveData","set",[],["4187481031336318",{ft_ent_identifier:4187481031336318,comment_count:1017,share_count:4365,reduced_comment_count:"1K",like_count:3788,like_counts:[{__html:"3,788 Likes"}]}]]';
    const json = '[\\"MLiveData\\",\\"set\\",[],[\\"41\\",{\\"ft_ent_identifier\\":41,\\"comment_count\\":22,\\"share_count\\":23,\\"like_count\\":271}]]';
    expect(liveData(js).get('4187481031336318')).toEqual({ likes: 3788, comments: 1017, shares: 4365 });
    expect(liveData(JSON.parse(`"${json}"`)).get('41')).toEqual({ likes: 271, comments: 22, shares: 23 });
    expect(liveData('nothing here').size).toBe(0);
  });
  it('async answers: the markup they insert, their scripts, their error', () => {
    const ok = readAsync(`for (;;);${JSON.stringify({ payload: { actions: [{ cmd: 'replace', target: 'x', html: '<article>a</article>' }, { cmd: 'append', html: '<i>b</i>' }, { cmd: 'script', code: 'run()' }] } })}`)!;
    expect(ok).toEqual({ html: '<article>a</article>\n<i>b</i>', script: 'run()' });
    const err = readAsync(`for (;;);${JSON.stringify({ error: 1357001, errorSummary: 'Not Logged In', errorDescription: 'Please log in to continue.' })}`)!;
    expect(err.error).toEqual({ code: 1357001, summary: 'Not Logged In', description: 'Please log in to continue.' });
    expect(readAsync('for (;;);{oops')!.error?.code).toBe(-1);
    expect(readAsync('<html>')).toBeUndefined();
  });
  it('the see-more href: plain on first pages, JSON-escaped in async scripts', () => {
    const plain = 'x,["InitMMoreItemAutomatic","main",[],[{id:"see_more_cards_id",href:"/page_content_list_view/more/?page_id=1&start_cursor=%7B%22timeline_cursor%22%3A%22AQ%22%7D&amp;num_to_fetch=4&surface_type=posts_tab",proximity_pages:5}]]';
    expect(nextTimelineHref(plain)).toBe('/page_content_list_view/more/?page_id=1&start_cursor=%7B%22timeline_cursor%22%3A%22AQ%22%7D&num_to_fetch=4&surface_type=posts_tab');
    const escaped = '{"id":"see_more_cards_id","href":"\\/page_content_list_view\\/more\\/?page_id=1&start_cursor=\\u00257B\\u002522timeline_cursor\\u002522\\u00253A\\u002522AQ\\u002522\\u00257D&num_to_fetch=4"}';
    expect(nextTimelineHref(escaped)).toBe('/page_content_list_view/more/?page_id=1&start_cursor=%7B%22timeline_cursor%22%3A%22AQ%22%7D&num_to_fetch=4');
    expect(nextTimelineHref('href:"/profile/timeline/stream/?cursor=abc&start_time=1"')).toBe('/profile/timeline/stream/?cursor=abc&start_time=1');
    expect(nextTimelineHref('href:"/groups/117507531664134/?bac=MTYy&multi_permalinks"')).toBe('/groups/117507531664134/?bac=MTYy&multi_permalinks');
    expect(nextTimelineHref('no links')).toBeUndefined();
    expect(hasNextPage('/page_content_list_view/more/?page_id=1&start_cursor=%7B%22has_next_page%22%3Afalse%7D')).toBe(false);
    expect(hasNextPage('/page_content_list_view/more/?page_id=1&start_cursor=%7B%22has_next_page%22%3Atrue%7D')).toBe(true);
    expect(hasNextPage('/groups/1/?bac=x')).toBe(true);
  });
  it('counters written for people, entities, comment wrappers', () => {
    expect(countIn('1,615 Likes', /Likes?/)).toBe(1615);
    expect(countIn('4.3K shares', /shares?/)).toBe(4300);
    expect(countIn(' · 22 replies', /repl(?:y|ies)/)).toBe(22);
    expect(countIn('no numbers', /Likes?/)).toBeUndefined();
    expect(decodeEntities('&#x1f5d3; a &amp; b &#039;c&#039; &quot;d&quot;')).toBe('🗓 a & b \'c\' "d"');
    expect(uncomment('<code><!-- <div>x</div> --></code>')).toBe('<code> <div>x</div> </code>');
  });
  it('decodeEntities never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof decodeEntities(s) === 'string'));
  });
});

describe('facebook streams and attributes', () => {
  it('data attributes with doubled backslashes still parse', () => {
    expect(attrJson('{"src":"https:\\\\/\\\\/video.x.fbcdn.net\\\\/a.mp4"}')).toEqual({ src: 'https:\\/\\/video.x.fbcdn.net\\/a.mp4' });
    expect(attrJson('{"a":1}')).toEqual({ a: 1 });
    expect(attrJson('not json')).toBeUndefined();
  });
  it('hd_src over sd_src over src; only https fbcdn URLs count', () => {
    expect(bestSource({ src: 'https://video.x.fbcdn.net/s.mp4', sd_src: 'https://video.x.fbcdn.net/sd.mp4', hd_src: 'https://video.x.fbcdn.net/hd.mp4' })).toBe('https://video.x.fbcdn.net/hd.mp4');
    expect(bestSource({ src: 'https://video.x.fbcdn.net/s.mp4', sd_src: 'https://video.x.fbcdn.net/sd.mp4' })).toBe('https://video.x.fbcdn.net/sd.mp4');
    expect(bestSource({ hd_src: 'https://evil.example/hd.mp4', src: 'https://video.x.fbcdn.net/s.mp4' })).toBe('https://video.x.fbcdn.net/s.mp4');
    expect(fbcdn('http://video.x.fbcdn.net/a.mp4')).toBeUndefined();
    expect(fbcdn('https://static.xx.fbcdn.net/rsrc.php/v3/a.png')).toBeUndefined();
    expect(inlineVideo(JSON.stringify({ videoID: '7', src: 'https://video.x.fbcdn.net/s.mp4', width: 360, height: 640, dashManifest: '<MPD mediaPresentationDuration="PT0H0M42.500S">' }))).toEqual({ id: '7', url: 'https://video.x.fbcdn.net/s.mp4', w: 360, h: 640, duration_s: 42.5 });
  });
  it('stream URLs in page scripts: the HD key wins, and only near the wanted video id', () => {
    const page = `{"video":{"id":"111","playable_url":"https:\\/\\/video.x.fbcdn.net\\/111_sd.mp4","playable_url_quality_hd":"https:\\/\\/video.x.fbcdn.net\\/111_hd.mp4"}}${' '.repeat(30_000)}{"id":"222","sd_src":"https:\\/\\/video.x.fbcdn.net\\/222_sd.mp4"}`;
    expect(embeddedSource(page, '111')).toBe('https://video.x.fbcdn.net/111_hd.mp4');
    expect(embeddedSource(page, '222')).toBe('https://video.x.fbcdn.net/222_sd.mp4');
    expect(embeddedSource(page, '333')).toBeUndefined();
    expect(embeddedSource('"hd_src":"https://video.x.fbcdn.net/h.mp4","sd_src":"https://video.x.fbcdn.net/s.mp4"')).toBe('https://video.x.fbcdn.net/h.mp4');
  });
});

describe('facebook stories and comments', () => {
  const story = (id: string, body: string, extra = '') =>
    `<article data-ft="${ft(id, { page_insights: { 42: { post_context: { publish_time: 1600000000 } } } })}">` +
    `<div class="story_body_container"><header><h3><strong><a href="/SomePage/?__tn__=C-R">Some Page</a></strong></h3></header>${body}</div>${extra}</article>`;

  it('a story without text, media or counters is still a text item with what it has; never a throw', () => {
    const [d] = timelineDrafts(story('1001', ''));
    expect(d).toMatchObject({ native_id: '1001', type: 'text', text: '', author: 'Some Page', author_handle: 'SomePage', author_id: '42', ts: 1600000000, stats: {} });
    expect(d!.url).toBe('https://www.facebook.com/SomePage/posts/1001');
    expect(timelineDrafts('<article data-ft="{broken">x</article><article>no ft</article>')).toEqual([]);
  });
  it('the "… More" expander and profile pictures are not content; a shared post’s nested article is part of the sharer’s story', () => {
    const nested = story('2002', '<div><p>Original words</p></div>');
    const html = story('2001', '<div class="_5rgt"><p>My words… <a href="/story.php?story_fbid=2001&amp;id=42">More</a></p></div><img class="profpic img" src="https://scontent.x.fbcdn.net/p.jpg">', nested);
    const drafts = timelineDrafts(html);
    expect(drafts.map((d) => d.native_id)).toEqual(['2001']);
    expect(drafts[0]!.text).toBe('My words');
    expect(drafts[0]!.media).toEqual([]);
    expect(drafts[0]!.url).toBe('https://www.facebook.com/story.php?story_fbid=2001&id=42');
  });
  it('footer counters stand in when MLiveData is absent', () => {
    const [d] = timelineDrafts(story('3001', '<p>x</p>', '<footer><span class="like_def">1,204 Likes</span><span class="cmt_def">87 comments</span><span data-sigil="feed-ufi-sharers">5 shares</span></footer>'));
    expect(d!.stats).toEqual({ likes: 1204, comments: 87, shares: 5 });
  });
  it('photos drawn as <i class="img"> with a CSS background count as images; the player thumb does not', () => {
    const [d] = timelineDrafts(story('5001', `<div class="_5rgu"><a href="/SomePage/photos/a.1/5001/"><i class="img _5sgi" style="background-image: url(&#039;https\\3a //scontent.x.fbcdn.net/v/p.jpg?a\\3d 1&#039;);" role="img"></i></a></div>`));
    expect(d).toMatchObject({ type: 'image', media: [{ kind: 'image', url: 'https://scontent.x.fbcdn.net/v/p.jpg?a=1' }] });
  });
  it('a group permalink link is the group post URL', () => {
    const [d] = timelineDrafts(story('4001', '<p>hi</p><a href="https://m.facebook.com/groups/southamericans/permalink/4001/?refid=18">2 h</a>'));
    expect(d!.url).toBe('https://www.facebook.com/groups/southamericans/permalink/4001/');
  });
  it('a page that is none of the layouts gives nothing (the caller explains why)', () => {
    expect(permalinkDraft('<html><head><title>Facebook</title></head><body></body></html>', 'https://m.facebook.com/1/', { postId: '1' })).toBeUndefined();
  });
  it('comments: missing pieces default (likes 0, created_at 0, handle ""), a bad id is skipped, a logged-in name link gives the handle', () => {
    const html =
      '<div id="ufi_9"><div data-sigil="comment" id="77"><div data-sigil="feed_story_ring555"></div><div class="_2b05"><a href="/jane.doe?refid=52">Jane Doe</a></div><div data-sigil="comment-body">Nice<br>post</div><span class="_14va">12</span></div>' +
      '<div data-sigil="comment" id="u_0_x"><div data-sigil="comment-body">skipped</div></div>' +
      '<div data-sigil="comment inline-reply" id="78"><div data-sigil="comment-body">a reply, not a top-level comment</div></div></div>';
    const page = pageComments(html, '9');
    expect(page.found).toBe(true);
    expect(page.items).toEqual([{ cid: '77', text: 'Nice\npost', likes: 12, reply_total: 0, user_id: '555', handle: 'jane.doe', user_name: 'Jane Doe', created_at: 0, source: 'facebook' }]);
    expect(page.next).toBeUndefined();
    expect(pageComments('<html></html>', '9').found).toBe(false);
    expect(ldComments('<html></html>').found).toBe(false);
  });
});
