// Writes the hand-made toutiao sandbox recordings next to this file: node --import tsx sandbox/toutiao/generate.ts
//
// No real recording of these answers exists (fixtures/toutiao holds only the 2021 app hot board). Each body
// follows the shape public crawlers read, cited in its entry's comment; values are invented.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const STARTED = '2026-05-20T08:00:00.000Z';

type Header = { name: string; value: string };
interface Ex {
  method?: 'GET' | 'POST';
  url: string;
  reqHeaders?: Header[];
  post?: { mimeType: string; text: string };
  status?: number;
  statusText?: string;
  headers?: Header[];
  mime?: string;
  text: string;
  comment: string;
}

/** Integers beyond 2^53 are written bare, as toutiao sends them: BIG('…') marks them in a value. */
const BIG = (digits: string): string => `__BIG__${digits}`;
const json = (v: unknown): string => JSON.stringify(v).replace(/"__BIG__(\d+)"/g, '$1');

function har(entries: Ex[]): string {
  return (
    JSON.stringify(
      {
        log: {
          version: '1.2',
          creator: { name: 'hand-made (toutiao adapter sandbox)', version: '1' },
          entries: entries.map((e) => {
            const u = new URL(e.url);
            const mime = e.mime ?? 'application/json; charset=utf-8';
            return {
              startedDateTime: STARTED,
              time: 0,
              request: {
                method: e.method ?? 'GET',
                url: e.url,
                httpVersion: 'HTTP/1.1',
                headers: e.reqHeaders ?? [{ name: 'Referer', value: 'https://www.toutiao.com/' }],
                queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
                ...(e.post ? { postData: e.post } : {}),
                cookies: [],
                headersSize: -1,
                bodySize: e.post ? Buffer.byteLength(e.post.text) : -1,
              },
              response: {
                status: e.status ?? 200,
                statusText: e.statusText ?? 'OK',
                httpVersion: 'HTTP/1.1',
                headers: e.headers ?? [{ name: 'Content-Type', value: mime }],
                cookies: [],
                content: { size: Buffer.byteLength(e.text), mimeType: mime, text: e.text },
                redirectURL: e.headers?.find((h) => h.name === 'Location')?.value ?? '',
                headersSize: -1,
                bodySize: -1,
              },
              cache: {},
              timings: { send: 0, wait: 0, receive: 0 },
              comment: `hand-made: ${e.comment}`,
            };
          }),
        },
      },
      null,
      1,
    ) + '\n'
  );
}

const write = (name: string, entries: Ex[]) => writeFileSync(join(OUT, name), har(entries));
const HTML = 'text/html; charset=utf-8';
const q = (base: string, pairs: Array<[string, string]>) => `${base}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;

/** A page whose data sits URL-encoded in <script id="RENDER_DATA"> (yt-dlp toutiao.py reads it so). */
const page = (title: string, renderData: unknown, extra = '') =>
  `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>${title}</title></head><body><div id="root"></div>${extra}` +
  `<script id="RENDER_DATA" type="application/json">${encodeURIComponent(json(renderData))}</script></body></html>`;

const img = (path: string) => `https://p3-sign.toutiaoimg.com/${path}~tplv-tt-origin-web:gif.jpeg?_iz=58558&from=article.pc_detail&x-expires=1779264000&x-signature=sandbox`;

// ---------------------------------------------------------------------------------------------
// Creators and posts used across the recordings

const TOKEN_NEWS = 'MS4wLjABAAAAq3Yk8mZxWc2aNfR0uT7pLh4sVbE9oDj1iKQ6wGyCX5M';
const UID_NEWS = '58391760233';
const TOKEN_MAKER = 'MS4wLjABAAAA4f7d4mwtApALtHIiq-QM20dwXqe3sandboxMaker01';
const TOKEN_REFUSED = 'MS4wLjABAAAAsandboxRefusedFeed00000000000000000000000';
const TOKEN_EMPTY = 'MS4wLjABAAAAsandboxQuietCreator000000000000000000000';

const ARTICLE = '7506218830561436223';
const VIDEO = '7505382061495176511';
const MICRO = '1832590417768457';
const CHALLENGE = '7506300000000000001';
const LOGIN_WALL = '7506300000000000002';
const GONE = '7506300000000000003';
const COMMENTS_CLOSED = '7506300000000000004';
const COMMENTS_REFUSED = '7506300000000000005';

// ---------------------------------------------------------------------------------------------

write('ttwid-register.har', [
  {
    method: 'POST',
    url: 'https://ttwid.bytedance.com/ttwid/union/register/',
    reqHeaders: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Origin', value: 'https://www.toutiao.com' },
    ],
    post: { mimeType: 'application/json', text: json({ aid: 24, needFid: false, region: 'cn', service: 'www.toutiao.com', union: true }) },
    headers: [
      { name: 'Content-Type', value: 'application/json; charset=utf-8' },
      { name: 'Set-Cookie', value: 'ttwid=1%7CsandboxGuest0Ttwid4Toutiao%7C1779264000%7C5f1c0de0sandbox; Path=/; Domain=bytedance.com; Max-Age=31536000; HttpOnly; Secure' },
    ],
    text: json({ redirect_url: 'https://www.toutiao.com/ttwid/union/register/callback/?aid=24&ticket=sandboxTicket0001', status_code: 0, message: 'union register success' }),
    comment:
      'guest ttwid. Request body as yt-dlp yt_dlp/extractor/toutiao.py _real_initialize sends it; the ttwid comes back in Set-Cookie (yt-dlp reads the cookie of this answer; JoeanAmier/TikTokDownloader src/encrypt/ttWid.py extract()); body {redirect_url, status_code, message} as quoted in search index 4650637196 and read in 71249200963.',
  },
]);

write('hot-web.har', [
  {
    url: 'https://www.toutiao.com/hot-event/hot-board/?origin=toutiao_pc',
    text: json({
      data: [
        ['7506290511447588874', '国产大飞机完成首次跨洋试飞', '32561849', 'news/technology'],
        ['7506281120983916580', '多地发布高温预警', '28134422', 'news/society'],
        ['7506277364910079012', '暑期档电影预售开启', '17960535', 'news/entertainment'],
        ['7506269032855867419', '中超联赛第十三轮综述', '9241876', 'news/sports'],
        ['7506251188724019236', '新能源车下乡活动启动', '6120347', 'news/car'],
      ].map(([id, title, hot, cat], i) => ({
        ClusterId: BIG(id),
        ClusterIdStr: id,
        ClusterType: 0,
        QueryWord: title,
        Title: title,
        HotValue: hot,
        Url: `https://www.toutiao.com/trending/${id}/?category_name=topic_innerflow&event_type=hot_board&log_pb=%7B%22cluster_type%22%3A%220%22%7D&rank=${i + 1}&style_id=40132&topic_id=${id}`,
        Image: { uri: `tos-cn-i-0022/sandbox-hot-${i + 1}`, url: `https://p3-sign.toutiaoimg.com/tos-cn-i-0022/sandbox-hot-${i + 1}~tplv-tt-shrink:640:0.image`, width: 640, height: 360 },
        LabelUri: i === 0 ? { uri: 'tos-cn-i-0022/hot-label', url: 'https://p3-sign.toutiaoimg.com/tos-cn-i-0022/hot-label~tplv-tt-origin.image' } : undefined,
        Label: i === 0 ? 'hot' : '',
        InterestCategory: [cat],
      })),
    }),
    comment:
      'web hot board. Fields as read by imsyy/DailyHotApi src/routes/toutiao.ts (ClusterIdStr, Title, Image.url, HotValue), ourongxing/newsnow server/sources/toutiao.ts (LabelUri.url), search index 23188231727 (ClusterId, Label, Url, HotValue, Image), 60326722078 (QueryWord, InterestCategory); Url carries tracking params (71297596170).',
  },
]);

// ---------------------------------------------------------------------------------------------
// search: so.toutiao.com result page with JSON cards

const card = (id: number, data: unknown) => `<script type="application/json" data-druid-card-data-id="${id}">${json({ data })}</script>`;
const searchHtml = (keyword: string, cards: string[]) =>
  `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>${keyword} - 头条搜索</title></head><body><div class="s-result-list">${cards.join('')}</div></body></html>`;

write('search-rengongzhineng.har', [
  {
    url: q('https://so.toutiao.com/search', [['keyword', '人工智能'], ['pd', 'synthesis'], ['dvpf', 'pc'], ['source', 'input'], ['page_num', '0']]),
    reqHeaders: [{ name: 'Referer', value: 'https://so.toutiao.com/' }],
    mime: HTML,
    text: searchHtml('人工智能', [
      card(1, {
        title: '<em>人工智能</em>如何改变制造业：三家工厂的一年',
        abstract: '从质检到排产，三家工厂在一年里把<em>人工智能</em>用进了生产线，效果和代价都比预想的大。',
        group_id: BIG('7505129384756102183'),
        item_id: BIG('7505129384756102183'),
        media_name: '科技观察站',
        publish_time: 1747392000,
        comment_count: 318,
        digg_count: 2410,
        article_url: 'https://www.toutiao.com/group/7505129384756102183/',
      }),
      card(2, {
        title: '一分钟看懂大模型是怎么训练出来的',
        abstract: '动画演示大模型训练的三个阶段。',
        group_id: '7504988312204321076',
        media_name: '小莉创意发明',
        publish_time: 1747305600,
        comment_count: 96,
        digg_count: 5120,
        has_video: true,
        video_duration: 63,
      }),
      card(3, { title: '相关搜索', display: { type: 'related_search', words: ['人工智能专业', '人工智能概念股'] } }),
      card(4, {
        title: '人工智能进课堂，老师们怎么看',
        content: { text: '今天去听了一节用AI助教的公开课，学生的反应很有意思……' },
        group_id: BIG('7504870015532974658'),
        user: { name: '教育一线', id: BIG('3651978203441287') },
        create_time: 1747219200,
        comment_count: 45,
        digg_count: 377,
      }),
    ]),
    comment:
      'search result page. Cards are <script data-druid-card-data-id> holding {"data": {title (with <em>), abstract / content, group_id / item_id, media_name / user.name, publish_time / create_time, comment_count, digg_count, has_video / video_duration, article_url}} as read by search index 71297596170 (_parse_cards); 41607675475 reads the same {data:{title, open_url}} from data-for="s-result-json"; a card without a group id (related searches) is no result.',
  },
]);

const SEARCH_PAGES_COMMENT =
  'search result pages 2 and 3 in the pagination form keyword=&pd=&dvpf=pc&source=pagination&page_num=N&action_type=pagination (search index 66250831631 buildSearchUrl); cards as on page 1. Page 3 carries no card: the end of the results.';

write('search-rengongzhineng-more.har', [
  {
    url: q('https://so.toutiao.com/search', [['keyword', '人工智能'], ['pd', 'synthesis'], ['dvpf', 'pc'], ['source', 'pagination'], ['page_num', '1'], ['action_type', 'pagination']]),
    reqHeaders: [{ name: 'Referer', value: 'https://so.toutiao.com/' }],
    mime: HTML,
    text: searchHtml('人工智能', [
      card(1, {
        title: '<em>人工智能</em>写的诗，你能分辨出来吗',
        abstract: '十首诗里有五首出自模型，读者的正确率只有一半。',
        group_id: BIG('7503310248891130427'),
        media_name: '读书小站',
        publish_time: 1747132800,
        comment_count: 1204,
        digg_count: 8833,
      }),
    ]),
    comment: SEARCH_PAGES_COMMENT,
  },
  {
    url: q('https://so.toutiao.com/search', [['keyword', '人工智能'], ['pd', 'synthesis'], ['dvpf', 'pc'], ['source', 'pagination'], ['page_num', '2'], ['action_type', 'pagination']]),
    reqHeaders: [{ name: 'Referer', value: 'https://so.toutiao.com/' }],
    mime: HTML,
    text: searchHtml('人工智能', []),
    comment: SEARCH_PAGES_COMMENT,
  },
]);

write('error-search-captcha.har', [
  {
    url: q('https://so.toutiao.com/search', [['keyword', '验证测试'], ['pd', 'synthesis'], ['dvpf', 'pc'], ['source', 'input'], ['page_num', '0']]),
    reqHeaders: [{ name: 'Referer', value: 'https://so.toutiao.com/' }],
    mime: HTML,
    text: '<!DOCTYPE html><html><head><meta charset="utf-8"><title>头条搜索</title></head><body><div id="pc_captcha" class="captcha_verify_container"></div><script src="https://lf3-cdn-tos.bytescm.com/obj/rc-client-security/secsdk-captcha/2.27.5/captcha.js"></script></body></html>',
    comment: 'search answered with the verify box instead of results: the #pc_captcha element search index 66250831631 checks for ("requires browser verification").',
  },
]);

write('error-search-no-cards.har', [
  {
    url: q('https://so.toutiao.com/search', [['keyword', '空手测试'], ['pd', 'synthesis'], ['dvpf', 'pc'], ['source', 'input'], ['page_num', '0']]),
    reqHeaders: [{ name: 'Referer', value: 'https://so.toutiao.com/' }],
    mime: HTML,
    text: '<!DOCTYPE html><html><head><meta charset="utf-8"><title>空手测试 - 头条搜索</title></head><body><div class="s-result-list"></div></body></html>',
    comment: 'a result page without any card: search index 71297596170 measured this on ~5–12 % of searches regardless of the query ("搜索偶发空手"), so it is no proof of "no results".',
  },
]);

// ---------------------------------------------------------------------------------------------
// posts: /api/pc/list/user/feed?category=profile_all

const feedUrl = (token: string, cursor: string) =>
  q('https://www.toutiao.com/api/pc/list/user/feed', [['category', 'profile_all'], ['token', token], ['max_behot_time', cursor], ['entrance_gid', ''], ['aid', '24'], ['app_name', 'toutiao_web']]);
const FEED_COMMENT =
  'creator feed /api/pc/list/user/feed?category=profile_all&token=&max_behot_time=&entrance_gid=&aid=24&app_name=toutiao_web (search index 71249200963 get_user_work_info); answer {message:"success", data[], has_more, next:{max_behot_time}} (71249200963 get_user_all_work, 59167119737, 66250831631); items: group_id / thread_id_str, title, abstract / content, publish_time / create_time, user {name, id}, user_info.user_id (token, 24275252243), digg_count, comment_count, read_count, image_url, has_video / video_duration (59167119737 parse_items, 66250831631 mapFeedItems). Sent unsigned: the native route.';
const newsUser = { name: '城市早报', id: BIG(UID_NEWS) };
const newsInfo = { user_id: TOKEN_NEWS, name: '城市早报' };

write('posts-chengshizaobao.har', [
  {
    url: feedUrl(TOKEN_NEWS, '0'),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/` }],
    text: json({
      message: 'success',
      has_more: true,
      next: { max_behot_time: 1747390000 },
      data: [
        {
          group_id: BIG(ARTICLE),
          item_id: BIG(ARTICLE),
          title: '地铁三号线南延段今日开通，沿途设站八座',
          abstract: '南延段全长十二公里，早高峰发车间隔四分钟。',
          publish_time: 1747483344,
          behot_time: 1747483344,
          user: newsUser,
          user_info: newsInfo,
          digg_count: 1830,
          comment_count: 264,
          read_count: 158302,
          image_url: '//p3-sign.toutiaoimg.com/tos-cn-i-6w9my0ksvp/sandbox-metro~tplv-tt-cs0:640:360.jpg',
        },
        {
          group_id: BIG(VIDEO),
          item_id: BIG(VIDEO),
          title: '航拍：雨后的老城区',
          abstract: '四分钟航拍，记录雨后老城。',
          publish_time: 1747440000,
          user: newsUser,
          user_info: newsInfo,
          has_video: true,
          video_duration: 242,
          digg_count: 9120,
          comment_count: 411,
          read_count: 803216,
          image_url: 'https://p9-sign.toutiaoimg.com/tos-cn-i-0004/sandbox-aerial~tplv-tt-cs0:640:360.jpg',
        },
        {
          thread_id_str: MICRO,
          content: '今天早上的江边，雾还没散，渡船已经出发了。',
          create_time: 1747390000,
          user: newsUser,
          user_info: newsInfo,
          digg_count: 77,
          comment_count: 12,
        },
      ],
    }),
    comment: `${FEED_COMMENT} Page 1.`,
  },
  {
    url: feedUrl(TOKEN_NEWS, '1747390000'),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/` }],
    text: json({
      message: 'success',
      has_more: false,
      next: { max_behot_time: 0 },
      data: [
        {
          group_id: BIG('7504411208836514345'),
          title: '老城区改造方案公示，征求意见至月底',
          abstract: '方案涉及十二条街巷，公示期三十天。',
          publish_time: 1747300000,
          user: newsUser,
          user_info: newsInfo,
          digg_count: 402,
          comment_count: 87,
          read_count: 40233,
        },
      ],
    }),
    comment: `${FEED_COMMENT} Page 2, the last (has_more false).`,
  },
]);

write('error-posts-refused.har', [
  {
    url: feedUrl(TOKEN_REFUSED, '0'),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_REFUSED}/` }],
    text: '',
    comment: 'the unsigned feed request answered with an empty 200, the refusal of a missing/bad signature (the empty-200 block of ByteDance web APIs: research notes §1, users.md complaint #4).',
  },
  {
    url: `${feedUrl(TOKEN_REFUSED, '0')}&_signature=_02B4Z6wo00f01sandboxSignedInPage.0000000000AAIDAsandbox`,
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_REFUSED}/` }],
    text: json({
      message: 'success',
      has_more: false,
      next: { max_behot_time: 0 },
      data: [
        {
          group_id: BIG('7506112093345608227'),
          title: '签名后才给的文章',
          abstract: '这一页只回答带 _signature 的请求。',
          publish_time: 1747480000,
          user: { name: '签名测试号', id: BIG('70010020030') },
          user_info: { user_id: TOKEN_REFUSED, name: '签名测试号' },
          digg_count: 3,
          comment_count: 0,
        },
      ],
    }),
    comment: `${FEED_COMMENT} The same request with the _signature the page's byted_acrawler.sign computed (the browser route).`,
  },
]);

write('posts-quiet-creator.har', [
  {
    url: feedUrl(TOKEN_EMPTY, '0'),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_EMPTY}/` }],
    text: json({ message: 'success', has_more: false, next: { max_behot_time: 0 }, data: [] }),
    comment: `${FEED_COMMENT} A creator with no posts: success with an empty data[].`,
  },
]);

// ---------------------------------------------------------------------------------------------
// user: profile page + fans_stat

const profilePage = (token: string, info: Record<string, unknown>) =>
  page(`${String(info.name)}的头条主页 - 今日头条`, { data: { profileUserInfo: info } }, '<div class="profile-info-l"></div>');
const PROFILE_COMMENT =
  'profile page www.toutiao.com/c/user/token/<token>/: RENDER_DATA data.profileUserInfo {userId, mediaId, name, avatarUrl, description, userVerified, userAuthInfo.auth_info} as read by search index 24275252243 (get_author_info) and 71249200963 (user_info).';
const FANS_COMMENT =
  'POST /api/pc/user/fans_stat with form token=<token> (search index 1379566495, 71249200963), {message:"success", data:{fans, following, digg_count}}; fans may be a "万" string (1379566495). Sent unsigned: the native route.';

write('user-chengshizaobao.har', [
  {
    url: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/`,
    mime: HTML,
    text: profilePage(TOKEN_NEWS, {
      userId: TOKEN_NEWS,
      mediaId: '1614254699279364',
      name: '城市早报',
      avatarUrl: 'https://p3-sign.toutiaoimg.com/tos-cn-i-0022/sandbox-avatar-news~tplv-tt-shrink:120:120.jpeg',
      description: '本地新闻、交通与天气，每天早上七点更新。',
      userVerified: true,
      userAuthInfo: { auth_info: '城市早报官方账号' },
    }),
    comment: PROFILE_COMMENT,
  },
  {
    method: 'POST',
    url: 'https://www.toutiao.com/api/pc/user/fans_stat',
    reqHeaders: [
      { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
      { name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/` },
    ],
    post: { mimeType: 'application/x-www-form-urlencoded', text: `token=${TOKEN_NEWS}` },
    text: json({ message: 'success', data: { fans: '12.8万', following: 156, digg_count: 2043311 } }),
    comment: FANS_COMMENT,
  },
  {
    url: `https://www.toutiao.com/c/user/${UID_NEWS}/`,
    mime: HTML,
    status: 302,
    statusText: 'Found',
    headers: [
      { name: 'Content-Type', value: HTML },
      { name: 'Location', value: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/?source=profile` },
    ],
    text: '',
    comment: 'the numeric-uid profile link redirects to the token page (search index 29726889646 reads the token from the landed URL; 18361342227 likewise).',
  },
]);

write('user-xiaolichuangyi.har', [
  {
    url: `https://www.toutiao.com/c/user/token/${TOKEN_MAKER}/`,
    mime: HTML,
    text: profilePage(TOKEN_MAKER, {
      userId: TOKEN_MAKER,
      mediaId: '1671043881420803',
      name: '小莉创意发明',
      avatarUrl: 'https://p26-sign.toutiaoimg.com/tos-cn-i-0022/sandbox-avatar-maker~tplv-tt-shrink:120:120.jpeg',
      description: '用身边的材料做点小发明',
      userVerified: false,
    }),
    comment: PROFILE_COMMENT,
  },
  {
    method: 'POST',
    url: 'https://www.toutiao.com/api/pc/user/fans_stat',
    reqHeaders: [
      { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
      { name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_MAKER}/` },
    ],
    post: { mimeType: 'application/x-www-form-urlencoded', text: `token=${TOKEN_MAKER}` },
    text: '',
    comment: `${FANS_COMMENT} Here the unsigned request got an empty 200 (a refused signature).`,
  },
  {
    method: 'POST',
    url: 'https://www.toutiao.com/api/pc/user/fans_stat?_signature=_02B4Z6wo00f01sandboxSignedInPage.0000000000AAIDAsandbox',
    reqHeaders: [
      { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
      { name: 'Referer', value: `https://www.toutiao.com/c/user/token/${TOKEN_MAKER}/` },
    ],
    post: { mimeType: 'application/x-www-form-urlencoded', text: `token=${TOKEN_MAKER}` },
    text: json({ message: 'success', data: { fans: 3561, following: 12, digg_count: 40217 } }),
    comment: `${FANS_COMMENT} The same request with the _signature the page's byted_acrawler.sign computed over the URL (the browser route; 1379566495 signs the bare fans_stat URL and posts token=).`,
  },
]);

// ---------------------------------------------------------------------------------------------
// detail

write('detail-article.har', [
  {
    url: `https://www.toutiao.com/article/${ARTICLE}/`,
    mime: HTML,
    text: page('地铁三号线南延段今日开通，沿途设站八座 - 今日头条', {
      data: {
        seoTDK: {
          title: '地铁三号线南延段今日开通，沿途设站八座',
          description: '南延段全长十二公里，早高峰发车间隔四分钟。',
          keywords: '地铁,三号线,开通',
          publishTimestamp: '1747483344',
        },
        content:
          '<article class="syl-article-base tt-article-content syl-page-article"><p>记者从市轨道交通集团获悉，地铁三号线南延段今天上午正式开通运营。</p>' +
          `<div class="pgc-img"><img src="${img('tos-cn-i-6w9my0ksvp/sandbox-metro-1')}" img_width="1080" img_height="720" alt="" inline="0"><p class="pgc-img-caption"></p></div>` +
          '<p>南延段全长十二公里，共设车站八座，其中换乘站两座。</p><p>工作日早高峰最小发车间隔四分钟，<strong>首班车</strong>六点发出。</p>' +
          `<div class="pgc-img"><img src="${img('tos-cn-i-6w9my0ksvp/sandbox-metro-2')}" img_width="1080" img_height="720" alt="" inline="0"></div></article>`,
      },
    }),
    comment:
      'article page: RENDER_DATA data.seoTDK {title, description, keywords, publishTimestamp} and data.content (HTML) as read by search index 24275252243 (get_article_info), images from the content\'s <img src> (same); fetched with the guest ttwid (yt-dlp toutiao.py).',
  },
]);

write('detail-video.har', [
  {
    url: `https://www.toutiao.com/video/${VIDEO}/`,
    mime: HTML,
    text: page('航拍：雨后的老城区 - 今日头条', {
      data: {
        seoTDK: { title: '航拍：雨后的老城区', description: '四分钟航拍，记录雨后老城。', keywords: '航拍,老城区' },
        initialVideo: {
          group_id: VIDEO,
          title: '航拍：雨后的老城区',
          publishTime: 1747440000,
          poster: 'https://p9-sign.toutiaoimg.com/tos-cn-i-0004/sandbox-aerial~tplv-tt-large.image',
          coverUrl: 'https://p9-sign.toutiaoimg.com/tos-cn-i-0004/sandbox-aerial~tplv-tt-cs0:640:360.jpg',
          userInfo: { name: '城市早报', userId: TOKEN_NEWS, avatarUrl: 'https://p3-sign.toutiaoimg.com/tos-cn-i-0022/sandbox-avatar-news~tplv-tt-shrink:120:120.jpeg' },
          commentCount: 411,
          repinCount: 9120,
          playCount: 803216,
          detailUrl: `https://www.toutiao.com/video/${VIDEO}/`,
          videoPlayInfo: {
            video_duration: 242.35,
            video_list: [
              {
                main_url: 'https://v3-default.toutiaovod.com/sandbox/aerial-480p.mp4?a=24&ch=0&dr=0&er=0&cd=0%7C0%7C0%7C0&br=612&bt=612',
                backup_url_1: 'https://v9-default.toutiaovod.com/sandbox/aerial-480p.mp4?a=24',
                video_meta: { definition: '480p', vtype: 'mp4', vwidth: 854, vheight: 480, size: 18561023, codec_type: 'h264', fps: 30 },
              },
              {
                main_url: 'https://v3-default.toutiaovod.com/sandbox/aerial-720p.mp4?a=24&ch=0&dr=0&er=0&cd=0%7C0%7C0%7C0&br=1190&bt=1190',
                backup_url_1: 'https://v9-default.toutiaovod.com/sandbox/aerial-720p.mp4?a=24',
                video_meta: { definition: '720p', vtype: 'mp4', vwidth: 1280, vheight: 720, size: 36048211, codec_type: 'h264', fps: 30 },
              },
            ],
          },
        },
      },
    }),
    comment:
      'video page: RENDER_DATA data.initialVideo {title, publishTime, poster, coverUrl, userInfo {name, userId}, commentCount, repinCount, playCount, detailUrl, videoPlayInfo {video_duration, video_list[] {main_url, video_meta {definition, vtype, vwidth, vheight, size, codec_type, fps}}}} as yt-dlp toutiao.py reads it (and search index 24275252243); fetched with the guest ttwid.',
  },
]);

write('detail-micro.har', [
  {
    url: `https://m.toutiao.com/w/${MICRO}/`,
    reqHeaders: [{ name: 'Referer', value: 'https://m.toutiao.com/' }],
    mime: HTML,
    text: page('城市早报的微头条 - 今日头条', {
      articleInfo: {
        thread: {
          threadBase: {
            title: '今天早上的江边，雾还没散，渡船已经出发了。',
            content: '今天早上的江边，雾还没散，渡船已经出发了。',
            user: { name: '城市早报' },
            createTime: 1747390000,
            diggCount: 77,
          },
        },
      },
    }),
    comment:
      'micro-post on the phone site (requested with a phone User-Agent): RENDER_DATA root articleInfo.thread.threadBase {content, title (often the content itself), user {name}, createTime, diggCount} as read by search index 71297596170 (read()).',
  },
]);

const challengePage =
  '<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body><script>var __ac_nonce=document.cookie.match(/__ac_nonce=([^;]+)/)[1];' +
  'var __ac_signature=window.byted_acrawler.sign("",__ac_nonce);document.cookie="__ac_signature="+__ac_signature+"; path=/";location.reload();</script></body></html>';

write('error-detail-challenge.har', [
  {
    url: `https://www.toutiao.com/article/${CHALLENGE}/`,
    mime: HTML,
    headers: [
      { name: 'Content-Type', value: HTML },
      { name: 'Set-Cookie', value: '__ac_nonce=0682c3f4000a1b2c3d4e5; Path=/; Max-Age=1800' },
    ],
    text: challengePage,
    comment:
      'the JSVMP challenge page instead of the article: sets __ac_nonce (30 min) and runs window.byted_acrawler.sign("", __ac_nonce) before reloading (search index 69523762076; 28492780436 tests for the same marker). Answered to every attempt here.',
  },
]);

write('error-detail-login-wall.har', [
  {
    url: `https://www.toutiao.com/article/${LOGIN_WALL}/`,
    mime: HTML,
    status: 302,
    statusText: 'Found',
    headers: [
      { name: 'Content-Type', value: HTML },
      { name: 'Location', value: `https://sso.toutiao.com/?service=https%3A%2F%2Fwww.toutiao.com%2Farticle%2F${LOGIN_WALL}%2F` },
    ],
    text: '',
    comment: 'a post behind a login: the page redirects to sso.toutiao.com (the login host; URL_LOGIN_HOME in the ttbot crawler quoted by the search index).',
  },
  {
    url: `https://sso.toutiao.com/?service=https%3A%2F%2Fwww.toutiao.com%2Farticle%2F${LOGIN_WALL}%2F`,
    reqHeaders: [],
    mime: HTML,
    text: '<!DOCTYPE html><html><head><meta charset="utf-8"><title>登录 - 今日头条</title></head><body><div id="sso-login"></div></body></html>',
    comment: 'the login page the redirect leads to.',
  },
]);

write('error-detail-404.har', [
  {
    url: `https://www.toutiao.com/article/${GONE}/`,
    mime: HTML,
    status: 404,
    statusText: 'Not Found',
    text: '<!DOCTYPE html><html><head><meta charset="utf-8"><title>404 - 今日头条</title></head><body><div class="error-page">页面不存在</div></body></html>',
    comment: 'a post that does not exist: HTTP 404.',
  },
]);

write('resolve-share-link.har', [
  {
    url: 'https://m.toutiao.com/is/iSbxK9mR/',
    reqHeaders: [],
    mime: HTML,
    status: 302,
    statusText: 'Found',
    headers: [
      { name: 'Content-Type', value: HTML },
      { name: 'Location', value: `https://www.toutiao.com/article/${ARTICLE}/?app=news_article&timestamp=1747500000&share_token=sandbox` },
    ],
    text: '',
    comment: 'share short link m.toutiao.com/is/<code>/ redirecting to the post (form seen in search index 53256487089, 39030591773; resolved by following the redirect as 69619822329 describes).',
  },
]);

// ---------------------------------------------------------------------------------------------
// comments: /article/v4/tab_comments/

const commentsUrl = (id: string, offset: number) =>
  q('https://www.toutiao.com/article/v4/tab_comments/', [['aid', '24'], ['app_name', 'toutiao_web'], ['offset', String(offset)], ['count', '20'], ['group_id', id], ['item_id', id]]);
const COMMENTS_COMMENT =
  'comments /article/v4/tab_comments/?aid=24&app_name=toutiao_web&offset=&count=&group_id=&item_id= (NanmiCoder/MediaCrawler jrtt client; search index 58672554702, 61100496583), {err_no, message, data[] {comment {id, id_str, text, digg_count, reply_count, user_id, user_name, user_profile_image_url, user_verified, create_time}}, total_number, has_more, offset} (58672554702 _parse_toutiao_comments, 71297596170 comments(), 31729423862 for user_id / user_profile_image_url).';
const comment = (id: string, text: string, user: [string, string], digg: number, replies: number, time: number) => ({
  comment: {
    id: BIG(id),
    id_str: id,
    text,
    digg_count: digg,
    reply_count: replies,
    user_id: BIG(user[0]),
    user_name: user[1],
    user_profile_image_url: `https://p3-sign.toutiaoimg.com/tos-cn-i-0022/sandbox-user-${user[0]}~tplv-tt-shrink:80:80.jpeg`,
    user_verified: false,
    create_time: time,
  },
  cell_type: 1,
});

write('comments-article.har', [
  {
    url: commentsUrl(ARTICLE, 0),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/article/${ARTICLE}/` }],
    text: json({
      err_no: 0,
      message: 'success',
      total_number: 264,
      has_more: true,
      offset: 20,
      data: [
        comment('7506231029384756481', '终于通了，以后上班能省二十分钟', ['3651978203441287', '早起的鸟'], 512, 23, 1747484100),
        comment('7506233318047224579', '八座车站，有没有到大学城的？', ['95048213377', '南边住户'], 88, 4, 1747485000),
      ],
    }),
    comment: `${COMMENTS_COMMENT} Page 1.`,
  },
  {
    url: commentsUrl(ARTICLE, 20),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/article/${ARTICLE}/` }],
    text: json({
      err_no: 0,
      message: 'success',
      total_number: 264,
      has_more: false,
      offset: 22,
      data: [comment('7506240057712345094', '首班车六点，还是有点晚', ['61882045123', '夜班司机'], 7, 0, 1747490000)],
    }),
    comment: `${COMMENTS_COMMENT} Page 2, the last (has_more false).`,
  },
]);

write('comments-empty.har', [
  {
    url: commentsUrl(COMMENTS_CLOSED, 0),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/article/${COMMENTS_CLOSED}/` }],
    text: json({ err_no: 0, message: 'success', total_number: 0, has_more: false, offset: 0, data: [] }),
    comment: `${COMMENTS_COMMENT} A post nobody commented on.`,
  },
]);

write('error-comments-params-illegal.har', [
  {
    url: commentsUrl(COMMENTS_REFUSED, 0),
    reqHeaders: [{ name: 'Referer', value: `https://www.toutiao.com/article/${COMMENTS_REFUSED}/` }],
    text: json({ err_no: 2, message: 'params illegal', data: [] }),
    comment: 'a refused comments request: err_no ≠ 0 with the message "params illegal" that search index 71297596170 reports for a bad aid (the err_no value itself is invented).',
  },
]);
