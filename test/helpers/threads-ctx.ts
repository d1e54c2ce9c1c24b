import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { Registry } from '../../src/platforms/registry.js';
import { threads } from '../../src/platforms/threads/index.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';

/** A test answer, written to a temp HAR marked hand-made. */
export interface Answer {
  method?: 'GET' | 'POST';
  url: string;
  /** Form fields the request must carry (POST). */
  form?: Record<string, string>;
  status?: number;
  headers?: Array<[string, string]>;
  body: unknown;
  mime?: string;
}

export function answersHar(answers: Answer[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'threads-')), 'answers.har');
  const entries = answers.map((a) => {
    const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    const mime = a.mime ?? (typeof a.body === 'string' ? 'text/html; charset=utf-8' : 'application/json');
    const form = a.form ? new URLSearchParams(a.form).toString() : undefined;
    return {
      comment: 'hand-made test recording',
      request: { method: a.method ?? 'GET', url: a.url, headers: [], ...(form ? { postData: { mimeType: 'application/x-www-form-urlencoded', text: form } } : {}) },
      response: { status: a.status ?? 200, statusText: '', headers: [['content-type', mime], ...(a.headers ?? [])].map(([name, value]) => ({ name, value })), content: { mimeType: mime, text } },
    };
  });
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries } }));
  return file;
}

/** A threads crawl context answered from HAR files and hand-made answers, with operation data if given. */
export function threadsCtx(opts: { files?: string[]; answers?: Answer[]; cookies?: string; ops?: Record<string, unknown>; requests?: string[]; warnings?: string[] } = {}): CrawlContext {
  const files = [...(opts.files ?? [])];
  if (opts.answers?.length) files.push(answersHar(opts.answers));
  const registry = new Registry();
  return makeContext({
    adapter: threads,
    profile: 'default',
    cookies: opts.cookies,
    memo: new MemoryMemo(),
    ops: opts.ops,
    dispatcher: new ReplayDispatcher({ recordings: loadRecordings(files), rulesFor: (h) => registry.forHost(h)?.replay }),
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings: opts.warnings ?? [],
    onRequest: (m, u) => opts.requests?.push(`${m} ${u.toString()}`),
  });
}
