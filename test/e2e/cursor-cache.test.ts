import { describe, expect, it } from 'vitest';
import type { FakePlatform } from '../helpers/fake-platform.js';
import { useFakeService } from '../helpers/fake-service.js';
import { type Running } from '../helpers/service.js';

let fake: FakePlatform;
let s: Running;
useFakeService((f, r) => ([fake, s] = [f, r]));

const submit = (params: Record<string, unknown>) => s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params } });

describe('the result cache and cursors', () => {
  it('never answers a first page with a later page a cursor fetched (the cache key leaves the cursor out)', async () => {
    const first = await submit({ query: 'walked', limit: 5 });
    const second = await submit({ query: 'walked', limit: 5, cursor: first.body.result.next_cursor });
    expect(second.body.result.items[0].id).toBe('fake:1006');
    const again = await submit({ query: 'walked', limit: 5 });
    expect(again.body.result.source).toBe('cache');
    expect(again.body.result.items.map((i: { id: string }) => i.id)).toEqual(first.body.result.items.map((i: { id: string }) => i.id));
  });
});
