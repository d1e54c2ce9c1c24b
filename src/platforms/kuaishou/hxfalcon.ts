import { UpstreamError } from '../../crawl/errors.js';
import { SignatureRefused, signed, signModeFor } from '../../crawl/signing.js';
import type { CrawlContext, PageSigning } from '../types.js';
import { apiHeaders, asGuest, checkResult, checkStatus, readJson, WWW, type Json } from './api.js';

/*
 * /rest/v/profile/feed and /rest/v/search/feed answer result 50 unless the URL carries
 * `__NS_hxfalcon` (with `caver=2`). No pure implementation of that signature exists (cn-platforms.md §4,
 * §8): only the site's own code computes it, through the object MediaCrawler captures as
 * `window.__ks_realm` (media_platform/kuaishou/help.py@d6f7c5b lines 60-86: a setter on
 * Object.prototype.caver, installed before the page's scripts run, keeps the object that has $encode and
 * $getCatVersion; then `__ks_realm.call('$encode', [{url, query, form, requestBody}, {suc, err}])`).
 * So these routes exist only in-page: `native` mode skips them, `auto` and `browser` use the page.
 */

export const SIGN_PAGE = `${WWW}/`;
const CAVER = 2;

/**
 * Runs before the site's scripts on every load of the signing page: the site builds its signer object and
 * sets a `caver` property on it; a setter on Object.prototype sees that assignment and keeps the object
 * (the capture MediaCrawler's help.py describes). Our own text; unverifiable offline, hence documented.
 */
export const CAPTURE_SCRIPT = `(() => {
  if (window.__ks_realm_hook) return;
  window.__ks_realm_hook = true;
  Object.defineProperty(Object.prototype, 'caver', {
    configurable: true,
    get() { return undefined; },
    set(value) {
      Object.defineProperty(this, 'caver', { value, writable: true, configurable: true, enumerable: true });
      if (!window.__ks_realm && this && (typeof this.call === 'function' || '$encode' in this)) window.__ks_realm = this;
    },
  });
})();`;

/** Evaluated in the profile's kuaishou page with args = [path, query, body]; resolves the signature. */
export const ENCODE_EXPRESSION = `new Promise((resolve, reject) => {
  const realm = window.__ks_realm;
  if (!realm || typeof realm.call !== 'function') {
    reject(new Error('window.__ks_realm (the site signer captured before its scripts run) is missing on this page'));
    return;
  }
  realm.call('$encode', [
    { url: args[0], query: args[1], form: {}, requestBody: args[2] },
    { suc: (s) => resolve(String(s)), err: (e) => reject(new Error(String(e))) },
  ]);
})`;

/** Thrown by the native route: there is no port to sign with. */
export class NoNativeSigner extends SignatureRefused {
  constructor(endpoint: string) {
    super(`kuaishou ${endpoint}: __NS_hxfalcon has no native implementation; only the site's page can sign it`);
  }
}

/** Whether a signed route can run at all in this context (a page is there and the mode allows it). */
export function canSignInPage(ctx: CrawlContext, endpoint: string): boolean {
  return !ctx.replay && !!ctx.signer && signModeFor(ctx.signModes, ctx.platform, endpoint) !== 'native';
}

/** For a cursor that pages a signed list: refuses plainly when this context cannot sign. */
export function requireInPageSigning(ctx: CrawlContext, endpoint: string): void {
  if (!canSignInPage(ctx, endpoint)) {
    throw new UpstreamError(`kuaishou ${endpoint}: this cursor pages the __NS_hxfalcon-signed list, which only the in-page signer can sign (none here: replay, no browser, or CRAWLER_SIGN_MODE native)`);
  }
}

/**
 * POSTs `body` to a signed REST path: the page signs exactly this path, query and body, and the request
 * carries exactly those bytes. result 50 (or an empty answer) means the signature was refused.
 */
export async function signedRest(ctx: CrawlContext, endpoint: string, path: string, body: Json, o: { what: string; referer: string }): Promise<Json> {
  const payload = JSON.stringify(body);
  const send = async (signer: PageSigning): Promise<Json> => {
    const signature = await signer.sign<string>({ pageUrl: SIGN_PAGE, initScript: CAPTURE_SCRIPT, expression: ENCODE_EXPRESSION, args: [path, { caver: CAVER }, JSON.parse(payload)] });
    if (typeof signature !== 'string' || !signature) throw new SignatureRefused(`${o.what}: the page's signer returned no __NS_hxfalcon`);
    const url = `${WWW}${path}?__NS_hxfalcon=${encodeURIComponent(signature)}&caver=${CAVER}`;
    return asGuest(ctx, async (cookie) => {
      const headers = apiHeaders(o.referer);
      if (cookie) headers.Cookie = cookie;
      const res = await ctx.http.request({ method: 'POST', url, headers, body: payload });
      checkStatus(res, o.what);
      return checkResult(readJson(res, o.what, true), o.what);
    });
  };
  return signed(ctx, endpoint, {
    native: () => Promise.reject(new NoNativeSigner(endpoint)),
    browser: send,
  });
}
