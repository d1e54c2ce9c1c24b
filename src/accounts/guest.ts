import type { GuestJar } from '../platforms/types.js';
import type { Store } from '../store/types.js';

/** Desktop browsers of recent years; a jar keeps the one it was minted with for life. */
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:126.0) Gecko/20100101 Firefox/126.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
];

type Entries = Record<string, { v: unknown; until: number | null }>;

/**
 * Minted guest state (visitor cookies, device ids, guest tokens) and the rate-limit windows a platform
 * announced, for one account, persisted so a restart (or another process of a fleet) reuses it instead of
 * minting again or spending a request; adapters drop an entry when the platform rejects it.
 */
export class PersistedGuestJar implements GuestJar {
  userAgent: string;
  private entries: Entries;
  /** Counts changes, so a reload can tell that one happened while it read. */
  private changes = 0;

  /** Writes go out in order, behind the in-memory state the adapters read synchronously. */
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly store: Store,
    private readonly account: string,
    row: { user_agent: string; data: string } | undefined,
    private readonly now: () => number,
    pickAgent: () => string,
    private readonly onError: (e: unknown) => void,
  ) {
    this.userAgent = row?.user_agent ?? pickAgent();
    this.entries = row ? safeParse(row.data) : {};
    if (!row) this.flush();
  }

  /** The account's jar as stored (a new one, with a User-Agent of its own, when there is none). */
  static async load(
    store: Store,
    account: string,
    o: { now?: () => number; pickAgent?: () => string; onError?: (e: unknown) => void } = {},
  ): Promise<PersistedGuestJar> {
    const row = await store.guestJarGet(account);
    return new PersistedGuestJar(store, account, row, o.now ?? Date.now, o.pickAgent ?? (() => USER_AGENTS[Math.floor(Math.random() * USER_AGENTS.length)]), o.onError ?? (() => {}));
  }

  /** Resolves once every change so far is stored. */
  saved(): Promise<void> {
    return this.saving;
  }

  /**
   * Replaces this copy with the stored one, after this copy's own changes are stored: in a fleet another
   * process may have run the account since this one last did. A change made meanwhile makes it read again.
   */
  async reload(): Promise<void> {
    for (let tries = 0; tries < 3; tries++) {
      const seen = this.changes;
      await this.saving;
      const row = await this.store.guestJarGet(this.account);
      if (seen !== this.changes) continue;
      if (row) {
        this.entries = safeParse(row.data);
        this.userAgent = row.user_agent;
      }
      return;
    }
  }

  get<T>(key: string): T | undefined {
    const e = this.entries[key];
    if (!e) return undefined;
    if (e.until !== null && e.until <= this.now()) {
      delete this.entries[key];
      this.flush();
      return undefined;
    }
    return e.v as T;
  }

  set<T>(key: string, value: T, ttlMs?: number): void {
    this.entries[key] = { v: value, until: ttlMs === undefined ? null : this.now() + ttlMs };
    this.flush();
  }

  delete(key: string): void {
    if (!(key in this.entries)) return;
    delete this.entries[key];
    this.flush();
  }

  private flush(): void {
    this.changes++;
    const data = JSON.stringify(this.entries);
    const at = this.now();
    // A lost write only costs a fresh mint after a restart; the crawl must not fail for it.
    this.saving = this.saving.then(() => this.store.guestJarPut(this.account, this.userAgent, data, at)).catch(this.onError);
  }
}

function safeParse(text: string): Entries {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Entries) : {};
  } catch {
    return {};
  }
}
