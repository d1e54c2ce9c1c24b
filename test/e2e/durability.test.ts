import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'crawler-durable-'));
// A wide group-commit window: an answer sent before its commit would be caught by the kill every time.
const env = { ...process.env, CRAWLER_DATA_DIR: dataDir, CRAWLER_REPLAY: join(ROOT, 'sandbox'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', CRAWLER_GROUP_COMMIT_MS: '300' };
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The real CLI in its own process, so it can be killed without a chance to flush anything. */
async function startChild(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['bin/crawler.js', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const base = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) ok(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`service exited early (${code}): ${out}`)));
  });
  return { child, base };
}

describe('an acknowledged task survives kill -9', () => {
  it('finds every acknowledged id, cache hits included, after the process is killed right after a burst of answers', async () => {
    const made = spawnSync(process.execPath, ['bin/crawler.js', 'tokens', 'create', '--scopes', 'read'], { cwd: ROOT, env, encoding: 'utf8' });
    expect(made.status).toBe(0);
    const token = made.stdout.trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ source: 'mastodon', action: 'trending', params: {} });

    const first = await startChild();
    // Fill the cache, so the burst is answered by group-committed cache hits.
    const warm = await fetch(`${first.base}/v1/tasks?wait=8000`, { method: 'POST', headers, body });
    expect(warm.status).toBe(200);

    const acknowledged: string[] = [];
    const BURST = 400;
    const KILL_AFTER = 150;
    await new Promise<void>((done) => {
      let settled = 0;
      const settle = () => {
        if (++settled === BURST) done();
      };
      for (let i = 0; i < BURST; i++) {
        fetch(`${first.base}/v1/tasks`, { method: 'POST', headers, body })
          .then(async (res) => {
            if (res.status === 202) {
              acknowledged.push(((await res.json()) as { task_id: string }).task_id);
              // The moment enough answers are in, the process dies: no graceful close, no later flush.
              if (acknowledged.length === KILL_AFTER) first.child.kill('SIGKILL');
            }
          })
          .catch(() => {})
          .finally(settle);
      }
    });
    await new Promise((r) => (first.child.exitCode !== null || first.child.signalCode ? r(null) : first.child.once('exit', r)));
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await startChild();
    const missing: string[] = [];
    for (const id of acknowledged) {
      const res = await fetch(`${second.base}/v1/tasks/${id}`, { headers });
      if (res.status !== 200) missing.push(id);
      else await res.arrayBuffer();
    }
    second.child.kill('SIGKILL');
    expect(missing).toEqual([]);
  }, 90_000);
});
