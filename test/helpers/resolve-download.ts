import pino from 'pino';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { rankCandidates } from '../../src/download/pick.js';
import type { DownloadAction, DownloadPlan, MediaSlot, StreamCandidate } from '../../src/download/types.js';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';
import { validateParams } from '../../src/tasks/params.js';

/**
 * Runs one platform's download resolver (catalog validation included) with every request answered from
 * recordings, and gives the plan: the streams the core would choose from.
 */
export async function resolveDownload(input: { source: string; params: Record<string, unknown>; replay: string[]; session?: { cookies?: string; credentials?: Record<string, string> } }): Promise<{ plan: DownloadPlan; requests: string[]; warnings: string[] }> {
  const registry = new Registry();
  const found = buildCatalog(registry).get(input.source, 'download');
  if (!found) throw new Error(`no catalog entry ${input.source}.download`);
  const params = validateParams(found.entry, input.params);
  const dispatcher = new ReplayDispatcher({ recordings: loadRecordings(input.replay), rulesFor: (h) => registry.forHost(h)?.replay });
  const requests: string[] = [];
  const warnings: string[] = [];
  const ctx = makeContext({
    adapter: found.adapter,
    profile: 'default',
    cookies: input.session?.cookies,
    credentials: input.session?.credentials,
    memo: new MemoryMemo(),
    dispatcher,
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings,
    onRequest: (m, u) => requests.push(`${m} ${u.toString()}`),
  });
  const plan = await (found.def as DownloadAction).resolve(ctx, params);
  return { plan, requests, warnings };
}

/** What the core's picker tries first for quality=best (src/download/pick.ts). */
export const pickBest = (slot: MediaSlot): StreamCandidate => rankCandidates(slot.candidates, 'best')[0]!;

/** Every candidate of a plan with its slot's index, for assertions. */
export const allCandidates = (plan: DownloadPlan): StreamCandidate[] => plan.slots.flatMap((s) => s.candidates);
