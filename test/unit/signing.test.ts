import { createHash } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Blocked } from '../../src/crawl/errors.js';
import { parseSignModes, signed, signModeFor, SignatureRefused } from '../../src/crawl/signing.js';
import { xBogus } from '../../src/crawl/bytedance/xbogus.js';
import { aBogus, browserFingerprint } from '../../src/crawl/bytedance/abogus.js';
import type { CrawlContext, PageSigning } from '../../src/platforms/types.js';
import { loadConfig, ConfigError } from '../../src/config.js';

const page: PageSigning = { sign: async () => 'page' as never };
function ctx(over: Partial<CrawlContext> = {}): CrawlContext & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    platform: 'douyin', profile: 'default', http: undefined as never, session: {}, memo: undefined as never, guest: undefined as never,
    signal: new AbortController().signal, log: pino({ level: 'silent' }), replay: false, warn: (m: string) => warnings.push(m), warnings, ...over,
  } as CrawlContext & { warnings: string[] };
}

describe('sign modes (CRAWLER_SIGN_MODE)', () => {
  it('parses platform and platform.endpoint entries; the endpoint one wins; auto by default', () => {
    const m = parseSignModes('douyin=browser, douyin.search=native,TikTok=auto');
    expect(signModeFor(m, 'douyin', 'search')).toBe('native');
    expect(signModeFor(m, 'douyin', 'detail')).toBe('browser');
    expect(signModeFor(m, 'tiktok', 'detail')).toBe('auto');
    expect(signModeFor(m, 'kuaishou', 'search')).toBe('auto');
    expect(signModeFor(undefined, 'kuaishou', 'search')).toBe('auto');
  });
  it('refuses a malformed value at start, naming the variable', () => {
    expect(() => parseSignModes('douyin=fast')).toThrow(/douyin=fast/);
    expect(() => parseSignModes('=native')).toThrow();
    expect(() => loadConfig({ CRAWLER_SIGN_MODE: 'douyin:browser' } as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(loadConfig({ CRAWLER_SIGN_MODE: 'douyin=browser' } as NodeJS.ProcessEnv).signModes.get('douyin')).toBe('browser');
  });
});

describe('signed()', () => {
  const refused = () => Promise.reject(new SignatureRefused('empty 200'));
  it('auto: native answer is used as is, no warning', async () => {
    const c = ctx({ signer: page });
    expect(await signed(c, 'detail', { native: async () => 'native', browser: async () => 'page' })).toBe('native');
    expect(c.warnings).toEqual([]);
  });
  it('auto: a refused native signature falls back to the page, and says so', async () => {
    const c = ctx({ signer: page });
    expect(await signed(c, 'detail', { native: refused, browser: async () => 'page' })).toBe('page');
    expect(c.warnings.join()).toMatch(/refused our native signature.*in the page/);
  });
  it('auto: other errors, and refusals with no page, are not retried', async () => {
    await expect(signed(ctx({ signer: page }), 'detail', { native: () => Promise.reject(new Blocked('captcha')), browser: async () => 'page' })).rejects.toThrow('captcha');
    await expect(signed(ctx(), 'detail', { native: refused, browser: async () => 'page' })).rejects.toBeInstanceOf(SignatureRefused);
  });
  it('replay runs never open a page, even in browser mode', async () => {
    const c = ctx({ signer: page, replay: true, signModes: new Map([['douyin', 'browser']]) });
    await expect(signed(c, 'detail', { native: async () => 'native', browser: async () => 'page' })).rejects.toThrow(/replay mode opens no page/);
    await expect(signed(ctx({ signer: page, replay: true }), 'detail', { native: refused, browser: async () => 'page' })).rejects.toBeInstanceOf(SignatureRefused);
  });
  it('native mode never uses the page; browser mode never uses the port', async () => {
    await expect(signed(ctx({ signer: page, signModes: new Map([['douyin', 'native']]) }), 'detail', { native: refused, browser: async () => 'page' })).rejects.toBeInstanceOf(SignatureRefused);
    expect(await signed(ctx({ signer: page, signModes: new Map([['douyin.detail', 'browser']]) }), 'detail', { native: async () => 'native', browser: async () => 'page' })).toBe('page');
  });
  it('a failing page after a refusal is a block that names both', async () => {
    const c = ctx({ signer: page });
    await expect(signed(c, 'detail', { native: refused, browser: () => Promise.reject(new Error('no bdms')) })).rejects.toThrow(/in-page signing failed \(no bdms\)/);
  });
});

describe('X-Bogus', () => {
  const q = 'aweme_id=7196239141472980280&aid=1128&version_name=23.5.0&device_platform=android&os_version=2333';
  const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36 Edg/122.0.0.0';
  it('matches the derived vector two published implementations agree on (cn-platforms.md §1)', () => {
    expect(xBogus(q, ua, 1700000000)).toBe('DFSzswVY7OiANxTQtmWx-e9WX7Jz');
  });
  it('is bound to the query bytes, the agent and the time', () => {
    const base = xBogus(q, ua, 1700000000);
    expect(xBogus(`${q}&x=1`, ua, 1700000000)).not.toBe(base);
    expect(xBogus(q, `${ua} X`, 1700000000)).not.toBe(base);
    expect(xBogus(q, ua, 1700000001)).not.toBe(base);
    expect(xBogus(q, ua)).toMatch(/^[A-Za-z0-9/=-]{28}$/);
  });
});

describe('a_bogus', () => {
  // Derived vector: Johnserf-Seed/f2 f2/utils/abogus.py@93a4e09 run with time.time() = 1700000000.123,
  // random.random() cycling 0.1234, 0.5678, 0.9012 and this fingerprint (SM3 from OpenSSL); not a
  // platform-published value, only as good as that implementation.
  const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0';
  const fingerprint = '1536|742|1560|830|0|30|0|0|1536|824|1536|824|1536|742|24|24|Win32';
  const query = 'device_platform=webapp&aid=6383&channel=channel_pc_web&aweme_id=7380308675841297704&update_version_code=170400&pc_client_type=1&version_code=190500&version_name=19.5.0&cookie_enabled=true';
  const pinned = () => {
    const seq = [0.1234, 0.5678, 0.9012];
    let i = 0;
    return { now: () => 1700000000123, random: () => seq[i++ % 3]! };
  };
  it('SM3 is the standard one (GB/T 32905 "abc" vector)', () => {
    expect(createHash('sm3').update('abc').digest('hex')).toBe('66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0');
  });
  it('matches the derived vector for a GET (empty body)', () => {
    expect(aBogus({ query, userAgent: ua, fingerprint, ...pinned() })).toBe(
      'E7mhBdu2krjihxWT56KLfY3q6U33YQxI0SVkMD2fsxfPqL39HMTa9exoIBGvXFEjwG/-IeYjy4hbT3ohrQ2y0Hwf9W4x/25gmDSkKl12so0j53inCLf/E0ii5hsAtFH8svrUiKi8owVtSYyhAVAJ5kIlO62-zo0/9I8=',
    );
  });
  it('matches the derived vector with a body, and the body changes the value', () => {
    expect(aBogus({ query, userAgent: ua, body: 'GET', fingerprint, ...pinned() })).toBe(
      'E7mhBdu2krjihxWT56KLfY3q6UfVYQxI0SVkMD2fsPDPqL39HMTa9exoIBGvXFEjwG/-IeYjy4hbT3ohrQ2y0Hwf9W4x/25gmDSkKl12so0j53inCLf/E0ii5hsAtFH8svrUiKi8owVtSYyhAVAJ5kIlO62-zo0/93R=',
    );
  });
  it('is bound to the query and agent; live calls differ and keep the published lengths', () => {
    const base = aBogus({ query, userAgent: ua, fingerprint, ...pinned() });
    expect(aBogus({ query: `${query}&x=1`, userAgent: ua, fingerprint, ...pinned() })).not.toBe(base);
    expect(aBogus({ query, userAgent: `${ua}!`, fingerprint, ...pinned() })).not.toBe(base);
    const fp = browserFingerprint();
    expect(fp).toMatch(/^(\d+\|){16}Win32$/);
    const a = aBogus({ query, userAgent: ua, fingerprint: fp });
    expect([164, 168, 172]).toContain(a.length);
    expect(a).toMatch(/^[A-Za-z0-9/=-]+$/);
  });
});
