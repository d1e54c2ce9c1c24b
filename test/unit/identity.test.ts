import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import type { Pacer } from '../../src/crawl/pacer.js';
import { EgressDispatchers, proxyFailure } from '../../src/identity/egress.js';
import { egressId, maskProxy, paceKey, parseProxy } from '../../src/identity/proxy-url.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';
import type { PlatformAdapter } from '../../src/platforms/types.js';
import { Agent } from 'undici';

describe('proxy URLs', () => {
  it('accepts http, https and socks5 with optional credentials, and masks them', () => {
    const p = parseProxy('socks5://us%40er:p%3Ass@Proxy.Example.com:1080');
    expect(p).toMatchObject({ scheme: 'socks5', host: 'proxy.example.com', port: 1080, username: 'us@er', password: 'p:ss' });
    expect(maskProxy(p)).toBe('socks5://***@proxy.example.com:1080');
    expect(maskProxy(parseProxy('http://10.0.0.5:3128'))).toBe('http://10.0.0.5:3128');
    expect(parseProxy('https://[::1]:8443').host).toBe('[::1]');
  });

  it('keys the egress by address only: the same proxy with other credentials is the same egress', () => {
    const a = egressId(parseProxy('http://u:one@px.example:8080'));
    expect(a).toMatch(/^px-[0-9a-f]{12}$/);
    expect(egressId(parseProxy('http://v:two@px.example:8080'))).toBe(a);
    expect(egressId(parseProxy('http://px.example:8081'))).not.toBe(a);
    expect(egressId(parseProxy('socks5://px.example:8080'))).not.toBe(a);
    expect(egressId(undefined)).toBe('direct');
    expect(a).not.toContain('one');
  });
});

describe('pacing per platform and egress', () => {
  it('two egresses of one platform are not paced against each other; one egress is', async () => {
    let now = 1000;
    const pacer = new LocalPacer(() => now);
    const direct = paceKey('fake', 'direct');
    const proxied = paceKey('fake', egressId(parseProxy('http://px.example:8080')));
    expect(await pacer.reserve(direct, 500)).toBe(0);
    expect(await pacer.reserve(proxied, 500)).toBe(0);
    expect(await pacer.reserve(direct, 500)).toBe(500);
    expect(await pacer.reserve(proxied, 500)).toBe(500);
    expect(await pacer.reserve(paceKey('other', 'direct'), 500)).toBe(0);
    now += 1000;
    expect(await pacer.reserve(direct, 500)).toBe(0);
  });

  it('a crawl context paces on its egress key', async () => {
    const keys: string[] = [];
    const pacer: Pacer = { reserve: async (key) => (keys.push(key), 0) };
    const adapter = { id: 'fake', hosts: [], minGapMs: 10 } as unknown as PlatformAdapter;
    const dispatcher = new Agent();
    const server = await import('node:http').then(({ createServer }) => createServer((_q, r) => r.end('{}')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    try {
      for (const egress of ['direct', 'px-abc', undefined]) {
        const ctx = makeContext({ adapter, profile: 'p', memo: new MemoryMemo(), dispatcher, pacer, signal: new AbortController().signal, log: pino({ level: 'silent' }), warnings: [], egress });
        await ctx.http.request({ url });
      }
    } finally {
      server.close();
      await dispatcher.close();
    }
    expect(keys).toEqual(['fake|direct', 'fake|px-abc', 'fake|direct']);
  });
});

describe('egress dispatchers', () => {
  it('keeps a bounded set, closing the evicted one', async () => {
    const e = new EgressDispatchers({ max: 2 });
    const one = e.get(parseProxy('http://127.0.0.1:1'));
    expect(e.get(parseProxy('http://127.0.0.1:1'))).toBe(one);
    e.get(parseProxy('http://127.0.0.1:2'));
    e.get(parseProxy('socks5://u:p@127.0.0.1:3'));
    expect(e.size).toBe(2);
    expect((one as unknown as { closed: boolean }).closed).toBe(true);
    await e.close();
    expect(e.size).toBe(0);
  });

  it('judges targets by the rules of media fetches', async () => {
    const e = new EgressDispatchers({ resolve: async (h) => (h === 'pub.example' ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '169.254.169.254', family: 4 }]) });
    await expect(e.judge(new URL('http://pub.example/x'))).resolves.toBeUndefined();
    await expect(e.judge(new URL('http://meta.example/x'))).rejects.toThrow(/private or reserved/);
    await expect(e.judge(new URL('http://[::1]:80/x'))).rejects.toThrow(/private or reserved/);
    await expect(e.judge(new URL('http://127.0.0.1/x'))).rejects.toThrow(/private or reserved/);
  });

  it('names proxy failures in fixed words, never the error text', () => {
    expect(proxyFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9 http://u:SECRET@x'), { code: 'ECONNREFUSED' }))).toBe('connection to the proxy refused');
    expect(proxyFailure(new Error('Proxy response (407) !== 200 when HTTP Tunneling'))).toMatch(/credentials/);
    expect(proxyFailure(new Error('Proxy response (502) !== 200 when HTTP Tunneling'))).toBe('the proxy answered 502 to the tunnel request');
    expect(proxyFailure(new Error('headers timeout'))).toBeUndefined();
  });
});
