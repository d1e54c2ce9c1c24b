import { describe, expect, it } from 'vitest';
import {
  appBoard,
  articleBody,
  authorFromProfile,
  commentFrom,
  feedItemToDraft,
  postFromRenderData,
  renderData,
  searchCards,
  searchCardToDraft,
  webBoard,
} from '../../src/platforms/toutiao/parse.js';

const TOKEN = 'MS4wLjABAAAAq3Yk8mZxWc2aNfR0uT7pLh4sVbE9oDj1iKQ6wGyCX5M';

describe('web hot board', () => {
  it('skips entries without an id or a word, ranks what remains, reads heat only when it is a number', () => {
    const entries = webBoard({
      data: [
        { ClusterIdStr: '7506290511447588874', Title: '甲', HotValue: '123', Image: { url: 'https://p3-sign.toutiaoimg.com/a~x.image' } },
        { Title: '没有编号' },
        { ClusterId: 42424242, QueryWord: '乙', HotValue: '热' },
        { ClusterIdStr: '7506290511447588875' },
        'junk',
      ],
    });
    expect(entries).toEqual([
      { clusterId: '7506290511447588874', word: '甲', rank: 1, hot: 123, image: 'https://p3-sign.toutiaoimg.com/a~x.image', url: 'https://www.toutiao.com/trending/7506290511447588874/' },
      { clusterId: '42424242', word: '乙', rank: 2, url: 'https://www.toutiao.com/trending/42424242/' },
    ]);
  });

  it('anything but {data: [...]} is no entries', () => {
    expect(webBoard(null)).toEqual([]);
    expect(webBoard({ data: {} })).toEqual([]);
    expect(webBoard([1, 2])).toEqual([]);
  });
});

describe('app hot board', () => {
  const cell = (raw: Record<string, unknown>, rank?: string) => JSON.stringify({ raw_data: raw, log_pb: rank ? { impr_rank: rank } : {} });
  it('parses each content string a second time; a cell that is not JSON is skipped', () => {
    const entries = appBoard({
      message: 'success',
      data: [
        { content: cell({ title: '话题一', hot_item_id_str: '6917172096716099083', hot_value: '98765', schema: 'sslocal://search?keyword=x&hot_board_cluster_id=6917172096716099083' }, '1') },
        { content: '{not json' },
        { content: cell({ title: '活动页', hot_item_id: 6908983819, schema: 'sslocal://webview?title=x&url=https%3A%2F%2Fi.snssdk.com%2Fpage%3Fa%3D1' }) },
        { content: cell({ title: '无链接', hot_item_id_str: '6914905542192742915', large_image: { url_list: [{ url: '//p1.pstatp.com/large/abc' }] } }, '7') },
        { content: cell({ hot_item_id_str: '6914905542192742916' }, '8') },
      ],
    });
    expect(entries).toEqual([
      { clusterId: '6917172096716099083', word: '话题一', rank: 1, hot: 98765, url: 'https://www.toutiao.com/trending/6917172096716099083/' },
      { clusterId: '6908983819', word: '活动页', rank: 2, url: 'https://i.snssdk.com/page?a=1' },
      { clusterId: '6914905542192742915', word: '无链接', rank: 7, image: 'https://p1.pstatp.com/large/abc', url: 'https://www.toutiao.com/trending/6914905542192742915/' },
    ]);
  });
});

describe('feed items and search cards', () => {
  it('an ad, an item without a post id, or one with neither title nor text is no item', () => {
    expect(feedItemToDraft({ tag: 'ad', group_id: '7506218830561436223', title: 'x' })).toBeUndefined();
    expect(feedItemToDraft({ is_feed_ad: true, group_id: '7506218830561436223', title: 'x' })).toBeUndefined();
    expect(feedItemToDraft({ title: 'no id' })).toBeUndefined();
    expect(feedItemToDraft({ group_id: '12345', title: 'too short an id' })).toBeUndefined();
    expect(feedItemToDraft({ group_id: '7506218830561436223' })).toBeUndefined();
  });

  it('a micro-post drops a title that only repeats its text; times in ms become seconds; <em> is stripped', () => {
    expect(feedItemToDraft({ thread_id_str: '1832590417768457', title: '雾还没散，渡船已经出发了', content: '雾还没散，渡船已经出发了。', create_time: 1747390000123 })).toEqual({
      native_id: '1832590417768457',
      type: 'text',
      url: 'https://www.toutiao.com/w/1832590417768457/',
      text: '雾还没散，渡船已经出发了。',
      ts: 1747390000,
      stats: {},
    });
    expect(feedItemToDraft({ group_id: '7506218830561436223', title: '<em>人工智能</em>来了' })?.title).toBe('人工智能来了');
  });

  it('a video by its duration; the token wins over the numeric id as author id; protocol-relative images', () => {
    expect(
      feedItemToDraft({
        group_id: '7505382061495176511',
        title: '航拍',
        video_duration: 242,
        user: { name: '城市早报', id: 58391760233 },
        user_info: { user_id: TOKEN },
        image_url: '//p9-sign.toutiaoimg.com/x~tplv.jpg',
        digg_count: '1.2万',
      }),
    ).toEqual({
      native_id: '7505382061495176511',
      type: 'video',
      url: 'https://www.toutiao.com/video/7505382061495176511/',
      title: '航拍',
      author: '城市早报',
      author_id: TOKEN,
      thumb: 'https://p9-sign.toutiaoimg.com/x~tplv.jpg',
      duration_s: 242,
      stats: { likes: 12000 },
    });
  });

  it('search cards come from druid card scripts and s-result-json scripts only, JSON with a data object', () => {
    const html =
      '<script>var x = {"data":{"title":"not a card"}}</script>' +
      '<script type="application/json" data-druid-card-data-id="1">{"data":{"title":"一","group_id":7505129384756102183}}</script>' +
      '<script data-druid-card-data-id="2">not json</script>' +
      '<script data-for="s-result-json">{"data":{"title":"二"}}</script>' +
      '<script data-druid-card-data-id="3">{"nodata":1}</script>';
    expect(searchCards(html)).toEqual([{ title: '一', group_id: '7505129384756102183' }, { title: '二' }]);
  });

  it('a search card is a result only by its group_id / item_id, never by a bare id (a user or topic card)', () => {
    expect(searchCardToDraft({ id: '3651978203441287', title: '教育一线', type: 'user' }, 'synthesis')).toBeUndefined();
    expect(searchCardToDraft({ item_id: '7505129384756102183', title: '一' }, 'information')?.url).toBe('https://www.toutiao.com/article/7505129384756102183/');
    expect(searchCardToDraft({ group_id: '1832590417768457', content: '微头条' }, 'weitoutiao')?.url).toBe('https://www.toutiao.com/w/1832590417768457/');
    // In a creator's feed the bare id is the post's (59167119737 reads it first).
    expect(feedItemToDraft({ id: '7505129384756102183', title: '一' })?.native_id).toBe('7505129384756102183');
  });
});

describe('RENDER_DATA pages', () => {
  const wrap = (v: unknown) => `<html><body><script id="RENDER_DATA" type="application/json">${encodeURIComponent(JSON.stringify(v))}</script></body></html>`;

  it('reads URL-encoded and plain JSON; a page without it or with garbage has none', () => {
    expect(renderData(wrap({ data: { a: 1 } }))).toEqual({ data: { a: 1 } });
    expect(renderData('<script type="application/json" id="RENDER_DATA">{"data":{"b":2}}</script>')).toEqual({ data: { b: 2 } });
    expect(renderData('<html></html>')).toBeUndefined();
    expect(renderData('<script id="RENDER_DATA">%E0%A4%A</script>')).toBeUndefined();
  });

  it('a video with only split streams gives the video-only track and says so; base64 main_url is decoded', () => {
    const url = 'https://v9-default.toutiaovod.com/x/video-only.mp4?a=24';
    const page = postFromRenderData(
      {
        data: {
          initialVideo: {
            title: 't',
            videoPlayInfo: {
              video_duration: 10,
              dynamic_video: { dynamic_video_list: [{ main_url: Buffer.from(url).toString('base64'), video_meta: { vwidth: 1920, vheight: 1080 } }], dynamic_audio_list: [{ main_url: 'https://v9-default.toutiaovod.com/x/a.m4a' }] },
            },
          },
        },
      },
      '7505382061495176511',
    )!;
    expect(page.draft.media).toEqual([{ kind: 'video', url, w: 1920, h: 1080, duration_s: 10 }]);
    expect(page.notes).toEqual(['video 7505382061495176511 offers only separate video and audio streams; media[] is the video-only stream']);
  });

  it('video_list as an object map (video_1, video_2) is read too, the largest first; no stream is a note, not an error', () => {
    const page = postFromRenderData(
      {
        data: {
          initialVideo: {
            videoPlayInfo: {
              video_list: {
                video_1: { main_url: 'https://v3-default.toutiaovod.com/360.mp4', vwidth: 640, vheight: 360 },
                video_2: { main_url: 'https://v3-default.toutiaovod.com/720.mp4', vwidth: 1280, vheight: 720 },
              },
            },
          },
        },
      },
      '7505382061495176511',
    )!;
    expect(page.draft.media?.[0].url).toBe('https://v3-default.toutiaovod.com/720.mp4');
    const none = postFromRenderData({ data: { initialVideo: { title: 'x' } } }, '7505382061495176511')!;
    expect(none.draft.media).toBeUndefined();
    expect(none.notes).toEqual(['video 7505382061495176511: the page names no playable stream']);
  });

  it('an article body: paragraphs as lines, images (src or data-src) once each, entities decoded', () => {
    const body = articleBody('<p>第一段&amp;更多</p><div><img data-src="//p3-sign.toutiaoimg.com/a.jpg"><img src="https://p3-sign.toutiaoimg.com/a.jpg"></div><p>第二段<br>换行</p>');
    expect(body).toEqual({ text: '第一段&更多\n\n第二段\n换行', images: ['https://p3-sign.toutiaoimg.com/a.jpg'] });
    expect(articleBody('')).toEqual({ images: [] });
  });

  it('the phone site\'s article shape gives author and counts', () => {
    const page = postFromRenderData(
      { articleInfo: { title: '标题', content: '<p>正文</p>', mediaUser: { name: '作者' }, publishTime: '1747483344', diggCount: 5, commentCount: 2 } },
      '7506218830561436223',
    )!;
    expect(page.draft).toEqual({
      native_id: '7506218830561436223',
      type: 'text',
      url: 'https://www.toutiao.com/article/7506218830561436223/',
      title: '标题',
      text: '正文',
      author: '作者',
      ts: 1747483344,
      stats: { likes: 5, comments: 2 },
    });
  });

  it('RENDER_DATA of another kind of page holds no post', () => {
    expect(postFromRenderData({ data: { profileUserInfo: { name: 'x' } } }, '7506218830561436223')).toBeUndefined();
    expect(postFromRenderData({ articleInfo: { thread: { threadBase: { content: '' } } } }, '1832590417768457')).toBeUndefined();
  });
});

describe('comments and creators', () => {
  it('a comment needs an id and a text; id_str wins; missing counts are 0', () => {
    expect(commentFrom({ comment: { text: 'no id' } })).toBeUndefined();
    expect(commentFrom({ comment: { id: 5, text: '' } })).toBeUndefined();
    expect(commentFrom({ comment: { id: '7506231029384756000', id_str: '7506231029384756481', text: '好', user_name: 'a' } })).toEqual({
      cid: '7506231029384756481',
      text: '好',
      likes: 0,
      reply_total: 0,
      user_id: '',
      handle: 'a',
      user_name: 'a',
      created_at: 0,
      source: 'toutiao',
    });
  });

  it('a profile without counts reports none (absent, not a guessed 0)', () => {
    expect(authorFromProfile({ name: 'n', userVerified: 'yes' }, TOKEN)).toEqual({ id: TOKEN, source: 'toutiao', url: `https://www.toutiao.com/c/user/token/${TOKEN}/`, name: 'n' });
    expect(authorFromProfile({}, TOKEN, { fans: '3亿', following: '0', digg_count: 'x' })).toMatchObject({ followers: 300000000, following: 0 });
  });
});
