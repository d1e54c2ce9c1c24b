import { resolve } from 'node:path';
import pino from 'pino';
import { DEFAULT_UA } from '../../src/crawl/http.js';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import type { TaskResult } from '../../src/domain/results.js';
import { mediaUrlBuilder } from '../../src/media/urls.js';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';
import type { GuestJar } from '../../src/platforms/types.js';
import { executeAction } from '../../src/tasks/execute.js';
import { validateParams } from '../../src/tasks/params.js';

export const FIXTURES = resolve(process.cwd(), '../shared/fixtures');
export const SANDBOX = resolve(process.cwd(), 'sandbox');

export interface RunActionInput {
  source: string;
  action: string;
  params?: Record<string, unknown>;
  /** .har files or directories answering the crawl's requests. */
  replay: string[];
  /** The profile's stored login, as the runner would hand it over. */
  session?: { cookies?: string; credentials?: Record<string, string> };
  /** Shared across calls to emulate one process (signing keys, resolved ids). */
  memo?: MemoryMemo;
  /** The account's persisted state (guest tokens, rate-limit windows), shared across calls to emulate one account. */
  guest?: GuestJar;
  /** Run under replay-mode rules as the service does with CRAWLER_REPLAY (default: live-mode rules). */
  replayMode?: boolean;
  /** In-page signer (a test double standing for the profile's browser). */
  signer?: import('../../src/platforms/types.js').PageSigning;
  /** As CRAWLER_SIGN_MODE would set them. */
  signModes?: ReadonlyMap<string, 'native' | 'browser' | 'auto'>;
}

/** An account's state kept in memory, as the service keeps it persisted: pass one to several runs to emulate one account. */
export function memoryGuest(): GuestJar {
  return Object.assign(new MemoryMemo(), { userAgent: DEFAULT_UA });
}

/**
 * Runs one action through the real catalog validation, adapter and normalization, with every request
 * answered from recordings. A request no recording matches rejects (ReplayMiss).
 */
export async function runAction(input: RunActionInput): Promise<{ result: TaskResult; requests: string[]; warnings: string[] }> {
  const registry = new Registry();
  const catalog = buildCatalog(registry);
  const found = catalog.get(input.source, input.action);
  if (!found) throw new Error(`no catalog entry ${input.source}.${input.action}`);
  const params = validateParams(found.entry, input.params ?? {});
  const dispatcher = new ReplayDispatcher({ recordings: loadRecordings(input.replay), rulesFor: (h) => registry.forHost(h)?.replay });
  const requests: string[] = [];
  const warnings: string[] = [];
  const ctx = makeContext({
    adapter: found.adapter,
    profile: (params.profile as string) ?? 'default',
    cookies: input.session?.cookies,
    credentials: input.session?.credentials,
    memo: input.memo ?? new MemoryMemo(),
    guest: input.guest,
    dispatcher,
    replay: input.replayMode ?? false,
    signer: input.signer,
    signModes: input.signModes,
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings,
    onRequest: (m, u) => requests.push(`${m} ${u.toString()}`),
  });
  const result = await executeAction({ adapter: found.adapter, def: found.def, params, ctx, urls: mediaUrlBuilder(), warnings });
  return { result, requests, warnings };
}
