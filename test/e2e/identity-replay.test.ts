import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startHttpProxy, type TestProxy } from '../helpers/proxies.js';
import { startService, type Running } from '../helpers/service.js';

/** Replay mode with a proxied profile: the recordings answer, nothing reaches the proxy, and the result says so. */
let fake: FakePlatform;
let proxy: TestProxy;
let s: Running;
const dir = mkdtempSync(join(tmpdir(), 'identity-replay-'));

beforeAll(async () => {
  fake = await startFakePlatform();
  proxy = await startHttpProxy();
  const har = join(dir, 'fake.har');
  const items = [{ id: '1001', text: 'replayed post', user: { id: '42', name: 'Fake Creator', handle: 'fake' }, created: 1_700_000_001, likes: 2, image: 'https://cdn.fake.test/i/1.jpg' }];
  writeFileSync(
    har,
    JSON.stringify({
      log: {
        version: '1.2',
        entries: [
          {
            comment: 'hand-made test recording: one page of the fake platform search',
            request: { method: 'GET', url: `${fake.url}/search?q=replayed`, headers: [] },
            response: { status: 200, statusText: 'OK', headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: JSON.stringify({ items, next: null }) } },
          },
        ],
      },
    }),
  );
  s = await startService({ adapters: [fake.adapter], config: { replay: [har] } });
  expect((await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'px', cookies: 'S=1', proxy: proxy.url } })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await proxy?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a proxied profile in replay mode', () => {
  it('is answered from the recordings, never through its proxy, with a warning saying so', async () => {
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'replayed', profile: 'px' } } });
    expect(r.body.status).toBe('succeeded');
    expect(r.body.result.items.map((i: { text: string }) => i.text)).toEqual(['replayed post']);
    expect(r.body.result.warnings).toContain(`profile "px" has a proxy (http://127.0.0.1:${proxy.port}) that was not used: the crawl was replayed from recordings`);
    expect(proxy.seen).toEqual([]);
    expect(fake.hits).toEqual([]);
  });
});
