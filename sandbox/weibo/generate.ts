// Writes the hand-made weibo sandbox recordings next to this file: node --import tsx sandbox/weibo/generate.ts
import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { midToBid } from '../../src/platforms/weibo/refs.js';

const OUT = dirname(fileURLToPath(import.meta.url));

/** Bodies are compact JSON on one line, as m.weibo.cn sends them. */
const compact = (v: unknown): string => JSON.stringify(v);

const XHR = (referer = 'https://m.weibo.cn/') => [
  { name: 'Referer', value: referer },
  { name: 'X-Requested-With', value: 'XMLHttpRequest' },
  { name: 'MWeibo-Pwa', value: '1' },
];

interface Ex { url: string; reqHeaders?: Array<{ name: string; value: string }>; status?: number; statusText?: string; headers?: Array<{ name: string; value: string }>; mime?: string; text: string; comment: string; redirectURL?: string; started: string }

function har(entries: Ex[]): string {
  return JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'hand-made (weibo adapter sandbox)', version: '1' },
      entries: entries.map((e) => {
        const u = new URL(e.url);
        const mime = e.mime ?? 'application/json; charset=utf-8';
        return {
          startedDateTime: e.started,
          time: 0,
          request: {
            method: 'GET', url: e.url, httpVersion: 'HTTP/1.1', headers: e.reqHeaders ?? XHR(),
            queryString: [...u.searchParams].map(([name, value]) => ({ name, value })), cookies: [], headersSize: -1, bodySize: -1,
          },
          response: {
            status: e.status ?? 200, statusText: e.statusText ?? 'OK', httpVersion: 'HTTP/1.1',
            headers: e.headers ?? [{ name: 'Content-Type', value: mime }], cookies: [],
            content: { size: Buffer.byteLength(e.text), mimeType: mime, text: e.text },
            redirectURL: e.redirectURL ?? '', headersSize: -1, bodySize: -1,
          },
          cache: {}, timings: { send: 0, wait: 0, receive: 0 },
          comment: e.comment,
        };
      }),
    },
  }, null, 1) + '\n';
}

const GETINDEX = 'https://m.weibo.cn/api/container/getIndex';
const q = (base: string, params: Record<string, string>) => `${base}?${new URLSearchParams(params).toString()}`;

const topic = (t: string, lfid: string) =>
  `<a  href="https://m.weibo.cn/search?containerid=231522type%3D1%26t%3D10%26q%3D%23${encodeURIComponent(t)}%23&isnewpage=1&luicode=10000011&lfid=${lfid}" data-hide=""><span class="surl-text">#${t}#</span></a>`;
const emoji = (alt: string, file: string) =>
  `<span class="url-icon"><img alt=${alt} src="https://h5.sinaimg.cn/m/emoticon/icon/${file}" style="width:1em; height:1em;" /></span>`;
const at = (name: string) => `<a href='/n/${name}'>@${name}</a>`;

interface U { id: number; screen_name: string; followers_count: number | string; follow_count: number; statuses_count: number; verified: boolean; verified_type: number; description: string; pic: string }
const user = (u: U, lfid: string) => ({
  id: u.id, screen_name: u.screen_name,
  profile_image_url: `https://tvax1.sinaimg.cn/crop.0.0.180.180.180/${u.pic}.jpg`,
  profile_url: `https://m.weibo.cn/u/${u.id}?uid=${u.id}&luicode=10000011&lfid=${lfid}`,
  statuses_count: u.statuses_count, verified: u.verified, verified_type: u.verified_type,
  description: u.description, followers_count: u.followers_count, follow_count: u.follow_count,
  avatar_hd: `https://wx1.sinaimg.cn/orj480/${u.pic}.jpg`,
});

const AK: U = { id: 6279793937, screen_name: '明日方舟Arknights', followers_count: 1363591, follow_count: 33, statuses_count: 1218, verified: true, verified_type: 2, description: '《明日方舟》官方微博，欢迎咨询客服QQ服务号：800830064', pic: '006QZngZly8gdj05mufr9j30l00l0dq4' };
const FANS: U = { id: 7312345678, screen_name: '罗德岛档案馆', followers_count: '3.2万', follow_count: 210, statuses_count: 884, verified: false, verified_type: -1, description: '同人图与攻略搬运', pic: '007ZxYkHly8h0a1b2c3d4j30u00u0q3f' };
const NEWS: U = { id: 7723001456, screen_name: '城市天气观察', followers_count: '128.9万', follow_count: 311, statuses_count: 20417, verified: true, verified_type: 0, description: '每天的天气与出行提示', pic: '008rKq2ely8gqz6f0wd0dj20e80e8gm6' };
const FOOD: U = { id: 5869201234, screen_name: '今天吃点啥呀', followers_count: 84213, follow_count: 402, statuses_count: 3310, verified: false, verified_type: -1, description: '只分享家常菜', pic: '006onrHsly8grx8y2z9c1j30u00u0abc' };

const pic = (pid: string, host: number, w: number, h: number) => ({
  pid, url: `https://wx${host}.sinaimg.cn/orj360/${pid}.jpg`, size: 'orj360',
  geo: { width: 360, height: Math.round((360 * h) / w), croped: false },
  large: { size: 'large', url: `https://wx${host}.sinaimg.cn/large/${pid}.jpg`, geo: { width: String(w), height: String(h), croped: false } },
});

function video(fid: string, title: string, cover: string, duration: number, plays: string, files: { hd: string; ld: string; p720?: string }, expires: number) {
  const u = (file: string, label: string, tpl: string) =>
    `https://f.video.weibocdn.com/${file}.mp4?label=${label}&template=${tpl}.25.0&ori=0&ps=1CwnkDw1GXwCQx&Expires=${expires}&ssig=a1B2c3D4e5&KID=unistore,video`;
  const urls: Record<string, string> = {};
  if (files.p720) urls.mp4_720p_mp4 = u(files.p720, 'mp4_720p', '1280x720');
  urls.mp4_hd_mp4 = u(files.hd, 'mp4_hd', '852x480');
  urls.mp4_ld_mp4 = u(files.ld, 'mp4_ld', '640x360');
  return {
    type: 'video', object_type: 11, url_ori: 'http://t.cn/A6Vx1a2b',
    page_pic: { width: 1280, height: 720, url: `https://wx3.sinaimg.cn/orj480/${cover}.jpg`, type: 1, source: 1, is_self_cover: 1, pid: cover },
    page_url: `https://video.weibo.com/show?fid=${encodeURIComponent(fid)}&luicode=10000011`,
    object_id: fid, page_title: '微博视频', title, content1: '微博视频', content2: title,
    video_orientation: 'horizontal', play_count: plays,
    media_info: { stream_url: urls.mp4_ld_mp4, stream_url_hd: urls.mp4_hd_mp4, duration },
    urls,
  };
}

function mblog(o: { mid: string; created_at: string; text: string; u: U; lfid: string; reposts: number; comments: number; likes: number; pics?: unknown[]; page_info?: unknown; isLongText?: boolean; retweeted?: unknown; source?: string; textLength?: number }) {
  const m: Record<string, unknown> = {
    visible: { type: 0, list_id: 0 }, created_at: o.created_at, id: o.mid, mid: o.mid,
    text: o.text, ...(o.textLength ? { textLength: o.textLength } : {}), source: o.source ?? '微博 weibo.com',
    pic_ids: (o.pics ?? []).map((p) => (p as { pid: string }).pid),
    user: user(o.u, o.lfid),
  };
  if (o.retweeted) m.retweeted_status = o.retweeted;
  Object.assign(m, {
    reposts_count: o.reposts, comments_count: o.comments, attitudes_count: o.likes,
    isLongText: o.isLongText ?? false, mblogtype: 0, pic_num: (o.pics ?? []).length,
  });
  if (o.page_info) m.page_info = o.page_info;
  if (o.pics?.length) m.pics = o.pics;
  m.bid = midToBid(o.mid);
  return m;
}
const card9 = (m: Record<string, unknown>, lfid: string) => ({
  card_type: 9, itemid: `${lfid}_-_${m.mid as string}`,
  scheme: `https://m.weibo.cn/status/${m.bid as string}?mblogid=${m.bid as string}&luicode=10000011&lfid=${lfid}`,
  mblog: m,
});

// ---------- search: 明日方舟, two pages ----------
{
  const kw = '明日方舟';
  const cid = `100103type=1&q=${kw}`;
  const lfid = cid;
  const p1 = [
    mblog({ mid: '4649262383245125', created_at: 'Thu Jun 17 21:19:44 +0800 2021', u: FANS, lfid, reposts: 12, comments: 31, likes: 508,
      text: `${topic(kw, lfid)} 沃伦姆德的薄暮复刻，W的新立绘太好看了${emoji('[心]', 'others/l_xin-43af9086c0.png')}<br />攻略和配队放在图里了`,
      pics: [pic('007ZxYkHly1grlqk2ytw8j30u01hcb29', 2, 1080, 1920), pic('007ZxYkHly1grlqk5vhx3j30u01hc7wh', 3, 1080, 1920)] }),
    mblog({ mid: '4649106427873349', created_at: 'Thu Jun 17 16:00:11 +0800 2021', u: AK, lfid, reposts: 272, comments: 241, likes: 4050,
      text: `${topic(kw, lfid)}<br />SideStory「沃伦姆德的薄暮」复刻现已开启！`, pics: [pic('006QZngZgy1grlb68fzfvj31hc0u0b29', 1, 1920, 1080)] }),
    mblog({ mid: '4648977256451207', created_at: 'Thu Jun 17 07:27:34 +0800 2021', u: FANS, lfid, reposts: 3, comments: 9, likes: 77,
      text: `${topic(kw, lfid)} 危机合约速通录像，全程无暂停`,
      page_info: video('1034:4648976810295317', '危机合约 18 级速通', '007ZxYkHly1grl0f7k3sjj31hc0u0n2k', 312.48, '2.1万次播放', { hd: '002sVIwRlx07NoCUqVnW01041200ePlQ0E010', ld: '000GtMBrlx07NoCUfmcM01041200aQUE0E010' }, 1623980000) }),
  ];
  const page1 = {
    ok: 1,
    data: {
      cardlistInfo: { containerid: cid, v_p: 42, show_style: 1, total: 1000, autoLoadMoreIndex: 20, page: 2 },
      cards: [
        { card_type: 11, show_type: 1, card_group: [
          { card_type: 10, user: user(AK, lfid), desc1: '《明日方舟》官方微博', desc2: '粉丝：136.4万', scheme: `https://m.weibo.cn/u/${AK.id}` },
        ] },
        { card_type: 11, show_type: 1, card_group: [card9(p1[0], lfid)] },
        card9(p1[1], lfid),
        card9(p1[2], lfid),
      ],
      scheme: `sinaweibo://searchall?containerid=${encodeURIComponent(cid)}&luicode=10000011`,
    },
  };
  const p2 = [
    mblog({ mid: '4648631102996823', created_at: 'Wed Jun 16 08:31:23 +0800 2021', u: FANS, lfid, reposts: 0, comments: 2, likes: 15,
      text: `今天的基建换班表 ${topic(kw, lfid)}` }),
    mblog({ mid: '4648360583756011', created_at: 'Tue Jun 15 14:36:27 +0800 2021', u: FANS, lfid, reposts: 1, comments: 4, likes: 40,
      text: `转发给需要的博士${emoji('[doge]', 'others/d_doge-be7f768d78.png')}`,
      retweeted: mblog({ mid: '4648004356937383', created_at: 'Mon Jun 14 15:00:57 +0800 2021', u: AK, lfid, reposts: 1849, comments: 1277, likes: 40504,
        text: `${topic(kw, lfid)}<br />“博士！端午节安康！要来试试一起包粽子吗？”`, pics: [pic('006QZngZgy1grht0d1dbij31hc0u0kjl', 1, 1920, 1080)] }) }),
  ];
  const page2 = {
    ok: 1,
    data: {
      cardlistInfo: { containerid: cid, v_p: 42, show_style: 1, total: 1000, autoLoadMoreIndex: 20, page: null },
      cards: [card9(p2[0], lfid), card9(p2[1], lfid)],
      scheme: `sinaweibo://searchall?containerid=${encodeURIComponent(cid)}&luicode=10000011`,
    },
  };
  const ref = `https://m.weibo.cn/search?containerid=${encodeURIComponent(cid)}`;
  writeFileSync(`${OUT}/search-arknights.har`, har([
    { started: '2021-06-17T14:00:00.000Z', url: q(GETINDEX, { containerid: cid, page_type: 'searchall' }), reqHeaders: XHR(ref), text: compact(page1),
      comment: 'hand-made sandbox recording: m.weibo.cn keyword search, page 1 (no page param), shaped like the real getIndex answers (card_type 11 card_group with a user card and a nested card_type 9, then card_type 9 statuses); cardlistInfo.page=2 is the next page' },
    { started: '2021-06-17T14:00:02.000Z', url: q(GETINDEX, { containerid: cid, page_type: 'searchall', page: '2' }), reqHeaders: XHR(ref), text: compact(page2),
      comment: 'hand-made sandbox recording: m.weibo.cn keyword search, page 2 (last: cardlistInfo.page null); the second status is a text repost of an image post' },
  ]));
}

// ---------- search blocked: HTTP 432 with an empty body ----------
{
  const cid = '100103type=1&q=测试';
  writeFileSync(`${OUT}/error-search-432.har`, har([
    { started: '2025-11-17T08:00:00.000Z', url: q(GETINDEX, { containerid: cid, page_type: 'searchall' }), status: 432, statusText: '', mime: 'text/html',
      reqHeaders: XHR(`https://m.weibo.cn/search?containerid=${encodeURIComponent(cid)}`), text: '',
      comment: 'hand-made sandbox recording: weibo risk control answering a search with HTTP 432 and an empty, non-JSON body (as reported in NanmiCoder/MediaCrawler#771 and dataabc/weibo-crawler#530: "Expecting value: line 1 column 1")' },
  ]));
}

// ---------- posts page 2 (since_id from the real page 1) ----------
{
  const lfid = '1076036279793937';
  const items = [
    mblog({ mid: '4646131823281332', created_at: 'Wed Jun 09 11:00:10 +0800 2021', u: AK, lfid, reposts: 501, comments: 988, likes: 21440,
      text: `${topic('明日方舟', lfid)}<br />【限时寻访预告】<br />起止时间：06月09日16:00 ~ 06月23日03:59`, pics: [pic('006QZngZgy1grbrq0ld3oj31hc0u0qv5', 4, 1920, 1080)] }),
    mblog({ mid: '4646071672078623', created_at: 'Wed Jun 09 07:01:09 +0800 2021', u: AK, lfid, reposts: 88, comments: 312, likes: 9120,
      text: `${topic('明日方舟', lfid)} 早安，博士${emoji('[太阳]', 'others/w_taiyang-1b3da2d1e0.png')}` }),
    mblog({ mid: '4645988835082493', created_at: 'Tue Jun 08 21:31:59 +0800 2021', u: AK, lfid, reposts: 1204, comments: 2331, likes: 30218,
      text: `${topic('明日方舟', lfid)} 音律联觉演出幕后花絮`,
      page_info: video('1034:4645987962601529', '音律联觉演出幕后花絮', '006QZngZgy1grb9k0h2qsj31hc0u0ju8', 187.2, '43万次播放',
        { p720: '001Yb9Jagx07Ni9QxTHq01041200l2Ts0E010', hd: '003Tc8Kxgx07Ni9Qj2NO01041200ak8u0E010', ld: '000nZt6Tgx07Ni9Q3yQM01041200h0Yw0E010' }, 1623930706) }),
  ];
  const body = {
    ok: 1,
    data: {
      cardlistInfo: { containerid: lfid, v_p: 42, show_style: 1, total: 1221, since_id: 4645711206417689 },
      cards: items.map((m) => card9(m, lfid)),
      scheme: `sinaweibo://cardlist?containerid=${lfid}&v_p=42&luicode=10000011&lfid=${lfid}`,
      showAppTips: 0,
    },
  };
  writeFileSync(`${OUT}/posts-arknights-page2.har`, har([
    { started: '2021-06-17T12:00:00.000Z', url: q(GETINDEX, { containerid: lfid, since_id: '4646131823281332' }), text: compact(body),
      comment: 'hand-made sandbox recording: page 2 of the 6279793937 timeline, requested with since_id=4646131823281332 (the cardlistInfo.since_id of the real page 1, posts-arknights-timeline.har); same shape as that page; its own cardlistInfo.since_id points at page 3' },
  ]));
}

// ---------- hot posts feed (container 102803) ----------
{
  const lfid = '102803';
  const items = [
    mblog({ mid: '5152381730717912', created_at: 'Tue Apr 01 19:05:12 +0800 2025', u: NEWS, lfid, reposts: 3120, comments: 18812, likes: 96233,
      text: `【强对流天气来袭】今天傍晚多地出现雷雨大风，出行请注意安全。<br />${topic('春季强对流天气', lfid)}`,
      page_info: video('1034:5152380987766801', '雷达回波动画：傍晚的强对流云团', '61e89b74ly1i02l3v1dswj31hc0u0tbj', 95.04, '1287万次播放',
        { p720: '004Rt1Zngx08ozh5bF6M01041200nWqH0E010', hd: '001xY3Eqgx08ozh5Avw401041200aZ2B0E010', ld: '000pYhHtgx08ozh5a0Uc01041200gC7v0E010' }, 1743516000) }),
    mblog({ mid: '5152340922208265', created_at: 'Tue Apr 01 16:23:02 +0800 2025', u: FOOD, lfid, reposts: 842, comments: 2301, likes: 45120,
      text: `春天第一口香椿炒蛋${emoji('[馋嘴]', 'others/d_chanzui-2a9d5ec3b8.png')}做法在图里`,
      pics: [pic('006onrHsly1i02fz9o4xhj30u0140n4o', 3, 1080, 1440), pic('006onrHsly1i02fzc1w8pj30u0140wl7', 1, 1080, 1440), pic('006onrHsly1i02fzeqk2ej30u0140gse', 4, 1080, 1440)] }),
    mblog({ mid: '5152298815946881', created_at: 'Tue Apr 01 13:35:43 +0800 2025', u: NEWS, lfid, reposts: 402, comments: 1530, likes: 12077,
      text: '【周末出行提示】4月5日至6日南方多雨，北方晴朗升温，清明出行请提前查看路况。' }),
  ];
  const body = {
    ok: 1,
    data: {
      cardlistInfo: { v_p: '42', statistics_from: 'hotweibo', containerid: '102803', title_top: '热门微博', show_style: 1, total: 300, can_shared: 1, since_id: 1, cardlist_title: '', desc: '' },
      cards: items.map((m) => card9(m, lfid)),
      scheme: 'sinaweibo://cardlist?containerid=102803&luicode=10000011&lfid=102803',
      showAppTips: 0,
    },
  };
  writeFileSync(`${OUT}/hot-hotposts.har`, har([
    { started: '2025-04-01T11:30:00.000Z', url: q(GETINDEX, { containerid: '102803', openApp: '0' }), text: compact(body),
      comment: 'hand-made sandbox recording: m.weibo.cn hot posts feed (containerid 102803), first page; cardlistInfo shaped as published by clients of this container (statistics_from hotweibo, total 300, since_id 1 = next page); one video, one image and one text status' },
  ]));
}

// ---------- comments of 4645748019299849: hotflow pages 1 and 2, and one thread through hotFlowChild ----------
{
  const mid = '4645748019299849';
  const c = (o: { id: string; rootid: string; at: string; text: string; u: { id: number; name: string }; likes?: number; total?: number; replies?: unknown[] | false; floor?: number }) => {
    const out: Record<string, unknown> = {
      created_at: o.at, id: o.id, rootid: o.rootid, floor_number: o.floor ?? 0, text: o.text, disable_reply: 0,
      user: { id: o.u.id, screen_name: o.u.name, profile_image_url: `https://tvax2.sinaimg.cn/crop.0.0.180.180.180/${o.u.id.toString(36)}ly8g.jpg`, profile_url: `https://m.weibo.cn/u/${o.u.id}?uid=${o.u.id}`, verified: false, verified_type: -1, follow_me: false, following: false },
      mid: o.id, readtimetype: 'comment',
    };
    if (o.replies !== undefined) out.comments = o.replies;
    if (o.total !== undefined) { out.max_id = 0; out.total_number = o.total; out.isLikedByMblogAuthor = false; }
    out.bid = midToBid(o.id);
    out.source = '';
    if (o.likes !== undefined) { out.like_count = o.likes; out.liked = false; }
    return out;
  };
  const A = { id: 6057421198, name: '凯尔希的猫' };
  const B = { id: 7401286653, name: '今天也在刷危机合约' };
  const C = { id: 5593867710, name: '塞壬唱片MSR' };
  const D = { id: 6390011842, name: '银灰的围巾' };
  const root1 = '4645751278535701';
  const r1a = c({ id: '4645752654267183', rootid: root1, at: 'Tue Jun 08 09:53:14 +0800 2021', u: C, text: `回复${at('凯尔希的猫')}:EP 6月12日上架，敬请期待`, floor: 0 });
  const r1b = c({ id: '4645753211847529', rootid: root1, at: 'Tue Jun 08 09:55:27 +0800 2021', u: B, text: `回复${at('塞壬唱片MSR')}:冲了冲了${emoji('[doge]', 'others/d_doge-be7f768d78.png')}`, floor: 0 });
  const page1 = {
    ok: 1,
    data: {
      data: [
        c({ id: root1, rootid: root1, at: 'Tue Jun 08 09:48:02 +0800 2021', u: A, likes: 3301, total: 57, floor: 12, text: `录播什么时候能在B站看${emoji('[允悲]', 'others/sk_yunbei-3eb0d5a5a2.png')}`, replies: [r1a, r1b] }),
        c({ id: '4645749927706812', rootid: '4645749927706812', at: 'Tue Jun 08 09:42:40 +0800 2021', u: B, likes: 1420, total: 8, floor: 3, text: '黑胶礼盒冲！', replies: false }),
        c({ id: '4645756210839176', rootid: '4645756210839176', at: 'Tue Jun 08 10:07:22 +0800 2021', u: D, likes: 511, total: 0, floor: 40, text: '好耶&amp;好耶', replies: false }),
      ],
      total_number: 2202,
      status: { comment_manage_info: { comment_permission_type: -1, approval_comment_type: 0 } },
      max_id: 138893602117834,
      max: 111,
      max_id_type: 0,
    },
  };
  const page2 = {
    ok: 1,
    data: {
      data: [
        c({ id: '4645760442096930', rootid: '4645760442096930', at: 'Tue Jun 08 10:24:11 +0800 2021', u: D, likes: 96, total: 1, floor: 77, text: '第一次听现场录音，鼓点好燃', replies: [
          c({ id: '4645761130487051', rootid: '4645760442096930', at: 'Tue Jun 08 10:26:55 +0800 2021', u: A, text: `回复${at('银灰的围巾')}:同感`, floor: 0 }),
        ] }),
      ],
      total_number: 2202,
      status: { comment_manage_info: { comment_permission_type: -1, approval_comment_type: 0 } },
      max_id: 0,
      max: 111,
      max_id_type: 0,
    },
  };
  const child = {
    ok: 1,
    data: [
      c({ id: '4645752654267183', rootid: root1, at: 'Tue Jun 08 09:53:14 +0800 2021', u: C, likes: 220, text: `回复${at('凯尔希的猫')}:EP 6月12日上架，敬请期待` }),
      c({ id: '4645753211847529', rootid: root1, at: 'Tue Jun 08 09:55:27 +0800 2021', u: B, likes: 41, text: `回复${at('塞壬唱片MSR')}:冲了冲了${emoji('[doge]', 'others/d_doge-be7f768d78.png')}` }),
      c({ id: '4645758842364917', rootid: root1, at: 'Tue Jun 08 10:17:49 +0800 2021', u: D, likes: 3, text: '录播是大会员专享哦' }),
    ],
    rootComment: [c({ id: root1, rootid: root1, at: 'Tue Jun 08 09:48:02 +0800 2021', u: A, likes: 3301, total: 57, floor: 12, text: `录播什么时候能在B站看${emoji('[允悲]', 'others/sk_yunbei-3eb0d5a5a2.png')}` })],
    total_number: 57,
    max_id: 0,
    max_id_type: 0,
  };
  const ref = `https://m.weibo.cn/detail/${mid}`;
  writeFileSync(`${OUT}/comments-hotflow-${mid}.har`, har([
    { started: '2021-06-08T03:00:00.000Z', url: q('https://m.weibo.cn/comments/hotflow', { id: mid, mid, max_id_type: '0' }), reqHeaders: XHR(ref), text: compact(page1),
      comment: 'hand-made sandbox recording: hotflow page 1 of the video status 4645748019299849, shaped like the real comments-hotflow-4383183661430868.har (data.data roots; inline replies in each root\'s comments array, false when none; next page via max_id/max_id_type)' },
    { started: '2021-06-08T03:00:02.000Z', url: q('https://m.weibo.cn/comments/hotflow', { id: mid, mid, max_id: '138893602117834', max_id_type: '0' }), reqHeaders: XHR(ref), text: compact(page2),
      comment: 'hand-made sandbox recording: hotflow page 2 (last: max_id 0)' },
  ]));
  writeFileSync(`${OUT}/replies-hotflowchild-${root1}.har`, har([
    { started: '2021-06-08T03:00:04.000Z', url: q('https://m.weibo.cn/comments/hotFlowChild', { cid: root1, max_id: '0', max_id_type: '0' }), reqHeaders: XHR(`${ref}?cid=${root1}`), text: compact(child),
      comment: 'hand-made sandbox recording: hotFlowChild, the replies of root comment 4645751278535701 under status 4645748019299849; top-level data (replies), rootComment, total_number, max_id (0: last page) as published by clients of this endpoint' },
  ]));
}

// ---------- detail: statuses/show?id=<bid> answering the truncated text of a long post ----------
{
  const lfid = '1076036279793937';
  const m = mblog({ mid: '4649031014551911', created_at: 'Thu Jun 17 11:00:31 +0800 2021', u: { ...AK, followers_count: '149.9万', statuses_count: 1682, follow_count: 37 }, lfid, reposts: 81, comments: 656, likes: 20119, isLongText: true, textLength: 671,
    text: `${topic('明日方舟', lfid)} 06月17日16:00闪断更新公告 <br /><br />感谢您对《明日方舟》的关注与支持。《明日方舟》计划将于2021年06月17日16:00 ~ 16:10 期间进行服务器闪断更新。届时将造成玩家强制掉线，无法登录等问题。 为确保您的游戏内帐号数据正常，请在本次闪断更新时提前结束关卡。本次更新给各位玩家带来的不便，敬 ...<a href="/status/4649031014551911">全文</a>`,
    pics: [pic('006QZngZgy1grl2q3n98jj30rs2084qp', 1, 1000, 2600)] });
  writeFileSync(`${OUT}/detail-statuses-show-Kkzwhj69V.har`, har([
    { started: '2021-06-17T12:00:00.000Z', url: q('https://m.weibo.cn/statuses/show', { id: 'Kkzwhj69V' }), text: compact({ ok: 1, data: { ...m, ok: 1 } }),
      comment: 'hand-made sandbox recording: statuses/show by bid for the long status 4649031014551911, answering the short text ending in the "全文" link (isLongText true) exactly as the real timeline card of that status does, so the full text must come from statuses/extend (real: detail-statuses-extend-4649031014551911.har)' },
  ]));
}

// ---------- resolve a screen name through the user search container ----------
{
  const name = '明日方舟Arknights';
  const cid = `100103type=3&q=${name}&t=0`;
  const lfid = cid;
  const body = {
    ok: 1,
    data: {
      cardlistInfo: { containerid: cid, v_p: 42, show_style: 1, total: 2, page: null },
      cards: [
        { card_type: 11, show_type: 1, card_group: [
          { card_type: 10, user: user({ ...FANS, id: 7588214402, screen_name: '明日方舟Arknights攻略组', followers_count: 9021 }, lfid), desc1: '攻略搬运', desc2: '粉丝：9021', scheme: 'https://m.weibo.cn/u/7588214402' },
          { card_type: 10, user: user(AK, lfid), desc1: '《明日方舟》官方微博', desc2: '粉丝：136.4万', scheme: `https://m.weibo.cn/u/${AK.id}` },
        ] },
      ],
      scheme: `sinaweibo://searchall?containerid=${encodeURIComponent(cid)}&luicode=10000011`,
    },
  };
  writeFileSync(`${OUT}/resolve-user-search-arknights.har`, har([
    { started: '2021-06-17T12:00:00.000Z', url: q(GETINDEX, { containerid: cid, page_type: 'searchall' }), reqHeaders: XHR(`https://m.weibo.cn/search?containerid=${encodeURIComponent(cid)}`), text: compact(body),
      comment: 'hand-made sandbox recording: m.weibo.cn user search (containerid 100103type=3&q=<name>&t=0) for the screen name 明日方舟Arknights; card_type 11 group of card_type 10 user cards, a similarly named account listed first' },
  ]));
}

// ---------- login wall: the m.weibo.cn detail page of a login-only status redirecting to passport ----------
{
  const mid = '4650335219154003';
  const target = `https://m.weibo.cn/detail/${mid}`;
  const location = `https://passport.weibo.cn/signin/login?entry=mweibo&r=${encodeURIComponent(target)}`;
  writeFileSync(`${OUT}/error-passport-redirect-detail-${mid}.har`, har([
    { started: '2021-06-21T09:12:40.000Z', url: target, status: 302, statusText: 'Found', mime: 'text/html; charset=utf-8', reqHeaders: [{ name: 'Referer', value: 'https://m.weibo.cn/' }],
      headers: [{ name: 'Content-Type', value: 'text/html; charset=utf-8' }, { name: 'Location', value: location }], redirectURL: location, text: '',
      comment: 'hand-made sandbox recording: the mobile detail page of a status only logged-in users may see, answered to a cookieless client with a 302 to passport.weibo.cn/signin/login (weibo\'s login wall; its visitor-wall sibling on s.weibo.com is recorded in error-visitor-system-s-weibo-2024-01.har); statuses/show for this id is deliberately not recorded, so the detail action reaches this page through its fallback' },
  ]));
}
console.log(`wrote the weibo sandbox recordings to ${OUT}`);
