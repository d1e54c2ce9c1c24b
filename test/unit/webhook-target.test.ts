import { describe, expect, it } from 'vitest';
import { RETRY_WINDOW_MS, retryDelayMs } from '../../src/webhooks/backoff.js';
import { parseTarget } from '../../src/webhooks/target.js';
import { signatureHeader } from '../../src/webhooks/signing.js';

describe('webhook retry schedule', () => {
  it('10 s, 30 s, 2 min, 10 min, 30 min, then hourly, each within ±20 %', () => {
    const at = (n: number, r: number) => retryDelayMs(n, () => r);
    expect([1, 2, 3, 4, 5, 6, 7, 30].map((n) => at(n, 0.5))).toEqual([10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 3_600_000, 3_600_000]);
    expect(at(1, 0)).toBe(8000);
    expect(at(1, 0.999999)).toBe(12_000);
    expect(at(40, 0.999999)).toBeLessThanOrEqual(4_320_000);
    // About 27 attempts fit the window at the slowest jitter: the retries are bounded.
    let t = 0;
    let n = 0;
    while (t <= RETRY_WINDOW_MS) t += retryDelayMs(++n, () => 1);
    expect(n).toBeLessThan(40);
  });
});

describe('callback_url syntax (no network)', () => {
  const strict = { allowHttp: false };
  it('normalizes numeric and hex hosts before judging them', () => {
    expect(() => parseTarget('https://017700000001/x', strict)).toThrow(/private, loopback/);
    expect(() => parseTarget('https://[0:0:0:0:0:ffff:7f00:1]/x', strict)).toThrow(/private, loopback/);
    expect(() => parseTarget('https://[64:ff9b::a9fe:a9fe]/x', strict)).toThrow(/private, loopback/);
    expect(parseTarget('https://Hooks.Example.com:8443/in?a=1#frag', strict).href).toBe('https://hooks.example.com:8443/in?a=1#frag');
  });
  it('allowAddress lets a chosen literal through (tests), nothing else', () => {
    expect(parseTarget('http://127.0.0.1:9/x', { allowHttp: true, allowAddress: (a) => a === '127.0.0.1' }).hostname).toBe('127.0.0.1');
    expect(() => parseTarget('http://127.0.0.2:9/x', { allowHttp: true, allowAddress: (a) => a === '127.0.0.1' })).toThrow(/private/);
  });
  it('signs "<t>.<body>" with HMAC-SHA256', () => {
    // Computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    expect(signatureHeader('whsec_test', 1_700_000_000, '{"a":1}')).toBe('t=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
  });
});
