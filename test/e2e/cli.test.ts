import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'crawler-cli-'));
  dirs.push(d);
  return d;
};
const envFor = (dataDir: string, extra: Record<string, string> = {}) => ({ ...process.env, CRAWLER_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extra });

/** `npm start` as the README gives it (node bin/start.js serve): builds dist/ if stale, then runs it. */
function start(dataDir: string): Promise<{ child: ChildProcess; stdout: () => string; base: string }> {
  const child = spawn(process.execPath, ['bin/start.js', 'serve'], { cwd: ROOT, env: envFor(dataDir, { LOG_LEVEL: 'info' }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise((ok, fail) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) setTimeout(() => ok({ child, stdout: () => out, base: m[1] }), 200);
    });
    child.once('exit', (code) => fail(new Error(`exited ${code}: ${err}`)));
  });
}

describe('the newcomer’s first minutes', () => {
  it('npx crawler --version prints the version', () => {
    const r = spawnSync(process.execPath, ['bin/crawler.js', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it('npm start runs the compiled service and, while no token exists, says how to make the first one', async () => {
    const dataDir = freshDir();
    const first = await start(dataDir);
    expect(existsSync(join(ROOT, 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', '.built'))).toBe(true);
    const health = await fetch(`${first.base}/v1/health`);
    expect(health.status).toBe(200);
    const out = first.stdout();
    expect(out).toContain('npx crawler tokens create --scopes read,write,admin --name me');
    expect(out).toContain(`listening on ${first.base}`);
    first.child.kill('SIGTERM');
    await new Promise((r) => first.child.once('exit', r));

    const made = spawnSync(process.execPath, ['bin/crawler.js', 'tokens', 'create', '--scopes', 'read'], { cwd: ROOT, env: envFor(dataDir), encoding: 'utf8' });
    expect(made.status).toBe(0);
    const second = await start(dataDir);
    expect(second.stdout()).not.toContain('tokens create');
    const tasks = await fetch(`${second.base}/v1/task-sources`, { headers: { authorization: `Bearer ${made.stdout.trim()}` } });
    expect(tasks.status).toBe(200);
    second.child.kill('SIGKILL');
  }, 120_000);

  it('CRAWLER_REPLAY naming a missing path stops the start with a message naming the variable', () => {
    const r = spawnSync(process.execPath, ['bin/crawler.js', 'serve'], { cwd: ROOT, env: envFor(freshDir(), { CRAWLER_REPLAY: '/no/such/recordings' }), encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^CRAWLER_REPLAY: no such file or directory: \/no\/such\/recordings/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('npx crawler platforms refresh', () => {
  it("re-derives twitter's operation ids from its (recorded) web bundle into <data dir>/ops, used from the next start", () => {
    const dataDir = freshDir();
    const replay = join(ROOT, 'sandbox/twitter');
    const r = spawnSync(process.execPath, ['bin/crawler.js', 'platforms', 'refresh', 'twitter'], { cwd: ROOT, env: envFor(dataDir, { CRAWLER_REPLAY: replay }), encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^twitter: \d+ operations, \d+ differ from the built-in ids/);
    const file = join(dataDir, 'ops', 'twitter.json');
    expect(r.stdout).toContain(file);
    const ops = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(ops).length).toBeGreaterThan(3);
  });
  it('says plainly when a platform keeps no operation data, or does not exist', () => {
    const none = spawnSync(process.execPath, ['bin/crawler.js', 'platforms', 'refresh', 'weibo'], { cwd: ROOT, env: envFor(freshDir()), encoding: 'utf8' });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/weibo keeps no operation data/);
    const unknown = spawnSync(process.execPath, ['bin/crawler.js', 'platforms', 'refresh', 'myspace'], { cwd: ROOT, env: envFor(freshDir()), encoding: 'utf8' });
    expect(unknown.stderr).toMatch(/unknown platform: myspace/);
  });
  it('CRAWLER_<SOURCE>_OPS naming a missing file stops the start with exit 2, naming the variable', () => {
    const r = spawnSync(process.execPath, ['bin/crawler.js', 'serve'], { cwd: ROOT, env: envFor(freshDir(), { CRAWLER_TWITTER_OPS: '/no/such/ops.json' }), encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/CRAWLER_TWITTER_OPS: no such file/);
  });
});
