import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CrawlError, InvalidInput } from '../../src/crawl/errors.js';
import type { HttpRequest } from '../../src/crawl/http.js';
import { compileRules, compareParams } from '../../src/crawl/replay/match.js';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { commentsTotal, decodeCursor, decodeStubs, encodeCursor, encodeStubs } from '../../src/platforms/reddit/comments.js';
import { reddit } from '../../src/platforms/reddit/index.js';
import type { CrawlContext, WriteAction } from '../../src/platforms/types.js';
import { Registry } from '../../src/platforms/registry.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { validateParams } from '../../src/tasks/params.js';

/** A context that fails any request: plan() must never reach reddit. */
function offlineCtx(): { ctx: CrawlContext; asked: HttpRequest[] } {
  const asked: HttpRequest[] = [];
  const ctx = {
    platform: 'reddit',
    profile: 'default',
    http: {
      request: async (req: HttpRequest) => {
        asked.push(req);
        throw new Error('plan() must not touch the network');
      },
    },
    session: {},
    memo: new MemoryMemo(),
    guest: Object.assign(new MemoryMemo(), { userAgent: 'test-agent' }),
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warn: () => {},
  } as unknown as CrawlContext;
  return { ctx, asked };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof CrawlError ? `${e.code}: ${e.message}` : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
}

const write = (name: 'post.create' | 'comment.create' | 'delete') => reddit.actions[name] as WriteAction;

describe('comments cursor', () => {
  it('carries the stubs compactly and round-trips', () => {
    const stubs = [{ continueFrom: 'cu61zil' }, { children: ['cu5pg2h'] }, { children: ['cu5t5fm', 'cu62hcz', 'cu5tlgk', 'cu5t6gf'] }];
    expect(encodeStubs(stubs)).toBe('^cu61zil;cu5pg2h;cu5t5fm,cu62hcz,cu5tlgk,cu5t6gf');
    expect(decodeStubs(encodeStubs(stubs))).toEqual(stubs);
    const { ctx } = offlineCtx();
    const cursor = encodeCursor(ctx, '3hahrw', stubs)!;
    expect(cursor).toBe('3hahrw:^cu61zil;cu5pg2h;cu5t5fm,cu62hcz,cu5tlgk,cu5t6gf');
    expect(decodeCursor(ctx, cursor, '3hahrw')).toEqual(stubs);
    expect(encodeCursor(ctx, '3hahrw', [])).toBeUndefined();
  });

  it('a stub list too long for a cursor waits in memo under a short key', () => {
    const { ctx } = offlineCtx();
    const children = Array.from({ length: 400 }, (_, i) => `c${i.toString(36).padStart(6, '0')}`);
    const cursor = encodeCursor(ctx, 'abc', [{ children }])!;
    expect(cursor).toMatch(/^abc:@[0-9a-f]{18}$/);
    expect(decodeCursor(ctx, cursor, 'abc')).toEqual([{ children }]);
    const elsewhere = offlineCtx().ctx;
    expect(() => decodeCursor(elsewhere, cursor, 'abc')).toThrow(/expired/);
  });

  it('num_comments becomes the total only as a whole count (not negative, a fraction or past 2^53)', () => {
    expect([commentsTotal(2048), commentsTotal(0), commentsTotal(-7), commentsTotal(2.5), commentsTotal(1e300), commentsTotal('12')]).toEqual([2048, 0, undefined, 2, undefined, undefined]);
  });

  it('refuses a cursor of another post or a foreign one', () => {
    const { ctx } = offlineCtx();
    expect(() => decodeCursor(ctx, 'other:abc', '3hahrw')).toThrow(/another post/);
    expect(() => decodeCursor(ctx, 'nocolon', '3hahrw')).toThrow(InvalidInput);
    expect(() => decodeCursor(ctx, '3hahrw:<script>', '3hahrw')).toThrow(InvalidInput);
  });
});

describe('write plans: validated, described, offline', () => {
  it('post.create: self or link by the presence of url', async () => {
    const { ctx, asked } = offlineCtx();
    expect(await write('post.create').plan(ctx, { subreddit: 'r/test', title: 'Hello', text: 'body' })).toEqual({ summary: 'submit a self post "Hello" to r/test', target: 'r/test' });
    expect(await write('post.create').plan(ctx, { subreddit: 'test', title: 'Look', url: 'https://example.org/x' })).toEqual({
      summary: 'submit a link post "Look" to r/test linking https://example.org/x',
      target: 'r/test',
    });
    expect(asked).toEqual([]);
  });

  it('post.create refuses what reddit would refuse anyway', async () => {
    const { ctx } = offlineCtx();
    const plan = (p: Record<string, unknown>) => codeOf(write('post.create').plan(ctx, p));
    expect(await plan({ subreddit: 'test', title: '' })).toMatch(/^invalid_request: params\.title: required/);
    expect(await plan({ subreddit: 'test', title: 'x'.repeat(301) })).toMatch(/at most 300/);
    expect(await plan({ subreddit: 'test', title: 't', url: 'not a url' })).toMatch(/params\.url: not a URL/);
    expect(await plan({ subreddit: 'test', title: 't', url: 'javascript:alert(1)' })).toMatch(/only http and https/);
    expect(await plan({ subreddit: 'two words', title: 't' })).toMatch(/params\.subreddit/);
    expect(await plan({ subreddit: 'test', title: 't', text: 'x'.repeat(40_001) })).toMatch(/params\.text/);
  });

  it('comment.create and delete name their target as a fullname; share links stay as given until run', async () => {
    const { ctx, asked } = offlineCtx();
    expect(await write('comment.create').plan(ctx, { target: 'https://www.reddit.com/r/x/comments/4b1tfm/t/', text: 'hi' })).toEqual({ summary: 'comment on t3_4b1tfm', target: 't3_4b1tfm' });
    expect(await write('comment.create').plan(ctx, { target: 'https://www.reddit.com/r/x/s/AbC', text: 'hi' })).toEqual({
      summary: 'comment on https://www.reddit.com/r/x/s/AbC',
      target: 'https://www.reddit.com/r/x/s/AbC',
    });
    expect(await codeOf(write('comment.create').plan(ctx, { target: 't3_4b1tfm', text: '  ' }))).toMatch(/params\.text: required/);
    expect(await write('delete').plan(ctx, { target: 't1_d162ara' })).toEqual({ summary: 'delete t1_d162ara', target: 't1_d162ara' });
    expect(await codeOf(write('delete').plan(ctx, { target: 'https://example.com/x' }))).toMatch(/params\.target/);
    expect(asked).toEqual([]);
  });

  it('run() without any stored login sends nothing and says so', async () => {
    const { ctx, asked } = offlineCtx();
    expect(await codeOf(write('delete').run(ctx, { target: 't3_x' }))).toMatch(/^session_expired: delete: this needs a logged-in reddit user/);
    expect(await codeOf(write('comment.create').run(ctx, { target: 't3_x', text: 'a' }))).toMatch(/^session_expired/);
    expect(await codeOf(write('post.create').run(ctx, { subreddit: 'test', title: 'a' }))).toMatch(/^session_expired/);
    expect(asked).toEqual([]);
  });
});

describe('catalog entries', () => {
  const catalog = buildCatalog(new Registry([reddit]));
  const entry = (action: string) => catalog.get('reddit', action)!.entry;

  it('lists the actions reddit can honestly do, writes flagged', () => {
    expect(catalog.entries.map((e) => e.name).sort()).toEqual(
      ['reddit.comment.create', 'reddit.comments', 'reddit.delete', 'reddit.detail', 'reddit.download', 'reddit.hot', 'reddit.post.create', 'reddit.posts', 'reddit.search', 'reddit.user'].sort(),
    );
    expect(entry('post.create')).toMatchObject({ write: true, confirm: true });
    expect(entry('posts').params.some((p) => p.name === 'max_items')).toBe(true);
    expect(entry('search').params.some((p) => p.name === 'max_items')).toBe(false);
  });

  it('hot takes a listed category or any other subreddit; the default is r/popular', () => {
    expect(validateParams(entry('hot'), {}).category).toBe('popular');
    expect(validateParams(entry('hot'), { category: 'ferguson' }).category).toBe('ferguson');
    expect(reddit.categories?.map((c) => c.id).slice(0, 2)).toEqual(['popular', 'all']);
    expect(() => validateParams(entry('search'), { query: 'x', sort: 'best' })).toThrow(/params\.sort/);
    expect(validateParams(entry('comments'), { query: 'x' }).sort).toBe('confidence');
  });
});

describe('replay rules', () => {
  const rules = compileRules(reddit.replay);
  const params = (o: Record<string, string>) => new Map(Object.entries(o));

  it('morechildren recordings are told apart by the ids asked for', () => {
    const rec = params({ api_type: 'json', children: 'cu5pg2h', link_id: 't3_3hahrw', sort: 'confidence' });
    expect(typeof compareParams(params({ api_type: 'json', children: 'cu5pg2h', link_id: 't3_3hahrw', sort: 'confidence', raw_json: '1' }), rec, rules)).toBe('number');
    expect(compareParams(params({ api_type: 'json', children: 'cu5rnda', link_id: 't3_3hahrw', sort: 'confidence' }), rec, rules)).toMatch(/children differs/);
    expect(compareParams(params({ children: 'cu5pg2h', link_id: 't3_other' }), rec, rules)).toMatch(/link_id differs/);
  });

  it('token exchanges match whoever logs in; listing pages by after', () => {
    const token = params({ grant_type: 'password', username: '<USERNAME>', password: '<PASSWORD>' });
    expect(typeof compareParams(params({ grant_type: 'password', username: 'alice', password: 'x' }), token, rules)).toBe('number');
    expect(typeof compareParams(params({ grant_type: 'client_credentials' }), token, rules)).toBe('number');
    expect(compareParams(params({ limit: '100', after: 't3_21oo' }), params({ limit: '100', sort: 'new' }), rules)).toMatch(/after differs/);
  });

  it('writes name their target', () => {
    expect(compareParams(params({ thing_id: 't3_other', text: 'x' }), params({ thing_id: 't3_4b1tfm', text: 'x' }), rules)).toMatch(/thing_id differs/);
    expect(compareParams(params({ sr: 'pics', kind: 'self', title: 't' }), params({ sr: 'test', kind: 'self', title: 't' }), rules)).toMatch(/sr differs/);
    expect(compareParams(params({ id: 't3_a' }), params({ id: 't3_4b1tfm' }), rules)).toMatch(/id differs/);
  });
});

describe('adapter metadata', () => {
  it('author URLs come from the handle', () => {
    expect(reddit.authorUrl({ handle: 'spez' })).toBe('https://www.reddit.com/user/spez/');
    expect(reddit.authorUrl({ id: '1w72' })).toBeUndefined();
  });

  it('the media proxy asks i.redd.it for the image, not its viewer page', () => {
    const h = reddit.mediaHeaders!(new URL('https://i.redd.it/a.jpeg'));
    expect(h.Accept).toMatch(/^image\//);
    expect(h.Accept).not.toMatch(/text\/html/);
  });
});
