import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EXAMPLES } from '../../src/demo.js';
import { startService, type Running } from '../helpers/service.js';

let s: Running;

beforeAll(async () => {
  // Exactly what `npm run demo` loads: the project's own sandbox, nothing from ../shared.
  s = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
});
afterAll(async () => {
  await s?.close();
});

describe('npm run demo', () => {
  for (const e of DEMO_EXAMPLES) {
    it(`answers the banner's ${e.source}.${e.action}`, async () => {
      const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: e });
      expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
      expect(r.body.status).toBe('succeeded');
      const result = r.body.result;
      expect(result.error, JSON.stringify(result.error)).toBeUndefined();
      expect(['live', 'cache']).toContain(result.source);
      const n = result.items?.length || result.data?.trends?.length || 0;
      expect(n).toBeGreaterThan(0);
    });
  }

  it('lists every platform of the registry in the catalog', async () => {
    const caps = await s.api('/v1/capabilities');
    expect(caps.body.providers.map((p: { source: string }) => p.source).sort()).toEqual(['bilibili', 'bluesky', 'mastodon', 'reddit', 'telegram', 'weibo', 'youtube']);
  });
});

describe('replay is deterministic when recordings tie', () => {
  it('answers the same forced telegram.posts ten times in a row with the same items', async () => {
    const firsts: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'telegram', action: 'posts', params: { query: 'harborweather', limit: 5, force: true } } });
      expect(r.body.result.ok, `run ${i}: ${JSON.stringify(r.body.result.error)}`).toBe(true);
      firsts.push(r.body.result.items.map((it: any) => it.id).join(','));
    }
    expect(new Set(firsts).size).toBe(1);
  });
});

describe("the banner's examples in any order", () => {
  for (const [name, order] of [
    ['reversed', [...DEMO_EXAMPLES].reverse()],
    ['rotated', [...DEMO_EXAMPLES.slice(3), ...DEMO_EXAMPLES.slice(0, 3)]],
  ] as const) {
    it(`all succeed ${name}, on a fresh service`, async () => {
      const fresh = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
      try {
        for (const e of order) {
          const r = await fresh.api('/v1/tasks?wait=8000', { method: 'POST', json: { ...e, params: { ...e.params, force: true } } });
          expect(r.body.result?.error, `${e.source}.${e.action}: ${JSON.stringify(r.body.result?.error)}`).toBeUndefined();
        }
      } finally {
        await fresh.close();
      }
    });
  }
});
