import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BrowserPool, type BrowserPoolOptions } from '../../src/accounts/browser/pool.js';
import { BrowserUnavailable } from '../../src/accounts/browser/errors.js';
import { cookieSet, html, requireChromium, serveLocal, waitFor, type LocalSite } from './helpers.js';

let site: LocalSite;
const pools: BrowserPool[] = [];
const makePool = (opts: BrowserPoolOptions = {}) => {
  const pool = new BrowserPool(opts);
  pools.push(pool);
  return pool;
};
const DOMAINS = ['127.0.0.1'];
const session = (cookies?: string, userAgent?: string) => ({ cookies, domains: DOMAINS, userAgent });
const text = async (page: Page, path: string) => {
  await page.goto(site.origin + path);
  return (await page.textContent('pre')) ?? '';
};

beforeAll(async () => {
  site = await serveLocal({
    '/echo': (req, res) => html(res, `<pre>${req.headers.cookie ?? ''}</pre>`),
    '/ua': (req, res) => html(res, `<pre>${req.headers['user-agent'] ?? ''}</pre>`),
    '/set': (_req, res) => html(res, '<pre>set</pre>', { 'set-cookie': 'fromsite=a1; Path=/' }),
  });
});
afterAll(() => site.close());
beforeEach(requireChromium);
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('BrowserPool', () => {
  it("puts a profile's cookies into its own context only", async () => {
    const pool = makePool();
    expect(cookieSet(await pool.withPage('site:alice', session('sid=alice; lang=en'), (p) => text(p, '/echo')))).toEqual(
      new Set(['sid=alice', 'lang=en']),
    );
    expect(await pool.withPage('site:bob', session('sid=bob'), (p) => text(p, '/echo'))).toBe('sid=bob');
    expect(await pool.withPage('site:alice', session('sid=alice; lang=en'), (p) => p.evaluate<string>('document.cookie'))).toContain('sid=alice');
    // What the site sets stays in that profile's context and comes back out through exportCookies.
    await pool.withPage('site:alice', session('sid=alice; lang=en'), (p) => text(p, '/set'));
    expect(await pool.withPage('site:bob', session('sid=bob'), (p) => text(p, '/echo'))).toBe('sid=bob');
    expect(cookieSet((await pool.exportCookies('site:alice', DOMAINS))!)).toEqual(new Set(['sid=alice', 'lang=en', 'fromsite=a1']));
    expect(await pool.exportCookies('site:bob', ['.example.com'])).toBeUndefined();
    expect(await pool.exportCookies('site:nobody', DOMAINS)).toBeUndefined();
  });

  it('gives each profile a fixed user agent, a real-Chrome one by default', async () => {
    const pool = makePool();
    const ua = await pool.withPage('site:a', session(), (p) => text(p, '/ua'));
    expect(ua).toMatch(/Chrome\/\d+\.0\.0\.0/);
    expect(ua).not.toMatch(/Headless/i);
    expect(await pool.withPage('site:b', session(undefined, 'TestAgent/1.0'), (p) => text(p, '/ua'))).toBe('TestAgent/1.0');
    expect(await pool.withPage('site:b', session(undefined, 'TestAgent/1.0'), (p) => p.evaluate<string>('navigator.userAgent'))).toBe('TestAgent/1.0');
  });

  it('keeps at most maxContexts live, closing the least recently used', async () => {
    const pool = makePool({ maxContexts: 2 });
    const contexts: Record<string, BrowserContext> = {};
    const closed: string[] = [];
    const use = (key: string) =>
      pool.withPage(key, session(`who=${key}`), async (page, context) => {
        if (contexts[key] !== context) context.on('close', () => closed.push(key));
        contexts[key] = context;
        return text(page, '/echo');
      });
    const first = { a: undefined as BrowserContext | undefined };
    await use('p:a');
    first.a = contexts['p:a'];
    await use('p:b');
    await use('p:a');
    await use('p:c');
    await waitFor(() => closed.length === 1, 5_000, 'the evicted context to close');
    expect(closed).toEqual(['p:b']);
    expect(pool.stats().contexts.map((c) => c.key)).toEqual(['p:a', 'p:c']);
    expect(pool.stats().evicted.lru).toBe(1);
    // The survivor is the same context, not a rebuilt one.
    await use('p:a');
    expect(contexts['p:a']).toBe(first.a);
    // A profile brought back after eviction starts fresh with its stored cookies.
    expect(await use('p:b')).toBe('who=p:b');
    expect(pool.stats().contexts.map((c) => c.key)).toEqual(['p:a', 'p:b']);
  });

  it('never evicts a busy context, and trims once it is free', async () => {
    const pool = makePool({ maxContexts: 1 });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const busy = pool.withPage('p:a', session(), async (page) => {
      entered();
      await held;
      return page.evaluate(() => 1 + 1);
    });
    await inside;
    const live = await pool.withPage('p:b', session(), async () => pool.stats().contexts.map((c) => c.key));
    expect(live).toEqual(['p:a', 'p:b']);
    // b is over the bound and idle now; a is still busy, so b went.
    await waitFor(() => pool.stats().contexts.length === 1, 5_000, 'the trim');
    expect(pool.stats().contexts.map((c) => c.key)).toEqual(['p:a']);
    release();
    expect(await busy).toBe(2);
    expect(pool.stats().contexts.map((c) => c.key)).toEqual(['p:a']);
  });

  it('serialises calls for one profile and runs other profiles alongside', async () => {
    const pool = makePool();
    const log: string[] = [];
    // a1 holds its page until b1 has started: if profiles were serialised too, b1 could only
    // start after a1, so a1 gives up waiting and the order below shows it. No timing assumed.
    let bStarted!: () => void;
    const bRunning = new Promise<void>((r) => (bStarted = r));
    const gaveUp = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
    const job = (key: string, tag: string, during: () => Promise<void>) =>
      pool.withPage(key, session(), async () => {
        log.push(`start ${tag}`);
        if (tag === 'b1') bStarted();
        await during();
        log.push(`end ${tag}`);
      });
    await Promise.all([
      job('p:a', 'a1', () => Promise.race([bRunning, gaveUp(20_000)])),
      job('p:a', 'a2', async () => {}),
      job('p:b', 'b1', async () => {}),
    ]);
    const at = (s: string) => log.indexOf(s);
    expect(at('end a1')).toBeLessThan(at('start a2'));
    expect(at('start b1')).toBeLessThan(at('end a1'));
  });

  it('closes idle contexts after idleMs, then the browser, and comes back on the next use', async () => {
    const pool = makePool({ idleMs: 300 });
    await pool.withPage('p:a', session('k=v'), (p) => text(p, '/echo'));
    expect(pool.stats().contexts).toHaveLength(1);
    await waitFor(() => pool.stats().contexts.length === 0, 3_000, 'the idle context to close');
    expect(pool.stats().evicted.idle).toBe(1);
    await waitFor(() => pool.stats().browser === 'stopped', 3_000, 'the idle browser to stop');
    expect(await pool.withPage('p:a', session('k=v'), (p) => text(p, '/echo'))).toBe('k=v');
    expect(pool.stats()).toMatchObject({ launches: 2, crashes: 0 });
  });

  it('replaces a killed browser on the next use', async () => {
    const pool = makePool();
    await pool.withPage('p:a', session('sid=1'), async (page) => {
      const cdp = await page.context().browser()!.newBrowserCDPSession();
      const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
      process.kill(processInfo.find((p) => p.type === 'browser')!.id, 'SIGKILL');
    });
    await waitFor(() => pool.stats().crashes === 1, 5_000, 'the disconnect');
    expect(pool.stats()).toMatchObject({ browser: 'stopped', contexts: [] });
    expect(await pool.withPage('p:a', session('sid=1'), (p) => text(p, '/echo'))).toBe('sid=1');
    expect(pool.stats()).toMatchObject({ browser: 'running', launches: 2 });
  });

  it('replaces a crashed page with a fresh one in the same context', async () => {
    const pool = makePool();
    const first = await pool.withPage('p:a', session(), async (page) => {
      await page.goto('chrome://crash').catch(() => {});
      return page;
    });
    await waitFor(() => first.isClosed(), 5_000, 'the crashed page to be closed');
    expect(await pool.withPage('p:a', session(), (p) => p.evaluate(() => 40 + 2))).toBe(42);
  });

  it('reports whether Chromium is available, naming it when it is not', async () => {
    const pool = makePool();
    expect(await pool.available()).toMatchObject({ ok: true, version: expect.stringMatching(/^\d+\./) });
    const missing = makePool({ executablePath: '/nonexistent/chromium' });
    const result = await missing.available();
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.error).toMatch(/Chromium not found at \/nonexistent\/chromium/);
    await expect(missing.withPage('p:a', session(), async () => 1)).rejects.toBeInstanceOf(BrowserUnavailable);
  });

  it('refuses work after close', async () => {
    const pool = makePool();
    await pool.withPage('p:a', session(), async () => undefined);
    await pool.close();
    expect(pool.stats().browser).toBe('stopped');
    await expect(pool.withPage('p:a', session(), async () => 1)).rejects.toThrow(/closed/);
  });
});
