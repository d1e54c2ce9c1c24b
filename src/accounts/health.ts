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

interface AccountState {
  strikes: number;
  coolingUntil: number;
}

/**
 * Account health from crawl outcomes. A lapsed login marks the profile session_expired (the human
 * re-login signal); a block or throttle never does: the account cools down and work waits for it.
 */
export class HealthTracker {
  private readonly accounts = new Map<string, AccountState>();

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
  cooling(): { accounts: string[]; nextEnd?: number } {
    const now = this.now();
    const accounts: string[] = [];
    let nextEnd: number | undefined;
    for (const [account, s] of this.accounts) {
      if (s.coolingUntil > now) {
        accounts.push(account);
        nextEnd = nextEnd === undefined ? s.coolingUntil : Math.min(nextEnd, s.coolingUntil);
      }
    }
    return { accounts, nextEnd };
  }

  /** Records what a crawl of this account said about it. */
  record(platform: string, profile: string, outcome: string, retryAfterS?: number): void {
    const account = `${platform}:${profile}`;
    const now = this.now();
    const stored = this.store.profileGet(platform, profile);
    // Health is kept for stored logins (the accounts /v1/profiles shows); anonymous crawling is not held back.
    if (!stored) return;
    const state = this.accounts.get(account) ?? { strikes: stored?.strikes ?? 0, coolingUntil: 0 };
    let health: 'ok' | 'cooling' | 'session_expired' | undefined;
    if (outcome === 'blocked' || outcome === 'rate_limited') {
      state.strikes += 1;
      const wait = retryAfterS && retryAfterS > 0 ? Math.min(this.capMs, retryAfterS * 1000) : coolingDelay(state.strikes, this.random, this.baseMs, this.capMs);
      state.coolingUntil = now + wait;
      health = 'cooling';
    } else if (outcome === 'session_expired') {
      health = 'session_expired';
    } else if (outcome === 'live' || outcome === 'empty') {
      state.strikes = 0;
      state.coolingUntil = 0;
      health = 'ok';
    }
    this.accounts.set(account, state);
    if (health) {
      this.store.profileHealth({ platform, name: profile, health, checked_at: now, cooling_until: state.coolingUntil || null, strikes: state.strikes });
    }
  }

  /** When a cooling account may be crawled again (0 when it is not cooling). */
  coolingUntil(platform: string, profile: string): number {
    return this.accounts.get(`${platform}:${profile}`)?.coolingUntil ?? 0;
  }

  /** A new login clears the account's history. */
  reset(platform: string, profile: string): void {
    this.accounts.delete(`${platform}:${profile}`);
  }
}
