import { describe, expect, it, vi } from 'vitest';
import { pace } from '../../src/crawl/pacer.js';
import { LocalPacer } from '../../src/crawl/pacer-local.js';

describe('local pacer (embedded Pacer port)', () => {
  it('hands out slots gapMs apart per key, in call order, from a fake clock', async () => {
    const clock = { t: 10_000 };
    const pacer = new LocalPacer(() => clock.t);
    expect(await pacer.reserve('a', 1000)).toBe(0);
    expect(await pacer.reserve('a', 1000)).toBe(1000);
    expect(await pacer.reserve('b', 1000)).toBe(0);
    expect(await pacer.reserve('a', 1000)).toBe(2000);
    // Time passes: the wait shrinks by as much, and a key idle past its slot starts afresh.
    clock.t += 1500;
    expect(await pacer.reserve('a', 1000)).toBe(1500);
    clock.t += 10_000;
    expect(await pacer.reserve('a', 1000)).toBe(0);
    expect(await pacer.reserve('b', 250)).toBe(0);
    expect(await pacer.reserve('b', 250)).toBe(250);
  });

  it('reserves nothing for a zero gap', async () => {
    const pacer = new LocalPacer(() => 0);
    expect(await pacer.reserve('k', 0)).toBe(0);
    expect(await pacer.reserve('k', 100)).toBe(0);
    expect(await pacer.reserve('k', 100)).toBe(100);
  });

  it('pace() releases callers in reservation order as the clock reaches their slots', async () => {
    vi.useFakeTimers();
    try {
      const pacer = new LocalPacer(() => Date.now());
      const done: string[] = [];
      const t0 = Date.now();
      const run = (label: string, key: string) => pace(pacer, key, 1000).then(() => done.push(`${label}@${Date.now() - t0}`));
      const all = [run('a1', 'a'), run('a2', 'a'), run('b1', 'b'), run('a3', 'a')];
      await vi.advanceTimersByTimeAsync(2500);
      await Promise.all(all);
      expect(done).toEqual(['a1@0', 'b1@0', 'a2@1000', 'a3@2000']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('pace() stops waiting when the crawl is cancelled', async () => {
    const pacer = new LocalPacer();
    await pace(pacer, 'k', 60_000);
    const ac = new AbortController();
    const p = pace(pacer, 'k', 60_000, ac.signal);
    ac.abort(new Error('cancelled'));
    await expect(p).rejects.toThrow('cancelled');
  });
});
