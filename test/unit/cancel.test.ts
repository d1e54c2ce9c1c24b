import { describe, expect, it } from 'vitest';
import { LocalCancelSignal } from '../../src/tasks/cancel-local.js';

describe('local cancel signal (embedded CancelSignal port)', () => {
  it('aborts the watched run of the cancelled task only', async () => {
    const cancels = new LocalCancelSignal();
    const a = cancels.watch('t_a');
    const b = cancels.watch('t_b');
    await cancels.cancel('t_a');
    expect(a.signal.aborted).toBe(true);
    expect(b.signal.aborted).toBe(false);
    b.release();
    expect(cancels.size).toBe(0);
  });

  it('tells the run at once, so its slot can be freed before cancel() resolves', async () => {
    const cancels = new LocalCancelSignal();
    const heard: string[] = [];
    cancels.watch('t_1').signal.addEventListener('abort', () => heard.push('aborted'));
    const asked = cancels.cancel('t_1');
    expect(heard).toEqual(['aborted']);
    await asked;
  });

  it('is a no-op for a task no run here watches (queued, ended, or another process)', async () => {
    const cancels = new LocalCancelSignal();
    await expect(cancels.cancel('t_nobody')).resolves.toBeUndefined();
    const w = cancels.watch('t_2');
    w.release();
    await cancels.cancel('t_2');
    expect(w.signal.aborted).toBe(false);
  });

  it("an old run's release leaves a newer run of the same task (a retry) watched", async () => {
    const cancels = new LocalCancelSignal();
    const old = cancels.watch('t_3');
    const retry = cancels.watch('t_3');
    old.release();
    await cancels.cancel('t_3');
    expect(retry.signal.aborted).toBe(true);
    expect(old.signal.aborted).toBe(false);
    expect(cancels.size).toBe(0);
  });
});
