import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CatalogEntry, CommentsResult, Envelope } from '../../client/dist/index.js';
import { csvCell } from '../../src/exports/csv.js';
import { mergePages } from '../../src/cli/merge.js';
import { parseParams } from '../../src/cli/params.js';
import { table } from '../../src/cli/table.js';
import { clean, compact, fit, width } from '../../src/cli/text.js';

describe('csv cells', () => {
  it('prefixes text a spreadsheet would evaluate, and only text', () => {
    for (const s of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(s).replace(/^"|"$/g, '').startsWith(`'`)).toBe(true);
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(undefined, true)).toBe('');
  });

  it('quotes ids and anything with a comma, quote or line break', () => {
    expect(csvCell('4645748019299849', true)).toBe('"4645748019299849"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell(' padded')).toBe('" padded"');
  });

  it('never lets a cell start with a formula character, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const cell = csvCell(s);
        const inner = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell;
        expect(/^[=+\-@\t\r]/.test(inner)).toBe(false);
        expect(inner === s || inner === `'${s}`).toBe(true);
      }),
    );
  });
});

describe('terminal text', () => {
  it('strips escape sequences and line breaks from platform text', () => {
    expect(clean('hi \u001b[31mred\u001b[0m\nnext\u202eline\u001b]0;title\u0007!')).toBe('hi red next line!');
  });

  it('counts CJK and emoji as two columns and cuts to a width', () => {
    expect(width('明日方舟ab')).toBe(10);
    expect(fit('明日方舟Arknights', 9)).toBe('明日方舟…');
    expect(width(fit('明日方舟Arknights', 9))).toBeLessThanOrEqual(9);
    expect(compact(37053)).toBe('37k');
    expect(compact(1870000)).toBe('1.9M');
    expect(compact(8830)).toBe('8830');
  });

  it('fits a table to the terminal width, the flex column taking what is left', () => {
    const rows = [{ id: 'weibo:1', text: '很长的文字'.repeat(30) }];
    const out = table(rows, [{ header: 'ID', cell: (r) => r.id }, { header: 'TEXT', cell: (r) => r.text, flex: true }], 40);
    for (const line of out.trimEnd().split('\n')) expect(width(line)).toBeLessThanOrEqual(40);
    expect(out).toMatch(/^weibo:1  很长.*…$/m);
  });
});

describe('--param', () => {
  const catalog: CatalogEntry[] = [
    { name: 'weibo.posts', group: 'weibo', summary: '', params: [{ name: 'query', type: 'string', required: true, description: '' }, { name: 'limit', type: 'integer', required: false, description: '' }, { name: 'force', type: 'boolean', required: false, description: '' }] },
    { name: 'twitter.posts', group: 'twitter', summary: '', params: [{ name: 'limit', type: 'integer', required: false, description: '' }, { name: 'tab', type: 'string', required: false, description: '' }] },
  ];

  it('types values by the catalog; digits stay a string where the param is a string', () => {
    expect(parseParams(['limit=5', 'force=true', 'query=6279793937'], 'weibo', 'posts', catalog)).toEqual({ limit: 5, force: true, query: '6279793937' });
  });

  it('types an alias’s params by the same action elsewhere, and leaves unknown ones to the service', () => {
    expect(parseParams(['limit=7', 'tab=media', 'shiny=1'], 'x', 'posts', catalog)).toEqual({ limit: 7, tab: 'media', shiny: '1' });
  });

  it('refuses a malformed pair, a repeated key and a value of the wrong type', () => {
    expect(() => parseParams(['limit'], 'weibo', 'posts', catalog)).toThrow(/expected key=value/);
    expect(() => parseParams(['limit=1', 'limit=2'], 'weibo', 'posts', catalog)).toThrow(/given twice/);
    expect(() => parseParams(['limit=1.5'], 'weibo', 'posts', catalog)).toThrow(/an integer/);
  });
});

describe('merging a walk’s pages', () => {
  const item = (id: string) => ({ id, type: 'text' as const, provider: 'weibo', media: [], stats: {}, provenance: 'live' as const });
  it('joins items, sums counts and durations, keeps the last cursor and each warning once', () => {
    const a: Envelope = { ok: true, source: 'live', count: 2, items: [item('weibo:1'), item('weibo:2')], next_cursor: 'c1', ms: 10, warnings: ['replayed'] };
    const b: Envelope = { ok: true, source: 'cache', count: 1, items: [item('weibo:3')], ms: 5, warnings: ['replayed', 'stopped'] };
    expect(mergePages([a, b])).toEqual({ ok: true, source: 'live', count: 3, items: [...a.items, ...b.items], ms: 15, warnings: ['replayed', 'stopped'] });
    expect(mergePages([a])).toBe(a);
    expect(mergePages([])).toBeUndefined();
  });

  it('keeps the comments shape: has_more and cursor from the last page', () => {
    const c = (cid: string) => ({ cid, text: '', likes: 0, reply_total: 0, user_id: '1', handle: 'h', user_name: 'u', created_at: 1, source: 'reddit' });
    const a: CommentsResult = { source: 'live', total: 9, has_more: true, cursor: 'k1', ms: 1, items: [c('1')] };
    const b: CommentsResult = { source: 'live', total: 9, has_more: false, ms: 1, items: [c('2')] };
    expect(mergePages([a, b])).toEqual({ source: 'live', total: 9, has_more: false, ms: 2, items: [c('1'), c('2')] });
  });
});
