import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { resolveDeployment } from '../../src/deploy/roles.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until } from '../helpers/service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let fake: FakePlatform;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakePlatform();
});
afterAll(async () => {
  await fake.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('deployment: mode and role from the configuration', () => {
  const URLS = { databaseUrl: 'postgres://crawler@db/crawler', redisUrl: 'redis://redis:6379' };

  it('runs embedded as all with neither shared backend, as today', () => {
    expect(resolveDeployment({}, 'all')).toEqual({ mode: 'embedded', role: 'all' });
  });

  it('refuses api and worker without the shared store and queue: embedded mode is one process', () => {
    for (const role of ['api', 'worker'] as const) {
      expect(() => resolveDeployment({}, role)).toThrow(ConfigError);
      expect(() => resolveDeployment({}, role)).toThrow(/--role .* needs CRAWLER_DATABASE_URL and CRAWLER_REDIS_URL.*use --role all/);
    }
  });

  it('refuses one shared backend without the other, whatever the role', () => {
    for (const role of ['api', 'worker', 'all'] as const) {
      expect(() => resolveDeployment({ databaseUrl: URLS.databaseUrl }, role)).toThrow(/needs both .* \(only CRAWLER_DATABASE_URL is set\)/);
      expect(() => resolveDeployment({ redisUrl: URLS.redisUrl }, role)).toThrow(/only CRAWLER_REDIS_URL is set/);
    }
  });

  it('is distributed with both, in any role', () => {
    for (const role of ['api', 'worker', 'all'] as const) expect(resolveDeployment(URLS, role)).toEqual({ mode: 'distributed', role });
  });

  it('crawler serve --role refuses at start with the message and exit code 2', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'roles-cli-'));
    dirs.push(dataDir);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, CRAWLER_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
    const worker = spawnSync(process.execPath, ['bin/crawler.js', 'serve', '--role', 'worker'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(worker.status).toBe(2);
    expect(worker.stderr).toMatch(/--role worker runs one part of a fleet and needs CRAWLER_DATABASE_URL and CRAWLER_REDIS_URL/);
    const bogus = spawnSync(process.execPath, ['bin/crawler.js', 'serve', '--role', 'leader'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toMatch(/--role leader: expected one of api, worker, all/);
  });
});

describe('roles in one service (embedded backends standing in for the shared ones)', () => {
  it('api queues tasks and runs none; a worker on the same store runs them and serves only /v1/health', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'roles-'));
    dirs.push(dataDir);
    const api = await startService({ adapters: [fake.adapter], dataDir, deployment: { mode: 'embedded', role: 'api' } });
    const made = await api.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'roles' } } });
    expect(made.status).toBe(202);
    const id = made.body.task_id as string;
    // Other calls go through the api meanwhile; the task stays queued because nothing here claims it.
    expect((await api.api('/v1/task-sources')).status).toBe(200);
    const health = await api.api('/v1/health', { token: null });
    expect(health.body).toMatchObject({ ok: true, mode: 'embedded', role: 'api', workers: 4, queue_depth: 1 });
    expect((await api.api(`/v1/tasks/${id}`)).body.status).toBe('queued');
    expect(fake.hits.filter((h) => h.includes('roles'))).toEqual([]);
    await api.close({ keepData: true });

    const worker = await startService({ adapters: [fake.adapter], dataDir, deployment: { mode: 'embedded', role: 'worker' } });
    try {
      const done = await until(async () => {
        const t = await worker.svc.store.getTask(id);
        return t && t.status !== 'queued' && t.status !== 'running' ? t : undefined;
      });
      expect(done.status).toBe('succeeded');
      expect(fake.hits.some((h) => h.includes('roles'))).toBe(true);
      const wh = await worker.api('/v1/health', { token: null });
      expect(wh.status).toBe(200);
      expect(wh.body).toMatchObject({ mode: 'embedded', role: 'worker', queue_depth: 0 });
      for (const path of [`/v1/tasks/${id}`, '/v1/task-sources', '/metrics', '/docs/agent.txt', '/docs', '/v1/openapi.json', '/v1/media?u=x']) expect((await worker.api(path)).status, path).toBe(404);
      // Its own ffmpeg reads streams through the media proxy with the process's internal token.
      const own = await worker.api('/v1/media?u=x', { token: worker.svc.tokens.internalToken });
      expect(own.status).not.toBe(404);
      expect(own.body.error?.code).not.toBe('not_found');
    } finally {
      await worker.close();
    }
  });

  it('all (the default) reports itself and runs tasks as before', async () => {
    const s = await startService({ adapters: [fake.adapter] });
    try {
      const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'all-role' } } });
      expect(r.body.status).toBe('succeeded');
      expect((await s.api('/v1/health', { token: null })).body).toMatchObject({ mode: 'embedded', role: 'all', workers: 4, queue_depth: 0 });
    } finally {
      await s.close();
    }
  });
});
