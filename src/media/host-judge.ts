import { isForbiddenAddress } from './address.js';
import type { Resolver } from './safe-agent.js';

export type HostVerdict = 'public' | 'forbidden' | 'unresolved' | 'timeout';

/**
 * Judges host names before anything is sent to them (webhook targets, a proxied crawl's targets): public
 * when every address the name resolves to is public (or explicitly allowed). A lookup is bounded in time,
 * concurrent asks for one host share it, and a verdict is kept briefly: name lookups run on libuv's small
 * thread pool, so a flood of slow names must not be allowed to hold it.
 */
export class HostJudge {
  private readonly verdicts = new Map<string, { at: number; verdict: Promise<HostVerdict> }>();

  constructor(
    private readonly resolve: Resolver,
    private readonly o: { allowAddress?: (address: string) => boolean; timeoutMs?: number; keepMs?: number; now?: () => number } = {},
  ) {}

  judge(host: string): Promise<HostVerdict> {
    const now = (this.o.now ?? Date.now)();
    const kept = this.verdicts.get(host);
    if (kept && now - kept.at < (this.o.keepMs ?? 30_000)) return kept.verdict;
    if (this.verdicts.size >= 4096) this.verdicts.clear();
    const verdict = this.lookup(host);
    this.verdicts.set(host, { at: now, verdict });
    return verdict;
  }

  private async lookup(host: string): Promise<HostVerdict> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.o.timeoutMs ?? 3000);
    });
    try {
      const addresses = await Promise.race([this.resolve(host).catch(() => []), late]);
      if (addresses === 'timeout') return 'timeout';
      if (!addresses.length) return 'unresolved';
      return addresses.some((a) => isForbiddenAddress(a.address) && !this.o.allowAddress?.(a.address)) ? 'forbidden' : 'public';
    } finally {
      clearTimeout(timer);
    }
  }
}
