import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import type { CrawlContext, PlatformAdapter } from '../../src/platforms/types.js';
import { Registry } from '../../src/platforms/registry.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';

/**
 * A crawl context for calling an adapter's probe directly, answered from HAR files and, optionally, one
 * hand-made GET answer written to a temp HAR (test-only).
 */
export function probeCtx(adapter: PlatformAdapter, files: string[], cookies?: string, answer?: { url: string; status?: number; body: unknown }): CrawlContext {
  const all = [...files];
  if (answer) {
    const file = join(mkdtempSync(join(tmpdir(), 'probe-')), 'answer.har');
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [{ comment: 'hand-made test recording', request: { method: 'GET', url: answer.url, headers: [] }, response: { status: answer.status ?? 200, statusText: '', headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text } } }] } }));
    all.push(file);
  }
  const registry = new Registry();
  return makeContext({
    adapter,
    profile: 'default',
    cookies,
    memo: new MemoryMemo(),
    dispatcher: new ReplayDispatcher({ recordings: loadRecordings(all), rulesFor: (h) => registry.forHost(h)?.replay }),
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings: [],
  });
}
