import { UpstreamError } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import { signed } from '../../crawl/signing.js';
import type { CrawlContext } from '../types.js';
import { fetchChecked } from './api.js';

/*
 * toutiao's web API calls (a creator's feed, follower counts) carry `_signature`, computed by the site's
 * own acrawler script as window.byted_acrawler.sign({url}) over the absolute request URL: the page's request
 * wrapper calls exactly that (search index 17168157297: `window.byted_acrawler.sign ? window.byted_acrawler.sign(o) : ""`
 * with o = {url}); 4569603192 runs the same acrawler call after byted_acrawler.init({aid: 24}); 56370126355
 * probes `byted_acrawler.sign` as the signing function of www.toutiao.com. No port of it exists anywhere
 * (research notes §5), so:
 *
 *   native  = our own request, which for toutiao is the unsigned one (crawlers have read these endpoints
 *             unsigned); a refusal (empty 200, verify or challenge page) is SignatureRefused,
 *   browser = the page's own byted_acrawler.sign in the profile's www.toutiao.com page, its signature
 *             appended to the very bytes it signed.
 * `auto` tries native and signs in the page after a refusal (crawl/signing.ts).
 */

export const SIGN_PAGE = 'https://www.toutiao.com/';
export const SIGN_FN = 'byted_acrawler.sign';

/** Query string in the given order, encoded once: these bytes are what gets signed and sent. */
export function encodeQuery(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

export const withSignature = (url: string, signature: string): string => `${url}${url.includes('?') ? '&' : '?'}_signature=${encodeURIComponent(signature)}`;

export interface SignedCall {
  /** Endpoint name for CRAWLER_SIGN_MODE (toutiao.<endpoint>). */
  endpoint: string;
  what: string;
  /** The full request URL, query included, exactly as signed and sent. */
  url: string;
  method?: 'GET' | 'POST';
  form?: Record<string, string>;
  referer?: string;
}

export async function signedFetch(ctx: CrawlContext, call: SignedCall): Promise<HttpResponse> {
  const send = (url: string) =>
    fetchChecked(ctx, { what: call.what, url, method: call.method, form: call.form, referer: call.referer, guest: true, signed: true });
  return signed(ctx, call.endpoint, {
    native: () => send(call.url),
    browser: async (page) => {
      const signature = await page.sign<unknown>({ pageUrl: SIGN_PAGE, fn: SIGN_FN, args: [{ url: call.url }] });
      if (typeof signature !== 'string' || !signature.trim()) {
        throw new UpstreamError(`${call.what}: window.${SIGN_FN} on ${SIGN_PAGE} returned no signature (the site may have changed)`);
      }
      return send(withSignature(call.url, signature.trim()));
    },
  });
}
