import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskQueue } from '../../src/queue/types.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';

let fake: FakePlatform;
let s: Running;
beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter] });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

describe('the queue hears once that a run ended', () => {
  it('a cancelled run is settled by the cancel alone, a finished one by its end alone', async () => {
    const queue = (s.svc.runner as unknown as { d: { queue: TaskQueue } }).d.queue;
    const settled: string[] = [];
    const done = queue.done.bind(queue);
    queue.done = async (row) => {
      settled.push(row.id);
      return done(row);
    };
    const slow = await s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'slow', force: true } } });
    await until(() => (fake.hanging > 0 ? true : undefined));
    await s.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST' });
    const quick = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'quick', force: true } } });
    expect(quick.body.status).toBe('succeeded');
    await until(() => (settled.includes(quick.body.task_id) ? true : undefined));
    // Let the aborted run's own ending come through too.
    await new Promise((r) => setTimeout(r, 200));
    expect(settled.filter((id) => id === slow.body.task_id)).toHaveLength(1);
    expect(settled.filter((id) => id === quick.body.task_id)).toHaveLength(1);
  });
});
