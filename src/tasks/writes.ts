import { createHash } from 'node:crypto';
import { ApiError, HTTP_STATUS } from '../domain/errors.js';
import { CrawlError } from '../crawl/errors.js';
import type { WriteResult } from '../domain/results.js';
import type { ActionDef, Params, PlatformAdapter, WriteAction, WritePlan } from '../platforms/types.js';

export const WRITE_ACTIONS = new Set(['post.create', 'comment.create', 'delete']);
/** Keys are kept at least this long (decisions.md: ≥ 24 h). */
export const IDEMPOTENCY_KEEP_MS = 48 * 3600_000;
const PLAN_TIMEOUT_MS = 8000;

/** First write call without confirm: answered 409 with the plan, nothing queued. */
export class NeedsConfirmation extends Error {
  constructor(readonly body: { status: 'needs_confirmation'; plan: WritePlan & { action: string; params: Params } }) {
    super('needs_confirmation');
  }
}

export function isWrite(def: ActionDef): def is WriteAction {
  return def.shape === 'write';
}

export function requireWriteScope(scopes: readonly string[]): void {
  if (!scopes.includes('write') && !scopes.includes('admin')) {
    throw new ApiError('forbidden_scope', `write verbs need a token with the "write" scope (this token has: ${scopes.join(', ') || 'none'})`);
  }
}

/** What the caller sees of the params in a plan: secrets never echo. */
export function publicParams(params: Params): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(params)) if (!/password|secret|token|cookie/i.test(k)) out[k] = v;
  return out;
}

export function paramsHash(params: Params): string {
  // Where the outcome is announced does not change the write: a repeat with another callback_url is the same write.
  const { confirm: _c, dry_run: _d, callback_url: _u, ...rest } = params;
  const sorted = Object.keys(rest)
    .sort()
    .map((k) => [k, rest[k]]);
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

/** Runs the adapter's plan with a deadline; its errors become the caller's 4xx/5xx. */
export async function planWrite(adapter: PlatformAdapter, action: string, def: WriteAction, params: Params, run: (signal: AbortSignal) => Promise<WritePlan>): Promise<never> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), PLAN_TIMEOUT_MS);
  let plan: WritePlan;
  try {
    plan = await run(ac.signal);
  } catch (e) {
    if (e instanceof CrawlError) throw new ApiError(e.code, e.message, HTTP_STATUS[e.code]);
    throw e;
  } finally {
    clearTimeout(timer);
  }
  throw new NeedsConfirmation({ status: 'needs_confirmation', plan: { action: `${adapter.id}.${action}`, ...plan, params: publicParams(params) } });
}

export function duplicateResult(platform: string, originalTaskId: string): WriteResult {
  return {
    ok: false,
    state: 'duplicate',
    source: platform,
    ms: 0,
    task_id: originalTaskId,
    error: { code: 'duplicate', message: `a write with this idempotency_key is still in flight: poll task ${originalTaskId}`, retryable: true },
  };
}
