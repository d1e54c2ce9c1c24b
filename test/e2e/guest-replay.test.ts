import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../helpers/service.js';

/** Hand-made test recordings in the documented shapes of weibo.com and passport's visitor flow. */
function entry(method: string, url: string, status: number, body: string, headers: Record<string, string> = {}, post?: string) {
  return {
    comment: 'hand-made test recording: weibo visitor wall and mint',
    request: { method, url, headers: [], ...(post ? { postData: { mimeType: 'application/x-www-form-urlencoded', text: post } } : {}) },
    response: { status, statusText: '', headers: Object.entries({ 'content-type': 'application/json', ...headers }).map(([name, value]) => ({ name, value })), content: { mimeType: headers['content-type'] ?? 'application/json', text: body } },
  };
}
const user = (uid: string) => JSON.stringify({ ok: 1, data: { user: { id: Number(uid), idstr: uid, screen_name: `visitor-${uid}`, followers_count: 12, friends_count: 3, statuses_count: 4, verified: false, description: 'x' } } });

const dir = mkdtempSync(join(tmpdir(), 'guest-replay-'));
const har = join(dir, 'weibo-visitor.har');
writeFileSync(
  har,
  JSON.stringify({
    log: {
      version: '1.2',
      entries: [
        entry('GET', 'https://weibo.com/ajax/profile/info?uid=7000000001', 302, '', { location: 'https://passport.weibo.com/visitor/visitor?entry=miniblog&a=enter&url=https%3A%2F%2Fweibo.com%2F&domain=weibo.com' }),
        entry('POST', 'https://passport.weibo.com/visitor/genvisitor', 200, 'window.gen_callback && gen_callback({"retcode":20000000,"msg":"succ","data":{"tid":"TID-1","new_tid":true,"confidence":95}});', { 'content-type': 'text/javascript' }, 'cb=gen_callback&fp=%7B%7D'),
        entry('GET', 'https://passport.weibo.com/visitor/visitor?a=incarnate&t=TID-1&w=3&c=095&gc=&cb=cross_domain&from=weibo', 200, 'window.cross_domain && cross_domain({"retcode":20000000,"msg":"succ","data":{"sub":"_2A-visitor-sub","subp":"0033-visitor-subp"}});', { 'content-type': 'text/javascript' }),
        entry('GET', 'https://weibo.com/ajax/profile/info?uid=7000000001', 200, user('7000000001')),
        entry('GET', 'https://weibo.com/ajax/profile/info?uid=7000000002', 200, user('7000000002')),
      ],
    },
  }),
);
const data = mkdtempSync(join(tmpdir(), 'guest-data-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

const weiboRequests = async (s: Awaited<ReturnType<typeof startService>>) => {
  const m = await s.api('/metrics');
  return Number(/crawler_upstream_requests_total\{platform="weibo"\} (\d+)/.exec(m.text)?.[1] ?? 0);
};

describe('guest sessions in replay', () => {
  it('mints visitor cookies at the wall, keeps them sealed across a restart, and reuses them', async () => {
    const first = await startService({ dataDir: data, config: { replay: [har] } });
    try {
      const r = await first.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'weibo', action: 'user', params: { query: '7000000001' } } });
      expect(r.body.result, JSON.stringify(r.body).slice(0, 300)).toMatchObject({ ok: true, source: 'live', data: { author: { id: '7000000001', followers: 12 } } });
      // m.weibo.cn (no recording) → weibo.com wall → genvisitor → incarnate → weibo.com again.
      expect(await weiboRequests(first)).toBe(5);
      expect((await first.svc.store.guestJarGet('weibo:default'))?.data).toContain('_2A-visitor-sub');
    } finally {
      await first.close({ keepData: true });
    }
    const again = await startService({ dataDir: data, config: { replay: [har] } });
    try {
      const r = await again.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'weibo', action: 'user', params: { query: '7000000002' } } });
      expect(r.body.result).toMatchObject({ ok: true, data: { author: { id: '7000000002' } } });
      // No second mint: the persisted pair went along (m.weibo.cn miss + weibo.com).
      expect(await weiboRequests(again)).toBe(2);
    } finally {
      await again.close({ keepData: true });
    }
  });
});
