import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, WriteResult } from '../../src/domain/results.js';
import { OPS_DEFAULTS } from '../../src/platforms/instagram/ops.js';
import { pkToShortcode } from '../../src/platforms/instagram/refs.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { runAction } from '../helpers/run-action.js';
import { probeCtx } from '../helpers/probe-ctx.js';
import { instagram } from '../../src/platforms/instagram/index.js';

/*
 * Every instagram recording, replayed through the real catalog validation, adapter and normalization.
 * The real ones (fixtures/instagram) are web_profile_info answers (2023, 2024), the legacy query_hash
 * feeds (timeline, tagged, hashtag, comments in two pages, the id lookup: null user and the 401 throttle),
 * REST users/<pk>/info, clips/user and the ?__a=1 post view (2020-2022), a checkpoint answer and a comment
 * write answer. The hand-made sandbox (sandbox/instagram, generate.ts) covers today's routes no real
 * recording holds: the logged-out post query and post page, the doc_id comment, reply, search and feed
 * queries, hashtag sections, REST comments, the home page's guest tokens, share links and error answers.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/instagram');
const SANDBOX = resolve(process.cwd(), 'sandbox/instagram');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const entry = (file: string, i = 0): any => JSON.parse(readFileSync(file, 'utf8')).log.entries[i];
const body = (file: string, i = 0): any => JSON.parse(entry(file, i).response.content.text);
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;

/** A logged-in profile's cookies (sessionid starts with the account's pk). */
const SESSION = { cookies: 'sessionid=52418700001%3AsbxSession%3A12; csrftoken=SbxWriterCsrf0001; ds_user_id=52418700001' };

/**
 * A real recorded answer served at the route the adapter asks today (its recorded request was a route the
 * adapter does not call: a password login, the retired /web/comments/ path). Written to a temp HAR.
 */
function servedAt(file: string, request: { method: string; url: string; form?: Record<string, string> }): string {
  const e = entry(file);
  const dir = mkdtempSync(join(tmpdir(), 'ig-retarget-'));
  const out = join(dir, 'served.har');
  const post = request.form ? { mimeType: 'application/x-www-form-urlencoded', text: new URLSearchParams(request.form).toString() } : undefined;
  writeFileSync(out, JSON.stringify({ log: { version: '1.2', entries: [{ comment: `real answer of ${file.split('/').pop()} served at ${request.url}`, request: { method: request.method, url: request.url, headers: [], ...(post ? { postData: post } : {}) }, response: e.response }] } }));
  return out;
}

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'instagram', action, params, replay, ...extra });

describe('instagram on real recordings', () => {
  it('user: web_profile_info (2024) gives the account, its counts and the HD avatar', async () => {
    const file = real('user-web-profile-info-instagram.har');
    const u = body(file).data.user;
    const { result, requests } = await run('user', { query: 'https://www.instagram.com/instagram/' }, [file]);
    const res = result as CreatorResult;
    expect(res.ok).toBe(true);
    expect(res.data!.author).toMatchObject({
      id: u.id,
      source: 'instagram',
      handle: 'instagram',
      name: u.full_name,
      bio: u.biography,
      url: 'https://www.instagram.com/instagram/',
      followers: u.edge_followed_by.count,
      following: u.edge_follow.count,
      posts: u.edge_owner_to_timeline_media.count,
      verified: true,
    });
    expect(origin(res.data!.author.avatar!)).toBe(u.profile_pic_url_hd);
    expect(requests).toEqual(['GET https://www.instagram.com/api/v1/users/web_profile_info/?username=instagram']);
  });

  it('user: a trimmed web_profile_info (2023) without the id or counts takes the id from its posts and reports no counts', async () => {
    const file = real('user-web-profile-info-tresenrayaperu.har');
    const u = body(file).data.user;
    const { result } = await run('user', { query: '@TresEnRayaPeru' }, [file]);
    const a = (result as CreatorResult).data!.author;
    expect(a.id).toBe(u.edge_owner_to_timeline_media.edges[0].node.owner.id);
    expect(a.handle).toBe('tresenrayaperu');
    expect(a.posts).toBe(217);
    expect(a.followers).toBeUndefined();
    expect(a.following).toBeUndefined();
  });

  it('user: a numeric id with a login asks REST users/<pk>/info/ (2021)', async () => {
    const file = real('user-api-v1-users-info-1518284433.har');
    const u = body(file).user;
    const { result, requests } = await run('user', { query: '1518284433' }, [file], { session: SESSION });
    expect((result as CreatorResult).data!.author).toMatchObject({ id: '1518284433', handle: 'robertdowneyjr', name: u.full_name, followers: u.follower_count, following: u.following_count, posts: u.media_count, verified: true });
    expect(requests).toEqual(['GET https://i.instagram.com/api/v1/users/1518284433/info/']);
  });

  it('user: the id lookup answering data.user null is not_found; its 401 "Please wait a few minutes" is rate_limited, never a login demand', async () => {
    const missing = await run('user', { query: '1' }, [real('error-user-null-not-found.har')]);
    expect((missing.result as CreatorResult).error).toMatchObject({ code: 'not_found' });
    expect(missing.requests[0]).toContain(`query_hash=${OPS_DEFAULTS.query_hash_user_by_id}`);
    const throttled = await run('user', { query: '40750166343' }, [real('error-rate-limit-require-login-401.har')]);
    const res = throttled.result as CreatorResult;
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({ code: 'rate_limited', retryable: true });
    expect(res.error!.message).toContain('Please wait a few minutes');
  });

  it('posts: the first page of @instagram comes from web_profile_info: reels with their stream, carousels with every child', async () => {
    const file = real('user-web-profile-info-instagram.har');
    const edges = body(file).data.user.edge_owner_to_timeline_media.edges.map((e: any) => e.node);
    const { result, requests } = await run('posts', { query: '@instagram', limit: 12 }, [file]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(edges.map((n: any) => `instagram:${n.id}`));
    expect(requests).toHaveLength(1);
    expect(env.next_cursor).toBeDefined();
    const reel = env.items[0]!;
    const n0 = edges[0];
    expect(reel).toMatchObject({
      type: 'video',
      url: `https://www.instagram.com/p/${n0.shortcode}/`,
      text: n0.edge_media_to_caption.edges[0].node.text,
      author_id: '25025320',
      author_handle: 'instagram',
      author_url: 'https://www.instagram.com/instagram/',
      ts: n0.taken_at_timestamp,
      stats: { likes: n0.edge_liked_by.count, comments: n0.edge_media_to_comment.count, views: n0.video_view_count },
      aspect: { width: 1080, height: 1920 },
    });
    expect(reel.duration_s).toBeCloseTo(14.233, 2);
    expect(reel.media).toHaveLength(1);
    expect(origin(reel.media[0]!.url)).toBe(n0.video_url);
    expect(new URL(reel.media[0]!.url, 'http://x').searchParams.get('kind')).toBe('video');
    expect(origin(reel.thumb!)).toBe(n0.display_url);
    const sIdx = edges.findIndex((n: any) => n.__typename === 'GraphSidecar');
    const side = edges[sIdx];
    const children = side.edge_sidecar_to_children.edges.map((e: any) => e.node);
    const item = env.items[sIdx]!;
    expect(item.media).toHaveLength(children.length);
    expect(item.media.map((m) => m.kind)).toEqual(children.map((c: any) => (c.is_video ? 'video' : 'image')));
    expect(item.media.map((m) => origin(m.url))).toEqual(children.map((c: any) => c.video_url ?? c.display_url));
    expect(item.type).toBe(children[0].is_video ? 'video' : 'image');
  });

  it('posts: a numeric id pages the timeline feed (2020) by its query_hash from the operation data', async () => {
    const file = real('posts-graphql-owner-timeline-robertdowneyjr.har');
    const conn = body(file).data.user.edge_owner_to_timeline_media;
    const { result, requests } = await run('posts', { query: '1518284433', limit: 12 }, [file]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(conn.edges.map((e: any) => `instagram:${e.node.id}`));
    const u = new URL(requests[0]!.slice(4));
    expect(u.pathname).toBe('/graphql/query/');
    expect(u.searchParams.get('query_hash')).toBe(OPS_DEFAULTS.query_hash_owner_timeline);
    expect(JSON.parse(u.searchParams.get('variables')!)).toEqual({ id: '1518284433', first: 12 });
    const img = env.items.find((i) => i.type === 'image' && i.media.length === 1)!;
    const raw = conn.edges.find((e: any) => `instagram:${e.node.id}` === img.id).node;
    expect(origin(img.media[0]!.url)).toBe(raw.display_url);
    expect(img.stats).toEqual({ likes: raw.edge_media_preview_like.count, comments: raw.edge_media_to_comment.count });
    expect(env.next_cursor).toBeDefined();
  });

  it('posts: tab tagged reads edge_user_to_photos_of_you (2021)', async () => {
    const file = real('posts-graphql-tagged-medias.har');
    const conn = body(file).data.user.edge_user_to_photos_of_you;
    const { result, requests } = await run('posts', { query: '1518284433', tab: 'tagged', limit: 10 }, [file]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(conn.edges.map((e: any) => `instagram:${e.node.id}`));
    expect(requests[0]).toContain(`query_hash=${OPS_DEFAULTS.query_hash_tagged}`);
  });

  it('posts: tab reels with a login reads clips/user (2021): the largest rendition, the play count; without a login, session_expired naming the profile', async () => {
    const file = real('posts-clips-user-reels.har');
    const items = body(file).items.map((i: any) => i.media);
    const { result, requests } = await run('posts', { query: '1518284433', tab: 'reels', limit: 12 }, [file], { session: SESSION });
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(items.map((m: any) => `instagram:${m.pk}`));
    const first = env.items[0]!;
    const m0 = items[0];
    const bestVideo = [...m0.video_versions].sort((a: any, b: any) => b.width * b.height - a.width * a.height)[0];
    const bestImage = [...m0.image_versions2.candidates].sort((a: any, b: any) => b.width * b.height - a.width * a.height)[0];
    expect(origin(first.media[0]!.url)).toBe(bestVideo.url);
    expect(first.media[0]).toMatchObject({ kind: 'video', w: bestVideo.width, h: bestVideo.height });
    expect(origin(first.thumb!)).toBe(bestImage.url);
    expect(first).toMatchObject({ type: 'video', duration_s: m0.video_duration, author_handle: 'noholita', stats: { likes: m0.like_count, comments: m0.comment_count, views: m0.play_count } });
    expect(requests).toEqual(['POST https://i.instagram.com/api/v1/clips/user/']);
    const anon = await run('posts', { query: '1518284433', tab: 'reels' }, [file]);
    expect((anon.result as Envelope).error).toMatchObject({ code: 'session_expired' });
    expect((anon.result as Envelope).error!.message).toMatch(/instagram profile named "default".*sessionid and csrftoken/);
    expect(anon.requests).toEqual([]);
  });

  it('search: #paris with a login falls back from the hashtag sections to the hashtag feed (2021); top posts by sort; no login is session_expired', async () => {
    const file = real('search-hashtag-paris.har');
    const tag = body(file).data.hashtag;
    const { result, requests } = await run('search', { query: '#Paris', limit: 12 }, [file], { session: SESSION });
    expect((result as Envelope).items.map((i) => i.id)).toEqual(tag.edge_hashtag_to_media.edges.slice(0, 12).map((e: any) => `instagram:${e.node.id}`));
    expect(requests).toEqual([
      'POST https://www.instagram.com/api/v1/tags/paris/sections/',
      `GET https://www.instagram.com/graphql/query/?query_hash=${OPS_DEFAULTS.query_hash_hashtag}&variables=%7B%22tag_name%22%3A%22paris%22%2C%22first%22%3A12%7D`,
    ]);
    // Hashtag nodes name only the owner's id; a video without video_url is metadata only.
    const v = (result as Envelope).items.find((i) => i.type === 'video')!;
    expect(v.author_id).toMatch(/^\d+$/);
    expect(v.media).toEqual([]);
    expect(v.thumb).toBeDefined();
    const top = await run('search', { query: 'https://www.instagram.com/explore/tags/paris/', sort: 'top' }, [file], { session: SESSION });
    expect((top.result as Envelope).items.map((i) => i.id)).toEqual(tag.edge_hashtag_to_top_posts.edges.map((e: any) => `instagram:${e.node.id}`));
    const anon = await run('search', { query: '#paris' }, [file]);
    expect((anon.result as Envelope).error).toMatchObject({ code: 'session_expired' });
  });

  it('detail: with a login, REST media info first, then the ?__a=1 view (2022): a carousel with every image at its largest, the exact 19-digit pk', async () => {
    const file = real('detail-media-a1-CAnqPB-Jzcj.har');
    const item = body(file).items[0];
    const { result, requests } = await run('detail', { query: 'https://www.instagram.com/jlo/p/CAnqPB-Jzcj/?utm_source=ig_web_copy_link' }, [file], { session: SESSION });
    const d = (result as Envelope).items[0]!;
    expect(d.id).toBe('instagram:2317006284167526179');
    expect(pkToShortcode('2317006284167526179')).toBe('CAnqPB-Jzcj');
    expect(d).toMatchObject({ type: 'image', url: 'https://www.instagram.com/p/CAnqPB-Jzcj/', author: 'Jennifer Lopez', author_id: '305701719', author_handle: 'jlo', ts: item.taken_at, text: item.caption.text, stats: { likes: item.like_count, comments: item.comment_count } });
    expect(d.media).toHaveLength(item.carousel_media.length);
    d.media.forEach((m, i) => {
      const c = item.carousel_media[i].image_versions2.candidates[0];
      expect(m).toMatchObject({ kind: 'image', w: c.width, h: c.height });
      expect(origin(m.url)).toBe(c.url);
    });
    expect(requests).toEqual(['GET https://www.instagram.com/api/v1/media/2317006284167526179/info/', 'GET https://www.instagram.com/p/CAnqPB-Jzcj/?__a=1&__d=dis']);
  });

  it('comments: the legacy feed (2020) pages by end_cursor: cid, text, owner, created_at, total; page 2 from the cursor', async () => {
    const file = real('comments-graphql-CIvZJcurJaW-paged.har');
    const p1 = body(file, 0).data.shortcode_media.edge_media_to_comment;
    const p2 = body(file, 1).data.shortcode_media.edge_media_to_comment;
    const memo = new MemoryMemo();
    const first = await run('comments', { query: 'https://www.instagram.com/p/CIvZJcurJaW/', limit: 12 }, [file], { memo });
    const res = first.result as CommentsResult;
    expect(res.source).toBe('live');
    expect(res.total).toBe(45);
    expect(res.has_more).toBe(true);
    expect(res.items.map((c) => c.cid)).toEqual(p1.edges.map((e: any) => e.node.id));
    const n = p1.edges[0].node;
    expect(res.items[0]).toEqual({ cid: n.id, text: n.text, likes: 0, reply_total: 0, user_id: n.owner.id, handle: n.owner.username, user_name: n.owner.username, created_at: n.created_at, source: 'instagram', url: `https://www.instagram.com/p/CIvZJcurJaW/c/${n.id}/` });
    // The doc_id query came first (its guest tokens had no recording), then the legacy feed answered.
    expect(first.requests[0]).toBe('GET https://www.instagram.com/');
    expect(first.requests[1]).toContain(`query_hash=${OPS_DEFAULTS.query_hash_comments}`);
    const second = await run('comments', { query: 'CIvZJcurJaW', cursor: res.cursor, limit: 12 }, [file], { memo });
    expect((second.result as CommentsResult).items.map((c) => c.cid)).toEqual(p2.edges.map((e: any) => e.node.id));
    expect(second.requests).toHaveLength(1);
    expect(decodeURIComponent(second.requests[0]!)).toContain(`"after":"${p1.page_info.end_cursor}"`);
  });

  it("checkpoint_required (its real answer, served at today's routes): a login's checkpoint is session_expired for a human to clear; a logged-out one is blocked", async () => {
    const file = real('error-checkpoint-required-400.har');
    const checkpointUrl = body(file).checkpoint_url;
    const logged = await run('user', { query: '1518284433' }, [servedAt(file, { method: 'GET', url: 'https://i.instagram.com/api/v1/users/1518284433/info/' })], { session: SESSION });
    const a = logged.result as CreatorResult;
    expect(a.error).toMatchObject({ code: 'session_expired' });
    expect(a.error!.message).toContain(checkpointUrl);
    expect(a.error!.message).toMatch(/profile "default"/);
    const anon = await run('user', { query: 'someone' }, [servedAt(file, { method: 'GET', url: 'https://www.instagram.com/api/v1/users/web_profile_info/?username=someone' })]);
    expect((anon.result as CreatorResult).error).toMatchObject({ code: 'blocked', retryable: true });
  });

  it("comment.create: the real write answer (served at today's /api/v1/web/comments/<pk>/add/) is published with the comment's URL", async () => {
    const file = real('write-comment-add.har');
    const answer = body(file);
    const served = servedAt(file, { method: 'POST', url: 'https://www.instagram.com/api/v1/web/comments/2317006284167526179/add/', form: { comment_text: 'Awesome!', jazoest: '0' } });
    const { result, requests } = await run('comment.create', { target: 'CAnqPB-Jzcj', text: 'Awesome!', confirm: true }, [served], { session: SESSION });
    expect(result as WriteResult).toMatchObject({ ok: true, state: 'published', url: `https://www.instagram.com/p/CAnqPB-Jzcj/c/${answer.id}/`, target: 'https://www.instagram.com/p/CAnqPB-Jzcj/' });
    expect(requests).toEqual(['POST https://www.instagram.com/api/v1/web/comments/2317006284167526179/add/']);
    const planned = await run('comment.create', { target: 'CAnqPB-Jzcj', text: 'Awesome!', dry_run: true }, [served]);
    expect(planned.result).toMatchObject({ ok: true, state: 'planned', target: 'https://www.instagram.com/p/CAnqPB-Jzcj/' });
    expect(planned.requests).toEqual([]);
    const anon = await run('comment.create', { target: 'CAnqPB-Jzcj', text: 'Awesome!', confirm: true }, [served]);
    expect(anon.result).toMatchObject({ ok: false, state: 'session_expired' });
    expect(anon.requests).toEqual([]);
  });
});

describe('instagram on hand-made sandbox recordings', () => {
  const pages = () => sand('site-pages.har');

  it('posts: logged out, web_profile_info then the timeline feed by id and end_cursor; the walk ends where the feed says', async () => {
    const { result, requests } = await run('posts', { query: 'harborcook', max_items: -1 }, [sand('user-harborcook.har'), sand('posts-harborcook-page2.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['101', '102', '103', '104', '105'].map((s) => `instagram:3600000000000000${s}`));
    expect(env.next_cursor).toBeUndefined();
    expect(requests).toHaveLength(2);
    const carousel = env.items[1]!;
    expect(carousel.media.map((m) => m.kind)).toEqual(['image', 'video', 'image']);
  });

  it("posts: a login's profile feed (PolarisProfilePostsQuery) gives media items with their largest renditions", async () => {
    const { result, requests } = await run('posts', { query: '@harborcook', limit: 3 }, [sand('posts-feed-harborcook.har')], { session: SESSION });
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['101', '102', '103'].map((s) => `instagram:3600000000000000${s}`));
    expect(env.items[0]!.media[0]).toMatchObject({ kind: 'video', w: 1080, h: 1920, duration_s: 21.5 });
    expect(origin(env.items[0]!.media[0]!.url)).toContain('vts_1080');
    expect(env.items[0]!.stats).toEqual({ likes: 5120, comments: 3, views: 88012 });
    expect(requests).toEqual(['POST https://www.instagram.com/graphql/query/']);
  });

  it('posts: reels with a login (clips/user), and a private account logged out is a login demand, not an empty grid', async () => {
    const reels = await run('posts', { query: 'harborcook', tab: 'reels' }, [sand('reels-harborcook.har'), sand('user-harborcook.har')], { session: SESSION });
    expect((reels.result as Envelope).items.map((i) => i.type)).toEqual(['video', 'video']);
    const priv = await run('posts', { query: 'privateharbor' }, [sand('error-private-account.har')]);
    expect((priv.result as Envelope).error).toMatchObject({ code: 'session_expired' });
    expect((priv.result as Envelope).error!.message).toMatch(/private account.*40 posts/);
  });

  it('detail: logged out, the home page mints lsd and csrftoken, the ruling grants, the post query answers xig_polaris_media', async () => {
    const { result, requests } = await run('detail', { query: 'DH1xO0naABl' }, [pages(), sand('detail-polaris-DH1xO0naABl.har')]);
    const d = (result as Envelope).items[0]!;
    expect(d).toMatchObject({ id: 'instagram:3600000000000000101', type: 'video', duration_s: 21.5, author_handle: 'harborcook', stats: { likes: 5120, comments: 3, views: 88012 } });
    // Of three renditions listed 720, 1080, 480 the largest plays.
    expect(d.media).toHaveLength(1);
    expect(d.media[0]).toMatchObject({ kind: 'video', w: 1080, h: 1920 });
    expect(requests).toEqual([
      'GET https://www.instagram.com/',
      'GET https://www.instagram.com/api/v1/web/get_ruling_for_content/?content_type=MEDIA&target_id=3600000000000000101',
      'POST https://www.instagram.com/api/graphql',
    ]);
  });

  it('detail: a web page instead of JSON is a block, and the post page (data-sjs) answers; a /share/ link resolves by its redirect', async () => {
    const page = await run('detail', { query: 'https://www.instagram.com/reel/DH1xO0naABm/' }, [pages(), sand('detail-page-DH1xO0naABm.har')]);
    const d = (page.result as Envelope).items[0]!;
    expect(d.id).toBe('instagram:3600000000000000102');
    expect(d.media.map((m) => `${m.kind}:${m.w}x${m.h}`)).toEqual(['image:1080x1350', 'video:720x1280', 'image:1080x1080']);
    expect(page.requests.at(-1)).toBe('GET https://www.instagram.com/p/DH1xO0naABm/');
    const share = await run('detail', { query: 'https://www.instagram.com/share/reel/BAsbxHarbor1/' }, [pages(), sand('resolve-share-link.har'), sand('detail-polaris-DH1xO0naABl.har')]);
    expect((share.result as Envelope).items[0]!.id).toBe('instagram:3600000000000000101');
    expect(share.requests[0]).toBe('GET https://www.instagram.com/share/reel/BAsbxHarbor1/');
  });

  it('detail: an age-gated post is a login demand with Instagram\'s reason; REST media info with a login', async () => {
    const gated = await run('detail', { query: 'DH1xO0naABq' }, [pages(), sand('detail-gated-DH1xO0naABq.har')]);
    expect((gated.result as Envelope).error).toMatchObject({ code: 'session_expired' });
    expect((gated.result as Envelope).error!.message).toContain('Restricted Video');
    const rest = await run('detail', { query: '3600000000000000103_52418700001' }, [sand('detail-rest-DH1xO0naABn.har')], { session: SESSION });
    expect((rest.result as Envelope).items[0]).toMatchObject({ id: 'instagram:3600000000000000103', type: 'image', aspect: { width: 1440, height: 1440 } });
  });

  it('comments: the doc_id query pages by its serialized end_cursor; replies_of gives the replies with parent_id', async () => {
    const { result, requests } = await run('comments', { query: 'DH1xO0naABl', limit: 10 }, [pages(), sand('comments-DH1xO0naABl.har')]);
    const res = result as CommentsResult;
    expect(res.items.map((c) => c.cid)).toEqual(['18010000000000001', '18010000000000002', '18010000000000003']);
    expect(res.items[0]).toMatchObject({ likes: 14, reply_total: 2, handle: 'harbor.weather', user_name: 'Harbor Weather', user_id: '52418700002' });
    expect(res.items.every((c) => c.parent_id === undefined)).toBe(true);
    expect(res.has_more).toBe(false);
    expect(requests).toEqual(['GET https://www.instagram.com/', 'POST https://www.instagram.com/api/graphql', 'POST https://www.instagram.com/api/graphql']);
    const replies = await run('comments', { query: 'DH1xO0naABl', replies_of: '18010000000000001' }, [pages(), sand('replies-18010000000000001.har')]);
    const r = replies.result as CommentsResult;
    expect(r.items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['18010000000000011', '18010000000000001'],
      ['18010000000000012', '18010000000000001'],
    ]);
  });

  it('comments: with a login the app API answers bare 17-digit ids exactly; replies through child_comments/', async () => {
    const file = sand('comments-rest-DH1xO0naABn.har');
    const top = await run('comments', { query: 'DH1xO0naABn' }, [file], { session: SESSION });
    expect((top.result as CommentsResult).items).toEqual([
      expect.objectContaining({ cid: '18010000000000021', user_id: '52418700002', reply_total: 1, likes: 3 }),
    ]);
    expect(top.requests[0]).toBe('POST https://www.instagram.com/graphql/query/');
    const kids = await run('comments', { query: 'DH1xO0naABn', replies_of: '18010000000000021' }, [file], { session: SESSION });
    expect((kids.result as CommentsResult).items).toEqual([expect.objectContaining({ cid: '18010000000000022', parent_id: '18010000000000021', handle: 'gullwatcher' })]);
  });

  it('comments: a stale doc_id (1675002 "Incorrect Query") names the operation and the refresh command, also when the legacy feed is stale too', async () => {
    const { result, warnings } = await run('comments', { query: 'DH1xO0naABn' }, [pages(), sand('error-stale-comments-DH1xO0naABn.har')]);
    const res = result as CommentsResult;
    expect(res.error).toMatchObject({ code: 'upstream_error' });
    expect(res.error!.message).toContain(`PolarisPostCommentsPaginationQuery (doc_id ${OPS_DEFAULTS.PolarisPostCommentsPaginationQuery})`);
    expect(res.error!.message).toContain('npx crawler platforms refresh instagram');
    expect(res.error!.message).toContain('CRAWLER_INSTAGRAM_OPS');
    expect(warnings.join('\n')).toContain(`query_hash_comments (query_hash ${OPS_DEFAULTS.query_hash_comments})`);
  });

  it('search: users through the doc_id account search, else the top search; hashtag sections with a login page by next_page and next_max_id', async () => {
    const users = await run('search', { query: '@harbor', type: 'users' }, [pages(), sand('search-users-harbor.har')]);
    const items = (users.result as Envelope).items;
    expect(items.map((i) => i.id)).toEqual(['instagram:@harborcook', 'instagram:@harbor.weather']);
    expect(items[0]).toMatchObject({ type: 'text', title: 'Harbor Cook', url: 'https://www.instagram.com/harborcook/', author_id: '52418700001' });
    const top = await run('search', { query: 'gull', type: 'users' }, [pages(), sand('search-topsearch-gull.har')]);
    expect((top.result as Envelope).items.map((i) => i.id)).toEqual(['instagram:@gullwatcher']);
    expect(top.requests.at(-1)).toBe('GET https://www.instagram.com/web/search/topsearch/?context=blended&query=gull&include_reel=false');
    const tag = await run('search', { query: 'harborfood', limit: 10 }, [sand('search-hashtag-harborfood.har')], { session: SESSION });
    expect((tag.result as Envelope).items.map((i) => i.id)).toEqual(['101', '103', '102'].map((s) => `instagram:3600000000000000${s}`));
    expect(tag.requests).toEqual(['POST https://www.instagram.com/api/v1/tags/harborfood/sections/', 'POST https://www.instagram.com/api/v1/tags/harborfood/sections/']);
  });

  it('errors: 404 is not_found, a login redirect session_expired, feedback_required rate_limited, a checkpoint redirect of a login session_expired', async () => {
    const gone = await run('user', { query: 'nosuchharbor' }, [sand('error-profile-not-found.har')]);
    expect((gone.result as CreatorResult).error).toMatchObject({ code: 'not_found' });
    const walled = await run('user', { query: 'walledharbor' }, [sand('error-login-redirect.har')]);
    expect((walled.result as CreatorResult).error).toMatchObject({ code: 'session_expired' });
    const throttled = await run('posts', { query: '52418700001', tab: 'tagged' }, [sand('error-feedback-required.har')]);
    expect((throttled.result as Envelope).error).toMatchObject({ code: 'rate_limited' });
    expect((throttled.result as Envelope).error!.message).toContain('We limit how often');
    const checkpoint = await run('user', { query: '52418700003' }, [sand('error-checkpoint-redirect.har')], { session: SESSION });
    expect((checkpoint.result as CreatorResult).error).toMatchObject({ code: 'session_expired' });
    expect((checkpoint.result as CreatorResult).error!.message).toContain('/challenge/');
  });

  it('comment.create: published with its URL; a refusal is rejected with Instagram\'s words', async () => {
    const file = sand('write-comment.har');
    const ok = await run('comment.create', { target: 'https://www.instagram.com/p/DH1xO0naABl/', text: 'Looks delicious', confirm: true }, [file], { session: SESSION });
    expect(ok.result).toMatchObject({ ok: true, state: 'published', url: 'https://www.instagram.com/p/DH1xO0naABl/c/18010000000000031/' });
    const refused = await run('comment.create', { target: 'DH1xO0naABn', text: 'Looks delicious', confirm: true }, [file], { session: SESSION });
    expect(refused.result).toMatchObject({ ok: false, state: 'rejected' });
    expect((refused.result as WriteResult).error!.message).toContain('Comments on this post have been limited');
  });

  it('probe: a live login answers its own users/<pk>/info/ (pk from ds_user_id or the sessionid); a lapsed one answers login_required', async () => {
    const file = sand('probe-user-info.har');
    expect(await instagram.probe!(probeCtx(instagram, [file], SESSION.cookies))).toBe('ok');
    expect(await instagram.probe!(probeCtx(instagram, [file], 'sessionid=52418700001%3Axyz%3A9; csrftoken=t'))).toBe('ok');
    expect(await instagram.probe!(probeCtx(instagram, [file], 'sessionid=52418700009%3Axyz%3A9; csrftoken=t; ds_user_id=52418700009'))).toBe('session_expired');
    expect(await instagram.probe!(probeCtx(instagram, [file]))).toBe('session_expired');
  });

  it('refresh: reads the doc_ids out of the bundles the home and profile pages load, and the app id from the page config', async () => {
    const ctx = probeCtx(instagram, [sand('site-pages.har')]);
    const warnings: string[] = [];
    ctx.warn = (m) => warnings.push(m);
    const fresh = await instagram.ops!.refresh(ctx);
    expect(fresh).toEqual({
      app_id: '936619743392459',
      PolarisLoggedOutDesktopWWWPostRootContentQuery: OPS_DEFAULTS.PolarisLoggedOutDesktopWWWPostRootContentQuery,
      PolarisPostCommentsPaginationQuery: '28082902984733691',
      PolarisSearchBoxNonProfiledRefetchableQuery: OPS_DEFAULTS.PolarisSearchBoxNonProfiledRefetchableQuery,
      PolarisProfilePostsQuery: '9066276850131169',
    });
    expect(warnings.join('\n')).toMatch(/PolarisPostChildCommentsQuery: not in the bundles/);
    expect(warnings.join('\n')).toMatch(/legacy query hashes/);
  });
});

afterAll(() => {
  // Every recording is replayed by some test above.
  const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
  expect(fixtures.filter((f) => !used.has(f))).toEqual([]);
  const sandbox = readdirSync(SANDBOX).filter((f) => f.endsWith('.har'));
  expect(sandbox.filter((f) => !usedSandbox.has(f))).toEqual([]);
});
