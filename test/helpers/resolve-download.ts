import pino from 'pino';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
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

/**
 * The documented choice rule (decisions.md "Download"; the core implements it): `best` takes a clean
 * stream over a watermarked one, then the largest w×h, then the highest bitrate; the first listed wins ties.
 */
export function pickBest(slot: MediaSlot): StreamCandidate {
  const score = (c: StreamCandidate): number[] => [c.watermark ? 0 : 1, (c.w ?? 0) * (c.h ?? 0), c.bitrate ?? 0];
  let best = slot.candidates[0]!;
  for (const c of slot.candidates.slice(1)) {
    const a = score(c);
    const b = score(best);
    const i = a.findIndex((x, k) => x !== b[k]);
    if (i >= 0 && a[i]! > b[i]!) best = c;
  }
  return best;
}

/** Every candidate of a plan with its slot's index, for assertions. */
export const allCandidates = (plan: DownloadPlan): StreamCandidate[] => plan.slots.flatMap((s) => s.candidates);
