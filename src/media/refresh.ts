import type { Store } from '../store/types.js';
import type { Runner } from '../tasks/runner.js';
import type { MediaFailureReason } from './errors.js';
import type { MediaRefresher } from './proxy.js';
import { slotOrigin, urlHash } from './refs.js';

/**
 * Re-resolves expired origin URLs: the service remembered which item and slot each URL came from,
 * crawls that item's detail again, and swaps in the fresh URL for every later request.
 */
export class DetailRefresher implements MediaRefresher {
  private readonly inflight = new Map<string, Promise<{ url: string } | { reason: MediaFailureReason; message: string }>>();

  constructor(
    private readonly store: Store,
    private readonly runner: Pick<Runner, 'detail'>,
  ) {}

  current(origin: string): Promise<string | undefined> {
    return this.store.mediaSwapGet(urlHash(origin));
  }

  refresh(origin: string, signal: AbortSignal) {
    const key = urlHash(origin);
    let p = this.inflight.get(key);
    if (!p) {
      p = this.run(origin, key, signal).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async run(origin: string, key: string, signal: AbortSignal): Promise<{ url: string } | { reason: MediaFailureReason; message: string }> {
    const ref = await this.store.mediaRefGet(key);
    if (!ref) return { reason: 'expired', message: 'the origin URL expired and the service did not hand it out, so it cannot be re-resolved' };
    let env;
    try {
      env = await this.runner.detail(ref.platform, ref.native_id, ref.profile, signal);
    } catch (e) {
      return { reason: 'unsupported', message: `the origin URL expired and ${ref.platform} items cannot be re-resolved: ${(e as Error).message}` };
    }
    if (env.error) {
      const code = env.error.code;
      const reason: MediaFailureReason = code === 'blocked' ? 'blocked' : code === 'session_expired' ? 'session_expired' : code === 'not_found' ? 'not_found' : 'expired';
      return { reason, message: `the origin URL expired and re-resolving ${ref.platform}:${ref.native_id} failed: ${env.error.message}` };
    }
    const item = env.items[0];
    const fresh = item ? slotOrigin(item, ref.slot) : undefined;
    if (!fresh) return { reason: 'expired', message: `the origin URL expired and ${ref.platform}:${ref.native_id} no longer has that media` };
    await this.store.mediaSwapPut(key, fresh, Date.now());
    return { url: fresh };
  }
}
