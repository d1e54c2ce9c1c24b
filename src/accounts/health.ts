import type { Store } from '../store/types.js';

export const COOL_BASE_MS = 30_000;
export const COOL_CAP_MS = 30 * 60_000;

/** Exponential backoff with full jitter: a random wait up to min(cap, base * 2^strikes). */
export function coolingDelay(strikes: number, random: () => number = Math.random, baseMs = COOL_BASE_MS, capMs = COOL_CAP_MS): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, strikes - 1));
  return Math.max(Math.min(1000, ceiling), Math.floor(random() * ceiling));
}

export interface HealthOptions {
  now?: () => number;
  random?: () => number;
  baseMs?: number;
  capMs?: number;
}

/**
 * Account health from crawl outcomes. A lapsed login marks the profile session_expired (the human
 * re-login signal); a block or throttle never does: the account cools down and work waits for it.
 * The store's profile row is the only record of strikes and cooling, so a re-login (which resets
 * them, from this process or the CLI) and a restart are seen at once.
 */
export class HealthTracker {
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly baseMs: number;
  private readonly capMs: number;

  constructor(
    private readonly store: Store,
    o: HealthOptions = {},
  ) {
    this.now = o.now ?? Date.now;
    this.random = o.random ?? Math.random;
    this.baseMs = o.baseMs ?? COOL_BASE_MS;
    this.capMs = o.capMs ?? COOL_CAP_MS;
  }

  /** Accounts (platform:profile) that must not be crawled yet. */
  async cooling(): Promise<{ accounts: string[]; nextEnd?: number }> {
    const accounts: string[] = [];
    let nextEnd: number | undefined;
    for (const p of await this.store.profilesCooling(this.now())) {
      accounts.push(`${p.platform}:${p.name}`);
      nextEnd = nextEnd === undefined ? p.cooling_until : Math.min(nextEnd, p.cooling_until);
    }
    return { accounts, nextEnd };
  }

  /** Records what a crawl of this account said about it. */
  async record(platform: string, profile: string, outcome: string, retryAfterS?: number): Promise<void> {
    const now = this.now();
    const stored = await this.store.profileStrikes(platform, profile);
    // Health is kept for stored logins (the accounts /v1/profiles shows); anonymous crawling is not held back.
    if (!stored) return;
    let strikes = stored.strikes;
    let coolingUntil = stored.cooling_until ?? 0;
    let health: 'ok' | 'cooling' | 'session_expired' | undefined;
    // A dead proxy cools its account like a block: the identity is never moved to another address.
    if (outcome === 'blocked' || outcome === 'rate_limited' || outcome === 'proxy_down') {
      strikes += 1;
      const wait = retryAfterS && retryAfterS > 0 ? Math.min(this.capMs, retryAfterS * 1000) : coolingDelay(strikes, this.random, this.baseMs, this.capMs);
      coolingUntil = now + wait;
      health = 'cooling';
    } else if (outcome === 'session_expired') {
      health = 'session_expired';
    } else if (outcome === 'live' || outcome === 'empty') {
      strikes = 0;
      coolingUntil = 0;
      health = 'ok';
    }
    if (health) {
      await this.store.profileHealth({ platform, name: profile, health, checked_at: now, cooling_until: coolingUntil || null, strikes });
    }
  }

  /** When a cooling account may be crawled again (0 when it is not cooling). */
  async coolingUntil(platform: string, profile: string): Promise<number> {
    return (await this.store.profileStrikes(platform, profile))?.cooling_until ?? 0;
  }
}
