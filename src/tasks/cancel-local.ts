import type { CancelSignal } from './cancel.js';

/** The embedded cancel signal: the AbortControllers of this process's runs, by task id. */
export class LocalCancelSignal implements CancelSignal {
  private readonly runs = new Map<string, AbortController>();

  watch(taskId: string): { signal: AbortSignal; release(): void } {
    const ac = new AbortController();
    this.runs.set(taskId, ac);
    return {
      signal: ac.signal,
      // A retry may have registered a newer run of the same task since: only this run's entry goes.
      release: () => {
        if (this.runs.get(taskId) === ac) this.runs.delete(taskId);
      },
    };
  }

  async cancel(taskId: string): Promise<void> {
    const ac = this.runs.get(taskId);
    if (!ac) return;
    this.runs.delete(taskId);
    ac.abort(new Error('cancelled'));
  }

  /** Runs registered now (tests watch it for leaks). */
  get size(): number {
    return this.runs.size;
  }
}
