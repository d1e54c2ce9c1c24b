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

/** The radar video of 城市天气观察 (5152381730717912): in the hot posts feed, its timeline and its detail. */
const RADAR_VIDEO = () => video('1034:5152380987766801', '雷达回波动画：傍晚的强对流云团', '61e89b74ly1i02l3v1dswj31hc0u0tbj', 95.04, '1287万次播放',
  { p720: '004Rt1Zngx08ozh5bF6M01041200nWqH0E010', hd: '001xY3Eqgx08ozh5Avw401041200aZ2B0E010', ld: '000pYhHtgx08ozh5a0Uc01041200gC7v0E010' }, 1743516000);

// ---------- hot posts feed (container 102803) ----------
{
  const lfid = '102803';
  const items = [
    mblog({ mid: '5152381730717912', created_at: 'Tue Apr 01 19:05:12 +0800 2025', u: NEWS, lfid, reposts: 3120, comments: 18812, likes: 96233,
      text: `【强对流天气来袭】今天傍晚多地出现雷雨大风，出行请注意安全。<br />${topic('春季强对流天气', lfid)}`,
      page_info: RADAR_VIDEO() }),
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
  const more = [
    mblog({ mid: '5152266730205471', created_at: 'Tue Apr 01 11:28:40 +0800 2025', u: FOOD, lfid, reposts: 130, comments: 877, likes: 20440,
      text: `清明前后的青团，你喜欢咸口还是甜口？${topic('青团', lfid)}` }),
    mblog({ mid: '5152240418361049', created_at: 'Tue Apr 01 09:44:07 +0800 2025', u: FANS, lfid, reposts: 301, comments: 455, likes: 9930,
      text: '春日限定立绘整理，收藏慢慢看', pics: [pic('007ZxYkHly1i02b1c8e2nj30u01hc7wh', 2, 1080, 1920)] }),
  ];
  const page2 = { ...body, data: { ...body.data, cardlistInfo: { ...body.data.cardlistInfo, since_id: undefined }, cards: more.map((m) => card9(m, lfid)) } };
  writeFileSync(`${OUT}/hot-hotposts.har`, har([
    { started: '2025-04-01T11:30:00.000Z', url: q(GETINDEX, { containerid: '102803', openApp: '0' }), text: compact(body),
      comment: 'hand-made sandbox recording: m.weibo.cn hot posts feed (containerid 102803), first page; cardlistInfo shaped as published by clients of this container (statistics_from hotweibo, total 300, since_id 1 = next page); one video, one image and one text status' },
    { started: '2025-04-01T11:30:02.000Z', url: q(GETINDEX, { containerid: '102803', openApp: '0', since_id: '1' }), text: compact(page2),
      comment: 'hand-made sandbox recording: the second (here last) page of the hot posts feed, asked with since_id=1 from page 1; its cardlistInfo carries no since_id, which ends the feed (the real feed runs to about 300 statuses; trimmed)' },
  ]));
}

/** One m.weibo.cn comment (hotflow / hotFlowChild shape). */
function mobileComment(o: { id: string; rootid: string; at: string; text: string; u: { id: number; name: string }; likes?: number; total?: number; replies?: unknown[] | false; floor?: number }) {
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
}

// ---------- comments of 4645748019299849: hotflow pages 1 and 2, and one thread through hotFlowChild ----------
{
  const mid = '4645748019299849';
  const c = mobileComment;
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
// ================= the demo creator on m.weibo.cn: 城市天气观察 (uid 7723001456) =================
// Not in ../shared/fixtures: its timeline, profile, detail and comments recordings can never answer a
// request meant for a real recording (uid, containerid and mids differ).

const NEWS_LFID = `107603${NEWS.id}`;
const newsStatus = {
  radar: () => mblog({ mid: '5152381730717912', created_at: 'Tue Apr 01 19:05:12 +0800 2025', u: NEWS, lfid: NEWS_LFID, reposts: 3120, comments: 18812, likes: 96233,
    text: `【强对流天气来袭】今天傍晚多地出现雷雨大风，出行请注意安全。<br />${topic('春季强对流天气', NEWS_LFID)}`,
    page_info: RADAR_VIDEO() }),
  clouds: () => mblog({ mid: '5152352118034627', created_at: 'Tue Apr 01 17:07:31 +0800 2025', u: NEWS, lfid: NEWS_LFID, reposts: 211, comments: 960, likes: 15302,
    text: `网友拍到的“乳状云”，强对流来临前的信号之一${emoji('[吃惊]', 'others/d_chijing-ae4d41a3f4.png')}<br />图：${at('今天吃点啥呀')}`,
    pics: [pic('008rKq2ely1i02ka1x0mxj31400u0n3b', 2, 1440, 1080), pic('008rKq2ely1i02ka4bq5rj31400u0wl9', 3, 1440, 1080)] }),
  weekend: () => mblog({ mid: '5152298815946881', created_at: 'Tue Apr 01 13:35:43 +0800 2025', u: NEWS, lfid: NEWS_LFID, reposts: 402, comments: 1530, likes: 12077,
    text: '【周末出行提示】4月5日至6日南方多雨，北方晴朗升温，清明出行请提前查看路况。' }),
  pollen: () => mblog({ mid: '5152210944720913', created_at: 'Tue Apr 01 07:46:18 +0800 2025', u: NEWS, lfid: NEWS_LFID, reposts: 95, comments: 344, likes: 4410,
    text: `【花粉过敏提醒】北京今明两天花粉浓度偏高 ${topic('春季花粉过敏', NEWS_LFID)}` }),
  frost: () => mblog({ mid: '5152020671103090', created_at: 'Mon Mar 31 19:10:02 +0800 2025', u: NEWS, lfid: NEWS_LFID, reposts: 58, comments: 213, likes: 2987,
    text: '【霜冻预警】今夜东北地区最低气温降至零下，注意农作物防冻。', pics: [pic('008rKq2ely1i01z0g2d3sj30u0140q6h', 1, 1080, 1440)] }),
  sunrise: () => mblog({ mid: '5151934877401171', created_at: 'Mon Mar 31 13:29:11 +0800 2025', u: NEWS, lfid: NEWS_LFID, reposts: 12, comments: 87, likes: 1502,
    text: `早安${emoji('[太阳]', 'others/w_taiyang-1b3da2d1e0.png')} 今天全国大部晴到多云` }),
};

// ---------- posts: the timeline of 7723001456, two pages ----------
{
  const lfid = NEWS_LFID;
  const page1 = [newsStatus.radar(), newsStatus.clouds(), newsStatus.weekend(), newsStatus.pollen()];
  const page2 = [newsStatus.frost(), newsStatus.sunrise()];
  const body = (items: Array<Record<string, unknown>>, sinceId?: number) => ({
    ok: 1,
    data: {
      cardlistInfo: { containerid: lfid, v_p: 42, show_style: 1, total: NEWS.statuses_count, ...(sinceId ? { since_id: sinceId } : {}) },
      cards: items.map((m) => card9(m, lfid)),
      scheme: `sinaweibo://cardlist?containerid=${lfid}&v_p=42&luicode=10000011&lfid=${lfid}`,
      showAppTips: 0,
    },
  });
  const ref = `https://m.weibo.cn/u/${NEWS.id}`;
  writeFileSync(`${OUT}/posts-${NEWS.id}-timeline.har`, har([
    { started: '2025-04-01T12:00:00.000Z', url: q(GETINDEX, { containerid: lfid }), reqHeaders: XHR(ref), text: compact(body(page1, 5152020671103090)),
      comment: `hand-made sandbox recording: page 1 of the ${NEWS.id} timeline (containerid 107603<uid>, no since_id), shaped like the real posts-arknights-timeline.har; cardlistInfo.since_id names the first status of page 2` },
    { started: '2025-04-01T12:00:02.000Z', url: q(GETINDEX, { containerid: lfid, since_id: '5152020671103090' }), reqHeaders: XHR(ref), text: compact(body(page2)),
      comment: 'hand-made sandbox recording: page 2 of the same timeline, the last one: its cardlistInfo carries no since_id' },
  ]));
}

// ---------- user: the profile of 7723001456 ----------
{
  const cid = `100505${NEWS.id}`;
  const info = {
    ...user(NEWS, cid), verified_type_ext: 0, verified_reason: '气象科普博主', close_blue_v: false, gender: 'm', mbtype: 12, urank: 36, mbrank: 5,
    follow_me: false, following: false, followers_count_str: String(NEWS.followers_count), cover_image_phone: 'https://wx1.sinaimg.cn/crop.0.0.640.640.640/008rKq2ely1gqz6f3k2xwj30u00u0tb8.jpg',
    like: false, like_me: false,
  };
  const body = {
    ok: 1,
    data: {
      isVideoCoverStyle: 1, isStarStyle: 0, userInfo: info,
      fans_scheme: `https://m.weibo.cn/c/attention/visit?showmenu=0&sign=${NEWS.id}&luicode=10000011&lfid=${cid}`,
      follow_scheme: `https://m.weibo.cn/c/attention/visit?showmenu=0&sign=${NEWS.id}&luicode=10000011&lfid=${cid}`,
      tabsInfo: { selectedTab: 1, tabs: [
        { id: 1, tabKey: 'profile', must_show: 1, hidden: 0, title: '精选', tab_type: 'profile', containerid: `230283${NEWS.id}` },
        { id: 2, tabKey: 'weibo', must_show: 1, hidden: 0, title: '微博', tab_type: 'weibo', containerid: `107603${NEWS.id}`, apipath: '/profile/statuses', url: '/index/my' },
      ] },
      profile_ext: `touid:${NEWS.id}`,
      scheme: `sinaweibo://userinfo?uid=${NEWS.id}&type=uid&value=${NEWS.id}&luicode=10000011&lfid=${cid}`,
      showAppTips: 1,
    },
  };
  writeFileSync(`${OUT}/user-${NEWS.id}-profile.har`, har([
    { started: '2025-04-01T12:00:00.000Z', url: q(GETINDEX, { type: 'uid', value: String(NEWS.id), containerid: cid }), text: compact(body),
      comment: `hand-made sandbox recording: the m.weibo.cn profile of ${NEWS.id} (type=uid&value=<uid>&containerid=100505<uid>), shaped like the real user-arknights-profile.har (data.userInfo with a 万-string followers_count, tabsInfo)` },
  ]));
}

// ---------- detail: statuses/show of the video status and of the image status ----------
for (const [name, make] of [['video', newsStatus.radar], ['image', newsStatus.clouds]] as const) {
  const m = make();
  const mid = m.mid as string;
  writeFileSync(`${OUT}/detail-statuses-show-${mid}.har`, har([
    { started: '2025-04-01T12:10:00.000Z', url: q('https://m.weibo.cn/statuses/show', { id: mid }), reqHeaders: XHR(`https://m.weibo.cn/detail/${mid}`), text: compact({ ok: 1, data: { ...m, ok: 1 } }),
      comment: `hand-made sandbox recording: m.weibo.cn statuses/show of the ${name} status ${mid} of ${NEWS.id}, shaped like the real detail-statuses-show-4645748019299849.har (ok:1, data = the status, ok repeated inside)${name === 'video' ? '; page_info.urls lists the mp4_720p/hd/ld streams' : '; pics[] with large.url and geo'}` },
  ]));
}

// ---------- comments: hotflow of the video status, roots with inline replies ----------
{
  const mid = '5152381730717912';
  const c = mobileComment;
  const W = { id: 6120458832, name: '追云的小周' };
  const X = { id: 7345190066, name: '下班就下雨' };
  const Y = { id: 5590312457, name: '气象爱好者老陈' };
  const Z = { id: 7811204539, name: '带伞了吗' };
  const r1 = '5152383102154327';
  const r3 = '5152390248915044';
  const body = {
    ok: 1,
    data: {
      data: [
        c({ id: r1, rootid: r1, at: 'Tue Apr 01 19:10:39 +0800 2025', u: W, likes: 2210, total: 41, floor: 3, text: `我们这边已经下冰雹了${emoji('[吃惊]', 'others/d_chijing-ae4d41a3f4.png')}`, replies: [
          c({ id: '5152383520534211', rootid: r1, at: 'Tue Apr 01 19:12:18 +0800 2025', u: { id: NEWS.id, name: NEWS.screen_name }, text: `回复${at('追云的小周')}:注意安全，尽量别出门` }),
          c({ id: '5152384106688020', rootid: r1, at: 'Tue Apr 01 19:14:36 +0800 2025', u: X, text: `回复${at('追云的小周')}:同城，声音好大` }),
        ] }),
        c({ id: '5152382697403811', rootid: '5152382697403811', at: 'Tue Apr 01 19:09:02 +0800 2025', u: X, likes: 1388, total: 0, floor: 1, text: '刚到家，雨就下来了', replies: false }),
        c({ id: r3, rootid: r3, at: 'Tue Apr 01 19:42:55 +0800 2025', u: Y, likes: 506, total: 2, floor: 17, text: '回波图上的弓形回波很典型', replies: [
          c({ id: '5152391405512703', rootid: r3, at: 'Tue Apr 01 19:47:31 +0800 2025', u: Z, text: `回复${at('气象爱好者老陈')}:求科普什么是弓形回波` }),
        ] }),
      ],
      total_number: 18812,
      status: { comment_manage_info: { comment_permission_type: -1, approval_comment_type: 0 } },
      max_id: 0,
      max: 1,
      max_id_type: 0,
    },
  };
  writeFileSync(`${OUT}/comments-hotflow-${mid}.har`, har([
    { started: '2025-04-01T12:20:00.000Z', url: q('https://m.weibo.cn/comments/hotflow', { id: mid, mid, max_id_type: '0' }), reqHeaders: XHR(`https://m.weibo.cn/detail/${mid}`), text: compact(body),
      comment: 'hand-made sandbox recording: hotflow of the video status 5152381730717912, one page (max_id 0), shaped like the real comments-hotflow-4383183661430868.har: data.data roots, inline replies in each root\'s comments array (false when none)' },
  ]));
}

// ================= weibo.com (desktop site) ajax recordings: the fallback route =================
// Requests to weibo.com never match an m.weibo.cn recording (other host), so these cannot answer for a
// fixture. Shapes follow what public clients of these endpoints read (weibo.com/ajax/statuses/mymblog,
// show, longtext, buildComments, profile/info, side/hotSearch, statuses/topic_band).

const PC_XHR = (referer = 'https://weibo.com/') => [
  { name: 'Referer', value: referer },
  { name: 'X-Requested-With', value: 'XMLHttpRequest' },
  { name: 'Accept', value: 'application/json, text/plain, */*' },
];

const pcUser = (u: U) => ({
  id: u.id, idstr: String(u.id), pc_new: 7, screen_name: u.screen_name,
  profile_image_url: `https://tvax1.sinaimg.cn/crop.0.0.180.180.50/${u.pic}.jpg?KID=imgbed,tva&Expires=1623942000&ssig=Qa1Ws2Ed3R`,
  profile_url: `/u/${u.id}`, verified: u.verified, verified_type: u.verified_type, domain: '', weihao: '',
  avatar_large: `https://tvax1.sinaimg.cn/crop.0.0.180.180.180/${u.pic}.jpg?KID=imgbed,tva&Expires=1623942000&ssig=Tg5Yh6Uj7I`,
  avatar_hd: `https://tvax1.sinaimg.cn/crop.0.0.180.180.1024/${u.pic}.jpg?KID=imgbed,tva&Expires=1623942000&ssig=Ok8Ip9Pl0K`,
  follow_me: false, following: false, mbrank: 6, mbtype: 12, v_plus: 0, planet_video: false,
});

/** pic_infos entry: the same picture in several sizes; largest is the upload itself. */
const pcPic = (pid: string, host: number, w: number, h: number) => {
  const scaled = (max: number) => (w >= h ? { width: Math.min(w, max), height: Math.round((Math.min(w, max) * h) / w) } : { width: Math.round((Math.min(h, max) * w) / h), height: Math.min(h, max) });
  const size = (dir: string, max: number, asString = false) => {
    const d = scaled(max);
    return { url: `https://wx${host}.sinaimg.cn/${dir}/${pid}.jpg`, width: asString ? String(d.width) : d.width, height: asString ? String(d.height) : d.height, cut_type: 1, type: null };
  };
  return {
    thumbnail: size('wap180', 180), bmiddle: size('wap360', 360), large: size('orj960', 960, true), original: size('orj1080', 1080, true),
    largest: { url: `https://wx${host}.sinaimg.cn/large/${pid}.jpg`, width: String(w), height: String(h), cut_type: 1, type: null },
    mw2000: size('mw2000', 2000, true),
    focus_point: { left: 0.3, top: 0.2, width: 0.4, height: 0.4 },
    object_id: `1042018:${pid.slice(-16)}`, pic_id: pid, photo_tag: 0, type: 'pic', pic_status: 1,
  };
};

/** page_info of a video on weibo.com: object_type "video", page_pic a plain URL, media_info.playback_list. */
function pcVideo(o: { mediaId: string; title: string; author: string; cover: string; duration: number; views: number; viewsText: string; files: { p720: string; hd: string; ld: string }; expires: number }) {
  const u = (file: string, label: string, tpl: string) =>
    `https://f.video.weibocdn.com/o0/${file}.mp4?label=${label}&template=${tpl}.25.0&media_id=${o.mediaId}&tp=8x8A3El:YTkl0eM8&us=0&ori=1&bf=2&ot=h&ps=3lckmu&uid=3ZoTIp&Expires=${o.expires}&ssig=Hj3Kx9Wq2z&KID=unistore,video`;
  const entry = (label: string, quality: string, index: number, cls: string, desc: string, file: string, w: number, h: number, bitrate: number) => ({
    meta: { label, quality_index: index, quality_desc: desc, quality_label: quality, quality_class: cls, type: 1, quality_group: index, is_hidden: false },
    play_info: { type: 1, mime: 'video/mp4', protocol: 'general', label, url: u(file, label, `${w}x${h}`), bitrate, video_codecs: 'avc1.64001f', fps: 25, width: w, height: h, duration: o.duration, quality_label: quality, quality_class: cls, quality_desc: desc, audio_codecs: 'mp4a.40.5', audio_sample_rate: 44100 },
  });
  const cover = `https://wx3.sinaimg.cn/orj480/${o.cover}.jpg`;
  return {
    type: '11', page_id: `230444${o.mediaId}`, object_type: 'video', object_id: `1034:${o.mediaId}`,
    content1: `${o.author}的微博视频`, content2: o.title, act_status: 1,
    media_info: {
      video_orientation: 'horizontal', name: `${o.author}的微博视频`,
      stream_url: u(o.files.ld, 'mp4_ld', '640x360'), stream_url_hd: u(o.files.hd, 'mp4_hd', '852x480'), format: 'mp4',
      h5_url: `https://video.weibo.com/show?fid=1034:${o.mediaId}`,
      mp4_sd_url: u(o.files.ld, 'mp4_ld', '640x360'), mp4_hd_url: u(o.files.hd, 'mp4_hd', '852x480'), h265_mp4_hd: '', h265_mp4_ld: '',
      mp4_720p_mp4: u(o.files.p720, 'mp4_720p', '1280x720'), hevc_mp4_720p: '',
      prefetch_type: 1, prefetch_size: 262144, act_status: 1, protocol: 'general,dash', media_id: o.mediaId,
      duration: Math.round(o.duration), video_title: o.title, is_short_video: 1,
      online_users: o.viewsText, online_users_number: o.views, ttl: 3600, storage_type: 'oss',
      playback_list: [
        entry('mp4_720p', '720p', 720, 'HD', '高清', o.files.p720, 1280, 720, 1327872),
        entry('mp4_hd', '480p', 480, 'SD', '标清', o.files.hd, 852, 480, 745351),
        {
          meta: { label: 'scrubber_hd', quality_index: 480, quality_desc: '标清', quality_label: '480p', quality_class: 'SD', type: 3, quality_group: 480, is_hidden: false },
          play_info: { type: 3, mime: 'image/jpeg', protocol: 'general', label: 'scrubber_hd', url: `https://wx1.sinaimg.cn/large/${o.cover}.jpg?media_id=${o.mediaId}&Expires=${o.expires}&ssig=Zx8Cv7Bn6m&KID=unistore,video`, width: 320, height: 180, col: 3, row: 30, interval: 2, offset: 1 },
        },
        entry('mp4_ld', '360p', 360, 'SD', '流畅', o.files.ld, 640, 360, 473759),
      ],
    },
    page_pic: cover, page_title: `${o.author}的微博视频`,
    page_url: `sinaweibo://infopage?containerid=230444${o.mediaId}&url_type=39&object_type=video&pos=2`,
    pic_info: { pic_big: { height: '720', url: cover, width: '1280' }, pic_small: { height: '720', url: cover, width: '1280' }, pic_middle: { url: cover, height: '720', width: '1280' } },
    oid: `1034:${o.mediaId}`, type_icon: '', warn: '', short_url: 'http://t.cn/A6Vx9kLm',
  };
}

const pcTopic = (t: string) => `<a href="//s.weibo.com/weibo?q=%23${encodeURIComponent(t)}%23" target="_blank">#${t}#</a>`;
const pcAt = (name: string) => `<a href=/n/${name} usercard="name=${name}">@${name}</a>`;

/** A weibo.com status: text (HTML) and text_raw (plain), mblogid = bid, pic_infos instead of pics. */
function pcStatus(o: { mid: string; created_at: string; u: U; text: string; text_raw: string; reposts: number; comments: number; likes: number; pics?: Array<[string, ReturnType<typeof pcPic>]>; page_info?: unknown; isLongText?: boolean; retweeted?: unknown; region?: string; isTop?: boolean }) {
  const s: Record<string, unknown> = {
    visible: { type: 0, list_id: 0 }, created_at: o.created_at, id: Number(o.mid), idstr: o.mid, mid: o.mid, mblogid: midToBid(o.mid),
    user: pcUser(o.u), can_edit: false, ...(o.isTop ? { isTop: 1, title: { text: '置顶', base_color: 1 } } : {}),
    text_raw: o.text_raw, text: o.text, textLength: Buffer.byteLength(o.text_raw), source: '微博网页版', favorited: false,
    pic_ids: (o.pics ?? []).map(([pid]) => pid), geo: null, pic_num: (o.pics ?? []).length,
  };
  if (o.pics?.length) s.pic_infos = Object.fromEntries(o.pics);
  Object.assign(s, {
    is_paid: false, mblog_vip_type: 0,
    reposts_count: o.reposts, comments_count: o.comments, attitudes_count: o.likes, attitudes_status: 0,
    isLongText: o.isLongText ?? false, mlevel: 0, content_auth: 0, is_show_bulletin: 2,
    comment_manage_info: { comment_permission_type: -1, approval_comment_type: 0, comment_sort_type: 0 },
    mblogtype: 0, showFeedRepost: false, showFeedComment: false, pictureViewerSign: false, showPictureViewer: false, rcList: [],
    region_name: o.region ?? '发布于 上海', customIcons: [],
  });
  if (o.retweeted) s.retweeted_status = o.retweeted;
  if (o.page_info) s.page_info = o.page_info;
  return s;
}

const AK_PC = {
  video: () => pcStatus({ mid: '4645748019299849', created_at: 'Tue Jun 08 09:35:04 +0800 2021', u: AK, reposts: 9079, comments: 2126, likes: 37053, isTop: true,
    text_raw: '#明日方舟# #音律联觉#\n音律联觉专场演出官方录播预告PV，录播将于6月12日10:30上线 http://t.cn/A6VR9W6h \u200b',
    text: `${pcTopic('明日方舟')} ${pcTopic('音律联觉')}<br />音律联觉专场演出官方录播预告PV，录播将于6月12日10:30上线 <a target="_blank" href="https://video.weibo.com/show?fid=1034:4645779462357001"><img class="icon-link" src="https://h5.sinaimg.cn/upload/2015/09/25/3/timeline_card_small_video_default.png"/>明日方舟Arknights的微博视频</a> \u200b`,
    page_info: pcVideo({ mediaId: '4645779462357001', title: '音律联觉专场演出官方录播预告PV', author: AK.screen_name, cover: '006QZngZgy1grapj0wc3ej30qo0goton', duration: 103.165, views: 1870000, viewsText: '187万次观看',
      files: { p720: '004gx4yOgx07Ni70wB1601041200QZHs0E010', hd: '0013IQ0Ugx07Ni6ZE67l01041200thj80E010', ld: '0041nQjugx07Ni6Zk3Qk01041200iTHD0E010' }, expires: 1623946000 }) }),
  gallery: () => pcStatus({ mid: '4649106427873349', created_at: 'Thu Jun 17 16:00:11 +0800 2021', u: AK, reposts: 272, comments: 241, likes: 4050,
    text_raw: '#明日方舟#\nSideStory「沃伦姆德的薄暮」复刻现已开启！',
    text: `${pcTopic('明日方舟')}<br />SideStory「沃伦姆德的薄暮」复刻现已开启！`,
    pics: [['006QZngZgy1grlb68fzfvj31hc0u0b29', pcPic('006QZngZgy1grlb68fzfvj31hc0u0b29', 1, 1920, 1080)], ['006QZngZgy1grlb6c2k1bj31hc0u0hdt', pcPic('006QZngZgy1grlb6c2k1bj31hc0u0hdt', 2, 1920, 1080)]] }),
  notice: () => pcStatus({ mid: '4651022958219023', created_at: 'Tue Jun 22 22:56:24 +0800 2021', u: AK, reposts: 63, comments: 517, likes: 15821, isLongText: true,
    text_raw: '#明日方舟# 06月23日04:00闪断更新公告\n\n感谢您对《明日方舟》的关注与支持。《明日方舟》计划将于2021年06月23日04:00 ~ 04:10期间进行服务器闪断更新。届时将造成玩家强制掉线，无法登录等问题。为确保您的游戏内帐号数据正常，请在本次闪断更新时',
    text: `${pcTopic('明日方舟')} 06月23日04:00闪断更新公告<br /><br />感谢您对《明日方舟》的关注与支持。《明日方舟》计划将于2021年06月23日04:00 ~ 04:10期间进行服务器闪断更新。届时将造成玩家强制掉线，无法登录等问题。为确保您的游戏内帐号数据正常，请在本次闪断更新时 ...<span class="expand">展开</span>` }),
  repost: () => pcStatus({ mid: '4650385012457066', created_at: 'Mon Jun 21 04:41:41 +0800 2021', u: AK, reposts: 31, comments: 96, likes: 2207,
    text_raw: '转发一下，博士们别错过', text: '转发一下，博士们别错过',
    retweeted: pcStatus({ mid: '4650301884203525', created_at: 'Sun Jun 20 23:11:23 +0800 2021', u: FANS, reposts: 520, comments: 133, likes: 6610,
      text_raw: `@${AK.screen_name} 罗德岛档案馆本周同人精选`, text: `${pcAt(AK.screen_name)} 罗德岛档案馆本周同人精选`,
      pics: [['007ZxYkHly1grp0w7c8hwj30u01hc4qp', pcPic('007ZxYkHly1grp0w7c8hwj30u01hc4qp', 4, 1080, 1920)]] }) }),
  morning: () => pcStatus({ mid: '4650702367286437', created_at: 'Tue Jun 22 01:43:52 +0800 2021', u: AK, reposts: 17, comments: 402, likes: 8830,
    text_raw: '#明日方舟# 博士，夜深了，记得早点休息[月亮]', text: `${pcTopic('明日方舟')} 博士，夜深了，记得早点休息<img alt="[月亮]" title="[月亮]" src="https://face.t.sinajs.cn/t4/appstyle/expression/ext/normal/d5/2018new_yueliang_org.png" />` }),
  rerun: () => pcStatus({ mid: '4646917039199914', created_at: 'Fri Jun 11 13:01:18 +0800 2021', u: AK, reposts: 813, comments: 707, likes: 28729,
    text_raw: '#明日方舟# 新干员档案公开', text: `${pcTopic('明日方舟')} 新干员档案公开`,
    pics: [['006QZngZgy1grebng32cij31hc0u0hdm', pcPic('006QZngZgy1grebng32cij31hc0u0hdm', 2, 1920, 1080)]] }),
  event: () => pcStatus({ mid: '4646489065033746', created_at: 'Thu Jun 10 08:40:37 +0800 2021', u: AK, reposts: 44, comments: 160, likes: 5120,
    text_raw: '#明日方舟# 限时活动即将开启，敬请期待', text: `${pcTopic('明日方舟')} 限时活动即将开启，敬请期待` }),
};

// ---------- weibo.com timeline of 6279793937 (statuses/mymblog), two pages ----------
{
  const uid = String(AK.id);
  const body = (list: Array<Record<string, unknown>>, sinceId: string) => ({ ok: 1, data: { since_id: sinceId, list, status_visible: 0, topicList: [], total: 1553 } });
  const ref = `https://weibo.com/u/${uid}`;
  writeFileSync(`${OUT}/pc-posts-mymblog-${uid}.har`, har([
    { started: '2021-06-23T02:00:00.000Z', url: q('https://weibo.com/ajax/statuses/mymblog', { uid, page: '1', feature: '0' }), reqHeaders: PC_XHR(ref),
      text: compact(body([AK_PC.video(), AK_PC.notice(), AK_PC.morning(), AK_PC.repost(), AK_PC.gallery()], '4646917039199914kp2')),
      comment: 'hand-made sandbox recording: weibo.com statuses/mymblog page 1 of 6279793937 (desktop-site timeline; pinned video with media_info.playback_list, a long text marked isLongText with a 展开 preview, a text post, a repost of an image post, a gallery with pic_infos); data.since_id names the next page. Only reached when m.weibo.cn fails (the real m.weibo.cn page 1 is posts-arknights-timeline.har)' },
    { started: '2021-06-23T02:00:02.000Z', url: q('https://weibo.com/ajax/statuses/mymblog', { uid, page: '2', feature: '0' }), reqHeaders: PC_XHR(ref),
      text: compact(body([AK_PC.rerun(), AK_PC.event()], '')),
      comment: 'hand-made sandbox recording: weibo.com statuses/mymblog page 2 of 6279793937, the last one: data.since_id is empty' },
  ]));
}

// ---------- weibo.com profile/info of 6279793937 ----------
{
  const uid = String(AK.id);
  const body = {
    ok: 1,
    data: {
      user: {
        ...pcUser(AK), verified_type_ext: 50, verified_reason: '上海鹰角网络科技有限公司', description: AK.description, location: '上海 徐汇区', gender: 'f',
        followers_count: 1455000, followers_count_str: '145.5万', friends_count: 34, statuses_count: 1553, url: 'https://ak.hypergryph.com', svip: 0, vvip: 0,
        cover_image_phone: 'https://wx4.sinaimg.cn/crop.0.0.640.640.640/006QZngZly1gq8sa16csgj30u00u0akt.jpg', top_user: 0, user_type: 0, is_star: '0', is_muteuser: false, special_follow: false,
      },
      tabList: [{ name: 'home', tabName: '精选' }, { name: 'feed', tabName: '微博' }, { name: 'video', tabName: '视频' }, { name: 'album', tabName: '相册' }],
      blockText: '',
    },
  };
  writeFileSync(`${OUT}/pc-user-profile-info-${uid}.har`, har([
    { started: '2021-06-23T02:00:00.000Z', url: q('https://weibo.com/ajax/profile/info', { uid }), reqHeaders: PC_XHR(`https://weibo.com/u/${uid}`), text: compact(body),
      comment: 'hand-made sandbox recording: weibo.com profile/info of 6279793937 (data.user: idstr, numeric followers_count beside followers_count_str, friends_count, statuses_count, avatar_hd). Only reached when m.weibo.cn fails (the real m.weibo.cn profile is user-arknights-profile.har)' },
  ]));
}

// ---------- weibo.com statuses/show of the video by bid; of the long notice by bid, with its longtext ----------
{
  const video = AK_PC.video();
  const bid = video.mblogid as string;
  writeFileSync(`${OUT}/pc-detail-statuses-show-${bid}.har`, har([
    { started: '2021-06-23T02:05:00.000Z', url: q('https://weibo.com/ajax/statuses/show', { id: bid, locale: 'zh-CN', isGetLongText: 'true' }), reqHeaders: PC_XHR(`https://weibo.com/${AK.id}/${bid}`),
      text: compact({ ok: 1, ...video }),
      comment: 'hand-made sandbox recording: weibo.com statuses/show by bid (as the desktop site asks, with locale and isGetLongText) of the video status 4645748019299849: the status at the top level beside ok:1; page_info.object_type video with a playback_list that also lists a scrubber image. Only reached when both m.weibo.cn routes fail (the real m.weibo.cn answer is detail-statuses-show-4645748019299849.har)' },
  ]));
  const notice = AK_PC.notice();
  const nbid = notice.mblogid as string;
  const full = '#明日方舟# 06月23日04:00闪断更新公告\n\n感谢您对《明日方舟》的关注与支持。《明日方舟》计划将于2021年06月23日04:00 ~ 04:10期间进行服务器闪断更新。届时将造成玩家强制掉线，无法登录等问题。为确保您的游戏内帐号数据正常，请在本次闪断更新时提前结束关卡。本次更新给各位玩家带来的不便，敬请谅解。\n\n闪断补偿：合成玉*200\n补偿发放时间：06月23日04:10前\n补偿领取截止时间：06月30日04:00\n\n《明日方舟》运营组';
  writeFileSync(`${OUT}/pc-detail-statuses-show-${nbid}.har`, har([
    { started: '2021-06-23T02:06:00.000Z', url: q('https://weibo.com/ajax/statuses/show', { id: nbid }), reqHeaders: PC_XHR(`https://weibo.com/${AK.id}/${nbid}`),
      text: compact({ ok: 1, ...notice }),
      comment: 'hand-made sandbox recording: weibo.com statuses/show of the long status 4651022958219023 (isLongText true; text_raw is the preview, text ends in the 展开 span)' },
    { started: '2021-06-23T02:06:01.000Z', url: q('https://weibo.com/ajax/statuses/longtext', { id: nbid }), reqHeaders: PC_XHR(`https://weibo.com/${AK.id}/${nbid}`),
      text: compact({ ok: 1, http_code: 200, data: { longTextContent: full, topic_struct: [{ title: '', topic_url: 'sinaweibo://searchall?containerid=231522&q=%23%E6%98%8E%E6%97%A5%E6%96%B9%E8%88%9F%23', topic_title: '明日方舟' }] } }),
      comment: 'hand-made sandbox recording: weibo.com statuses/longtext by bid: data.longTextContent is the full plain text' },
  ]));
}

// ---------- weibo.com buildComments of the long notice: two pages, inline replies ----------
{
  const mid = '4651022958219023';
  const pcComment = (o: { id: string; rootid: string; at: string; u: U; text: string; text_raw?: string; likes: number; total?: number; replies?: unknown[]; floor?: number; replyTo?: { id: string; u: U; text: string } }) => {
    const out: Record<string, unknown> = {
      created_at: o.at, id: Number(o.id), rootid: Number(o.rootid), rootidstr: o.rootid, floor_number: o.floor ?? 0, text: o.text, disable_reply: 0, restrictOperate: 0,
      source_allowclick: 0, source_type: 1, source: '来自上海', user: pcUser(o.u), mid: o.id, idstr: o.id, url_objects: [], liked: false, readtimetype: 'comment',
    };
    if (o.replyTo) out.reply_comment = { id: Number(o.replyTo.id), idstr: o.replyTo.id, text: o.replyTo.text, user: pcUser(o.replyTo.u) };
    if (o.replies) out.comments = o.replies;
    if (o.total !== undefined) { out.max_id = 0; out.total_number = o.total; out.isLikedByMblogAuthor = false; }
    if (o.total && o.replies && o.total > o.replies.length) out.more_info = { scheme: `sinaweibo://detail?mblogid=${mid}&id=${o.id}`, text: `共${o.total}条回复` };
    out.like_counts = o.likes;
    out.text_raw = o.text_raw ?? o.text;
    return out;
  };
  const P = { ...FANS, id: 6602214786, screen_name: '整合运动的小兵' };
  const Q = { ...FANS, id: 7128833019, screen_name: '理智清零了' };
  const R = { ...FANS, id: 5733021497, screen_name: '能天使的苹果派' };
  const root1 = '4651023490766981';
  const root3 = '4651026215429876';
  const page1 = {
    ok: 1,
    filter_group: [{ title: '按热度', scheme: '' }, { title: '按时间', scheme: '' }],
    data: [
      pcComment({ id: root1, rootid: root1, at: 'Tue Jun 22 22:58:31 +0800 2021', u: P, likes: 1893, total: 12, floor: 2, text: '凌晨四点，懂的都懂', replies: [
        pcComment({ id: '4651023801148113', rootid: root1, at: 'Tue Jun 22 22:59:45 +0800 2021', u: Q, likes: 120, text: `回复${pcAt(P.screen_name)}:还好我睡了`, text_raw: `回复@${P.screen_name}:还好我睡了`,
          replyTo: { id: root1, u: P, text: '凌晨四点，懂的都懂' } }),
        pcComment({ id: '4651024312852760', rootid: root1, at: 'Tue Jun 22 23:01:47 +0800 2021', u: R, likes: 37, text: `回复${pcAt(Q.screen_name)}:羡慕`, text_raw: `回复@${Q.screen_name}:羡慕`,
          replyTo: { id: '4651023801148113', u: Q, text: `回复${pcAt(P.screen_name)}:还好我睡了` } }),
      ] }),
      pcComment({ id: '4651023155222629', rootid: '4651023155222629', at: 'Tue Jun 22 22:57:11 +0800 2021', u: Q, likes: 840, total: 0, floor: 1, text: '合成玉+200，好耶', replies: [] }),
      pcComment({ id: root3, rootid: root3, at: 'Tue Jun 22 23:08:36 +0800 2021', u: R, likes: 412, total: 1, floor: 9, text: '运营组辛苦了', replies: [
        pcComment({ id: '4651026567227433', rootid: root3, at: 'Tue Jun 22 23:09:58 +0800 2021', u: AK, likes: 98, text: `回复${pcAt(R.screen_name)}:谢谢博士`, text_raw: `回复@${R.screen_name}:谢谢博士`,
          replyTo: { id: root3, u: R, text: '运营组辛苦了' } }),
      ] }),
    ],
    rootComment: [],
    total_number: 517,
    max_id: 139013405861129,
    trendsText: '',
  };
  const page2 = {
    ok: 1,
    data: [
      pcComment({ id: '4651029731332194', rootid: '4651029731332194', at: 'Tue Jun 22 23:22:35 +0800 2021', u: P, likes: 66, total: 0, floor: 31, text: '已设闹钟&amp;准备好了', text_raw: '已设闹钟&准备好了', replies: [] }),
    ],
    rootComment: [],
    total_number: 517,
    max_id: 0,
    trendsText: '已加载全部评论',
  };
  const ref = `https://weibo.com/${AK.id}/${midToBid(mid)}`;
  const base = { is_reload: '1', id: mid, is_show_bulletin: '2', is_mix: '0', count: '20', uid: String(AK.id), fetch_level: '0', locale: 'zh-CN' };
  writeFileSync(`${OUT}/pc-comments-buildcomments-${mid}.har`, har([
    { started: '2021-06-23T02:10:00.000Z', url: q('https://weibo.com/ajax/statuses/buildComments', base), reqHeaders: PC_XHR(ref), text: compact(page1),
      comment: 'hand-made sandbox recording: weibo.com statuses/buildComments page 1 (no max_id) of 4651022958219023 as the desktop site asks it (uid, fetch_level, locale): top-level data[] of roots, each root\'s comments[] its inline replies, like_counts, text and text_raw; max_id names the next page' },
    { started: '2021-06-23T02:10:02.000Z', url: q('https://weibo.com/ajax/statuses/buildComments', { ...base, flow: '0', max_id: '139013405861129' }), reqHeaders: PC_XHR(ref), text: compact(page2),
      comment: 'hand-made sandbox recording: weibo.com statuses/buildComments page 2 (max_id from page 1), the last one: max_id 0' },
  ]));
}

// ---------- weibo.com side/hotSearch: the realtime board (answers anonymously) ----------
{
  const words: Array<[string, number, string, string?]> = [
    ['清明假期出行预测', 2248139, '热'], ['春季强对流天气', 1512077, '新'], ['全国多地气温创新高', 1100357, ''],
    ['香椿炒蛋做法', 957120, '热'], ['周末南方多雨', 885718, ''], ['花粉过敏自救指南', 640233, '新'],
    ['东北霜冻预警', 412907, ''], ['乳状云', 301548, ''],
  ];
  const realtime: Array<Record<string, unknown>> = [];
  let pos = 0;
  for (const [word, num, label] of words) {
    pos++;
    const scheme = pos % 2 ? `#${word}#` : word;
    realtime.push({
      word_scheme: scheme, word, note: word, num, raw_hot: num, realpos: pos, rank: pos - 1, label_name: label, flag: label ? 2 : 0,
      icon_desc: label, icon_desc_color: label === '新' ? '#ff3852' : label ? '#ff9406' : '', small_icon_desc: label, small_icon_desc_color: label === '新' ? '#ff3852' : label ? '#ff9406' : '',
      ...(label ? { icon: `https://simg.s.weibo.com/moter/flags/${label === '新' ? 1 : 2}_0.png`, icon_width: 24, icon_height: 24 } : {}),
      topic_flag: pos % 2, emoticon: '', onboard_time: 1743500000 - pos * 617, category: '社会', subject_label: '', channel_type: 'Society', expand: 0, ad_info: '',
    });
    if (pos === 3) {
      realtime.push({ word: '春日新品限时尝鲜', note: '春日新品限时尝鲜', is_ad: 1, ad_channel: 1, ad_type: 'banner', realpos: 4, rank: 3, label_name: '荐', icon_desc: '荐', icon_desc_color: '#ff8d45', flag: 0, topic_flag: 0, num: 0, emoticon: '', ad_info: '', monitors: {} });
    }
  }
  const body = {
    ok: 1,
    data: {
      realtime,
      hotgovs: [{ word: '#清明节文明祭扫#', note: '#清明节文明祭扫#', name: '#清明节文明祭扫#', url: 'https://s.weibo.com/weibo?q=%23%E6%B8%85%E6%98%8E%E8%8A%82%E6%96%87%E6%98%8E%E7%A5%AD%E6%89%AB%23', is_gov: 1, is_hot: 1, icon_desc: '置顶', pos: 0, topic_flag: 1, mid: '5152400330024961', flag: 0 }],
      hotgov: { word: '#清明节文明祭扫#', note: '#清明节文明祭扫#', name: '#清明节文明祭扫#', url: 'https://s.weibo.com/weibo?q=%23%E6%B8%85%E6%98%8E%E8%8A%82%E6%96%87%E6%98%8E%E7%A5%AD%E6%89%AB%23', is_gov: 1, is_hot: 1, icon_desc: '置顶', pos: 0, topic_flag: 1, mid: '5152400330024961', flag: 0 },
    },
  };
  writeFileSync(`${OUT}/pc-hotsearch.har`, har([
    { started: '2025-04-01T12:30:00.000Z', url: 'https://weibo.com/ajax/side/hotSearch', reqHeaders: PC_XHR('https://weibo.com/hot/search'), text: compact(body),
      comment: 'hand-made sandbox recording: weibo.com side/hotSearch, trimmed to 8 words: data.realtime entries with word, word_scheme, num (heat), realpos (1-based) and rank (0-based), one advert (is_ad 1, 荐), and the pinned data.hotgov. This is how the sandbox answers the realtime board: the m.weibo.cn board container is recorded for real in hot-realtimehot-getindex-2025-04-01.har and is not duplicated here' },
  ]));
}

// ---------- weibo.com statuses/topic_band: the hot topic board ----------
{
  const topics: Array<[string, string, number, number, string]> = [
    ['清明出行攻略', '假期出行，哪些路段最堵？', 286400000, 61300, '社会'],
    ['春天的第一口野菜', '晒晒你家的春日餐桌', 154200000, 40210, '美食'],
    ['强对流天气科普', '雷暴大风和冰雹是怎么形成的', 98760000, 12874, '科普'],
    ['我的城市春色', '用一张照片记录春天', 61380000, 20455, '摄影'],
    ['花粉季自救', '过敏星人的生存指南', 35022000, 8731, '健康'],
  ];
  const body = {
    ok: 1,
    data: {
      statuses: topics.map(([topic, summary, read, mention, category], i) => ({
        topic, summary, read, mention, category, claim: i % 2 ? '' : '城市天气观察', mid: String(5152100000000000 + i * 7919), images_url: `https://wx2.sinaimg.cn/thumbnail/008rKq2ely1i02t${i}k2a0sj30u00u0q4f.jpg`,
        dot_icon: i < 2 ? 1 : 0, target_url: `https://s.weibo.com/weibo?q=%23${encodeURIComponent(topic)}%23`,
      })),
      total_data_num: 300,
    },
  };
  writeFileSync(`${OUT}/pc-topic-band.har`, har([
    { started: '2025-04-01T12:30:00.000Z', url: q('https://weibo.com/ajax/statuses/topic_band', { sid: 'v_weibopro', category: 'all', page: '1', count: '50' }), reqHeaders: PC_XHR('https://weibo.com/hot/topic'), text: compact(body),
      comment: 'hand-made sandbox recording: weibo.com statuses/topic_band page 1, trimmed to 5 topics: data.statuses entries with topic, summary, read and mention counts, category, claim. This is how the sandbox answers the topic board: the s.weibo.com topicband page is recorded for real in trending-s-weibo-top-summary-topicband-2021-09-22.har and is not duplicated here' },
  ]));
}

// ---------- weibo.com visitor wall: profile/info redirecting a cookieless client to passport ----------
{
  const uid = '7604561234';
  const url = q('https://weibo.com/ajax/profile/info', { uid });
  const location = `https://passport.weibo.com/visitor/visitor?entry=miniblog&a=enter&url=${encodeURIComponent(url)}&domain=weibo.com&ua=Mozilla%2F5.0&_rand=1743510000.0411`;
  writeFileSync(`${OUT}/error-pc-visitor-redirect-profile-${uid}.har`, har([
    { started: '2025-04-01T12:40:00.000Z', url, status: 302, statusText: 'Found', mime: 'text/html', reqHeaders: PC_XHR(`https://weibo.com/u/${uid}`),
      headers: [{ name: 'Content-Type', value: 'text/html' }, { name: 'Location', value: location }], redirectURL: location, text: '',
      comment: 'hand-made sandbox recording: weibo.com\'s ajax API sending a cookieless client to the passport visitor system (302 to passport.weibo.com/visitor/visitor, as yt-dlp and f2 describe it); the m.weibo.cn profile of this uid is deliberately not recorded, so the user action reaches this answer through its fallback' },
  ]));
}
console.log(`wrote the weibo sandbox recordings to ${OUT}`);
