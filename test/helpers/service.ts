import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Config } from '../../src/config.js';
import { loadConfig } from '../../src/config.js';
import { Registry } from '../../src/platforms/registry.js';
import type { PlatformAdapter } from '../../src/platforms/types.js';
import { createService, type Service, type ServiceOptions } from '../../src/service.js';

export interface Running {
  base: string;
  svc: Service;
  dataDir: string;
  token(scopes?: Array<'read' | 'write' | 'admin'>): Promise<string>;
  api(path: string, init?: RequestInit & { token?: string | null; json?: unknown }): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/** Test-only service options (resolvers, clocks, fleet timings) pass straight through to createService. */
export type StartOptions = Omit<ServiceOptions, 'registry' | 'logger' | 'pingMs'> & { adapters?: PlatformAdapter[]; config?: Partial<Config>; dataDir?: string; pingMs?: number };

/** Starts the real service in-process on a loopback port with a fresh data dir. */
export async function startService(o: StartOptions = {}): Promise<Running> {
  const { adapters, config: overrides, dataDir: givenDir, pingMs, ...options } = o;
  const dataDir = givenDir ?? mkdtempSync(join(tmpdir(), 'crawler-test-'));
  const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, workers: 4, minGapMs: 0, logLevel: 'silent', ...overrides });
  const svc = createService(config, { ...options, registry: adapters ? new Registry(adapters) : undefined, logger: pino({ level: 'silent' }), pingMs: pingMs ?? 200 });
  const base = (await svc.listen()).replace('0.0.0.0', '127.0.0.1');
  let defaultToken: string | undefined;
  const token = async (scopes: Array<'read' | 'write' | 'admin'> = ['read']) => (await svc.tokens.create(scopes)).token;
  return {
    base,
    svc,
    dataDir,
    token,
    async api(path, init = {}) {
      defaultToken ??= await token(['read', 'write', 'admin']);
      const headers = new Headers(init.headers);
      const t = init.token === undefined ? defaultToken : init.token;
      if (t) headers.set('authorization', `Bearer ${t}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      const res = await fetch(base + path, { ...init, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed, headers: res.headers, text };
    },
    async close(opts = {}) {
      await svc.close();
      if (!opts.keepData && !givenDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 10_000, every = 25): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, every));
  }
}
