import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../src/accounts/browser/lock.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('KeyedLock', () => {
  it('lets one holder in per key, in arrival order, and other keys alongside', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const r1 = await lock.acquire('a');
    const second = lock.acquire('a').then((r) => (order.push('a2'), r));
    const third = lock.acquire('a').then((r) => (order.push('a3'), r));
    const other = await lock.acquire('b');
    order.push('b');
    await tick();
    expect(order).toEqual(['b']);
    r1();
    (await second)();
    (await third)();
    other();
    expect(order).toEqual(['b', 'a2', 'a3']);
    expect(lock.held('a')).toBe(false);
    expect(lock.held('b')).toBe(false);
  });

  it('knows at once whether a key is held or awaited', async () => {
    const lock = new KeyedLock();
    const r1 = await lock.acquire('a');
    expect(lock.held('a')).toBe(true);
    const waiter = lock.acquire('a');
    r1();
    expect(lock.held('a')).toBe(true);
    (await waiter)();
    expect(lock.held('a')).toBe(false);
  });

  it('lets a waiter give up without blocking those behind it', async () => {
    const lock = new KeyedLock();
    const r1 = await lock.acquire('a');
    const ac = new AbortController();
    const quitter = lock.acquire('a', ac.signal);
    const patient = lock.acquire('a');
    ac.abort(new Error('gave up'));
    await expect(quitter).rejects.toThrow('gave up');
    r1();
    (await patient)();
    expect(lock.held('a')).toBe(false);
  });
});
