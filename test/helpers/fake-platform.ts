import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Blocked, InvalidInput, NotFound, SessionExpired, UpstreamError } from '../../src/crawl/errors.js';
import { throwForStatus } from '../../src/crawl/http.js';
import type { Comment } from '../../src/domain/results.js';
import type { CrawlContext, ItemDraft, PlatformAdapter } from '../../src/platforms/types.js';
import { commentTreeAnswer, type TreeFaults, type TreeReply } from './fake-comment-tree.js';

/**
 * A stand-in platform on loopback for core tests: paged search/posts, a user, comments, trends,
 * and switches for the outcomes the core must handle (empty, captcha, 5xx, a crawl that hangs).
 */
export interface FakePlatform {
  url: string;
  adapter: PlatformAdapter;
  hits: string[];
  /** Requests currently hanging (q=slow), so tests can tell when a crawl is in flight. */
  hanging: number;
  /** Texts the platform received through post.create, in order. */
  posts: string[];
  /** Post ids whose detail now answers 404. */
  gone: Set<string>;
  /** posts/search q=growing: newest first, starting at 10 posts; grow(n) publishes n more on top. */
  grow(n: number): void;
  /** While true, q=growing answers a captcha (a blocked crawl). */
  failing: boolean;
  /** Faults of the threaded comment section (q=tree): a page that fails (503) or hangs. */
  treeFaults: TreeFaults;
  close(): Promise<void>;
}

const PER_PAGE = 10;
const TOTAL_POSTS = 45;

/** Where media of the fake platform lives: by default names nothing serves; a FakeCdn in media tests. */
export interface FakeMediaOptions {
  base: string;
  /** Lifetime of the signed video URLs handed out at crawl time. */
  ttlMs: number;
}

function makePost(cdn: FakeMediaOptions | undefined) {
  return (n: number) => post(n, cdn);
}

function post(n: number, cdn: FakeMediaOptions | undefined): Record<string, unknown> {
  const video = n % 3 === 0;
  if (cdn) {
    return {
      id: String(1000 + n),
      text: `post number ${n}`,
      user: { id: '42', name: 'Fake Creator', handle: 'fake' },
      created: 1_700_000_000 + n,
      likes: n * 2,
      video: video ? { src: `${cdn.base}/signed/v.mp4?exp=${Date.now() + cdn.ttlMs}&n=${n}`, w: 640, h: 360, seconds: 6 } : undefined,
      image: video ? `${cdn.base}/signed/img.jpg?exp=${Date.now() + cdn.ttlMs}&n=${n}` : `${cdn.base}/img.jpg?n=${n}`,
    };
  }
  return {
    id: String(1000 + n),
    text: `post number ${n}`,
    user: { id: '42', name: 'Fake Creator', handle: 'fake' },
    created: 1_700_000_000 + n,
    likes: n * 2,
    video: video ? { src: `https://cdn.fake.test/v/${n}.mp4?sig=x`, w: n % 2 ? 1280 : 720, h: n % 2 ? 720 : 1280, seconds: n } : undefined,
    image: video ? undefined : `https://cdn.fake.test/i/${n}.jpg`,
  };
}

function toDraft(p: Record<string, unknown>): ItemDraft {
  const v = p.video as { src: string; w: number; h: number; seconds: number } | undefined;
  const u = p.user as { id: string; name: string; handle: string };
  return {
    native_id: p.id as string,
    type: v ? 'video' : 'image',
    text: p.text as string,
    author: u.name,
    author_id: u.id,
    author_handle: u.handle,
    url: `https://fake.test/p/${p.id}`,
    thumb: (p.image as string) ?? `https://cdn.fake.test/cover/${p.id}.jpg`,
    media: v ? [{ kind: 'video', url: v.src, w: v.w, h: v.h, duration_s: v.seconds }] : [{ kind: 'image', url: p.image as string }],
    ts: p.created as number,
    duration_s: v?.seconds,
    aspect: v ? { width: v.w, height: v.h } : undefined,
    stats: { likes: p.likes as number },
  };
}

export async function startFakePlatform(id = 'fake', media?: FakeMediaOptions): Promise<FakePlatform> {
  const post = makePost(media);
  const state = { hits: [] as string[], hanging: 0, posts: [] as string[], gone: new Set<string>(), grown: 10, failing: false, treeFaults: new Map() as TreeFaults };
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    state.hits.push(`${req.method} ${u.pathname}${u.search}`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const q = u.searchParams.get('q') ?? '';
    const page = Number(u.searchParams.get('page') ?? '1');
    if (q === 'slow') {
      state.hanging++;
      res.on('close', () => state.hanging--);
      return; // never answers: the crawl must be cancelled
    }
    if (q === 'captcha') return json(200, { code: 'captcha', msg: 'verify you are human' });
    const tree = q === 'tree' ? commentTreeAnswer(u.pathname, u.searchParams.get('root'), page, state.treeFaults) : undefined;
    if (tree === 'hang') {
      state.hanging++;
      res.on('close', () => state.hanging--);
      return;
    }
    if (tree) return json(tree.status, tree.body);
    if (q === 'expired') return json(200, { code: 'login', msg: 'please log in again' });
    if (q === 'boom') return json(503, { err: 'down' });
    if (q === 'throttled') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '120' });
      return res.end('{"err":"slow down"}');
    }
    if (q === 'longvideo' && media) {
      const p = post(3);
      p.id = '7777';
      p.video = { src: `${media.base}/long.mp4`, w: 160, h: 120, seconds: 250 };
      return json(200, { items: [p], next: null });
    }
    const hd = /^hd60-(\d+)$/.exec(q);
    if (hd && media) {
      const p = post(4);
      p.id = q;
      p.video = { src: `${media.base}/hd60.mp4?k=${hd[1]}`, w: 1280, h: 720, seconds: 60 };
      return json(200, { items: [p], next: null });
    }
    if (q === 'growing' && (u.pathname === '/search' || u.pathname === '/posts')) {
      if (state.failing) return json(200, { code: 'captcha', msg: 'verify you are human' });
      const start = (page - 1) * PER_PAGE;
      const items = Array.from({ length: Math.max(0, Math.min(PER_PAGE, state.grown - start)) }, (_, i) => post(state.grown - start - i));
      return json(200, { items, next: start + PER_PAGE < state.grown ? page + 1 : null });
    }
    if (u.pathname === '/search' || u.pathname === '/posts') {
      const total = q === 'nothing' ? 0 : u.pathname === '/posts' ? TOTAL_POSTS : 25;
      const start = (page - 1) * PER_PAGE;
      const items = Array.from({ length: Math.max(0, Math.min(PER_PAGE, total - start)) }, (_, i) => post(start + i + 1));
      return json(200, { items, next: start + PER_PAGE < total ? page + 1 : null });
    }
    if (u.pathname === '/user') return q === 'ghost' ? json(404, {}) : json(200, { id: '42', name: 'Fake Creator', handle: 'fake', followers: 1234 });
    if (u.pathname === '/comments') {
      const items = page === 1 ? [{ id: 'c1', text: 'first', replies: [{ id: 'c2', text: 'reply' }] }, { id: 'c3', text: 'second' }] : [{ id: 'c4', text: 'third' }];
      return json(200, { items, total: 4, next: page === 1 ? 2 : null });
    }
    if (u.pathname === '/detail') {
      const n = Number(q) - 1000;
      if (q === 'gone' || state.gone.has(q) || !(n > 0)) return json(404, {});
      return json(200, { items: [post(n)], next: null });
    }
    if (u.pathname === '/whoami') {
      if ((req.headers.cookie ?? '').includes('CAPTCHA')) return json(200, { code: 'captcha' });
      return json(200, { login: (req.headers.cookie ?? '').includes('SESSION=good') });
    }
    if (u.pathname === '/trends') return json(200, { words: ['alpha', 'beta'] });
    if (u.pathname === '/post' && req.method === 'POST') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const text = (JSON.parse(body || '{}') as { text?: string }).text ?? '';
        state.posts.push(text);
        if (text === 'slow') {
          state.hanging++;
          res.on('close', () => state.hanging--);
          return;
        }
        if (text === 'reject') return json(200, { error: 'text not allowed here' });
        json(200, { id: `w${state.posts.length}`, url: `https://fake.test/p/w${state.posts.length}` });
      });
      return;
    }
    json(404, { err: 'no such endpoint' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function getPage(ctx: CrawlContext, path: string, q: string, page: string | undefined) {
    const res = await ctx.http.request({ url: `${base}${path}`, query: { q, page } });
    throwForStatus(res);
    if (res.status === 404) throw new NotFound();
    const body = res.json() as { items?: Array<Record<string, unknown>>; next?: number | null; code?: string; total?: number };
    if (body.code === 'captcha') throw new Blocked('fake platform asked for a captcha');
    if (body.code === 'login') throw new SessionExpired('fake platform wants a new login');
    if (!Array.isArray(body.items)) throw new UpstreamError('no items');
    return body;
  }

  const replyOf = (r: TreeReply, parent: string | undefined): Comment => ({
    cid: r.id, text: r.text, likes: 0, reply_total: 0, user_id: '2', handle: 'v', user_name: 'V', created_at: 2, source: id, ...(parent ? { parent_id: parent } : {}),
  });

  const adapter: PlatformAdapter = {
    id,
    name: 'Fake',
    region: 'global',
    auth: 'none',
    hosts: ['127.0.0.1'],
    mediaHosts: media ? [new URL(media.base).hostname] : ['cdn.fake.test'],
    mediaHeaders: () => ({ Referer: 'https://fake.test/' }),
    minGapMs: 0,
    categories: [
      { id: 'all', name: 'All', actions: ['hot'] },
      { id: 'news', name: 'News', actions: ['hot'] },
    ],
    async probe(ctx) {
      const body = (await ctx.http.request({ url: `${base}/whoami` })).json() as { login?: boolean; code?: string };
      if (body.code === 'captcha') throw new Blocked('captcha on whoami');
      return body.login ? 'ok' : 'session_expired';
    },
    authorUrl: ({ handle }) => (handle ? `https://fake.test/@${handle}` : undefined),
    actions: {
      search: {
        shape: 'items',
        summary: 'search posts',
        params: [{ name: 'query', type: 'string', required: true, description: 'keyword' }],
        async page(ctx, params, cursor) {
          const b = await getPage(ctx, '/search', params.query as string, cursor);
          return { items: b.items!.map(toDraft), next_cursor: b.next ? String(b.next) : undefined };
        },
      },
      posts: {
        shape: 'items',
        summary: "a creator's posts",
        walk: true,
        params: [{ name: 'query', type: 'string', required: true, description: 'creator' }],
        async page(ctx, params, cursor) {
          const b = await getPage(ctx, '/posts', params.query as string, cursor);
          return { items: b.items!.map(toDraft), next_cursor: b.next ? String(b.next) : undefined };
        },
      },
      detail: {
        shape: 'items',
        summary: 'one post',
        params: [{ name: 'query', type: 'string', required: true, description: 'post id' }],
        async page(ctx, params) {
          const b = await getPage(ctx, '/detail', params.query as string, undefined);
          return { items: b.items!.map(toDraft) };
        },
      },
      hot: {
        shape: 'items',
        summary: 'hot feed',
        categories: true,
        async page(ctx, params, cursor) {
          const b = await getPage(ctx, '/search', `hot-${params.category}`, cursor);
          return { items: b.items!.map(toDraft).slice(0, 3) };
        },
      },
      user: {
        shape: 'creator',
        summary: 'a creator',
        params: [{ name: 'query', type: 'string', required: true, description: 'creator' }],
        async run(ctx, params) {
          const res = await ctx.http.request({ url: `${base}/user`, query: { q: params.query as string } });
          if (res.status === 404) throw new NotFound('no such creator');
          const u = res.json() as { id: string; name: string; handle: string; followers: number };
          return { id: u.id, source: id, name: u.name, handle: u.handle, followers: u.followers };
        },
      },
      comments: {
        shape: 'comments',
        summary: 'comments of a post',
        params: [{ name: 'query', type: 'string', required: true, description: 'post' }],
        async page(ctx, params, cursor) {
          const b = await getPage(ctx, '/comments', params.query as string, cursor);
          const items = b.items!.flatMap((c) => [
            { cid: c.id as string, text: c.text as string, likes: 0, reply_total: (c.reply_total as number | undefined) ?? ((c.replies as unknown[]) ?? []).length, user_id: '1', handle: 'u', user_name: 'U', created_at: 1, source: id },
            ...((c.replies as TreeReply[]) ?? []).map((r) => replyOf(r, r.parent ?? (c.id as string))),
          ]);
          return { items, total: b.total, next_cursor: b.next ? String(b.next) : undefined };
        },
        // Reply pages name only the reply a reply answers: the walk sets parent_id to the root for the rest.
        async replies(ctx, params, parentCid, cursor) {
          const res = await ctx.http.request({ url: `${base}/replies`, query: { q: params.query as string, root: parentCid, page: cursor } });
          throwForStatus(res);
          if (res.status === 404) throw new NotFound(`comment ${parentCid} is gone`);
          const b = res.json() as { items: TreeReply[]; next: number | null };
          return { items: b.items.map((r) => replyOf(r, r.parent)), next_cursor: b.next ? String(b.next) : undefined };
        },
      },
      'post.create': {
        shape: 'write',
        summary: 'publish a post',
        params: [{ name: 'text', type: 'string', required: true, description: 'the post' }],
        async plan(_ctx, params) {
          if ((params.text as string).length > 280) throw new InvalidInput('params.text: at most 280 characters');
          return { summary: `post ${JSON.stringify(params.text)} as fake` };
        },
        async run(ctx, params) {
          const res = await ctx.http.request({ method: 'POST', url: `${base}/post`, json: { text: params.text } });
          const b = res.json() as { id?: string; url?: string; error?: string };
          if (b.error) return { state: 'rejected', message: b.error };
          return { state: 'published', url: b.url, target: b.id };
        },
      },
      trending: {
        shape: 'trends',
        summary: 'trending words',
        async run(ctx) {
          const res = await ctx.http.request({ url: `${base}/trends` });
          const b = res.json() as { words: string[] };
          return b.words.map((word, i) => ({ word, source: id, rank: i + 1 }));
        },
      },
    },
  };
  return {
    url: base,
    adapter,
    get hits() {
      return state.hits;
    },
    get hanging() {
      return state.hanging;
    },
    get posts() {
      return state.posts;
    },
    gone: state.gone,
    grow: (n: number) => void (state.grown += n),
    get failing() {
      return state.failing;
    },
    set failing(v: boolean) {
      state.failing = v;
    },
    treeFaults: state.treeFaults,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
