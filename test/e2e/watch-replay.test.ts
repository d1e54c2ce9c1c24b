import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/openapi/types.js';
import { schemaChecker } from '../helpers/openapi.js';
import { startService, until, type Running } from '../helpers/service.js';

/* Watches over real adapters in replay mode (the sandbox recordings), one per result shape, under a hand-moved clock. */
let clock = Date.UTC(2026, 0, 1);
let s: Running;
beforeAll(async () => {
  s = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')], watchTickMs: 3_600_000 }, watches: { now: () => clock } });
});
afterAll(async () => {
  await s?.close();
});

const cases: Array<[string, string, Record<string, unknown>, string, (r: any) => unknown[]]> = [
  ['bilibili', 'search', { query: '洛天依', limit: 5 }, 'Envelope', (r) => r.items],
  ['reddit', 'comments', { query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/' }, 'CommentsResult', (r) => r.items],
  ['mastodon', 'trending', {}, 'TrendResult', (r) => r.data.trends],
];

describe('watches in replay mode', () => {
  it('the first run of each shape has every item new; the same page again has none, and both answers match the document', async () => {
    const check = schemaChecker((await s.api('/v1/openapi.json', { token: null })).body as OpenApiDocument);
    const ids: string[] = [];
    for (const [source, action, params] of cases) {
      const r = await s.api('/v1/watches', { method: 'POST', json: { source, action, params, every_s: 3600 } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.watch_id);
    }
    const runs = async (n: number) =>
      Promise.all(
        ids.map((id) =>
          until(async () => {
            const w = (await s.api(`/v1/watches/${id}`)).body;
            return w.recent_runs.length === n ? w : undefined;
          }),
        ),
      );
    expect(await s.svc.watches.scheduler.tick()).toBe(3);
    const first = await runs(1);
    clock += 3600_000;
    expect(await s.svc.watches.scheduler.tick()).toBe(3);
    const second = await runs(2);
    for (const [i, [source, action, , shape, list]] of cases.entries()) {
      const a = (await s.api(`/v1/tasks/${first[i].last_task_id}`)).body;
      const b = (await s.api(`/v1/tasks/${second[i].last_task_id}`)).body;
      const label = `${source}.${action}`;
      expect(a.result.source, label).toBe('live');
      expect(list(a.result).length, label).toBeGreaterThan(0);
      expect(a.result.watch, label).toMatchObject({ new_count: list(a.result).length, seen_count: 0 });
      expect(list(b.result), label).toEqual([]);
      expect(b.result.watch, label).toMatchObject({ new_count: 0, seen_count: list(a.result).length });
      for (const t of [a, b]) {
        expect(check.component('Task', t), label).toEqual([]);
        expect(check.component(shape, t.result), label).toEqual([]);
      }
    }
  });
});
