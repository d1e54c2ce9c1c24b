import { describe, expect, it } from 'vitest';
import { CrawlError } from '../../src/crawl/errors.js';
import { parseCreatorRef, parsePostRef } from '../../src/platforms/bilibili/refs.js';

const invalid = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};

const AZIS = { bvid: 'BV17x411w7KC', aid: '170001' };

describe('bilibili video references', () => {
  it.each([
    ['BV17x411w7KC', AZIS],
    ['bv17x411w7KC', AZIS],
    ['av170001', AZIS],
    ['AV170001', AZIS],
    ['170001', AZIS],
    ['https://www.bilibili.com/video/BV17x411w7KC', AZIS],
    ['https://www.bilibili.com/video/BV17x411w7KC/?spm_id_from=333.788', AZIS],
    ['http://www.bilibili.com/video/av170001/', AZIS],
    ['www.bilibili.com/video/BV17x411w7KC', AZIS],
    ['bilibili.com/video/av170001', AZIS],
    ['https://m.bilibili.com/video/BV17x411w7KC', AZIS],
    ['https://www.bilibili.com/video/BV17x411w7KC?p=3', { ...AZIS, part: 3 }],
    ['https://www.bilibili.com/video/BV17x411w7KC?p=1', AZIS],
    ['https://player.bilibili.com/player.html?aid=170001&cid=279786&page=1', AZIS],
    ['https://www.bilibili.com/list/2?bvid=BV17x411w7KC', AZIS],
    ['  BV117411r7R1  ', { bvid: 'BV117411r7R1', aid: '85440373' }],
  ])('%s', (input, expected) => {
    expect(parsePostRef(input)).toEqual(expected);
  });

  it('short links are kept for resolution (b23.tv, bili2233.cn)', () => {
    expect(parsePostRef('https://b23.tv/BV1JxC6Y8EP5')).toEqual({ short: 'https://b23.tv/BV1JxC6Y8EP5' });
    expect(parsePostRef('b23.tv/3kNp9Xq?share_source=copy')).toEqual({ short: 'https://b23.tv/3kNp9Xq' });
    expect(parsePostRef('https://bili2233.cn/abcdEFG')).toEqual({ short: 'https://bili2233.cn/abcdEFG' });
  });

  it.each([
    [''],
    ['hello world'],
    ['BV1234'],
    ['av0'],
    ['https://www.youtube.com/watch?v=x'],
    ['https://www.bilibili.com/'],
    ['https://t.bilibili.com/916751749918752793'],
    ['https://www.bilibili.com/opus/916751749918752793'],
    ['https://www.bilibili.com/bangumi/play/ep123'],
    ['https://b23.tv/'],
  ])('%j is an invalid request', (input) => {
    expect(invalid(() => parsePostRef(input))).toBe('invalid_request');
  });
});

describe('bilibili creator references', () => {
  it.each([
    ['161775300', { mid: '161775300' }],
    ['UID:2', { mid: '2' }],
    ['uid：2', { mid: '2' }],
    ['https://space.bilibili.com/161775300', { mid: '161775300' }],
    ['https://space.bilibili.com/161775300/dynamic?spm_id_from=x', { mid: '161775300' }],
    ['space.bilibili.com/2/video', { mid: '2' }],
    ['https://m.bilibili.com/space/946974', { mid: '946974' }],
    ['https://www.bilibili.com/list/ml123?mid=946974', { mid: '946974' }],
    ['@影视飓风', { name: '影视飓风' }],
    ['影视飓风', { name: '影视飓风' }],
    ['@12345', { name: '12345' }],
    ['https://b23.tv/Sp4ce9x', { short: 'https://b23.tv/Sp4ce9x' }],
  ])('%s', (input, expected) => {
    expect(parseCreatorRef(input)).toEqual(expected);
  });

  it.each([[''], ['@'], ['https://www.bilibili.com/video/BV17x411w7KC'], ['https://example.com/space/2'], ['a/b']])('%j is an invalid request', (input) => {
    expect(invalid(() => parseCreatorRef(input))).toBe('invalid_request');
  });
});
