import { describe, expect, it } from 'vitest';
import type { FakePlatform } from '../helpers/fake-platform.js';
import { useFakeService } from '../helpers/fake-service.js';
import { until, type Running } from '../helpers/service.js';

let fake: FakePlatform;
let s: Running;
useFakeService((f, r) => ([fake, s] = [f, r]));

describe('runner faults outside the crawl', () => {
  it('a store write that fails at the finish ends the task failed, instead of leaving it running (or killing the process)', async () => {
    const store = s.svc.store;
    const real = store.finishTask.bind(store);
    let failures = 0;
    store.finishTask = ((...args: Parameters<typeof real>) => {
      if (failures++ === 0) throw new Error('SQLITE_FULL: database or disk is full');
      return real(...args);
    }) as typeof store.finishTask;
    try {
      const r = await s.api('/v1/tasks?wait=0', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'disk-full', force: true } } });
      const done = await until(async () => {
        const t = await s.api(`/v1/tasks/${r.body.task_id}`);
        return t.body.status !== 'queued' && t.body.status !== 'running' ? t.body : undefined;
      });
      expect(done).toMatchObject({ status: 'failed', error: { code: 'upstream_error' } });
      expect(done.error.message).toMatch(/SQLITE_FULL/);
      // The worker is free again: the next task runs.
      const next = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'after', force: true } } });
      expect(next.body.status).toBe('succeeded');
    } finally {
      store.finishTask = real;
    }
  });
});
