import { describe, expect, it } from 'vitest';
import { followHops } from '../../src/crawl/redirects.js';
import { requestParams } from '../../src/crawl/replay/har.js';
import { compareParams, compileRules } from '../../src/crawl/replay/match.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

function ctxAnswering(answers: Record<string, { status: number; location?: string }>): { ctx: CrawlContext; asked: string[] } {
  const asked: string[] = [];
  const http = {
    request: async (req: HttpRequest): Promise<HttpResponse> => {
      asked.push(req.url);
      const a = answers[req.url] ?? { status: 404 };
      return { status: a.status, url: req.url, redirects: [], headers: a.location ? { location: a.location } : {}, body: Buffer.alloc(0), text: () => '', json: <T,>() => ({}) as T };
    },
  };
  return { ctx: { http, memo: new MemoryMemo() } as unknown as CrawlContext, asked };
}

const rules = (memoKey?: string) => ({
  what: 'share link',
  memoKey,
  onSite: (u: URL) => /(^|\.)example\.com$/.test(u.hostname),
  done: (u: URL) => (u.hostname === 's.example.com' ? undefined : u.pathname),
});

describe('followHops', () => {
  it('follows short hops, stops at the first recognized URL without fetching it, and remembers it', async () => {
    const { ctx, asked } = ctxAnswering({
      'https://s.example.com/a': { status: 302, location: '/b' },
      'https://s.example.com/b': { status: 301, location: 'https://www.example.com/post/1' },
    });
    expect(await followHops(ctx, 'https://s.example.com/a', rules('k'))).toBe('/post/1');
    expect(asked).toEqual(['https://s.example.com/a', 'https://s.example.com/b']);
    expect(await followHops(ctx, 'https://s.example.com/a', rules('k'))).toBe('/post/1');
    expect(asked).toHaveLength(2);
  });
  it('refuses a redirect off the platform, a loop, a 404 and a non-redirect', async () => {
    const off = ctxAnswering({ 'https://s.example.com/a': { status: 302, location: 'https://evil.test/x' } });
    await expect(followHops(off.ctx, 'https://s.example.com/a', rules())).rejects.toMatchObject({ code: 'upstream_error', message: expect.stringContaining('evil.test') });
    const loop = ctxAnswering({ 'https://s.example.com/a': { status: 302, location: '/a' } });
    await expect(followHops(loop.ctx, 'https://s.example.com/a', rules())).rejects.toThrow(/too many redirects/);
    expect(loop.asked).toHaveLength(4);
    await expect(followHops(ctxAnswering({}).ctx, 'https://s.example.com/a', rules())).rejects.toMatchObject({ code: 'not_found' });
    const ok = ctxAnswering({ 'https://s.example.com/a': { status: 200 } });
    await expect(followHops(ok.ctx, 'https://s.example.com/a', rules())).rejects.toThrow(/expected a redirect/);
  });
});

describe('replay params', () => {
  it('a query param holding JSON lends its fields by path (resource APIs), keeping the raw value', () => {
    const p = requestParams(new URL('https://x.test/resource/get/?source_url=%2Fa&data=%7B%22options%22%3A%7B%22query%22%3A%22cats%22%2C%22bookmarks%22%3A%5B%22b1%22%5D%7D%7D'));
    expect(p.get('data.options.query')).toBe('cats');
    expect(p.get('data.options.bookmarks')).toBe('["b1"]');
    expect(p.get('data')).toContain('"options"');
    const form = requestParams(new URL('https://x.test/r/'), { mimeType: 'application/x-www-form-urlencoded', text: 'data=%7B%22options%22%3A%7B%22id%22%3A%227%22%7D%7D' });
    expect(form.get('data.options.id')).toBe('7');
  });
  it('an opaque page token equal on both sides identifies a follow-up page that repeats nothing else; page 1 is never served for it', () => {
    const rules = compileRules({ identifying: ['data.options.query'], cursor: ['data.options.bookmarks'], identifyingCursor: ['data.options.bookmarks'] });
    const page2req = new Map([['data.options.query', 'cats'], ['data.options.bookmarks', '["B"]']]);
    expect(compareParams(page2req, new Map([['data.options.bookmarks', '["B"]']]), rules)).toBeTypeOf('number');
    expect(compareParams(page2req, new Map([['data.options.query', 'cats']]), rules)).toMatch(/bookmarks differs/);
    expect(compareParams(page2req, new Map([['data.options.bookmarks', '["C"]']]), rules)).toMatch(/bookmarks differs/);
    const plain = compileRules({ identifying: ['data.options.query'], cursor: ['data.options.bookmarks'] });
    expect(compareParams(page2req, new Map([['data.options.bookmarks', '["B"]']]), plain)).toMatch(/none of the identifying params/);
  });
});
