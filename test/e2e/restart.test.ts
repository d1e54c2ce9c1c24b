import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import { newTaskId } from '../../src/tasks/service.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until } from '../helpers/service.js';

let fake: FakePlatform;
const dir = mkdtempSync(join(tmpdir(), 'crawler-restart-'));

beforeAll(async () => {
  fake = await startFakePlatform();
});
afterAll(async () => {
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tasks survive a restart', () => {
  it('runs queued tasks and re-runs the one a dead process left running', async () => {
    // A process that died: one task running, one queued, both in the file.
    const store = new SqliteStore(openDatabase(join(dir, 'crawler.sqlite')));
    const params = JSON.stringify({ query: 'restart', limit: 3, profile: 'default' });
    const running = newTaskId();
    const queued = newTaskId();
    await store.insertTask({ id: running, source: 'fake', action: 'search', params, account: 'fake:default', owner: null, createdAt: Date.now() });
    await store.insertTask({ id: queued, source: 'fake', action: 'search', params, account: 'fake:default', owner: null, createdAt: Date.now() + 1 });
    expect((await store.markRunning(running, Date.now()))?.status).toBe('running');
    const write = newTaskId();
    await store.insertTask({ id: write, source: 'fake', action: 'post.create', params: JSON.stringify({ text: 'x', confirm: true, profile: 'default' }), account: 'fake:default', owner: null, createdAt: Date.now() + 2 });
    await store.markRunning(write, Date.now());
    await store.close();

    const s = await startService({ adapters: [fake.adapter], dataDir: dir });
    try {
      for (const id of [running, queued]) {
        const t = await until(async () => {
          const r = await s.api(`/v1/tasks/${id}`);
          return r.body.status === 'succeeded' ? r.body : undefined;
        });
        expect(t.result.count).toBe(3);
      }
      const rerun = await s.api(`/v1/tasks/${running}`);
      expect(rerun.body.attempts).toBe(2);
      // A write in flight when the process died is never sent twice.
      const w = await s.api(`/v1/tasks/${write}`);
      expect(w.body).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'upstream_error', retryable: false } });
      expect(w.body.error.message).toMatch(/outcome unknown/);
      expect(fake.posts).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
