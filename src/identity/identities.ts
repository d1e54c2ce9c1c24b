import { ApiError } from '../domain/errors.js';
import type { IdentityStore, OutcomeCounts, OutcomeKind, PoolCandidate } from '../store/identity.js';
import { egressId, maskProxy, parseProxy, type ProxySpec } from './proxy-url.js';

export const RATE_WINDOW_MS = 3600_000;
/**
 * How long a profile's egress is taken from memory: every task, side crawl, browser page and proxied media
 * request asks for it, and reading it costs a store read, a decryption and a hash. Changes made through this
 * process apply at once (forget); a fleet's other processes see them within this time.
 */
const EGRESS_TTL_MS = 5_000;
const EGRESS_CACHE_MAX = 4096;
const PURGE_EVERY_MS = 5 * 60_000;

/** `pool` (every profile of the platform) or `pool:<name>`: a task whose profile the service picks. */
export function poolOf(profile: unknown): { pool: string | null } | undefined {
  if (profile === 'pool') return { pool: null };
  if (typeof profile === 'string' && profile.startsWith('pool:')) return { pool: profile.slice(5) };
  return undefined;
}

/** A pool with nobody free to run now, and when to ask again. */
export class PoolExhausted extends ApiError {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super('rate_limited', message);
  }
}

/** Playwright's per-context proxy for the account, with its credentials; undefined when it goes direct. */
export async function browserProxyOf(identities: Identities, key: string): Promise<{ server: string; username?: string; password?: string } | undefined> {
  const i = key.indexOf(':');
  const e = await identities.egressOf(key.slice(0, i), key.slice(i + 1));
  return e.proxy && { server: `${e.proxy.scheme}://${e.proxy.host}:${e.proxy.port}`, username: e.proxy.username, password: e.proxy.password };
}

export interface Egress {
  /** `direct` or `px-<hash>`: the pacing key's second half. */
  id: string;
  proxy?: ProxySpec;
  /** The proxy as logs and answers may show it (no credentials). */
  label?: string;
}

/** Where each profile's traffic leaves from, how its crawls went lately, and which profile a pool task gets. */
export class Identities {
  private lastPurge = 0;
  private readonly egresses = new Map<string, { at: number; egress: Promise<Egress> }>();

  constructor(
    readonly store: IdentityStore,
    private readonly now: () => number = Date.now,
  ) {}

  egressOf(platform: string, profile: string): Promise<Egress> {
    const key = `${platform}:${profile}`;
    const now = this.now();
    const hit = this.egresses.get(key);
    if (hit && now - hit.at < EGRESS_TTL_MS) return hit.egress;
    if (this.egresses.size >= EGRESS_CACHE_MAX) this.egresses.clear();
    const egress = this.readEgress(platform, profile);
    this.egresses.set(key, { at: now, egress });
    egress.catch(() => this.egresses.delete(key));
    return egress;
  }

  /** The profile's proxy changed (or the profile went): its next request reads the store again. */
  forget(platform: string, profile: string): void {
    this.egresses.delete(`${platform}:${profile}`);
  }

  private async readEgress(platform: string, profile: string): Promise<Egress> {
    const stored = await this.store.identityGet(platform, profile);
    if (!stored?.proxy) return { id: 'direct' };
    const proxy = parseProxy(stored.proxy);
    return { id: egressId(proxy), proxy, label: maskProxy(proxy) };
  }

  /** One crawl outcome into the rolling window (fleet-wide: the store is shared). */
  async record(platform: string, profile: string, outcome: string): Promise<void> {
    const at = this.now();
    await this.store.outcomeAdd(platform, profile, kindOf(outcome), at);
    if (at - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = at;
      await this.store.outcomePurge(at - 2 * RATE_WINDOW_MS);
    }
  }

  /** Outcomes of the last hour, by `platform:name`. */
  async rates(): Promise<Map<string, OutcomeCounts>> {
    const out = new Map<string, OutcomeCounts>();
    for (const c of await this.store.outcomeCounts(this.now() - RATE_WINDOW_MS)) out.set(`${c.platform}:${c.name}`, c);
    return out;
  }

  /**
   * The profile a pool task runs as, chosen when it is submitted: never one that needs a re-login or is
   * cooling; then the best recent success rate (in steps of a tenth, so near-equals share work), the fewest
   * queued and running tasks (read from the store: the whole fleet's), the least recently used.
   */
  async pick(platform: string, pool: string | null): Promise<string> {
    const now = this.now();
    const all = await this.store.poolCandidates(platform, pool, now - RATE_WINDOW_MS);
    const named = pool === null ? `the ${platform} pool` : `pool "${pool}" of ${platform}`;
    if (all.length === 0) throw new ApiError('invalid_request', `params.profile: ${named} has no stored profiles (POST /v1/profiles${pool === null ? '' : ` with pool "${pool}"`})`);
    const cooling = (c: PoolCandidate) => (c.cooling_until ?? 0) > now;
    const free = all.filter((c) => c.health !== 'session_expired' && !cooling(c));
    if (free.length === 0) {
      const waits = all.filter(cooling).map((c) => (c.cooling_until as number) - now);
      if (waits.length === 0) throw new ApiError('session_expired', `every profile of ${named} needs a human re-login (GET /v1/profiles)`);
      const retryAfterS = Math.max(1, Math.ceil(Math.min(...waits) / 1000));
      throw new PoolExhausted(`every usable profile of ${named} is cooling down after blocks; retry in ${retryAfterS} s`, retryAfterS);
    }
    const bucket = (c: PoolCandidate) => Math.round((c.tasks ? c.ok / c.tasks : 1) * 10);
    free.sort((a, b) => bucket(b) - bucket(a) || a.active - b.active || (a.used_at ?? 0) - (b.used_at ?? 0) || a.name.localeCompare(b.name));
    return free[0].name;
  }
}

function kindOf(outcome: string): OutcomeKind {
  if (outcome === 'live' || outcome === 'empty') return 'ok';
  if (outcome === 'blocked' || outcome === 'rate_limited' || outcome === 'proxy_down') return 'blocked';
  return 'failed';
}
