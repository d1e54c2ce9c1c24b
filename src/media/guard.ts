import { isIP } from 'node:net';
import type { PlatformAdapter } from '../platforms/types.js';
import { hostMatches } from '../crawl/http.js';
import { isForbiddenAddress } from './address.js';
import { notAllowed } from './errors.js';

export interface MediaPolicy {
  /**
   * Adapter whose declared media CDN hosts include this host; `prefer` (a platform id) wins where CDNs are
   * shared (Meta's cdninstagram/fbcdn serve instagram, threads and facebook alike).
   */
  ownerOf(host: string, prefer?: string): PlatformAdapter | undefined;
  /** Ports a media URL may name besides 80/443 (tests run CDNs on loopback ports). */
  extraPorts?: ReadonlySet<number>;
  /**
   * The platform whose crawl handed out exactly this URL: open-ended CDNs (every Mastodon server has
   * its own) are allowed for the URLs the service itself emitted, never for arbitrary ones.
   */
  emittedBy?(url: string): Promise<PlatformAdapter | undefined>;
}

export function policyFor(adapters: readonly PlatformAdapter[], extraPorts?: ReadonlySet<number>, emittedBy?: MediaPolicy['emittedBy']): MediaPolicy {
  return {
    ownerOf: (host, prefer) =>
      (prefer ? adapters.find((a) => a.id === prefer && hostMatches(host, a.mediaHosts)) : undefined) ?? adapters.find((a) => hostMatches(host, a.mediaHosts)),
    extraPorts,
    emittedBy,
  };
}

/**
 * Checks a media URL before anything goes out: WHATWG-parsed, http(s) only, no userinfo, standard ports,
 * no IP literals, and a host some adapter declared as its CDN. Returns the parsed URL and its owner.
 */
export async function checkMediaUrl(raw: string, policy: MediaPolicy, prefer?: string): Promise<{ url: URL; owner: PlatformAdapter }> {
  if (typeof raw !== 'string' || raw.length === 0) throw notAllowed('u: the origin media URL is required');
  if (raw.length > 8192) throw notAllowed('u: URL longer than 8192 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw notAllowed('u: not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw notAllowed(`u: scheme ${url.protocol} is not allowed (http and https only)`);
  if (url.username || url.password) throw notAllowed('u: URLs with credentials (userinfo) are not allowed');
  const port = url.port ? Number(url.port) : undefined;
  if (port !== undefined && port !== 80 && port !== 443 && !policy.extraPorts?.has(port)) throw notAllowed(`u: port ${port} is not allowed`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    throw notAllowed(isForbiddenAddress(host) ? `u: ${host} is a private or reserved address` : 'u: IP-address hosts are not on the CDN allowlist');
  }
  const owner = policy.ownerOf(url.hostname, prefer) ?? (await policy.emittedBy?.(url.toString()));
  if (!owner) throw notAllowed(`u: ${url.hostname} is not a known platform CDN host`);
  return { url, owner };
}
