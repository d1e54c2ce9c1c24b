import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_DIR, CONSOLE_FILES, consolePolicy } from '../../src/api/routes/console.js';
import { startService, type Running } from '../helpers/service.js';

let s: Running;

beforeAll(async () => {
  s = await startService({ config: { publicUrl: 'https://crawler.example.net' } });
});
afterAll(async () => {
  await s?.close();
});

const raw = (path: string, init?: RequestInit) => fetch(`${s.base}${path}`, init);

describe('GET /console and its files', () => {
  it('serves the page without a token, under a strict content security policy', async () => {
    for (const path of ['/console', '/console/']) {
      const r = await raw(path);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      // Results point at CRAWLER_PUBLIC_URL: their thumbs and clips must load too.
      expect(csp).toContain("img-src 'self' https://crawler.example.net");
      expect(csp).toContain("media-src 'self' https://crawler.example.net");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      const html = await r.text();
      expect(html).toContain('<script type="module" src="/console/app.js"></script>');
      // No inline script or style: the policy would refuse them.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style|style="/);
    }
  });

  it('answers each listed file with its content type', async () => {
    const want: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml', html: 'text/html; charset=utf-8' };
    for (const name of CONSOLE_FILES) {
      const r = await raw(`/console/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.headers.get('content-type'), name).toBe(want[name.split('.').pop()!]);
      expect((await r.arrayBuffer()).byteLength, name).toBeGreaterThan(0);
    }
  });

  it('lists exactly the files of console/, so none is missing or left unserved', () => {
    const onDisk = readdirSync(fileURLToPath(CONSOLE_DIR)).sort();
    expect([...CONSOLE_FILES].sort()).toEqual(onDisk);
  });

  it('revalidates with the ETag: 304 while unchanged, and HEAD carries the same headers', async () => {
    const first = await raw('/console/app.js');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"c-[A-Za-z0-9_-]{22}"$/);
    const again = await raw('/console/app.js', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await raw('/console/api.js', { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
    const head = await raw('/console/app.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('refuses anything off the list with the spec error body, traversal attempts included', async () => {
    for (const path of [
      '/console/nope.js',
      '/console/..%2Fpackage.json',
      '/console/%2e%2e%2fpackage.json',
      '/console/..%5Cpackage.json',
      '/console/.%2Fapp.js',
      '/console/app.js%00.html',
      '/console/APP.JS',
      '/console/sub/app.js',
    ]) {
      const r = await raw(path);
      expect(r.status, path).toBe(404);
      const body = await r.json();
      expect(body, path).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(JSON.stringify(body)).not.toContain('"name": "social-crawler"');
    }
    const post = await raw('/console', { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('keeps the API behind its token: the console page is public, the data is not', async () => {
    expect((await raw('/v1/tasks')).status).toBe(401);
  });

  it('is not served by a worker process (which answers its health check only)', async () => {
    const worker = await startService({ deployment: { mode: 'embedded', role: 'worker' } });
    try {
      for (const path of ['/console', '/console/app.js']) expect((await fetch(`${worker.base}${path}`)).status, path).toBe(404);
    } finally {
      await worker.close();
    }
  });
});

describe('consolePolicy', () => {
  it('allows media from the public origin only, never from anywhere', () => {
    expect(consolePolicy()).toContain("img-src 'self';");
    expect(consolePolicy('https://api.example.com/base')).toContain("img-src 'self' https://api.example.com;");
    expect(consolePolicy()).not.toMatch(/\*|data:|blob:/);
  });
});
