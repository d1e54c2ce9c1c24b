import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { ApiError } from '../domain/errors.js';

export const PROXY_SCHEMES = ['http:', 'https:', 'socks5:'] as const;

/** A profile's proxy, parsed once: the sealed text is `url`; everything shown or keyed leaves the credentials out. */
export interface ProxySpec {
  url: string;
  scheme: 'http' | 'https' | 'socks5';
  host: string;
  port: number;
  username?: string;
  password?: string;
}

const HOST_RE = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * Parses and checks a proxy URL (`scheme://[user:pass@]host:port`). Messages never repeat the input:
 * it may hold a password.
 */
export function parseProxy(raw: unknown): ProxySpec {
  const bad = (why: string) => new ApiError('invalid_request', `proxy: ${why} (expected http://, https:// or socks5:// host:port, with optional user:password@)`);
  if (typeof raw !== 'string' || raw.trim() === '') throw bad('expected a URL string');
  if (raw.length > 2048) throw bad('longer than 2048 characters');
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw bad('not a URL');
  }
  const scheme = PROXY_SCHEMES.find((s) => s === u.protocol);
  if (!scheme) throw bad(`scheme ${u.protocol.slice(0, 16)} is not supported`);
  if ((u.pathname && u.pathname !== '/') || u.search || u.hash) throw bad('no path, query or fragment allowed');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!host || !(isIP(host) || HOST_RE.test(host))) throw bad('host is missing or not a valid name');
  if (!u.port) throw bad('a port is required');
  const port = Number(u.port);
  if (!(port >= 1 && port <= 65535)) throw bad('port out of range');
  if (u.password && !u.username) throw bad('a password needs a user name');
  const username = u.username ? safeDecode(u.username) : undefined;
  const password = u.password ? safeDecode(u.password) : undefined;
  if (username === null || password === null) throw bad('user name or password is not valid percent-encoding');
  if ((username?.length ?? 0) > 255 || (password?.length ?? 0) > 255) throw bad('user name and password: at most 255 bytes each');
  const hostPart = isIP(host) === 6 ? `[${host}]` : host.toLowerCase();
  const auth = username !== undefined ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
  return { url: `${scheme}//${auth}${hostPart}:${port}`, scheme: scheme.slice(0, -1) as ProxySpec['scheme'], host: hostPart, port, username, password };
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** What callers see: scheme, host and port; credentials become `***`. */
export function maskProxy(p: ProxySpec): string {
  return `${p.scheme}://${p.username !== undefined ? '***@' : ''}${p.host}:${p.port}`;
}

/** The egress a profile's traffic leaves by: `direct`, or a hash of the proxy address (never its credentials). */
export function egressId(p: ProxySpec | undefined): string {
  if (!p) return 'direct';
  return `px-${createHash('sha256').update(`${p.scheme}://${p.host}:${p.port}`).digest('hex').slice(0, 12)}`;
}

/** The pacing key: platforms limit by address, so a gap is kept per platform and egress. */
export const paceKey = (platform: string, egress: string) => `${platform}|${egress}`;
