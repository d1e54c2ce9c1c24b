import { afterEach, describe, expect, it } from 'vitest';
import type { NewTask, Store } from '../../src/store/types.js';
import type { WebhookOutbox } from '../../src/store/webhooks.js';

export interface OutboxHarness {
  store: Store;
  outbox: WebhookOutbox;
  /** The same database through another connection (another process, as far as the outbox can tell). */
  other(): Promise<WebhookOutbox>;
  close(): Promise<void>;
}

const HOOK = 'https://hooks.example.com/in';
const task = (id: string, params: Record<string, unknown> = { query: 'q', callback_url: HOOK }, over: Partial<NewTask> = {}): NewTask => ({
  id,
  source: 'x',
  action: 'search',
  params: JSON.stringify(params),
  account: 'x:default',
  owner: 'tok_a',
  createdAt: 1000,
  ...over,
});
const envelope = (count: number, source = 'live') => JSON.stringify({ ok: true, source, count, items: Array.from({ length: count }, (_, i) => ({ id: `x:${i}` })), ms: 5 });

/** Every outbox backend must pass this: rows written by the store's own finishes, leased once, logged. */
export function webhookOutboxConformance(backend: string, open: () => Promise<OutboxHarness>): void {
  describe(`Webhook outbox conformance: ${backend}`, () => {
    let h: OutboxHarness;
    afterEach(async () => {
      await h?.close();
    });

    const run = async (id: string, params?: Record<string, unknown>) => {
      await h.store.insertTask(task(id, params));
      return (await h.store.markRunning(id, 1500))!;
    };

    it('a task that ends with a callback_url owes one delivery carrying its summary; one without owes none', async () => {
      h = await open();
      const r = await run('t1');
      await run('t2', { query: 'q' });
      expect(await h.store.finishTask('t1', r.attempts, 'succeeded', envelope(3), null, 2000, 0)).toBeDefined();
      await h.store.finishTask('t2', 1, 'succeeded', envelope(1), null, 2000, 0);
      const [d] = await h.outbox.forTask('t1');
      expect(d).toMatchObject({ id: 'wh_t1_1', task_id: 't1', attempt: 1, event: 'task.finished', url: HOOK, status: 'succeeded', source: 'x', action: 'search', finished_at: 2000, result_source: 'live', count: 3, error: null, state: 'pending', next_at: 2000, tries: 0, attempts: [] });
      expect(await h.outbox.forTask('t2')).toEqual([]);
    });

    it('a second finish of the same attempt adds nothing; a retried task owes a delivery for its new attempt', async () => {
      h = await open();
      await run('t1');
      await h.store.finishTask('t1', 1, 'failed', null, { code: 'upstream_error', message: 'boom', retryable: true }, 2000, 0);
      expect(await h.store.finishTask('t1', 1, 'succeeded', envelope(1), null, 2100, 0)).toBeUndefined();
      expect(await h.store.cancelTask('t1', 2200, 0)).toBeUndefined();
      const first = await h.outbox.forTask('t1');
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({ status: 'failed', result_source: null, count: null });
      expect(JSON.parse(first[0].error!)).toEqual({ code: 'upstream_error', message: 'boom', retryable: true });
      await h.store.requeueTask('t1', 0);
      await h.store.markRunning('t1', 3000);
      await h.store.finishTask('t1', 2, 'succeeded', envelope(2, 'empty'), null, 3500, 0);
      const both = await h.outbox.forTask('t1');
      expect(both.map((d) => [d.id, d.attempt, d.status, d.result_source])).toEqual([
        ['wh_t1_1', 1, 'failed', null],
        ['wh_t1_2', 2, 'succeeded', 'empty'],
      ]);
    });

    it('a cancelled task and a task born finished from the cache owe one too', async () => {
      h = await open();
      await h.store.insertTask(task('t1'));
      await h.store.cancelTask('t1', 1200, 0);
      const entry = await h.store.cachePut('k', { head: '{"age_s":', tail: `,${envelope(4, 'cache').slice(1)}`, created_at: 900 }, 99_000);
      await h.store.insertTask(task('t2', undefined, { finished: { text: 'unused', resultId: entry.result_id, age: 0 } }));
      expect((await h.outbox.forTask('t1'))[0]).toMatchObject({ status: 'cancelled', finished_at: 1200, result_source: null });
      expect((await h.outbox.forTask('t2'))[0]).toMatchObject({ status: 'succeeded', finished_at: 1000, result_source: 'cache', count: 4 });
    });

    it('a blocked result lends its error; a result that is not JSON leaves the summary out but the task still ends', async () => {
      h = await open();
      await run('t1');
      await run('t2');
      const blocked = { ok: false, source: 'blocked', count: 0, items: [], ms: 1, error: { code: 'blocked', message: 'captcha', retryable: true } };
      await h.store.finishTask('t1', 1, 'succeeded', JSON.stringify(blocked), null, 2000, 0);
      expect(await h.store.finishTask('t2', 1, 'succeeded', 'not json {', null, 2000, 0)).toMatchObject({ status: 'succeeded' });
      const [b] = await h.outbox.forTask('t1');
      expect(b.result_source).toBe('blocked');
      expect(JSON.parse(b.error!)).toEqual(blocked.error);
      expect((await h.outbox.forTask('t2'))[0]).toMatchObject({ status: 'succeeded', result_source: null, count: null });
    });

    it('claims are leased: processes claiming at once split the rows; a row whose lease ran out is due again', async () => {
      h = await open();
      for (const id of ['a', 'b', 'c', 'd']) {
        await run(id);
        await h.store.finishTask(id, 1, 'succeeded', envelope(1), null, 2000, 0);
      }
      const other = await h.other();
      const [mine, theirs] = await Promise.all([h.outbox.claimDue('p1', 5000, 65_000, 10), other.claimDue('p2', 5000, 65_000, 10)]);
      expect([...mine, ...theirs].map((d) => d.id).sort()).toEqual(['wh_a_1', 'wh_b_1', 'wh_c_1', 'wh_d_1']);
      expect([...mine, ...theirs].every((d) => d.tries === 1 && d.first_attempt_at === 5000)).toBe(true);
      expect(await h.outbox.claimDue('p3', 64_000, 124_000, 10)).toEqual([]);
      // p1 died: its rows come back after the lease, to p3, as their second try.
      const again = await h.outbox.claimDue('p3', 66_000, 126_000, 10);
      expect(again.map((d) => d.id).sort()).toEqual(mine.map((d) => d.id).concat(theirs.map((d) => d.id)).sort());
      expect(again.every((d) => d.tries === 2 && d.first_attempt_at === 5000)).toBe(true);
      // The dead owner's late answer is logged, but the row stays the new owner's.
      const id = again[0].id;
      expect(await h.outbox.complete(id, 'p1', { n: 1, at: 5000, http_status: 200, error: null, ms: 12 }, { state: 'delivered' })).toBe(false);
      const row = (await h.outbox.forTask(id.split('_')[1]))[0];
      expect(row.state).toBe('pending');
      expect(row.attempts).toEqual([{ n: 1, at: 5000, http_status: 200, error: null, ms: 12 }]);
    });

    it('an attempt is logged and settles the row: retried at next_at, delivered, or given up', async () => {
      h = await open();
      await run('t1');
      await h.store.finishTask('t1', 1, 'succeeded', envelope(1), null, 2000, 0);
      const [c1] = await h.outbox.claimDue('p', 3000, 63_000, 5);
      expect(await h.outbox.complete(c1.id, 'p', { n: c1.tries, at: 3000, http_status: 500, error: null, ms: 7 }, { state: 'pending', next_at: 13_000 })).toBe(true);
      expect(await h.outbox.claimDue('p', 12_999, 70_000, 5)).toEqual([]);
      const [c2] = await h.outbox.claimDue('p', 13_000, 73_000, 5);
      expect(c2.tries).toBe(2);
      await h.outbox.complete(c2.id, 'p', { n: c2.tries, at: 13_000, http_status: null, error: 'connection refused', ms: 3 }, { state: 'pending', next_at: 20_000 });
      const [c3] = await h.outbox.claimDue('p', 20_000, 80_000, 5);
      expect(await h.outbox.complete(c3.id, 'p', { n: c3.tries, at: 20_000, http_status: 204, error: null, ms: 4 }, { state: 'delivered' })).toBe(true);
      const [d] = await h.outbox.forTask('t1');
      expect(d).toMatchObject({ state: 'delivered', done_at: 20_000, tries: 3 });
      expect(d.attempts.map((a) => [a.n, a.http_status, a.error])).toEqual([
        [1, 500, null],
        [2, null, 'connection refused'],
        [3, 204, null],
      ]);
      expect(await h.outbox.claimDue('p', 999_999, 9_999_999, 5)).toEqual([]);
      // A second complete (a duplicate answer) changes nothing.
      expect(await h.outbox.complete(c3.id, 'p', { n: 3, at: 20_000, http_status: 204, error: null, ms: 4 }, { state: 'given_up' })).toBe(false);

      await run('t2');
      await h.store.finishTask('t2', 1, 'failed', null, null, 2000, 0);
      const [g] = await h.outbox.claimDue('p', 90_000, 150_000, 5);
      await h.outbox.complete(g.id, 'p', { n: 1, at: 90_000, http_status: 500, error: null, ms: 1 }, { state: 'given_up' });
      expect((await h.outbox.forTask('t2'))[0]).toMatchObject({ state: 'given_up', done_at: 90_000 });
      expect(await h.outbox.claimDue('p', 999_999, 9_999_999, 5)).toEqual([]);
    });

    it('purges deliveries and their logs created before a time', async () => {
      h = await open();
      await run('t1');
      await h.store.finishTask('t1', 1, 'succeeded', envelope(1), null, 2000, 0);
      const [c] = await h.outbox.claimDue('p', 3000, 4000, 1);
      await h.outbox.complete(c.id, 'p', { n: 1, at: 3000, http_status: 200, error: null, ms: 1 }, { state: 'delivered' });
      expect(await h.outbox.purge(2000)).toBe(0);
      expect(await h.outbox.purge(2001)).toBe(1);
      expect(await h.outbox.forTask('t1')).toEqual([]);
    });
  });
}
