import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../src/tasks/cursor.js';

const raw = (v: unknown) => `c1.${Buffer.from(JSON.stringify(v)).toString('base64url')}`;

describe('the comments walk cursor (thread state)', () => {
  it('round-trips a stop inside a thread, and stays as before without one', () => {
    for (const state of [
      { c: '3', s: 4, r: { p: 'r2', c: '2', s: 1 } },
      { c: undefined, s: 0, r: { p: 'r2' } },
      { c: 'x', s: 2 },
    ]) {
      expect(decodeCursor(encodeCursor(state))).toEqual(JSON.parse(JSON.stringify(state)));
    }
    expect(encodeCursor({ c: 'x', s: 0 })).toBe(raw({ c: 'x' }));
    expect(encodeCursor({ c: 'x', s: 2 })).toBe(raw({ c: 'x', s: 2 }));
  });

  it('refuses a thread state it did not write', () => {
    for (const r of [null, 'r2', [], { p: '' }, { p: 5 }, { p: 'x'.repeat(513) }, { p: 'r2', c: 3 }, { p: 'r2', s: -1 }, { p: 'r2', s: 1.5 }, { p: 'r2', s: 100_000 }]) {
      expect(() => decodeCursor(raw({ c: '1', r })), JSON.stringify(r)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
  });
});
