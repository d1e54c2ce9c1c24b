import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { isForbiddenAddress } from './address.js';

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_FORBIDDEN_ADDRESS';
  constructor(host: string, address: string) {
    // The address stays in the logs (onRefused): a public answer must not map internal networks.
    super(`${host} resolves to a private or reserved address`);
  }
}

export interface SafeAgentOptions {
  resolve?: Resolver;
  /** Test hook: addresses that may be reached despite the rules (a loopback CDN). */
  allowAddress?: (address: string) => boolean;
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** Sees every address the agent refused, before any socket exists. */
  onRefused?: (host: string, address: string) => void;
}

/**
 * An undici Agent whose connections go only to addresses that passed the rules: the check runs on
 * the resolved addresses the socket will use (so DNS tricks and rebinding land on the same check).
 */
export function safeAgent(o: SafeAgentOptions = {}): Agent {
  const resolve = o.resolve ?? systemResolver;
  const lookup = (hostname: string, options: { all?: boolean } | number, cb: (...args: unknown[]) => void) => {
    resolve(hostname)
      .then((addresses) => {
        const bad = addresses.find((a) => isForbiddenAddress(a.address) && !o.allowAddress?.(a.address));
        if (bad || addresses.length === 0) {
          const address = bad?.address ?? 'nothing';
          o.onRefused?.(hostname, address);
          return cb(new ForbiddenAddressError(hostname, address));
        }
        const all = typeof options === 'object' && options?.all;
        if (all) cb(null, addresses);
        else cb(null, addresses[0].address, addresses[0].family);
      })
      .catch((err) => cb(err));
  };
  return new Agent({
    connect: { lookup: lookup as never, timeout: 10_000 },
    headersTimeout: o.headersTimeoutMs ?? 15_000,
    bodyTimeout: o.idleTimeoutMs ?? 20_000,
    connections: 64,
    keepAliveTimeout: 10_000,
  });
}
