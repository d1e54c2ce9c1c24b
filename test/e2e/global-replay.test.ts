import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLiveItems } from '../helpers/replay-task.js';
import { startService, type Running } from '../helpers/service.js';

/*
 * The global platforms through the running service, as a caller sees them: every catalog action submitted
 * over HTTP with CRAWLER_REPLAY pointing at the whole sandbox. Login-gated actions run with a profile
 * stored through the API first, as an operator would.
 */
let s: Running;
beforeAll(async () => {
  s = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
  for (const [platform, cookies] of [
    ['threads', 'sessionid=63100000007%3Asandbox%3A1; csrftoken=SandboxLoginCsrf; ds_user_id=63100000007'],
    ['facebook', 'c_user=100000000000777; xs=7%3Asandbox%3A2%3A1700000000'],
    ['instagram', 'sessionid=52418700001%3AsbxSession%3A12; csrftoken=SbxWriterCsrf0001; ds_user_id=52418700001'],
    ['twitter', 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface'],
  ]) {
    const r = await s.api('/v1/profiles', { method: 'POST', json: { platform, name: 'me', cookies } });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  }
});
afterAll(async () => {
  await s?.close();
});

const CASES: Array<[string, string, Record<string, unknown>]> = [
  ['instagram', 'search', { query: 'gull', type: 'users' }],
  ['instagram', 'posts', { query: 'harborcook', max_items: -1 }],
  ['instagram', 'user', { query: '@harborcook' }],
  ['instagram', 'detail', { query: 'DH1xO0naABl' }],
  ['instagram', 'comments', { query: 'DH1xO0naABl', limit: 10 }],
  ['instagram', 'comments', { query: 'DH1xO0naABl', replies_of: '18010000000000001' }],
  ['threads', 'posts', { query: 'https://www.threads.net/@harbor.lights', max_items: -1 }],
  ['threads', 'user', { query: '@Harbor.Lights' }],
  ['threads', 'detail', { query: '3712000000000000001' }],
  ['threads', 'comments', { query: '3712000000000000001', replies_of: '3712000000000000101' }],
  ['facebook', 'posts', { query: '@HarborBakery', max_items: -1 }],
  ['facebook', 'detail', { query: 'https://fb.watch/hArB0rLoaf/' }],
  ['facebook', 'comments', { query: 'https://www.facebook.com/HarborBakery/posts/100064000000101', limit: 10 }],
  ['pinterest', 'search', { query: 'harbor lights', limit: 10 }],
  ['pinterest', 'search', { query: 'lighthouse', type: 'boards' }],
  ['pinterest', 'posts', { query: 'https://www.pinterest.com/harborlight/', max_items: 10 }],
  ['pinterest', 'user', { query: 'harborlight' }],
  ['pinterest', 'detail', { query: 'https://www.pinterest.com/pin/981234567890120003/' }],
  ['pinterest', 'recommended', { query: '981234567890120001' }],
  ['threads', 'search', { query: 'tide pools', limit: 10, profile: 'me' }],
  ['facebook', 'search', { query: 'harbor bread', profile: 'me' }],
  ['instagram', 'search', { query: '#harborfood', profile: 'me' }],
  ['instagram', 'posts', { query: 'harborcook', tab: 'reels', profile: 'me' }],
  ['twitter', 'detail', { query: 'https://x.com/harborweather/status/2045936718443446274' }],
  ['twitter', 'search', { query: 'harbor fog', limit: 10, profile: 'me' }],
  ['twitter', 'search', { query: 'harbor', product: 'People', profile: 'me' }],
  ['twitter', 'posts', { query: '@harborweather', max_items: -1, profile: 'me' }],
  ['twitter', 'user', { query: '@harborweather', profile: 'me' }],
  ['twitter', 'comments', { query: 'https://fxtwitter.com/harborweather/status/2045936718443446274', limit: 50, profile: 'me' }],
  ['twitter', 'trending', { board: 'explore', profile: 'me' }],
];

describe('twitter, instagram, threads, facebook, pinterest through the running service (replay)', () => {
  for (const [source, action, params] of CASES) {
    it(`${source}.${action} ${JSON.stringify(params)} succeeds live with items`, async () => {
      await expectLiveItems(s, source, action, params);
    });
  }
  it.each([
    ['threads', 'search', { query: 'tide pools' }],
    ['facebook', 'search', { query: 'harbor bread' }],
    ['instagram', 'search', { query: '#paris' }],
    ['twitter', 'search', { query: 'harbor fog' }],
  ])('%s.%s without a stored login is session_expired naming the profile to add', async (source, action, params) => {
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source, action, params } });
    expect(r.body.result.error?.code).toBe('session_expired');
    expect(r.body.result.error?.message).toMatch(/profile/i);
  });
});
