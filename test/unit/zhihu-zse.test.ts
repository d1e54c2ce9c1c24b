import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { md5Hex, signSource, ZSE_93, zse96, zseV4 } from '../../src/platforms/zhihu/zse.js';

const ALPHABET = /^[6fpLRqJO8M/c3jnYxFkUVC4ZIG12SiH=5v0mXDazWBTsuw7QetbKdoPyAl+hN9rgE]+$/;
const hex32 = fc.stringMatching(/^[0-9a-f]{32}$/);

describe('zhihu x-zse-96', () => {
  it('md5 agrees with the sanity vectors published next to the Kotlin port', () => {
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5Hex('hello')).toBe('5d41402abc4b2a76b9719d911017c592');
  });

  it('derived vector 1: zse_v4(md5("")) with the random byte pinned to 12', () => {
    expect(zseV4('d41d8cd98f00b204e9800998ecf8427e', 12)).toBe('ttAd4/lU9wYAos7uMmt18Gm8Vz1O4Tr0sgMnR1OUuAtlXAx9JkkmU+DySoO3bhMR');
  });

  it('derived vector 2: /api/v4/me over a quoted d_c0, source, md5 and header', () => {
    const dc0 = '"AAAA-test-dc0|1700000000"';
    expect(signSource('/api/v4/me', dc0)).toBe('101_3_3.0+/api/v4/me+"AAAA-test-dc0|1700000000"');
    expect(md5Hex(signSource('/api/v4/me', dc0))).toBe('ab2d4a34418904bfa2450e02f1b2a742');
    expect(zse96('/api/v4/me', dc0, undefined, 12)).toBe('2.0_J3ZkR+zcU83=VqfeVOLmrTVXmeYWsjS7sheoN3+uOfwmbUiMKDNlwPaAo+H0bWxG');
  });

  it('a body joins the source after the d_c0; x-zse-93 names the version', () => {
    expect(ZSE_93).toBe('101_3_3.0');
    expect(signSource('/api/v4/x?a=1', 'D', '{"k":1}')).toBe('101_3_3.0+/api/v4/x?a=1+D+{"k":1}');
    expect(zse96('/api/v4/x', 'D', 'b', 3)).not.toBe(zse96('/api/v4/x', 'D', undefined, 3));
  });

  it('any md5 and any first byte give 64 characters of the private alphabet; the first byte changes the output', () => {
    fc.assert(
      fc.property(hex32, fc.integer({ min: 0, max: 126 }), fc.integer({ min: 0, max: 126 }), (md5, a, b) => {
        const x = zseV4(md5, a);
        expect(x).toHaveLength(64);
        expect(x).toMatch(ALPHABET);
        if (a !== b) expect(zseV4(md5, b)).not.toBe(x);
      }),
      { numRuns: 200 },
    );
  });

  it('longer inputs (the refresh form the app encrypts) are padded to whole blocks', () => {
    // 2 + 40 bytes → 48 → 64 characters; 2 + 46 → 64 bytes → 88 characters (padded to a multiple of 3).
    expect(zseV4('a'.repeat(40), 0)).toHaveLength(64);
    expect(zseV4('a'.repeat(46), 0)).toHaveLength(88);
  });

  it('without a pinned byte the header is one of the 127 the page could send', () => {
    const sig = zse96('/api/v4/me', 'D');
    const all = new Set(Array.from({ length: 127 }, (_, i) => zse96('/api/v4/me', 'D', undefined, i)));
    expect(all.has(sig)).toBe(true);
    expect(all.size).toBe(127);
  });
});
