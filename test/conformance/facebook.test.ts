import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResult, Envelope } from '../../src/domain/results.js';
import { facebook } from '../../src/platforms/facebook/index.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { probeCtx } from '../helpers/probe-ctx.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every facebook recording, replayed through the real catalog validation, adapter and normalization. The
 * real ones (fixtures/facebook) are anonymous m.facebook.com loads of 2021: a page timeline and its async
 * "see more" page, a story permalink, two video posts that answer 302 to their video pages, and a photo post
 * page with its comments. The hand-made sandbox (sandbox/facebook) covers what none records: a walk to the
 * last timeline page, comment pages behind "View more comments", a player with hd_src and sd_src, the
 * fb.watch redirect, the www page route, a logged-in search, and the walls (login redirect, checkpoint,
 * temporary block, content not found, "This content isn't available"), an empty page and the probe.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/facebook');
const SANDBOX = resolve(process.cwd(), 'sandbox/facebook');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;
const recorded = (file: string, i: number): string => JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text;
const LOGIN = { cookies: 'c_user=100000000000777; xs=7%3Asandbox%3A2%3A1700000000' };

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'facebook', action, params, replay, ...extra });

describe('facebook on real recordings', () => {
  it('posts: the page timeline gives its stories with ids, author, text, time, MLiveData counts, media; the cursor is the see-more href', async () => {
    const file = real('posts-page-nintendo.har');
    const { result, requests, warnings } = await run('posts', { query: 'https://www.facebook.com/Nintendo', limit: 10 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.source).toBe('live');
    expect(requests[0]).toBe('GET https://m.facebook.com/Nintendo/posts/');
    expect(env.items.map((i) => i.id)).toEqual(['facebook:4194934713924283', 'facebook:4193752747375813']);
    const [cover, video] = env.items;
    expect(cover).toMatchObject({
      type: 'image',
      author: 'Nintendo',
      author_id: '119240841493711',
      author_handle: 'Nintendo',
      author_url: 'https://www.facebook.com/Nintendo',
      url: 'https://www.facebook.com/story.php?story_fbid=4194935043924250&id=119240841493711',
      ts: 1622853212,
      stats: { likes: 466, comments: 73, shares: 17 },
    });
    expect(origin(cover!.media[0]!.url)).toMatch(/^https:\/\/scontent\.fhlz2-1\.fna\.fbcdn\.net\/v\/t1\.6435-9\/fr\/cp0\/e15\/q65\/194757118_4194934717257616_/);
    expect(cover!.thumb).toBe(cover!.media[0]!.url);
    expect(video).toMatchObject({
      type: 'video',
      text: "May 2021 is in the books! Take a look back at just a few of the past month's announcements, updates, and releases with Nintendo Monthly Rewind.",
      ts: 1622819482,
      duration_s: 237.035,
      stats: { likes: 290, comments: 44, shares: 25 },
    });
    expect(video!.media[0]!.kind).toBe('video');
    expect(new URL(video!.media[0]!.url, 'http://x').searchParams.get('kind')).toBe('video');
    expect(origin(video!.media[0]!.url)).toMatch(/^https:\/\/video\.fhlz2-1\.fna\.fbcdn\.net\/v\/t42\.1790-2\/194741023_4207711329291561_328724728362797609_n\.mp4\?/);
    // The thumb comes from the player's CSS background, its \3a / \3d / \26 escapes decoded.
    expect(origin(video!.thumb!)).toMatch(/^https:\/\/scontent\.fhlz2-1\.fna\.fbcdn\.net\/v\/t15\.5256-10\/cp0\/e15\/q65\/s1080x2048\/188285888_286354983194909_8481864213285700930_n\.jpg\?_nc_cat=110&ccb=1-3&_nc_sid=ccf8b3&/);
    // The walk asked for the see-more page the first page names; this recording holds another session's, so it stops there and says so.
    expect(requests[1]).toContain('https://m.facebook.com/page_content_list_view/more/?page_id=119240841493711&start_cursor=');
    expect(decodeURIComponent(requests[1]!)).toContain('"timeline_cursor":"AQHR5kUv-VzgVoVb02Jg-ltiaCAukPOPwlaqtpfZ-FxJ01ikYwomwgVoR5dGuwExm9EJzseil3X9Bk0kgaHeiynQuGMfpfxFqfqH5aK2HKEiquZiDZlHLe15CghmdKBgAsH9"');
    expect(warnings.join(' ')).toMatch(/stopped after 1 page/);
    const first = await run('posts', { query: 'Nintendo', limit: 2 }, [file]);
    const native = JSON.parse(Buffer.from((first.result as Envelope).next_cursor!.slice(3), 'base64url').toString()).c as string;
    expect(native).toMatch(/^\/page_content_list_view\/more\/\?page_id=119240841493711&start_cursor=%7B%22timeline_cursor%22%3A%22AQHR5kUv-/);
  });

  it('posts: the async see-more page (for (;;); payload) gives its four stories and the next href from its script', async () => {
    const file = real('posts-page-nintendo.har');
    const recordedUrl = new URL(JSON.parse(readFileSync(file, 'utf8')).log.entries[1].request.url);
    const cursor = recordedUrl.pathname + recordedUrl.search;
    const { result } = await run('posts', { query: 'Nintendo', cursor, limit: 4 }, [file]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['facebook:4191173794300375', 'facebook:4188174317933656', 'facebook:4188053201279101', 'facebook:4187481031336318']);
    expect(env.items.map((i) => i.type)).toEqual(['video', 'video', 'image', 'image']);
    expect(env.items[0]!.stats).toEqual({ likes: 305, comments: 408, shares: 22 });
    expect(env.items[3]!.stats).toEqual({ likes: 3788, comments: 1017, shares: 4365 });
    expect(env.items.every((i) => i.author === 'Nintendo' && i.author_id === '119240841493711' && typeof i.ts === 'number')).toBe(true);
    const next = JSON.parse(Buffer.from(env.next_cursor!.slice(3), 'base64url').toString()).c as string;
    expect(next.startsWith('/page_content_list_view/more/?page_id=119240841493711&start_cursor=%7B%22timeline_cursor%22%3A%22AQHRa11clnd8QlP2q8pUk1YOGM4VpKPMlry5AG3iFfJz5qtWjaYcXarzn_UNjlm-RNWqh-mkIwoGDUtuyD1xtw8S-IpxJ9wei5VCh0Dbbi6iZnzusSp78VBd1qDG2B8n8-lg%22')).toBe(true);
  });

  it('detail: a bare post id answers 302 to story.php; the permalink story gives its text, album photos and counts', async () => {
    const file = real('detail-story-nintendo-3065154550235644.har');
    const { result, requests } = await run('detail', { query: '3065154550235644' }, [file]);
    const env = result as Envelope;
    expect(requests).toEqual([
      'GET https://m.facebook.com/3065154550235644',
      'GET https://m.facebook.com/story.php?story_fbid=3065154550235644&id=119240841493711&refsrc=https%3A%2F%2Fm.facebook.com%2F3065154550235644&_rdr',
    ]);
    const item = env.items[0]!;
    expect(item).toMatchObject({
      id: 'facebook:3065154550235644',
      type: 'image',
      text: 'Check out these themed wallpapers and many more at the link below for your personal use! We hope you enjoy them!\n\nhttps://www.nintendo.com/wallpapers/',
      author: 'Nintendo',
      author_id: '119240841493711',
      author_handle: 'Nintendo',
      url: 'https://www.facebook.com/story.php?story_fbid=3065154550235644&id=119240841493711',
      ts: 1589331678,
      stats: { likes: 1615, comments: 149, shares: 281 },
    });
    expect(item.media.map((m) => origin(m.url).split('?')[0]!.split('/').pop())).toEqual([
      '96724875_3065146506903115_4237164853036318720_n.jpg',
      '96657922_3065146630236436_9052202957155598336_n.jpg',
      '96557798_3065146790236420_838564679184809984_n.jpg',
      '96688092_3065146896903076_7861539131082407936_n.jpg',
    ]);
    // Commenters' pictures are not the post's media.
    expect(item.media.every((m) => m.kind === 'image' && !origin(m.url).includes('/t1.6435-1/'))).toBe(true);
  });

  it('detail: a video post (/<page>/posts/<id>) answers 302 to its video page; JSON-LD and the player give the stream, size, length and counts', async () => {
    const file = real('detail-video-nintendo-286348296528911.har');
    const { result, requests } = await run('detail', { query: 'https://www.facebook.com/Nintendo/posts/4193752747375813' }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(requests[0]).toBe('GET https://m.facebook.com/Nintendo/posts/4193752747375813');
    expect(requests[1]).toContain('https://m.facebook.com/Nintendo/videos/286348296528911/');
    expect(item).toMatchObject({
      id: 'facebook:4193752747375813',
      type: 'video',
      title: 'Nintendo Monthly Rewind – May 2021',
      text: "May 2021 is in the books! Take a look back at just a few of the past month's announcements, updates, and releases with Nintendo Monthly Rewind.",
      author: 'Nintendo',
      author_id: '119240841493711',
      author_handle: 'Nintendo',
      url: 'https://www.facebook.com/Nintendo/videos/nintendo-monthly-rewind-may-2021/286348296528911/',
      ts: Date.parse('2021-06-04T08:03:25-07:00') / 1000,
      duration_s: 237.035,
      aspect: { width: 1920, height: 1080 },
      stats: { likes: 342, comments: 44, shares: 25, views: 18900 },
    });
    expect(item.media).toHaveLength(1);
    expect(item.media[0]).toMatchObject({ kind: 'video', w: 1920, h: 1080, duration_s: 237.035 });
    expect(origin(item.media[0]!.url)).toBe(
      'https://video.fhlz2-1.fna.fbcdn.net/v/t42.1790-2/194741023_4207711329291561_328724728362797609_n.mp4?_nc_cat=103&ccb=1-3&_nc_sid=985c63&efg=eyJ2ZW5jb2RlX3RhZyI6InN2ZV9zZCJ9&_nc_ohc=ai2vDNsA5DUAX_Aja_h&_nc_rml=0&_nc_ht=video.fhlz2-1.fna&oh=932b192d61ff99a4946911750a836f2f&oe=60C01090',
    );
    expect(origin(item.thumb!)).toContain('188285888_286354983194909_8481864213285700930_n.jpg');
  });

  it('detail: the redirect to another video page; the main player is the one whose videoID the page URL names, not a related video', async () => {
    const file = real('detail-video-redirect-nintendo-387081299304444.har');
    const html = recorded(file, 1);
    const { result } = await run('detail', { query: 'm.facebook.com/Nintendo/posts/4191173794300375' }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({
      id: 'facebook:4191173794300375',
      type: 'video',
      text: 'Which enemy from a Nintendo game are you most scared of? Comment below with what you think the most popular response is and check back later today for the results!',
      duration_s: 17.472,
      stats: { likes: 356, comments: 408, shares: 22, views: 29178 },
    });
    expect(origin(item.media[0]!.url)).toMatch(/194855551_761836874493458_4486307860370817310_n\.mp4\?/);
    expect(html).toContain('videoID&quot;:&quot;1419457015082911&quot;');
    expect(origin(item.media[0]!.url)).not.toContain('1419457015082911');
  });

  it('detail: a photo post page (the comments recording) gives its caption, the full-size photo and the MLiveData counts', async () => {
    const file = real('comments-post-nintendo-4187481031336318.har');
    const { result } = await run('detail', { query: 'https://web.facebook.com/Nintendo/posts/4187481031336318' }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({
      id: 'facebook:4187481031336318',
      type: 'image',
      author: 'Nintendo',
      author_id: '119240841493711',
      author_handle: 'Nintendo',
      url: 'https://www.facebook.com/Nintendo/photos/a.120520318032430/4187481031336318/?type=3',
      ts: 1622642401,
      stats: { likes: 3788, comments: 1017, shares: 4365 },
    });
    expect(item.text!.startsWith('🗓 Nintendo at E3 2021: June 15, 9am PT!\n\nTune in for a Nintendo Direct')).toBe(true);
    expect(item.text!.endsWith('http://ninten.do/6185VAKqX')).toBe(true);
    expect(origin(item.media[0]!.url)).toMatch(/195710058_4187481034669651_4588426599037912713_n\.jpg\?/);
  });

  it('comments: the 30 comments a post page embeds, in page order, with author ids, names, text, reply counts; total from MLiveData; next is the see_next href', async () => {
    const file = real('comments-post-nintendo-4187481031336318.har');
    const html = recorded(file, 0);
    const { result } = await run('comments', { query: 'https://m.facebook.com/Nintendo/posts/4187481031336318', limit: 30 }, [file]);
    const res = result as CommentsResult;
    expect(res.source).toBe('live');
    expect(res.total).toBe(1017);
    expect(res.items).toHaveLength(30);
    const ids = [...html.matchAll(/data-uniqueid="(\d+)"/g)].map((m) => m[1]);
    expect(res.items.map((c) => c.cid)).toEqual(ids);
    expect(res.items[0]).toEqual({
      cid: '4188269761257445',
      text: "it's a nintendo party in the treehouse! 🙌",
      likes: 0,
      reply_total: 2,
      user_id: '1424858414264105',
      handle: '',
      user_name: 'Facebook Watch',
      created_at: 0,
      source: 'facebook',
    });
    expect(res.items[2]).toMatchObject({ cid: '4187495721334849', user_name: 'Bobby Chichester', user_id: '100001155371630', reply_total: 22 });
    expect(res.items.every((c) => c.parent_id === undefined && c.text.length > 0)).toBe(true);
    expect(res.has_more).toBe(true);
    const next = JSON.parse(Buffer.from(res.cursor!.slice(3), 'base64url').toString()).c as string;
    expect(next).toBe('/Nintendo/photos/a.120520318032430/4187481031336318/?type=3&p=30');
  });

  it('comments: a story page holds other stories too; only the post’s own ufi block is read', async () => {
    const file = real('detail-story-nintendo-3065154550235644.har');
    const html = recorded(file, 1);
    const { result } = await run('comments', { query: 'https://www.facebook.com/story.php?story_fbid=3065154550235644&id=119240841493711', limit: 100 }, [file]);
    const res = result as CommentsResult;
    expect(res.total).toBe(149);
    const own = html.slice(html.indexOf('id="ufi_3065154550235644"'), html.indexOf('id="see_next_3065154550235644"'));
    expect(res.items.map((c) => c.cid)).toEqual([...own.matchAll(/data-uniqueid="(\d+)"/g)].map((m) => m[1]));
    expect(res.items[0]).toMatchObject({ cid: '3154024434681988', user_name: 'Yusof Elmahboub', user_id: '100004071004949' });
    expect(res.items[0]!.text).toBe('I think Sora,Spyro,Dixie Kong and a monster hunter character should be in Fighter Pass 3 for smash bros if a fighter pass 3 happens.');
  });

  it('comments: a video page has no comments block; its JSON-LD posting carries a sample with times and authors', async () => {
    const file = real('detail-video-nintendo-286348296528911.har');
    const { result } = await run('comments', { query: 'https://www.facebook.com/Nintendo/posts/4193752747375813' }, [file]);
    const res = result as CommentsResult;
    expect(res.total).toBe(44);
    expect(res.has_more).toBe(false);
    expect(res.items.map((c) => c.cid)).toEqual(['4195106760573745', '4194379123979842', '4193837847367303', '4194094550674966']);
    expect(res.items[0]).toMatchObject({ user_name: 'Tyler N. Nix', handle: 'tyler.n.nix', created_at: Date.parse('2021-06-04T18:53:39-07:00') / 1000 });
    expect(res.items[1]).toMatchObject({ user_name: 'Musically Gamed', handle: 'musicallygamed' });
  });

  it('comments: the redirect video page gives its JSON-LD sample; a profile.php author gives an id, no handle', async () => {
    const file = real('detail-video-redirect-nintendo-387081299304444.har');
    const { result } = await run('comments', { query: 'https://www.facebook.com/Nintendo/posts/4191173794300375' }, [file]);
    const res = result as CommentsResult;
    expect(res.total).toBe(408);
    const jacob = res.items.find((c) => c.user_name === 'Jacob Peden')!;
    expect(jacob).toMatchObject({ user_id: '100008324983460', handle: '' });
  });
});

describe('facebook on the hand-made sandbox', () => {
  it('posts: a walk reads the first page, then the async page whose start_cursor says has_next_page false, and ends', async () => {
    const file = sand('posts-page-harborbakery.har');
    const { result, requests } = await run('posts', { query: '@HarborBakery', max_items: -1 }, [file]);
    const env = result as Envelope;
    expect(requests).toHaveLength(2);
    expect(env.items.map((i) => i.id)).toEqual(['facebook:100064000000101', 'facebook:100064000000102', 'facebook:100064000000103']);
    expect(env.next_cursor).toBeUndefined();
    expect(env.items[1]).toMatchObject({ type: 'video', duration_s: 42.5, stats: { likes: 88, comments: 6, shares: 2 }, url: 'https://www.facebook.com/HarborBakery/videos/100064000000202/' });
    expect(env.items[2]).toMatchObject({ type: 'text', text: 'Closed on Monday for the harbor festival.\n\nSee you Tuesday!', stats: { likes: 31, comments: 2, shares: 0 } });
  });

  it('posts: a timeline with no story on it is an honest empty', async () => {
    const { result } = await run('posts', { query: 'QuietBakery' }, [sand('error-empty-page.har')]);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0 });
  });

  it('detail + comments: the story permalink and its "View more comments" page (p=30), then the end', async () => {
    const file = sand('detail-story-harborbakery-100064000000101.har');
    const detail = (await run('detail', { query: 'https://mbasic.facebook.com/HarborBakery/posts/100064000000101' }, [file])).result as Envelope;
    expect(detail.items[0]).toMatchObject({ id: 'facebook:100064000000101', type: 'image', stats: { likes: 120, comments: 14, shares: 3 }, ts: 1763600000 });
    const { result, requests } = await run('comments', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000101', limit: 10 }, [file]);
    const res = result as CommentsResult;
    expect(requests[1]).toBe('GET https://m.facebook.com/story.php?story_fbid=100064000000101&id=100064000000001&p=30');
    expect(res.items.map((c) => c.cid)).toEqual(['100064000000501', '100064000000502', '100064000000503', '100064000000531']);
    expect(res.items[0]).toMatchObject({ reply_total: 2, created_at: 1763610000, user_id: '100000000000011', user_name: 'Mira Holm' });
    expect(res.items[2]!.reply_total).toBe(1);
    expect(res.total).toBe(14);
    expect(res.has_more).toBe(false);
  });

  it('detail: a player offering hd_src and sd_src gives hd_src; the fb.watch link is resolved by its redirect alone', async () => {
    const video = sand('detail-video-harborbakery-100064000000202.har');
    const { result, requests } = await run('detail', { query: 'https://fb.watch/hArB0rLoaf/' }, [sand('resolve-fb-watch.har'), video]);
    const item = (result as Envelope).items[0]!;
    expect(requests[0]).toBe('GET https://fb.watch/hArB0rLoaf/');
    expect(requests[1]).toBe('GET https://m.facebook.com/HarborBakery/videos/100064000000202/');
    expect(requests).not.toContain('GET https://www.facebook.com/HarborBakery/videos/100064000000202/?extid=sandbox');
    expect(item).toMatchObject({ id: 'facebook:100064000000202', type: 'video', author: 'Harbor Bakery', author_id: '100064000000001', stats: { likes: 88, comments: 6, shares: 2, views: 5400 } });
    expect(origin(item.media[0]!.url)).toMatch(/202_hd_n\.mp4/);
    const viaPost = (await run('detail', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000102' }, [video])).result as Envelope;
    expect(viaPost.items[0]!.id).toBe('facebook:100064000000102');
    const comments = (await run('comments', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000102' }, [video])).result as CommentsResult;
    expect(comments.items.map((c) => [c.cid, c.handle, c.user_id])).toEqual([
      ['100064000000601', 'tom.berg.77', ''],
      ['100064000000602', '', '100000000000021'],
    ]);
  });

  it('detail + comments: a watch page shows the video as a story (not the related ones); its comments come from the post’s story.php', async () => {
    const file = sand('detail-watch-harborbakery-100064000000104.har');
    const detail = await run('detail', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000104' }, [file]);
    const item = (detail.result as Envelope).items[0]!;
    expect(item).toMatchObject({
      id: 'facebook:100064000000104',
      type: 'video',
      title: 'Scoring the loaves',
      text: 'Scoring the loaves before they go in.',
      author: 'Harbor Bakery',
      author_handle: 'HarborBakery',
      duration_s: 65,
      stats: { likes: 64, comments: 2, shares: 1 },
      url: 'https://www.facebook.com/story.php?story_fbid=100064000000104&id=100064000000001',
    });
    expect(origin(item.media[0]!.url)).toMatch(/204_sd_n\.mp4/);
    const { result, requests } = await run('comments', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000104' }, [file]);
    expect(requests.map((r) => r.slice(4))).toEqual([
      'https://m.facebook.com/HarborBakery/posts/100064000000104',
      'https://m.facebook.com/watch/?v=100064000000204&_rdr',
      'https://m.facebook.com/story.php?story_fbid=100064000000104&id=100064000000001',
    ]);
    const res = result as CommentsResult;
    expect(res.items.map((c) => [c.cid, c.user_name, c.created_at, c.reply_total])).toEqual([
      ['100064000000701', 'Eli Brandt', 1763700000, 0],
      ['100064000000702', 'Noor Haddad', 0, 1],
    ]);
    expect(res.total).toBe(2);
  });

  it('detail: when the m. site walls an anonymous watch link, the www page answers; its playable_url_quality_hd wins', async () => {
    const { result, requests } = await run('detail', { query: 'https://www.facebook.com/watch/?v=100064000000203' }, [sand('detail-video-www-100064000000203.har')]);
    const env = result as Envelope;
    expect(requests).toEqual(['GET https://m.facebook.com/watch/?v=100064000000203', 'GET https://www.facebook.com/watch/?v=100064000000203']);
    expect(env.items[0]).toMatchObject({ id: 'facebook:100064000000203', type: 'video', title: 'Sourdough starter feeding', text: 'Feeding time for Harold, our 40-year-old starter.', url: 'https://www.facebook.com/HarborBakery/videos/100064000000203/' });
    expect(origin(env.items[0]!.media[0]!.url)).toMatch(/203_hd_n\.mp4/);
  });

  it('search: without a login it answers session_expired naming the profile to add; with one it reads the results', async () => {
    const file = sand('search-harbor-bread.har');
    const anon = (await run('search', { query: 'harbor bread' }, [file])).result as Envelope;
    expect(anon).toMatchObject({ ok: false, error: { code: 'session_expired' } });
    expect(anon.error!.message).toMatch(/add a facebook login profile .*name "default"/);
    const logged = (await run('search', { query: 'harbor bread' }, [file], { session: LOGIN })).result as Envelope;
    expect(logged.items.map((i) => i.id)).toEqual(['facebook:100064000000101']);
  });

  it('walls: a login redirect is session_expired (add a profile, or the stored one lapsed), never empty', async () => {
    const file = sand('error-login-wall-profile.har');
    const anon = (await run('posts', { query: 'https://www.facebook.com/profile.php?id=100000000000009' }, [file])).result as Envelope;
    expect(anon).toMatchObject({ ok: false, count: 0, error: { code: 'session_expired' } });
    expect(anon.source).not.toBe('empty');
    expect(anon.error!.message).toMatch(/logged-in viewer; add a facebook login profile/);
    const lapsed = (await run('posts', { query: 'https://www.facebook.com/profile.php?id=100000000000009' }, [file], { session: LOGIN })).result as Envelope;
    expect(lapsed.error).toMatchObject({ code: 'session_expired' });
    expect(lapsed.error!.message).toMatch(/stored login "default".*lapsed/);
  });

  it('walls: a checkpoint is blocked for an anonymous visit and session_expired for a login; a temporary block is blocked', async () => {
    const cp = sand('error-checkpoint.har');
    expect(((await run('posts', { query: 'CheckpointBakery' }, [cp])).result as Envelope).error).toMatchObject({ code: 'blocked' });
    expect(((await run('posts', { query: 'CheckpointBakery' }, [cp], { session: LOGIN })).result as Envelope).error).toMatchObject({ code: 'session_expired' });
    const blocked = (await run('posts', { query: 'BlockedBakery' }, [sand('error-temporarily-blocked.har')])).result as Envelope;
    expect(blocked).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
  });

  it('walls: "Content Not Found" is not_found; "This content isn\'t available" needs a login anonymously and is not_found with one', async () => {
    expect(((await run('detail', { query: '100064000000999' }, [sand('error-content-not-found.har')])).result as Envelope).error).toMatchObject({ code: 'not_found' });
    const file = sand('error-content-unavailable.har');
    const anon = (await run('detail', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000888' }, [file])).result as Envelope;
    expect(anon.error).toMatchObject({ code: 'session_expired' });
    expect(anon.error!.message).toMatch(/This content isn't available/);
    const logged = (await run('detail', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000888' }, [file], { session: LOGIN })).result as Envelope;
    expect(logged.error).toMatchObject({ code: 'not_found' });
  });

  it('probe: the settings page answers a login (ok); no c_user cookie is session_expired without a request; a login redirect is session_expired', async () => {
    expect(await facebook.probe!(probeCtx(facebook, [sand('probe-settings.har')], LOGIN.cookies))).toBe('ok');
    expect(await facebook.probe!(probeCtx(facebook, [], 'datr=abc'))).toBe('session_expired');
    // A settings answer that is the login page itself:
    const ctx = probeCtx(facebook, [], LOGIN.cookies, { url: 'https://m.facebook.com/settings', body: '<html><head><title>Log in to Facebook | Facebook</title></head><body><form id="login_form"></form></body></html>' });
    expect(await facebook.probe!(ctx)).toBe('session_expired');
  });

  it('a short link is remembered: the second resolution asks nothing', async () => {
    const memo = new MemoryMemo();
    const files = [sand('resolve-fb-watch.har'), sand('detail-video-harborbakery-100064000000202.har')];
    await run('detail', { query: 'fb.watch/hArB0rLoaf' }, files, { memo });
    const again = await run('detail', { query: 'https://fb.watch/hArB0rLoaf/' }, files, { memo });
    expect(again.requests.some((r) => r.includes('fb.watch'))).toBe(false);
  });
});

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).filter((f) => !usedSandbox.has(f))).toEqual([]);
});
