import { afterEach, describe, expect, it } from 'vitest';
import type { EventLog } from '../../src/tasks/event-log.js';

/** One database per test; other() is a second handle on it (another process, or the same after a restart). */
export interface EventLogHarness {
  log: EventLog;
  other(): Promise<EventLog>;
  close(): Promise<void>;
}

const ev = (id: number, type: 'status' | 'progress' = 'progress') => ({ id, type, data: `{"n":${id}}` });

/** Every EventLog backend must pass this suite. */
export function eventLogConformance(backend: string, open: () => Promise<EventLogHarness>): void {
  describe(`EventLog conformance: ${backend}`, () => {
    let h: EventLogHarness;
    afterEach(async () => {
      await h?.close();
    });

    it('reads a task\'s events after an id, oldest first, whatever order they were stored in', async () => {
      h = await open();
      const { log } = h;
      for (const id of [2, 3, 5, 4]) await log.append('t_a', 1, ev(id, id === 2 ? 'status' : 'progress'));
      await log.append('t_b', 1, ev(3));
      expect((await log.after('t_a', 1, 0)).map((e) => e.id)).toEqual([2, 3, 4, 5]);
      expect(await log.after('t_a', 1, 3)).toEqual([ev(4), ev(5)]);
      expect(await log.after('t_a', 1, 5)).toEqual([]);
      expect((await log.after('t_a', 1, 0))[0]).toEqual(ev(2, 'status'));
      expect((await log.after('t_b', 1, 0)).map((e) => e.id)).toEqual([3]);
    });

    it('what one handle stored, another reads (another process, or after a restart)', async () => {
      h = await open();
      await h.log.append('t_r', 1, ev(7));
      expect(await (await h.other()).after('t_r', 1, 6)).toEqual([ev(7)]);
    });

    it('serves only the asked attempt: a retry does not replay the dead run\'s progress', async () => {
      h = await open();
      const { log } = h;
      await log.append('t_x', 1, ev(2));
      await log.append('t_x', 1, ev(3));
      await log.append('t_x', 2, ev(6, 'status'));
      expect((await log.after('t_x', 2, 0)).map((e) => e.id)).toEqual([6]);
      expect((await log.after('t_x', 1, 0)).map((e) => e.id)).toEqual([2, 3]);
    });

    it('keeps one copy of an id stored twice, forgets an ended task, and purges old leftovers', async () => {
      h = await open();
      const { log } = h;
      await log.append('t_d', 1, ev(2));
      await log.append('t_d', 1, { ...ev(2), data: '{"again":true}' });
      expect(await log.after('t_d', 1, 0)).toEqual([ev(2)]);
      await log.forget('t_d');
      expect(await log.after('t_d', 1, 0)).toEqual([]);
      await log.append('t_old', 1, ev(2));
      expect(await log.purge(Date.now() - 60_000)).toBe(0);
      expect(await log.purge(Date.now() + 1)).toBe(1);
      expect(await log.after('t_old', 1, 0)).toEqual([]);
    });

    it('applies appends and a forget issued without waiting in the order they were called', async () => {
      h = await open();
      const { log } = h;
      const calls: Array<Promise<void>> = [];
      for (let i = 2; i < 40; i++) calls.push(log.append('t_o', 1, ev(i)));
      calls.push(log.forget('t_o'));
      for (let i = 2; i < 40; i++) calls.push(log.append('t_p', 1, ev(i)));
      await Promise.all(calls);
      expect(await log.after('t_o', 1, 0)).toEqual([]);
      expect((await log.after('t_p', 1, 0)).length).toBe(38);
    });
  });
}
