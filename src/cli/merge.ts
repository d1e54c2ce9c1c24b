import type { CommentsResult, Envelope } from '../../client/dist/index.js';

/**
 * The pages of a walk as one result of the same shape, for --json and the table: items joined in order,
 * counts and durations summed, warnings once each, the last page's cursor. One page is returned as it came.
 */
export function mergePages(results: Array<Envelope | CommentsResult>): Envelope | CommentsResult | undefined {
  if (results.length <= 1) return results[0];
  const last = results.at(-1)!;
  const items = results.flatMap((r) => r.items as unknown[]);
  const warnings = [...new Set(results.flatMap((r) => r.warnings ?? []))];
  const ms = results.reduce((sum, r) => sum + r.ms, 0);
  const merged: Record<string, unknown> = { ...results[0], items, ms };
  if ('count' in merged) merged.count = items.length;
  delete merged.next_cursor;
  delete merged.cursor;
  if ('next_cursor' in last && last.next_cursor) merged.next_cursor = last.next_cursor;
  if ('has_more' in last) {
    merged.has_more = last.has_more;
    if (last.cursor) merged.cursor = last.cursor;
  }
  if (warnings.length) merged.warnings = warnings;
  return merged as unknown as Envelope | CommentsResult;
}
