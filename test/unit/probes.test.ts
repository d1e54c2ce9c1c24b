import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { probeLogin as bilibiliProbe } from '../../src/platforms/bilibili/probe.js';
import { bilibili } from '../../src/platforms/bilibili/index.js';
import { probeLogin as weiboProbe } from '../../src/platforms/weibo/probe.js';
import { weibo } from '../../src/platforms/weibo/index.js';
import type { PlatformAdapter } from '../../src/platforms/types.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';

/** Hand-made answers in the documented shapes (test-only recordings). */
function ctxFor(adapter: PlatformAdapter, url: string, status: number, body: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'probe-'));
  const file = join(dir, 'probe.har');
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [{ comment: 'hand-made test recording', request: { method: 'GET', url, headers: [] }, response: { status, statusText: '', headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: JSON.stringify(body) } } }] } }));
  return makeContext({ adapter, profile: 'default', cookies: 'SUB=x', memo: new MemoryMemo(), dispatcher: new ReplayDispatcher({ recordings: loadRecordings([file]) }), pacer: new LocalPacer(), gapMs: 0, signal: new AbortController().signal, log: pino({ level: 'silent' }), warnings: [] });
}

describe('login probes', () => {
  it('weibo: api/config data.login', async () => {
    expect(await weiboProbe(ctxFor(weibo, 'https://m.weibo.cn/api/config', 200, { ok: 1, data: { login: true, uid: '1' } }))).toBe('ok');
    expect(await weiboProbe(ctxFor(weibo, 'https://m.weibo.cn/api/config', 200, { ok: 1, data: { login: false } }))).toBe('session_expired');
    await expect(weiboProbe(ctxFor(weibo, 'https://m.weibo.cn/api/config', 432, {}))).rejects.toMatchObject({ code: 'blocked' });
  });
  it('bilibili: nav isLogin, -101, risk control', async () => {
    const nav = 'https://api.bilibili.com/x/web-interface/nav';
    expect(await bilibiliProbe(ctxFor(bilibili, nav, 200, { code: 0, data: { isLogin: true } }))).toBe('ok');
    expect(await bilibiliProbe(ctxFor(bilibili, nav, 200, { code: -101, message: '账号未登录', data: { isLogin: false } }))).toBe('session_expired');
    await expect(bilibiliProbe(ctxFor(bilibili, nav, 200, { code: -352 }))).rejects.toMatchObject({ code: 'blocked' });
  });
});
