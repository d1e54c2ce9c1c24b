import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CrawlError } from '../../src/crawl/errors.js';
import { parseChannelRef, parsePostRef, parseSearchRef } from '../../src/platforms/telegram/refs.js';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};

describe('telegram channel references', () => {
  it.each([
    ['durov', 'durov'],
    ['@durov', 'durov'],
    ['  @Durov  ', 'Durov'],
    ['t.me/durov', 'durov'],
    ['https://t.me/durov', 'durov'],
    ['http://t.me/durov/', 'durov'],
    ['https://t.me/s/durov', 'durov'],
    ['t.me/s/durov', 'durov'],
    ['https://www.t.me/durov', 'durov'],
    ['https://telegram.me/durov', 'durov'],
    ['telegram.me/s/durov', 'durov'],
    ['https://telegram.dog/durov', 'durov'],
    ['https://durov.t.me', 'durov'],
    ['durov.t.me/', 'durov'],
    ['tg://resolve?domain=durov', 'durov'],
    ['https://t.me/durov/123', 'durov'],
    ['https://t.me/s/topwar_official?before=71009', 'topwar_official'],
    ['https://t.me/fighter_bomber?utm_source=x#top', 'fighter_bomber'],
  ])('%s → %s', (input, channel) => {
    expect(parseChannelRef(input).channel).toBe(channel);
  });

  it('a t.me/s URL with ?before= says where the history starts', () => {
    expect(parseChannelRef('https://t.me/s/topwar_official?before=71009')).toEqual({ channel: 'topwar_official', before: '71009' });
    expect(parseChannelRef('https://t.me/s/topwar_official')).toEqual({ channel: 'topwar_official' });
    expect(codeOf(() => parseChannelRef('https://t.me/s/topwar_official?before=abc'))).toBe('invalid_request');
  });

  it.each([
    [''],
    ['   '],
    ['https://t.me/+AbCdEfGhIjK'],
    ['https://t.me/joinchat/AbCdEfGhIjK'],
    ['https://t.me/c/1084368520/70989'],
    ['https://t.me/addstickers/Animals'],
    ['https://t.me/share/url?url=x'],
    ['https://example.com/durov'],
    ['https://t.me/'],
    ['du'],
    ['1durov'],
    ['dur ov'],
    ['tg://msg?text=hi'],
  ])('%j is an invalid reference', (input) => {
    expect(codeOf(() => parseChannelRef(input))).toBe('invalid_request');
  });

  it('any username survives every channel form (property)', () => {
    const username = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{4,31}$/);
    fc.assert(
      fc.property(username, (u) => {
        for (const form of [u, `@${u}`, `t.me/${u}`, `https://t.me/s/${u}`, `https://telegram.me/${u}`, `tg://resolve?domain=${u}`, `https://t.me/${u}/7`]) {
          if (parseChannelRef(form).channel !== u) return false;
        }
        return true;
      }),
    );
  });
});

describe('telegram post references', () => {
  it.each([
    ['https://t.me/fighter_bomber/11226', 'fighter_bomber', '11226'],
    ['t.me/s/anna_news/46908', 'anna_news', '46908'],
    ['https://t.me/s/oper_goblin/939', 'oper_goblin', '939'],
    ['https://telegram.me/durov/142', 'durov', '142'],
    ['https://t.me/anna_news/46909?single', 'anna_news', '46909'],
    ['https://t.me/durov/142?embed=1&mode=tme', 'durov', '142'],
    ['@durov/142', 'durov', '142'],
    ['durov/142', 'durov', '142'],
    ['telegram:topwar_official/70989', 'topwar_official', '70989'],
    ['tg://resolve?domain=durov&post=142', 'durov', '142'],
    ['https://durov.t.me/142', 'durov', '142'],
    ['https://t.me/somegroup/5/123', 'somegroup', '123'],
  ])('%s → %s/%s', (input, channel, id) => {
    expect(parsePostRef(input)).toEqual({ channel, id });
  });

  it.each([['durov'], ['https://t.me/durov'], ['https://t.me/c/1084368520/70989'], ['durov/0'], ['durov/abc'], ['']])('%j is not a post reference', (input) => {
    expect(codeOf(() => parsePostRef(input))).toBe('invalid_request');
  });
});

describe('telegram search references', () => {
  it('takes the channel from params.channel, then from a t.me/s URL, then from "@channel keyword"', () => {
    expect(parseSearchRef('storm', 'harborweather')).toEqual({ channel: 'harborweather', q: 'storm' });
    expect(parseSearchRef('#storm', 'https://t.me/s/harborweather')).toEqual({ channel: 'harborweather', q: '#storm' });
    expect(parseSearchRef('https://t.me/s/harborweather?q=%23storm', undefined)).toEqual({ channel: 'harborweather', q: '#storm' });
    expect(parseSearchRef('https://t.me/s/harborweather?q=storm&before=180', undefined)).toEqual({ channel: 'harborweather', q: 'storm', before: '180' });
    expect(parseSearchRef('@harborweather gale warning', undefined)).toEqual({ channel: 'harborweather', q: 'gale warning' });
    expect(parseSearchRef('@harborweather gale', '  ')).toEqual({ channel: 'harborweather', q: 'gale' });
  });

  it('without a channel, or without a keyword, it is an invalid request', () => {
    expect(codeOf(() => parseSearchRef('storm', undefined))).toBe('invalid_request');
    expect(codeOf(() => parseSearchRef('@harborweather', undefined))).toBe('invalid_request');
    expect(codeOf(() => parseSearchRef('https://t.me/s/harborweather', undefined))).toBe('invalid_request');
    expect(codeOf(() => parseSearchRef('', 'harborweather'))).toBe('invalid_request');
    expect(codeOf(() => parseSearchRef('storm', 'https://t.me/+invite'))).toBe('invalid_request');
  });
});
