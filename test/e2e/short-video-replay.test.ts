import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLiveItems } from '../helpers/replay-task.js';
import { startService, type Running } from '../helpers/service.js';

/*
 * The short-video adapters through the running service, as a caller sees them: every catalog action of
 * douyin, tiktok, kuaishou and toutiao submitted over HTTP with CRAWLER_REPLAY pointing at the whole
 * sandbox (all platforms' recordings side by side, as `npm run demo` loads them).
 */
let s: Running;
beforeAll(async () => {
  s = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
});
afterAll(async () => {
  await s?.close();
});

const DY_USER = 'MS4wLjABAAAAsandboxTravelerX9kQ2mV7pL4nR8sT1uW3yZ5aB6cD0eF';
const TT_TOKEN = 'MS4wLjABAAAAq3Yk8mZxWc2aNfR0uT7pLh4sVbE9oDj1iKQ6wGyCX5M';
const CASES: Array<[string, string, Record<string, unknown>]> = [
  ['douyin', 'search', { query: '旅行' }],
  ['douyin', 'posts', { query: DY_USER, max_items: 10 }],
  ['douyin', 'user', { query: `https://www.douyin.com/user/${DY_USER}` }],
  ['douyin', 'detail', { query: 'https://v.douyin.com/iSbxDemo/' }],
  ['douyin', 'comments', { query: '7300000000000000001' }],
  ['douyin', 'comments', { query: '7300000000000000001', replies_of: '7300000000000100001' }],
  ['douyin', 'hot', { category: 'rising' }],
  ['douyin', 'recommended', {}],
  ['douyin', 'trending', { board: 'star' }],
  ['tiktok', 'search', { query: 'harbor cooking', type: 'video' }],
  ['tiktok', 'posts', { query: '@harborcook', max_items: -1 }],
  ['tiktok', 'user', { query: '@harborcook' }],
  ['tiktok', 'detail', { query: 'https://www.tiktok.com/@harborcook/video/7345678901234567890' }],
  ['tiktok', 'comments', { query: '7345678901234567890', replies_of: '7345679000000000001' }],
  ['tiktok', 'recommended', { limit: 3 }],
  ['kuaishou', 'search', { query: '美食' }],
  ['kuaishou', 'posts', { query: 'https://v.kuaishou.com/pRfL8k', max_items: -1 }],
  ['kuaishou', 'user', { query: '3xk7hbmn2q4wfzs' }],
  ['kuaishou', 'detail', { query: '3xp4tq7wz3hb5ca' }],
  ['kuaishou', 'comments', { query: '3xs9d8k2mf4nq6e' }],
  ['kuaishou', 'hot', {}],
  ['kuaishou', 'trending', {}],
  ['toutiao', 'hot', {}],
  ['toutiao', 'trending', {}],
  ['toutiao', 'search', { query: '人工智能' }],
  ['toutiao', 'posts', { query: TT_TOKEN, limit: 3 }],
  ['toutiao', 'user', { query: TT_TOKEN }],
  ['toutiao', 'detail', { query: 'https://www.toutiao.com/video/7505382061495176511/' }],
  ['toutiao', 'comments', { query: '7506218830561436223' }],
];

describe('short-video platforms through the running service (replay)', () => {
  it('lists the four in GET /v1/task-sources with their actions', async () => {
    const r = await s.api('/v1/task-sources');
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    for (const [source, action] of CASES) expect(text).toContain(`${source}.${action}`);
  });

  for (const [source, action, params] of CASES) {
    it(`${source}.${action} ${JSON.stringify(params)} succeeds live with items`, async () => {
      const result = await expectLiveItems(s, source, action, params);
      expect(result.warnings).toContain('replayed from recordings (CRAWLER_REPLAY): not a live crawl');
    });
  }
});
