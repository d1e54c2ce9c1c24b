import { expect } from 'vitest';
import type { Running } from './service.js';

/**
 * Submits one task to a service running in replay mode and requires what a caller expects of a recorded
 * action: answered inline, succeeded, a live source, at least one item (or trend, or the author).
 */
export async function expectLiveItems(s: Running, source: string, action: string, params: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source, action, params } });
  expect(r.status, JSON.stringify(r.body).slice(0, 600)).toBe(200);
  expect(r.body.status).toBe('succeeded');
  const result = r.body.result;
  expect(result.error, JSON.stringify(result.error)).toBeUndefined();
  expect(result.source).toBe('live');
  const n = result.items?.length || result.data?.trends?.length || (result.data?.author ? 1 : 0);
  expect(n).toBeGreaterThan(0);
  return result;
}
