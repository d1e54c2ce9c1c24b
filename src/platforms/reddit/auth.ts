import { createHash } from 'node:crypto';
import { ParseError, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { TOKEN_URL, checkCommon, userAgent } from './http.js';

/*
 * Reddit OAuth. Credentials (all optional, from the stored profile):
 *   access_token                          a ready user bearer token (e.g. from the implicit or code flow), used as is
 *   client_id, client_secret              the app; alone they mint an app-only token (client_credentials)
 *   refresh_token                         with client_id: mints a user token (refresh_token grant)
 *   username, password                    with client_id/secret of a "script" app: a user token (password grant)
 *   device_id                             installed apps without a secret (installed_client grant)
 *   user_agent                            the descriptive User-Agent reddit asks every client to send
 * Minted tokens live in ctx.memo until a minute before reddit says they expire.
 */

export interface Bearer {
  token: string;
  /** Acts for a logged-in user (can write, can read /api/v1/me). */
  user: boolean;
  /** Minted from a grant by us (so a 401 can be answered by minting again). */
  memoKey?: string;
}

const creds = (ctx: CrawlContext): Record<string, string> => ctx.session.credentials ?? {};
const has = (v: string | undefined): v is string => typeof v === 'string' && v.trim() !== '';

type Grant = { form: Record<string, string>; user: boolean };

function grantOf(c: Record<string, string>): Grant | undefined {
  if (!has(c.client_id)) return undefined;
  if (has(c.refresh_token)) return { form: { grant_type: 'refresh_token', refresh_token: c.refresh_token }, user: true };
  if (has(c.username) && has(c.password)) return { form: { grant_type: 'password', username: c.username, password: c.password }, user: true };
  if (!has(c.client_secret)) {
    return { form: { grant_type: 'https://oauth.reddit.com/grants/installed_client', device_id: has(c.device_id) ? c.device_id : 'DO_NOT_TRACK_THIS_DEVICE' }, user: false };
  }
  return { form: { grant_type: 'client_credentials' }, user: false };
}

/** Any stored credential that yields a bearer token (then oauth.reddit.com is the first route). */
export function hasCredentials(ctx: CrawlContext): boolean {
  const c = creds(ctx);
  return has(c.access_token) || has(c.client_id);
}

/** Whether the stored credentials can act as a logged-in user (writes, the "me" profile). */
export function canActAsUser(ctx: CrawlContext): boolean {
  const c = creds(ctx);
  return has(c.access_token) || grantOf(c)?.user === true;
}

export const NO_USER_LOGIN =
  'this needs a logged-in reddit user: store access_token, or client_id with refresh_token, or client_id/client_secret with username/password in the reddit profile';

function memoKey(ctx: CrawlContext, c: Record<string, string>, grant: Grant): string {
  const who = createHash('sha256')
    .update([c.client_id, grant.form.grant_type, c.username ?? '', c.refresh_token ?? ''].join('\n'))
    .digest('hex')
    .slice(0, 16);
  return `reddit:token:${ctx.profile}:${who}`;
}

/** The bearer token for oauth.reddit.com, or undefined when the profile stores no credentials. */
export async function bearer(ctx: CrawlContext): Promise<Bearer | undefined> {
  const c = creds(ctx);
  if (has(c.access_token)) return { token: c.access_token, user: true };
  const grant = grantOf(c);
  if (!grant) return undefined;
  const key = memoKey(ctx, c, grant);
  const known = ctx.memo.get<string>(key);
  if (known) return { token: known, user: grant.user, memoKey: key };
  const { token, ttlS } = await mint(ctx, c, grant);
  // A minute of slack: a token that expires mid-walk would turn a good page into a 401.
  ctx.memo.set(key, token, Math.max(30, ttlS - 60) * 1000);
  return { token, user: grant.user, memoKey: key };
}

/** Drops a minted token reddit no longer accepts, so the next bearer() mints a fresh one. */
export function forget(ctx: CrawlContext, b: Bearer): boolean {
  if (!b.memoKey) return false;
  ctx.memo.delete(b.memoKey);
  return true;
}

async function mint(ctx: CrawlContext, c: Record<string, string>, grant: Grant): Promise<{ token: string; ttlS: number }> {
  const basic = Buffer.from(`${c.client_id}:${c.client_secret ?? ''}`).toString('base64');
  const res = await ctx.http.request({
    method: 'POST',
    url: TOKEN_URL,
    headers: { Authorization: `Basic ${basic}`, 'User-Agent': userAgent(ctx), Accept: 'application/json' },
    form: grant.form,
    followRedirects: false,
  });
  if (res.status === 401 || res.status === 403) {
    // A JSON 401/403 here is reddit refusing the app id/secret; an HTML 403 is its network block.
    if (/json/i.test(res.headers['content-type'] ?? '') || res.status === 401) {
      throw new SessionExpired(`reddit refused the app credentials (HTTP ${res.status} from the token endpoint): check client_id/client_secret`);
    }
  }
  checkCommon(res, 'token endpoint');
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text());
  } catch {
    throw new ParseError(`the token endpoint answered ${res.headers['content-type'] ?? 'no content type'} instead of JSON`);
  }
  // null, an array or a bare value parse fine but carry no token.
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ParseError('the token endpoint answered JSON that is not an object');
  const body = parsed as Record<string, unknown>;
  if (typeof body.error === 'string' || typeof body.error === 'number') {
    // invalid_grant: a revoked refresh token or a wrong password; unsupported_grant_type: a web app used as a script.
    throw new SessionExpired(`reddit refused the login (${String(body.error)}): re-authorize the reddit profile`);
  }
  const token = typeof body.access_token === 'string' ? body.access_token : '';
  if (!token) throw new ParseError('the token endpoint answered without an access_token');
  const ttl = Number(body.expires_in);
  return { token, ttlS: Number.isFinite(ttl) && ttl > 0 ? ttl : 3600 };
}
