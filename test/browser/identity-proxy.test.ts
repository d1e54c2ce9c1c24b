import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/accounts/browser/pool.js';
import { startHttpProxy, type TestProxy } from '../helpers/proxies.js';
import { html, requireChromium, serveLocal, type LocalSite } from './helpers.js';

/**
 * A profile's browser context leaves through the profile's proxy (Playwright's per-context proxy, with
 * credentials). The site is named by a host only the proxy resolves, so nothing reaches it any other way.
 */
let site: LocalSite;
let proxy: TestProxy;
let pool: BrowserPool;

beforeAll(async () => {
  site = await serveLocal({ '/page': (_req, res) => html(res, '<pre>through</pre>') });
  proxy = await startHttpProxy({ user: 'br', pass: 'BROWSERPW' }, { 'site.identity.test': '127.0.0.1' });
  pool = new BrowserPool({
    proxyFor: async (key) => (key === 'site:proxied' ? { server: `http://127.0.0.1:${proxy.port}`, username: 'br', password: 'BROWSERPW' } : undefined),
  });
});
afterAll(async () => {
  await pool?.close();
  await proxy?.close();
  site?.close();
});
beforeEach(requireChromium);

describe('browser contexts of proxied profiles', () => {
  it('load pages through the profile proxy (authenticated); a direct profile never uses it', async () => {
    const port = new URL(site.origin).port;
    const url = `http://site.identity.test:${port}/page`;
    const text = await pool.withPage('site:proxied', { domains: ['site.identity.test'] }, async (page) => {
      await page.goto(url);
      return page.textContent('pre');
    });
    expect(text).toBe('through');
    expect(proxy.seen).toContain(`GET ${url}`);
    const before = proxy.seen.length;
    const direct = await pool.withPage('site:direct', { domains: ['127.0.0.1'] }, async (page) => {
      await page.goto(`${site.origin}/page`);
      return page.textContent('pre');
    });
    expect(direct).toBe('through');
    expect(proxy.seen.length).toBe(before);
  });
});
