import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../helpers/service.js';

/* The package as a user gets it: client/dist, built from client/src, importable by plain node on its own. */
const ROOT = resolve(import.meta.dirname, '../..');
const CLIENT = join(ROOT, 'client');
const DIST = join(CLIENT, 'dist');
const tmp = mkdtempSync(join(tmpdir(), 'crawler-client-pkg-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const files = (dir: string) => readdirSync(dir).sort();

describe('the built client package', () => {
  it('is exactly what `npm run build:client` makes of client/src (rebuild and commit dist after a change)', () => {
    const out = join(tmp, 'rebuilt');
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(CLIENT, 'tsconfig.json'), '--outDir', out], { encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(files(DIST)).toEqual(files(out));
    for (const f of files(out)) expect(readFileSync(join(DIST, f), 'utf8'), `client/dist/${f} is stale`).toBe(readFileSync(join(out, f), 'utf8'));
  }, 120_000);

  it('references nothing outside itself: only relative imports of its own files, no dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.type).toBe('module');
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    const names = new Set(files(DIST));
    for (const f of names) {
      const text = readFileSync(join(DIST, f), 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
      for (const s of specifiers) {
        expect(s, `${f} imports ${s}`).toMatch(/^\.\/[\w-]+\.js$/);
        const target = s.slice(2);
        expect(names.has(f.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target), `${f} imports ${s}`).toBe(true);
      }
      expect(text).not.toMatch(/reference (types|path)=/);
    }
  });

  it('runs from plain node, imported by its package name, against the real service', async () => {
    const s = await startService({ config: { replay: [resolve(ROOT, 'sandbox')] } });
    try {
      const app = join(tmp, 'app');
      mkdirSync(join(app, 'node_modules', '@social-crawler'), { recursive: true });
      symlinkSync(CLIENT, join(app, 'node_modules', '@social-crawler', 'client'), 'dir');
      writeFileSync(join(app, 'package.json'), '{"type":"module"}');
      writeFileSync(
        join(app, 'main.js'),
        `import { CrawlerClient, CrawlerError } from '@social-crawler/client';
const client = new CrawlerClient({ url: process.env.URL, token: process.env.TOKEN });
const task = await client.wait({ source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 5 } });
const items = [];
for await (const item of client.walk('weibo', 'posts', { query: '6279793937', limit: 5 })) items.push(item.id);
const refused = await new CrawlerClient({ url: process.env.URL }).catalog().catch((e) => e);
console.log(JSON.stringify({ status: task.status, count: task.result.count, walked: items.length, thumb: client.mediaUrl(task.result.items[0].thumb), error: [refused instanceof CrawlerError, refused.code, refused.status] }));
`,
      );
      const token = await s.token(['read']);
      const child = spawn(process.execPath, ['main.js'], { cwd: app, env: { PATH: process.env.PATH, URL: s.base, TOKEN: token } });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b));
      child.stderr.on('data', (b: Buffer) => (err += b));
      const code = await new Promise((r) => child.on('exit', r));
      expect(code, err).toBe(0);
      expect(JSON.parse(out)).toEqual({ status: 'succeeded', count: 5, walked: 7, thumb: expect.stringMatching(new RegExp(`^${s.base}/v1/media\\?u=`)), error: [true, 'auth_required', 401] });
    } finally {
      await s.close();
    }
  }, 60_000);
});
