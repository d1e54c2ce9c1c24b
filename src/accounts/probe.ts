import type { Logger } from 'pino';
import { CrawlError } from '../crawl/errors.js';
import type { Registry } from '../platforms/registry.js';
import type { ProfileRow, Store } from '../store/types.js';
import type { Runner } from '../tasks/runner.js';
import type { HealthTracker } from './health.js';

export const PROBE_EVERY_MS = 30 * 60_000;
const PROBE_TIMEOUT_MS = 30_000;

/**
 * Checks stored logins with each platform's light "who am I" probe: on demand, and on a schedule
 * (one profile at a time, so probes are paced like crawls). The outcome feeds the same health states.
 */
export class ProfileChecker {
  private timer?: NodeJS.Timeout;
  private running = false;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly runner: Pick<Runner, 'probe'>,
    private readonly health: HealthTracker,
    private readonly log: Logger,
  ) {}

  /** Probes one profile now; answers its health after the probe, and why when it could not tell. */
  async check(platform: string, name: string): Promise<{ health: ProfileRow['health']; checked_at: string | null; note?: string }> {
    const adapter = this.registry.get(platform);
    const stored = adapter && (await this.store.profileGet(adapter.id, name));
    if (!adapter || !stored) throw new Error('no such profile');
    if (!adapter.probe) return { health: stored.health, checked_at: iso(stored.checked_at), note: `${adapter.id} has no login probe; health follows crawl outcomes` };
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), PROBE_TIMEOUT_MS);
    let note: string | undefined;
    try {
      const verdict = await this.runner.probe(adapter, name, ac.signal);
      await this.health.record(adapter.id, name, verdict === 'ok' ? 'live' : 'session_expired');
    } catch (e) {
      const code = e instanceof CrawlError ? e.code : 'upstream_error';
      await this.health.record(adapter.id, name, code);
      note = `probe failed: ${code}: ${(e as Error).message}`;
    } finally {
      clearTimeout(timer);
    }
    const after = (await this.store.profileGet(adapter.id, name)) as ProfileRow;
    return { health: after.health, checked_at: iso(after.checked_at), ...(note ? { note } : {}) };
  }

  private readonly followUps = new Map<string, NodeJS.Timeout>();

  /**
   * After a block, probe the login once its cooling ends, so its health says ok (or session_expired)
   * without waiting for the next crawl or sweep.
   */
  async afterFailure(platform: string, name: string, outcome: string): Promise<void> {
    if (outcome !== 'blocked' && outcome !== 'rate_limited') return;
    const adapter = this.registry.get(platform);
    if (!adapter?.probe || !(await this.store.profileGet(adapter.id, name))) return;
    const at = await this.health.coolingUntil(adapter.id, name);
    if (this.stopped) return;
    const key = `${adapter.id}:${name}`;
    const previous = this.followUps.get(key);
    if (previous) clearTimeout(previous);
    const timer = setTimeout(() => {
      this.followUps.delete(key);
      void this.check(adapter.id, name).catch((e) => this.log.warn({ err: e, profile: key }, 'follow-up probe failed'));
    }, Math.max(0, at - Date.now()) + 50);
    timer.unref();
    this.followUps.set(key, timer);
  }

  /** Probes every stored login whose platform has a probe, one after another, every everyMs. */
  start(everyMs = PROBE_EVERY_MS): void {
    this.stopped = false;
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const t of this.followUps.values()) clearTimeout(t);
    this.followUps.clear();
  }

  async sweep(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let n = 0;
    try {
      for (const p of await this.store.profileList()) {
        if (!this.registry.get(p.platform)?.probe || p.health === 'cooling') continue;
        await this.check(p.platform, p.name).catch((e) => this.log.warn({ err: e, profile: `${p.platform}/${p.name}` }, 'profile probe failed'));
        n++;
      }
    } finally {
      this.running = false;
    }
    return n;
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
