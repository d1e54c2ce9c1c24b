import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLiveItems } from '../helpers/replay-task.js';
import { startService, type Running } from '../helpers/service.js';

/*
 * xiaohongshu, zhihu and tieba through the running service, as a caller sees them: every catalog action
 * submitted over HTTP with CRAWLER_REPLAY pointing at the whole sandbox. xiaohongshu's API actions need a
 * login: a profile is stored through the API first, as an operator would.
 */
let s: Running;
beforeAll(async () => {
  s = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
  const r = await s.api('/v1/profiles', {
    method: 'POST',
    json: { platform: 'xiaohongshu', name: 'me', cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530; webId=89daffcfb24ae99c9b86c49c47aa5f14' },
  });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
});
afterAll(async () => {
  await s?.close();
});

const CASES: Array<[string, string, Record<string, unknown>]> = [
  ['xiaohongshu', 'search', { query: '旅行', limit: 10, profile: 'me' }],
  ['xiaohongshu', 'search', { query: '旅行', type: 'users', profile: 'me' }],
  ['xiaohongshu', 'posts', { query: '5f1e2d3c000000000101a1b1', max_items: 10, profile: 'me' }],
  ['xiaohongshu', 'user', { query: 'https://www.xiaohongshu.com/user/profile/5f1e2d3c000000000101a1b1' }],
  ['xiaohongshu', 'detail', { query: '6745c0a1000000000703d1e1' }],
  ['xiaohongshu', 'recommended', { category: 'homefeed.food_v3', limit: 10, profile: 'me' }],
  ['zhihu', 'search', { query: '咖啡', limit: 3 }],
  ['zhihu', 'posts', { query: 'sandbox-writer', tab: 'articles' }],
  ['zhihu', 'user', { query: 'https://www.zhihu.com/people/sandbox-writer/answers' }],
  ['zhihu', 'detail', { query: 'https://www.zhihu.com/question/1800000000000000001/answer/1900000000000000001?utm_psn=1' }],
  ['zhihu', 'comments', { query: 'https://www.zhihu.com/answer/1900000000000000001' }],
  ['zhihu', 'comments', { query: 'answer:1900000000000000001', replies_of: '11000000001' }],
  ['zhihu', 'hot', { category: 'digital' }],
  ['zhihu', 'trending', {}],
  ['tieba', 'search', { query: '旅行', limit: 10 }],
  ['tieba', 'posts', { query: '沙盒旅行', max_items: 10 }],
  ['tieba', 'posts', { query: 'traveler_sbx', of: 'user', max_items: 10 }],
  ['tieba', 'user', { query: 'tb.1.5a4db0c1.SandboxTravelerAAAAAAAAA' }],
  ['tieba', 'detail', { query: '7000000001' }],
  ['tieba', 'comments', { query: '7000000001', replies_of: '160000000002', limit: 10 }],
  ['tieba', 'hot', {}],
  ['tieba', 'trending', {}],
];

describe('xiaohongshu, zhihu and tieba through the running service (replay)', () => {
  for (const [source, action, params] of CASES) {
    it(`${source}.${action} ${JSON.stringify(params)} succeeds live with items`, async () => {
      await expectLiveItems(s, source, action, params);
    });
  }
  it('xiaohongshu search without a stored login is session_expired naming what to add', async () => {
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'xiaohongshu', action: 'search', params: { query: '旅行' } } });
    expect(r.body.result.error?.code).toBe('session_expired');
    expect(r.body.result.error?.message).toMatch(/profile/i);
  });
});
