import { createHmac, randomBytes } from 'node:crypto';

/*
 * OAuth 1.0a request signing (RFC 5849, HMAC-SHA1) for X's official API with an app's keys and a user's
 * access token, the way X's developer docs ("Creating a signature") spell it: the percent-encoded, sorted
 * oauth_* and query parameters (a JSON body is not signed), the method and base URL, keyed by
 * consumer secret & token secret.
 */

export interface OAuth1Keys {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  tokenSecret: string;
}

/** RFC 3986 percent-encoding (encodeURIComponent leaves !'()* alone). */
export const pct = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function signatureBase(method: string, url: string, params: Record<string, string>): string {
  const u = new URL(url);
  const all: Array<[string, string]> = [...Object.entries(params), ...[...u.searchParams.entries()]].map(([k, v]) => [pct(k), pct(v)]);
  all.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1));
  const base = `${u.protocol}//${u.host.toLowerCase()}${u.pathname}`;
  return `${method.toUpperCase()}&${pct(base)}&${pct(all.map(([k, v]) => `${k}=${v}`).join('&'))}`;
}

export function hmacSignature(base: string, consumerSecret: string, tokenSecret: string): string {
  return createHmac('sha1', `${pct(consumerSecret)}&${pct(tokenSecret)}`).update(base).digest('base64');
}

/** The Authorization header for one request. */
export function oauth1Header(keys: OAuth1Keys, method: string, url: string, extra: Record<string, string> = {}, nonce = randomBytes(16).toString('hex'), timestamp = Math.floor(Date.now() / 1000)): string {
  const oauth: Record<string, string> = {
    oauth_consumer_key: keys.consumerKey,
    oauth_nonce: nonce,
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(timestamp),
    oauth_token: keys.token,
    oauth_version: '1.0',
  };
  const signature = hmacSignature(signatureBase(method, url, { ...oauth, ...extra }), keys.consumerSecret, keys.tokenSecret);
  return `OAuth ${Object.entries({ ...oauth, oauth_signature: signature })
    .map(([k, v]) => `${pct(k)}="${pct(v)}"`)
    .join(', ')}`;
}
