import { domainToASCII } from 'node:url';
import { InvalidInput, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext, Params } from '../types.js';

export const DEFAULT_INSTANCE = 'mastodon.social';

/** The server one request goes to. `token` is set only for the profile's own (home) instance. */
export interface Instance {
  /** Scheme + host (+ port for an operator-configured home instance), no trailing slash. */
  origin: string;
  /** Host as it appears in handles and native ids (`user@host`, `host/<status id>`). */
  host: string;
  home: boolean;
  token?: string;
}

// Names that only ever resolve to the crawler's own network: a caller must never steer requests there.
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A caller-supplied instance must be a plain public hostname: this is what keeps `params.instance`
 * (and hosts taken from references) from turning the crawler into a proxy to internal addresses.
 */
export function normalizeHost(raw: string, what = 'params.instance', replay = false): string {
  const s = raw.trim().toLowerCase();
  const bad = (why: string) => new InvalidInput(`${what}: ${JSON.stringify(raw)} is not a plain public hostname like mastodon.social (${why})`);
  if (!s) throw bad('empty');
  // In replay nothing reaches a network, so recordings of a development server (localhost:3000) may be named.
  if (replay) return replayHost(s, raw, what);
  if (/[/:@?#\\\s[\]%]/.test(s)) throw bad('no scheme, port, path, user or IP literal allowed');
  const ascii = domainToASCII(s);
  if (!ascii) throw bad('not a valid domain name');
  if (ascii.length > 253) throw bad('too long');
  const labels = ascii.split('.');
  if (labels.length < 2) throw bad('a single-label name is not a public server');
  if (!labels.every((l) => LABEL.test(l))) throw bad('not a valid domain name');
  if (!TLD.test(labels[labels.length - 1])) throw bad('IP addresses are not accepted');
  if (PRIVATE_NAMES.test(ascii)) throw bad('local names are not accepted');
  return ascii;
}

function replayHost(s: string, raw: string, what: string): string {
  let url: URL | undefined;
  try {
    url = /[/?#@\\\s]/.test(s) ? undefined : new URL(`https://${s}`);
  } catch {
    url = undefined;
  }
  if (!url || url.host !== s.replace(/:443$/, '')) throw new InvalidInput(`${what}: ${JSON.stringify(raw)} is not a server name (host or host:port)`);
  return url.host;
}

/**
 * The instance the stored profile belongs to. Operator-set (never caller-set), so it may be any base URL,
 * e.g. http://localhost:3000 for a development server. A token without a named instance belongs to the default.
 */
export function homeInstance(credentials: Record<string, string> | undefined): { origin: string; host: string } | undefined {
  const raw = credentials?.instance?.trim();
  if (!raw) return credentials?.access_token?.trim() ? { origin: `https://${DEFAULT_INSTANCE}`, host: DEFAULT_INSTANCE } : undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw new SessionExpired(`the stored mastodon profile's "instance" credential (${JSON.stringify(raw)}) is neither a host nor a URL: fix the profile`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SessionExpired(`the stored mastodon profile's "instance" credential must be an http(s) URL or a host, not ${url.protocol}`);
  }
  return { origin: url.origin, host: url.host.toLowerCase() };
}

export function accessToken(ctx: CrawlContext): string | undefined {
  return ctx.session.credentials?.access_token?.trim() || undefined;
}

/**
 * Picks the server for one action. A host named by the reference wins; otherwise params.instance. When the
 * profile names its instance, the default (mastodon.social) means "the profile's instance".
 */
export function pickInstance(ctx: CrawlContext, params: Params, refHost?: string): Instance {
  const requested = params.instance === undefined || params.instance === '' ? DEFAULT_INSTANCE : normalizeHost(String(params.instance), undefined, ctx.replay);
  const home = homeInstance(ctx.session.credentials);
  const asHome = (): Instance => ({ origin: home!.origin, host: home!.host, home: true, token: accessToken(ctx) });
  if (refHost !== undefined) {
    const h = refHost.trim().toLowerCase();
    if (home && h === home.host) return asHome();
    const host = normalizeHost(h, "the reference's server", ctx.replay);
    if (home && host === home.host) return asHome();
    return { origin: `https://${host}`, host, home: false };
  }
  if (home && (requested === home.host || requested === DEFAULT_INSTANCE)) return asHome();
  return { origin: `https://${requested}`, host: requested, home: false };
}

/** Writes only ever go to the instance the token belongs to, and need that token. */
export function writeInstance(ctx: CrawlContext, params: Params): Instance {
  const requested = params.instance === undefined || params.instance === '' ? DEFAULT_INSTANCE : normalizeHost(String(params.instance), undefined, ctx.replay);
  const home = homeInstance(ctx.session.credentials);
  const token = accessToken(ctx);
  if (!home || !token) {
    throw new SessionExpired('writing to mastodon needs a login: store credentials access_token (and instance, when not mastodon.social) in the mastodon profile');
  }
  if (requested !== DEFAULT_INSTANCE && requested !== home.host) {
    throw new InvalidInput(`params.instance: writes go to the profile's own server (${home.host}), not ${requested}`);
  }
  return { origin: home.origin, host: home.host, home: true, token };
}
