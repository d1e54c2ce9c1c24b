import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aidToBvid, bvidToAid, isAid, isBvid } from '../../src/platforms/bilibili/ids.js';
import { keysFromWbiImg, mixinKey, signQuery } from '../../src/platforms/bilibili/wbi.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bilibili');
const vector = JSON.parse(readFileSync(resolve(FIXTURES, 'wbi-vector.json'), 'utf8')) as {
  img_key: string;
  sub_key: string;
  mixin_key: string;
  params: Record<string, string | number>;
  wts: number;
  w_rid: string;
};
const recorded = (file: string): any => JSON.parse(JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[0].response.content.text);

describe('WBI signature (published worked example, wbi-vector.json)', () => {
  const keys = { img: vector.img_key, sub: vector.sub_key };

  it('derives the mixin key through the 64-entry permutation', () => {
    expect(mixinKey(keys)).toBe(vector.mixin_key);
    expect(mixinKey(keys)).toHaveLength(32);
  });

  it('signs the sorted query + wts with md5(query + mixin key)', () => {
    const q = signQuery(vector.params, keys, vector.wts);
    expect(q).toBe(`bar=514&foo=114&wts=${vector.wts}&zab=1919810&w_rid=${vector.w_rid}`);
  });

  it('takes the keys from nav data.wbi_img (the recorded anonymous -101 answer carries them)', () => {
    const nav = recorded('error-101-nav-not-logged-in.har');
    expect(nav.code).toBe(-101);
    expect(keysFromWbiImg(nav.data.wbi_img)).toEqual(keys);
    expect(keysFromWbiImg({ img_url: 'https://i0.hdslb.com/bfs/wbi/abc.png' })).toBeUndefined();
    expect(keysFromWbiImg(undefined)).toBeUndefined();
  });

  it("strips !'()* from values and encodes like encodeURIComponent (space → %20)", () => {
    const q = signQuery({ keyword: "it's (a) test*!", mid: 2 }, keys, 1700000000);
    const expectedBase = 'keyword=its%20a%20test&mid=2&wts=1700000000';
    const wRid = createHash('md5').update(expectedBase + vector.mixin_key).digest('hex');
    expect(q).toBe(`${expectedBase}&w_rid=${wRid}`);
  });

  it('drops undefined params and keeps empty strings (the dynamics feed signs offset=)', () => {
    expect(signQuery({ offset: '', host_mid: 1, skip: undefined }, keys, 1).startsWith('host_mid=1&offset=&wts=1&w_rid=')).toBe(true);
  });
});

describe('av ↔ BV (published 2024 algorithm)', () => {
  // Pairs read from the recordings (view, search, popular, the ai-dub playurl URL) and the classic doc example.
  const pairs: Array<[string, string]> = [
    ['170001', 'BV17x411w7KC'],
    ['85440373', 'BV117411r7R1'],
    ['115871406101538', 'BV1pR6UB3ENW'],
    ['116004801741275', 'BV19wFGzzEPZ'],
    ['207499163', 'BV1dh411i7kK'],
    ['1356452135', 'BV1tz421i7zb'],
    ['114375683741573', 'BV1ac5yzhE94'],
    ['1852734060', 'BV1Jp421y72e'],
  ];

  it.each(pairs)('av%s ↔ %s', (aid, bvid) => {
    expect(aidToBvid(aid)).toBe(bvid);
    expect(bvidToAid(bvid)).toBe(aid);
  });

  it('every recorded search result agrees with its own aid/bvid pair', () => {
    const results = recorded('search-video-huoying.har').data.result as Array<{ aid: number; bvid: string }>;
    expect(results.length).toBeGreaterThan(40);
    for (const r of results) expect(aidToBvid(r.aid)).toBe(r.bvid);
  });

  it('round-trips any aid below 2^51', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: (1n << 51n) - 1n }), (aid) => {
        const bv = aidToBvid(aid);
        return isBvid(bv) && bvidToAid(bv) === aid.toString();
      }),
    );
  });

  it('refuses what is not an id', () => {
    expect(isBvid('BV17x411w7K')).toBe(false);
    expect(isBvid('BV17x411w7K0')).toBe(false);
    expect(isAid('0')).toBe(false);
    expect(isAid(String(1n << 51n))).toBe(false);
    expect(() => bvidToAid('BV1xx')).toThrow(RangeError);
    expect(() => aidToBvid(0)).toThrow(RangeError);
  });
});
