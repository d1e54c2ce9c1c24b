import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserPool } from '../../src/accounts/browser/pool.js';
import { PageSigner } from '../../src/accounts/browser/signer.js';
import { Timeout, UpstreamError } from '../../src/crawl/errors.js';
import { html, refusedOrigin, requireChromium, serveLocal, type LocalSite } from './helpers.js';

// The secret lives only in the page, as a site's signing key would; the test knows it to check the math.
const SECRET = 'page-held-secret-7f3a';
const SIGN_PAGE = `<!doctype html><title>site</title><script>
(() => {
  const secret = ${JSON.stringify(SECRET)};
  const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
  window.sign = async (s) => {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(s)));
  };
  const fnv = (s) => { let h = 0x811c9dc5; for (const c of new TextEncoder().encode(s)) { h ^= c; h = Math.imul(h, 0x01000193) >>> 0; } return h.toString(16).padStart(8, '0'); };
  window.acrawler = { salt: 'x1', frontierSign(params) { return { 'X-Bogus': fnv(this.salt + secret + params.query) }; } };
  window.hang = () => new Promise(() => {});
  window.spin = () => { for (;;) {} };
  window.boom = () => { throw new Error('sign exploded'); };
})();
</script>`;
// The site builds its signer object and sets `caver` on it while loading; only a hook installed before its scripts sees it.
const HOOKED_PAGE = `<!doctype html><script>(() => { const realm = { call: (name, a) => 'realm:' + name + ':' + a }; realm.caver = 2; window.builtAt = Date.now(); })();</script>`;
const LATE_PAGE = `<!doctype html><script>setTimeout(() => { window.lateSign = (s) => 'late:' + s; }, 300);</script>`;

const hmac = (s: string) => createHmac('sha256', SECRET).update(s).digest('hex');
const fnv = (s: string) => {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(s)) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
};

let site: LocalSite;
let pool: BrowserPool;
let signer: PageSigner;
const session = { cookies: 'sid=s1', domains: ['127.0.0.1'] };
const KEY = 'site:default';

beforeAll(async () => {
  site = await serveLocal({
    '/sign.html': (_req, res) => html(res, SIGN_PAGE),
    '/other.html': (_req, res) => html(res, SIGN_PAGE),
    '/late.html': (_req, res) => html(res, LATE_PAGE),
    '/hooked.html': (_req, res) => html(res, HOOKED_PAGE),
    '/empty.html': (_req, res) => html(res, '<!doctype html><p>nothing here</p>'),
    '/forbidden.html': (_req, res) => res.writeHead(403, { 'content-type': 'text/html' }).end('no'),
  });
});
afterAll(() => site.close());
beforeEach(() => {
  site.hits.length = 0;
  pool = new BrowserPool();
  signer = new PageSigner(pool, { loadTimeoutMs: 1_500, timeoutMs: 2_000 });
  requireChromium();
});
afterEach(() => pool.close());

describe('PageSigner', () => {
  it("computes the site's HMAC in its page, loading the page once for several calls", async () => {
    const pageUrl = `${site.origin}/sign.html`;
    for (const input of ['aid=1&ts=100', 'aid=2&ts=200', 'wts=1700000000']) {
      expect(await signer.sign(KEY, { session, pageUrl, fn: 'sign', args: [input] })).toBe(hmac(input));
    }
    expect(site.count('/sign.html')).toBe(1);
    expect(signer.stats().loads).toBe(1);
  });

  it('calls a method with its object as this, and evaluates expressions with args in scope', async () => {
    const pageUrl = `${site.origin}/sign.html`;
    expect(await signer.sign(KEY, { session, pageUrl, fn: 'acrawler.frontierSign', args: [{ query: 'q=cat' }] })).toEqual({
      'X-Bogus': fnv(`x1${SECRET}q=cat`),
    });
    expect(await signer.sign(KEY, { session, pageUrl, expression: 'window.sign(args[0] + args[1])', args: ['a=', '1'] })).toBe(hmac('a=1'));
    expect(site.count('/sign.html')).toBe(1);
  });

  it('reloads when the page URL changes or the page crashed', async () => {
    await signer.sign(KEY, { session, pageUrl: `${site.origin}/sign.html`, fn: 'sign', args: ['x'] });
    await signer.sign(KEY, { session, pageUrl: `${site.origin}/other.html`, fn: 'sign', args: ['x'] });
    expect(site.count('/other.html')).toBe(1);
    await pool.withPage(KEY, session, (page) => page.goto('chrome://crash').then(() => undefined, () => undefined));
    expect(await signer.sign(KEY, { session, pageUrl: `${site.origin}/other.html`, fn: 'sign', args: ['y'] })).toBe(hmac('y'));
    expect(site.count('/other.html')).toBe(2);
  });

  it('runs an init script before the site\'s own scripts (reloading a page loaded without it), once per page', async () => {
    const { CAPTURE_SCRIPT } = await import('../../src/platforms/kuaishou/hxfalcon.js');
    const pageUrl = `${site.origin}/hooked.html`;
    const expression = "window.__ks_realm ? window.__ks_realm.call('$encode', args[0]) : 'no realm'";
    expect(await signer.sign(KEY, { session, pageUrl, expression, args: ['q'] })).toBe('no realm');
    const loads = signer.stats().loads;
    expect(await signer.sign(KEY, { session, pageUrl, expression, args: ['q'], initScript: CAPTURE_SCRIPT })).toBe('realm:$encode:q');
    expect(signer.stats().loads).toBe(loads + 1);
    expect(await signer.sign(KEY, { session, pageUrl, expression, args: ['r'], initScript: CAPTURE_SCRIPT })).toBe('realm:$encode:r');
    expect(signer.stats().loads).toBe(loads + 1);
  });

  it('waits for a signer the site defines after load', async () => {
    expect(await signer.sign(KEY, { session, pageUrl: `${site.origin}/late.html`, fn: 'lateSign', args: ['z'] })).toBe('late:z');
  });

  it('times out a hanging function, discards the page, and recovers on the next call', async () => {
    const pageUrl = `${site.origin}/sign.html`;
    const started = Date.now();
    await expect(signer.sign(KEY, { session, pageUrl, fn: 'hang', timeoutMs: 500 })).rejects.toThrow(Timeout);
    expect(Date.now() - started).toBeLessThan(8_000); // far below a hang; loose for slow CI machines
    await expect(signer.sign(KEY, { session, pageUrl, fn: 'spin', timeoutMs: 500 })).rejects.toThrow(/did not return within 500 ms/);
    expect(await signer.sign(KEY, { session, pageUrl, fn: 'sign', args: ['after'] })).toBe(hmac('after'));
    expect(site.count('/sign.html')).toBe(3);
  });

  it('explains what went wrong', async () => {
    const at = (path: string) => `${site.origin}${path}`;
    const boom = signer.sign(KEY, { session, pageUrl: at('/sign.html'), fn: 'boom' });
    await expect(boom).rejects.toBeInstanceOf(UpstreamError);
    await expect(boom).rejects.toThrow(/window\.boom\(\) failed on .*sign exploded/);
    await expect(signer.sign(KEY, { session, pageUrl: at('/empty.html'), fn: 'sign' })).rejects.toThrow(/did not define window\.sign as a function/);
    await expect(signer.sign(KEY, { session, pageUrl: at('/forbidden.html'), fn: 'sign' })).rejects.toThrow(/answered HTTP 403/);
    await expect(signer.sign(KEY, { session, pageUrl: `${await refusedOrigin()}/closed`, fn: 'sign' })).rejects.toThrow(/loading .* failed: .*ERR_CONNECTION_REFUSED/);
    await expect(signer.sign(KEY, { session, pageUrl: at('/sign.html'), fn: 'a;alert(1)' })).rejects.toThrow(/not a dotted property path/);
    await expect(signer.sign(KEY, { session, pageUrl: at('/sign.html') })).rejects.toThrow(/exactly one of fn or expression/);
  });
});
