import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenService } from '../../src/auth/tokens.js';
import { openBatchStore } from '../../src/store/open.js';
import type { NewTask, PreviewClaim, Store, TokenRow } from '../../src/store/types.js';
import { watchConformance } from './watch-conformance.js';
import { downloadFileCases } from './download-files-cases.js';

/** One database per test, and a second handle on it (another process, as far as the store can tell). */
export interface StoreHarness {
  store: Store;
  other(): Promise<Store>;
  /** The profile's cookies column as stored (sealed or not). */
  rawCookies(platform: string, name: string): Promise<string | null>;
  close(): Promise<void>;
}

const task = (id: string, over: Partial<NewTask> = {}): NewTask => ({
  id,
  source: 'x',
  action: 'search',
  params: '{"query":"q"}',
  account: 'x:default',
  owner: 'tok_a',
  createdAt: 1000,
  ...over,
});
const token = (id: string, secret: string): TokenRow => ({
  id,
  name: id,
  hash: createHash('sha256').update(secret).digest(),
  scopes: 'read,write',
  created_at: 5,
  revoked_at: null,
});

/** Every Store backend must pass this suite: the same calls, the same answers. */
export function storeConformance(backend: string, open: () => Promise<StoreHarness>): void {
  watchConformance(backend, open);
  describe(`Store conformance: ${backend}`, () => {
    let h: StoreHarness;
    let s: Store;
    const start = async () => {
      h = await open();
      s = h.store;
    };
    afterEach(async () => {
      await h?.close();
    });
    downloadFileCases(async () => {
      await start();
      return s;
    });

    it('stores a queued task and reads it back as stored', async () => {
      await start();
      const row = await s.insertTask(task('t1'));
      expect(row).toMatchObject({ id: 't1', status: 'queued', attempts: 1, event_seq: 1, result: null, started_at: null });
      expect(await s.getTask('t1')).toMatchObject({
        id: 't1',
        status: 'queued',
        source: 'x',
        action: 'search',
        params: '{"query":"q"}',
        account: 'x:default',
        owner: 'tok_a',
        created_at: 1000,
        started_at: null,
        finished_at: null,
        attempts: 1,
        progress: null,
        result: null,
        error: null,
        event_seq: 1,
      });
      expect(await s.getTask('nope')).toBeUndefined();
      expect(typeof (await s.getTask('t1'))!.created_at).toBe('number');
    });

    it('a task born finished references the shared cached result and its age, or carries its own text', async () => {
      await start();
      const entry = await s.cachePut('k', { head: '{"age_s":', tail: ',"items":[]}', created_at: 900 }, 10_000);
      await s.insertTask(task('t_hit', { finished: { text: '{"age_s":7,"items":[]}', resultId: entry.result_id, age: 7 } }));
      await s.insertTask(task('t_own', { finished: { text: '{"inline":true}' } }));
      expect(await s.getTask('t_hit')).toMatchObject({ status: 'succeeded', result: '{"age_s":7,"items":[]}', event_seq: 2, started_at: 1000, finished_at: 1000 });
      expect((await s.getTask('t_own'))!.result).toBe('{"inline":true}');
    });

    it('lists newest first without results, by owner, status, source and action, paged by id', async () => {
      await start();
      await s.insertTask(task('t_01'));
      await s.insertTask(task('t_02', { owner: null }));
      await s.insertTask(task('t_03', { source: 'y', finished: { text: '{}' } }));
      await s.insertTask(task('t_04', { action: 'comments' }));
      const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
      expect(ids(await s.listTasks({ limit: 10 }))).toEqual(['t_04', 't_03', 't_02', 't_01']);
      expect(ids(await s.listTasks({ owner: 'tok_a', limit: 10 }))).toEqual(['t_04', 't_03', 't_01']);
      expect(ids(await s.listTasks({ owner: null, limit: 10 }))).toEqual(['t_02']);
      expect(ids(await s.listTasks({ owner: 'tok_a', before: 't_04', limit: 1 }))).toEqual(['t_03']);
      expect(ids(await s.listTasks({ status: 'succeeded', limit: 10 }))).toEqual(['t_03']);
      expect(ids(await s.listTasks({ source: 'y', limit: 10 }))).toEqual(['t_03']);
      expect(ids(await s.listTasks({ action: 'comments', limit: 10 }))).toEqual(['t_04']);
      expect((await s.listTasks({ status: 'succeeded', limit: 10 }))[0].result).toBeNull();
    });

    it('runs a task once: queued → running → finished, only by the current attempt', async () => {
      await start();
      await s.insertTask(task('t1'));
      const running = await s.markRunning('t1', 2000);
      expect(running).toMatchObject({ status: 'running', started_at: 2000, event_seq: 2 });
      expect(await s.markRunning('t1', 2001)).toBeUndefined();
      await s.setProgress('t1', '{"items":3}', 3);
      expect(await s.finishTask('t1', 2, 'succeeded', '{}', null, 3000, 5)).toBeUndefined();
      const done = await s.finishTask('t1', 1, 'succeeded', '{"items":[]}', null, 3000, 5);
      expect(done).toMatchObject({ status: 'succeeded', result: '{"items":[]}', finished_at: 3000, progress: '{"items":3}', event_seq: 5 });
      expect(await s.finishTask('t1', 1, 'failed', null, null, 3001, 7)).toBeUndefined();
      await s.setProgress('t1', '{"items":9}', 9);
      expect(await s.getTask('t1')).toMatchObject({ progress: '{"items":3}', event_seq: 5 });
    });

    it('keeps the error of a failed task as JSON', async () => {
      await start();
      await s.insertTask(task('t1'));
      await s.markRunning('t1', 2000);
      await s.finishTask('t1', 1, 'failed', null, { code: 'blocked', message: 'captcha', retryable: true }, 3000, 4);
      expect(JSON.parse((await s.getTask('t1'))!.error!)).toEqual({ code: 'blocked', message: 'captcha', retryable: true });
    });

    it('numbers a change above every id already stored, whatever the caller proposed', async () => {
      await start();
      await s.insertTask(task('t1'));
      await s.markRunning('t1', 2000);
      // Another process stored progress up to id 6; this one still believes 2 is the newest.
      await (await h.other()).setProgress('t1', '{"items":1}', 6);
      expect((await s.cancelTask('t1', 3000, 4))!.event_seq).toBe(8);
      expect((await s.requeueTask('t1', 3))!.event_seq).toBe(9);
      const claimed = await s.markRunning('t1', 4000);
      expect(claimed!.event_seq).toBe(10);
      // A proposal above the stored ids is kept: the caller has emitted events the row has not heard of.
      expect((await s.finishTask('t1', 2, 'succeeded', '{}', null, 5000, 15))!.event_seq).toBe(15);
      // Progress never moves the counter back.
      await s.insertTask(task('t2'));
      await s.markRunning('t2', 1);
      await s.setProgress('t2', '{"a":1}', 7);
      await s.setProgress('t2', '{"a":0}', 4);
      expect((await s.getTask('t2'))!.event_seq).toBe(7);
    });

    it('cancels queued or running tasks only, and retries an ended one as a new attempt', async () => {
      await start();
      await s.insertTask(task('t1'));
      expect(await s.cancelTask('t1', 1500, 3)).toMatchObject({ status: 'cancelled', finished_at: 1500 });
      expect(await s.cancelTask('t1', 1600, 5)).toBeUndefined();
      const again = await s.requeueTask('t1', 4);
      expect(again).toMatchObject({ status: 'queued', attempts: 2, finished_at: null, started_at: null, result: null, error: null, progress: null });
      await s.markRunning('t1', 2000);
      expect(await s.cancelTask('t1', 2500, 7)).toMatchObject({ status: 'cancelled' });
      await s.insertTask(task('t_hit', { finished: { text: '{}' } }));
      expect(await s.cancelTask('t_hit', 1, 9)).toBeUndefined();
    });

    it('counts queued and running tasks', async () => {
      await start();
      expect(await s.countByStatus()).toEqual({ queued: 0, running: 0 });
      await s.insertTask(task('t1'));
      await s.insertTask(task('t2'));
      await s.insertTask(task('t3', { finished: { text: '{}' } }));
      await s.markRunning('t2', 1);
      expect(await s.countByStatus()).toEqual({ queued: 1, running: 1 });
    });

    it('claims the oldest queued task of a free account, ties in insertion order', async () => {
      await start();
      await s.insertTask(task('t_b', { createdAt: 2000, account: 'x:b' }));
      await s.insertTask(task('t_z', { createdAt: 1000, account: 'x:a' }));
      await s.insertTask(task('t_y', { createdAt: 1000, account: 'x:b' }));
      expect((await s.claimNext(['x:a'], 5))!.id).toBe('t_y');
      expect((await s.claimNext([], 6))).toMatchObject({ id: 't_z', status: 'running', started_at: 6, event_seq: 2 });
      expect(await s.claimNext(['x:b'], 7)).toBeUndefined();
      expect((await s.claimNext([], 8))!.id).toBe('t_b');
      expect(await s.claimNext([], 9)).toBeUndefined();
    });

    it("claims a watch's run only after every interactive task queued, older or newer; the row names its watch", async () => {
      await start();
      await s.insertTask(task('t_run', { createdAt: 1000, watchId: 'w_1' }));
      await s.insertTask(task('t_late', { createdAt: 3000 }));
      expect(await s.getTask('t_run')).toMatchObject({ watch_id: 'w_1' });
      expect((await s.claimNext([], 5))).toMatchObject({ id: 't_late', watch_id: null });
      expect((await s.claimNext([], 6))).toMatchObject({ id: 't_run', watch_id: 'w_1' });
      expect(await s.markRunning('t_run', 7)).toBeUndefined();
    });

    it('hands each queued task to exactly one of many concurrent claimers on two connections', async () => {
      await start();
      const other = await h.other();
      for (let i = 0; i < 30; i++) await s.insertTask(task(`t_${String(i).padStart(2, '0')}`, { account: `x:${i}` }));
      const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? s : other).claimNext([], i)));
      const got = claims.filter((r) => r !== undefined).map((r) => r!.id);
      expect(got.length).toBe(30);
      expect(new Set(got).size).toBe(30);
    });

    it('after a crash, re-queues running reads and fails running writes as "outcome unknown"', async () => {
      await start();
      await s.insertTask(task('t_read'));
      await s.insertTask(task('t_write', { action: 'post.create' }));
      await s.insertTask(task('t_queued'));
      await s.markRunning('t_read', 1);
      await s.markRunning('t_write', 1);
      expect(await s.requeueOrphans()).toBe(1);
      expect(await s.getTask('t_read')).toMatchObject({ status: 'queued', attempts: 2, started_at: null, event_seq: 3 });
      const w = (await s.getTask('t_write'))!;
      expect(w).toMatchObject({ status: 'failed', event_seq: 4 });
      expect(JSON.parse(w.error!)).toMatchObject({ code: 'upstream_error', retryable: false });
      expect(JSON.parse(w.error!).message).toContain('outcome unknown');
      expect((await s.getTask('t_queued'))!.attempts).toBe(1);
    });

    it('keeps media refs (the last of a hash wins), the newest video of an item, and swapped URLs', async () => {
      await start();
      const ref = (hash: string, slot: string, kind: 'video' | 'image', url: string) => ({ url_hash: hash, platform: 'x', native_id: 'n1', slot, profile: 'default', url, kind });
      await s.mediaRefsPut([ref('h1', 'thumb', 'image', 'https://cdn/1.jpg'), ref('h2', 'media:0', 'video', 'https://cdn/old.mp4'), ref('h1', 'media:1', 'image', 'https://cdn/1b.jpg')], 100);
      await s.mediaRefsPut([], 150);
      expect(await s.mediaRefGet('h1')).toEqual({ platform: 'x', native_id: 'n1', slot: 'media:1', profile: 'default' });
      expect(await s.mediaRefGet('h9')).toBeUndefined();
      expect(await s.videoOf('x', 'n1')).toEqual({ url: 'https://cdn/old.mp4', profile: 'default' });
      await s.mediaRefsPut([ref('h3', 'media:0', 'video', 'https://cdn/new.mp4')], 200);
      expect(await s.videoOf('x', 'n1')).toEqual({ url: 'https://cdn/new.mp4', profile: 'default' });
      expect(await s.videoOf('x', 'n2')).toBeUndefined();
      await s.mediaSwapPut('h1', 'https://cdn/a', 1);
      await s.mediaSwapPut('h1', 'https://cdn/b', 2);
      expect(await s.mediaSwapGet('h1')).toBe('https://cdn/b');
      expect(await s.mediaSwapGet('h2')).toBeUndefined();
    });

    it('keeps one preview row per item, replaced as its render moves on', async () => {
      await start();
      const base = { platform: 'x', native_id: 'n1', reason: null, w: null, h: null, seconds: null, file: null };
      await s.previewPut({ ...base, state: 'rendering', updated_at: 1 });
      await s.previewPut({ ...base, state: 'ready', w: 320, h: 180, seconds: 2.5, file: 'x/n1.mp4', updated_at: 2 });
      expect(await s.previewGet('x', 'n1')).toEqual({ ...base, state: 'ready', w: 320, h: 180, seconds: 2.5, file: 'x/n1.mp4', updated_at: 2, owner: null, lease_until: null });
      expect(await s.previewGet('x', 'n2')).toBeUndefined();
    });

    const claim = (owner: string, now: number, over: Partial<PreviewClaim> = {}): PreviewClaim => ({ platform: 'x', native_id: 'c1', owner, now, lease_until: now + 100, ...over });
    const settled = { platform: 'x', native_id: 'c1', reason: null, w: null, h: null, seconds: null, file: null };

    it('render lease: one claimer wins, on any connection; the row says who renders and until when', async () => {
      await start();
      const other = await h.other();
      const wins = await Promise.all([s.previewClaim(claim('a', 1000)), other.previewClaim(claim('b', 1000)), s.previewClaim(claim('c', 1000)), other.previewClaim(claim('d', 1000))]);
      expect(wins.filter(Boolean)).toHaveLength(1);
      const owner = ['a', 'b', 'c', 'd'][wins.indexOf(true)];
      expect(await s.previewGet('x', 'c1')).toMatchObject({ state: 'rendering', owner, lease_until: 1100, updated_at: 1000 });
      // Within the lease nobody else gets it, the holder neither (one render per claim).
      expect(await s.previewClaim(claim('e', 1099))).toBe(false);
      expect(await s.previewClaim(claim(owner, 1050))).toBe(false);
    });

    it('render lease: a lease that ran out is taken over; its old holder can no longer renew it, the new one can', async () => {
      await start();
      expect(await s.previewClaim(claim('a', 1000))).toBe(true);
      expect(await s.previewRenew('x', 'c1', 'a', 1200)).toBe(true);
      expect(await s.previewClaim(claim('b', 1199))).toBe(false);
      expect(await s.previewClaim(claim('b', 1200))).toBe(true);
      expect(await s.previewGet('x', 'c1')).toMatchObject({ state: 'rendering', owner: 'b', lease_until: 1300 });
      expect(await s.previewRenew('x', 'c1', 'a', 1500)).toBe(false);
      expect(await s.previewRenew('x', 'c1', 'b', 1500)).toBe(true);
      expect((await s.previewGet('x', 'c1'))?.lease_until).toBe(1500);
    });

    it('render lease: released by its holder only; a settled row ends it', async () => {
      await start();
      expect(await s.previewClaim(claim('a', 1000))).toBe(true);
      await s.previewRelease('x', 'c1', 'b');
      expect((await s.previewGet('x', 'c1'))?.owner).toBe('a');
      await s.previewRelease('x', 'c1', 'a');
      expect(await s.previewGet('x', 'c1')).toBeUndefined();
      expect(await s.previewClaim(claim('b', 1001))).toBe(true);
      await s.previewPut({ ...settled, state: 'ready', w: 2, h: 2, seconds: 1, file: 'x/c1.mp4', updated_at: 1050 });
      expect(await s.previewGet('x', 'c1')).toMatchObject({ state: 'ready', owner: null, lease_until: null });
      expect(await s.previewRenew('x', 'c1', 'b', 2000)).toBe(false);
      // Releasing after the result is stored leaves the result.
      await s.previewRelease('x', 'c1', 'b');
      expect((await s.previewGet('x', 'c1'))?.state).toBe('ready');
    });

    it('render lease: a settled row is claimed only as the stale row the caller read', async () => {
      await start();
      await s.previewPut({ ...settled, state: 'failed', reason: 'expired', updated_at: 10 });
      expect(await s.previewClaim(claim('a', 5000))).toBe(false);
      expect(await s.previewClaim(claim('a', 5000, { stale: { state: 'failed', updated_at: 9 } }))).toBe(false);
      expect(await s.previewClaim(claim('a', 5000, { stale: { state: 'ready', updated_at: 10 } }))).toBe(false);
      const other = await h.other();
      const wins = await Promise.all([s.previewClaim(claim('a', 5000, { stale: { state: 'failed', updated_at: 10 } })), other.previewClaim(claim('b', 5000, { stale: { state: 'failed', updated_at: 10 } }))]);
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await s.previewGet('x', 'c1')).toMatchObject({ state: 'rendering', reason: null, lease_until: 5100 });
      await s.previewPut({ ...settled, state: 'ready', w: 2, h: 2, seconds: 1, file: 'x/c1.mp4', updated_at: 6000 });
      expect(await s.previewClaim(claim('c', 7000))).toBe(false);
      expect(await s.previewClaim(claim('c', 7000, { stale: { state: 'ready', updated_at: 6000 } }))).toBe(true);
      expect(await s.previewGet('x', 'c1')).toMatchObject({ state: 'rendering', owner: 'c', file: null, w: null });
    });

    it('binds an idempotency key with its task atomically: a second binding of the key inserts nothing', async () => {
      await start();
      await s.insertWriteTask(task('t_w1', { action: 'post.create' }), 'tok_a', 'key-1', 'hash-1');
      expect(await s.idempotencyGet('tok_a', 'key-1')).toEqual({ task_id: 't_w1', params_hash: 'hash-1' });
      expect(await s.idempotencyGet('tok_b', 'key-1')).toBeUndefined();
      await expect(s.insertWriteTask(task('t_w2', { action: 'post.create' }), 'tok_a', 'key-1', 'hash-2')).rejects.toThrow();
      expect(await s.getTask('t_w2')).toBeUndefined();
      expect(await s.idempotencyPurge(999)).toBe(0);
      expect(await s.idempotencyPurge(1001)).toBe(1);
      expect(await s.idempotencyGet('tok_a', 'key-1')).toBeUndefined();
    });

    it('serves a cache entry until it expires, replaces it by key, and purges what expired', async () => {
      await start();
      const a = await s.cachePut('k1', { head: '{"age_s":', tail: '}', created_at: 10 }, 100);
      expect(await s.cacheGet('k1', 99)).toEqual({ result_id: a.result_id, head: '{"age_s":', tail: '}', created_at: 10, expires_at: 100 });
      expect(await s.cacheGet('k1', 100)).toBeUndefined();
      const b = await s.cachePut('k1', { head: '{"v":2,"age_s":', tail: '}', created_at: 20 }, 200);
      expect(b.result_id).not.toBe(a.result_id);
      expect((await s.cacheGet('k1', 150))!.head).toBe('{"v":2,"age_s":');
      await s.cachePut('k2', { head: 'h', tail: 't', created_at: 20 }, 120);
      expect(await s.cachePurgeExpired(150)).toBe(1);
      expect(await s.cacheGet('k2', 0)).toBeUndefined();
      expect(await s.cacheGet('k1', 150)).toBeDefined();
    });

    it('purges old ended tasks but keeps one an idempotency key holds, and results a task still uses', async () => {
      await start();
      const e = await s.cachePut('k', { head: '{"age_s":', tail: '}', created_at: 1 }, 50);
      await s.insertTask(task('t_old', { createdAt: 10, finished: { text: '', resultId: e.result_id, age: 3 } }));
      await s.insertTask(task('t_bound', { createdAt: 10, action: 'post.create', finished: { text: '{}' } }));
      await s.insertWriteTask(task('t_w', { createdAt: 10, action: 'post.create' }), 'tok_a', 'k1', 'h');
      await s.cancelTask('t_w', 11, 3);
      await s.insertTask(task('t_new', { createdAt: 5000, finished: { text: '{}' } }));
      await s.insertTask(task('t_live', { createdAt: 10 }));
      // The expired entry goes, but its result stays while t_old references it.
      expect(await s.cachePurgeExpired(100)).toBe(1);
      expect((await s.getTask('t_old'))!.result).toBe('{"age_s":3}');
      expect(await s.tasksPurge(1000)).toBe(2);
      expect(await s.getTask('t_old')).toBeUndefined();
      expect(await s.getTask('t_bound')).toBeUndefined();
      expect(await s.getTask('t_w')).toBeDefined();
      expect(await s.getTask('t_new')).toBeDefined();
      expect(await s.getTask('t_live')).toBeDefined();
    });

    it('keeps tokens by hash and id, lists them, and revokes once', async () => {
      await start();
      await s.tokenInsert(token('tok_1', 'secret-1'));
      await s.tokenInsert({ ...token('tok_2', 'secret-2'), created_at: 6 });
      const row = (await s.tokenByHash(createHash('sha256').update('secret-1').digest()))!;
      expect(row).toMatchObject({ id: 'tok_1', name: 'tok_1', scopes: 'read,write', created_at: 5, revoked_at: null });
      expect(Buffer.isBuffer(row.hash) && row.hash.equals(token('tok_1', 'secret-1').hash)).toBe(true);
      expect(await s.tokenByHash(randomBytes(32))).toBeUndefined();
      expect((await s.tokenById('tok_2'))!.id).toBe('tok_2');
      expect((await s.tokenList()).map((t) => t.id)).toEqual(['tok_1', 'tok_2']);
      expect(await s.tokenRevoke('tok_1', 77)).toBe(true);
      expect(await s.tokenRevoke('tok_1', 78)).toBe(false);
      expect(await s.tokenRevoke('tok_9', 78)).toBe(false);
      expect((await s.tokenById('tok_1'))!.revoked_at).toBe(77);
      await expect(s.tokenInsert(token('tok_3', 'secret-1'))).rejects.toThrow();
    });

    it('a token revoked through one connection is refused by another\'s token check on its next call', async () => {
      await start();
      const other = await h.other();
      const here = new TokenService(s);
      const there = new TokenService(other);
      const { token: secret, info } = await here.create(['read']);
      // The other side verifies (and caches) the token first.
      expect((await there.verify(secret))?.id).toBe(info.id);
      const before = await other.dataVersion();
      expect((await here.revoke(info.id))?.already).toBe(false);
      expect(await other.dataVersion()).not.toBe(before);
      // The next call is in a later event-loop turn, as the next HTTP request would be.
      await new Promise((r) => setImmediate(r));
      expect(await there.verify(secret)).toBeUndefined();
    });

    it('seals profile secrets at rest, lists profiles without them, and tracks their health', async () => {
      await start();
      await s.profilePut({ platform: 'x', name: 'main', cookies: 'SESSION=abc', credentials: '{"app_password":"pw"}' });
      expect(await h.rawCookies('x', 'main')).not.toContain('SESSION=abc');
      expect(await s.profileGet('x', 'main')).toMatchObject({ cookies: 'SESSION=abc', credentials: '{"app_password":"pw"}', health: 'unknown', strikes: 0 });
      expect((await (await h.other()).profileGet('x', 'main'))!.cookies).toBe('SESSION=abc');
      expect(await s.profileList()).toEqual([expect.objectContaining({ platform: 'x', name: 'main', cookies: null, credentials: null })]);
      await s.profileCookies('x', 'main', 'SESSION=renewed');
      expect(await h.rawCookies('x', 'main')).not.toContain('renewed');
      expect((await s.profileGet('x', 'main'))!.cookies).toBe('SESSION=renewed');
      await s.profileTouch('x', 'main', 42);
      await s.profileHealth({ platform: 'x', name: 'main', health: 'cooling', checked_at: 50, cooling_until: 1000, strikes: 2 });
      expect(await s.profileGet('x', 'main')).toMatchObject({ used_at: 42, health: 'cooling', checked_at: 50, cooling_until: 1000, strikes: 2, credentials: '{"app_password":"pw"}' });
      expect(await s.profileStrikes('x', 'main')).toEqual({ strikes: 2, cooling_until: 1000 });
      expect(await s.profileStrikes('x', 'nobody')).toBeUndefined();
      expect(await s.profilesCooling(999)).toEqual([{ platform: 'x', name: 'main', cooling_until: 1000 }]);
      expect(await s.profilesCooling(1000)).toEqual([]);
      // A new login replaces the old one, and its cooling with it.
      await s.profilePut({ platform: 'x', name: 'main', cookies: null, credentials: null });
      expect(await s.profileGet('x', 'main')).toMatchObject({ cookies: null, credentials: null, health: 'unknown', checked_at: null, cooling_until: null, strikes: 0 });
      expect(await s.profileDelete('x', 'main')).toBe(true);
      expect(await s.profileDelete('x', 'main')).toBe(false);
      expect(await s.profileGet('x', 'main')).toBeUndefined();
    });

    it('stores a batch with its links at once and reads each entry with its task status, in index order', async () => {
      await start();
      const b = openBatchStore(s);
      expect(await b.batchGet('b_1')).toBeUndefined();
      expect(await b.batchEntries('b_1')).toEqual([]);
      await s.insertTask(task('t1'));
      await s.insertTask(task('t2', { finished: { text: '{"ok":true,"source":"live","items":[]}' } }));
      await s.insertTask(task('t3'));
      // Refused entries leave gaps in the indexes; 500 links go in with the batch.
      const links = [{ idx: 4, task_id: 't3' }, { idx: 0, task_id: 't1' }, { idx: 2, task_id: 't2' }, { idx: 7, task_id: 't_purged' }];
      await b.batchCreate({ id: 'b_1', owner: 'tok_a', created_at: 1234, size: 4 }, links);
      const other = openBatchStore(await h.other());
      expect(await other.batchGet('b_1')).toEqual({ id: 'b_1', owner: 'tok_a', created_at: 1234, size: 4 });
      await s.markRunning('t1', 2000);
      await s.finishTask('t1', 1, 'failed', null, { code: 'timeout', message: 'slow', retryable: true }, 3000, 5);
      expect(await other.batchEntries('b_1')).toEqual([
        { idx: 0, task_id: 't1', status: 'failed', error: '{"code":"timeout","message":"slow","retryable":true}' },
        { idx: 2, task_id: 't2', status: 'succeeded', error: null },
        { idx: 4, task_id: 't3', status: 'queued', error: null },
        { idx: 7, task_id: 't_purged', status: null, error: null },
      ]);
      // An id is taken once; a failed create leaves nothing half-made.
      await expect(b.batchCreate({ id: 'b_1', owner: 'tok_b', created_at: 1, size: 1 }, [{ idx: 0, task_id: 't9' }])).rejects.toThrow();
      await expect(b.batchCreate({ id: 'b_2', owner: null, created_at: 1, size: 2 }, [{ idx: 0, task_id: 't1' }, { idx: 0, task_id: 't2' }])).rejects.toThrow();
      expect(await b.batchGet('b_2')).toBeUndefined();
      expect(await b.batchEntries('b_2')).toEqual([]);
      const many = Array.from({ length: 500 }, (_, i) => ({ idx: i, task_id: `t_${i}` }));
      await b.batchCreate({ id: 'b_3', owner: null, created_at: 5, size: 500 }, many);
      expect((await b.batchEntries('b_3')).map((e) => e.idx)).toEqual(many.map((l) => l.idx));
      expect(await b.batchGet('b_3')).toEqual({ id: 'b_3', owner: null, created_at: 5, size: 500 });
      // Retention: batches made before the cut go, with their links; later ones stay whole.
      expect(await b.batchPurge(1000)).toBe(1);
      expect(await b.batchGet('b_3')).toBeUndefined();
      expect(await b.batchEntries('b_3')).toEqual([]);
      expect((await b.batchEntries('b_1')).map((e) => e.idx)).toEqual([0, 2, 4, 7]);
      expect(await b.batchPurge(1000)).toBe(0);
    });

    it('writes a batch\'s new tasks with it in one transaction, stored exactly as insertTask stores them', async () => {
      await start();
      const b = openBatchStore(s);
      const hit = await s.cachePut('k', { head: '{"ok":true,"source":"cache","age_s":', tail: ',"items":[]}', created_at: 900 }, 99_999);
      const news = [task('n1', { createdAt: 2000 }), task('n2', { createdAt: 2000, account: 'x:other', finished: { text: 'ignored', resultId: hit.result_id, age: 7 } }), task('n3', { createdAt: 2000 })];
      const rows = await b.batchCreate({ id: 'b_n', owner: 'tok_a', created_at: 2000, size: 3 }, news.map((t, i) => ({ idx: i * 2, task_id: t.id })), news);
      expect(rows.map((r) => [r.id, r.status, r.event_seq])).toEqual([['n1', 'queued', 1], ['n2', 'succeeded', 2], ['n3', 'queued', 1]]);
      const other = await h.other();
      expect(await other.getTask('n1')).toMatchObject(rows[0]);
      expect(JSON.parse((await other.getTask('n2'))!.result!)).toEqual({ ok: true, source: 'cache', age_s: 7, items: [] });
      // Queued in entry order: a claim takes n1 before n3 (same millisecond).
      expect((await other.claimNext([], 3000))!.id).toBe('n1');
      expect((await openBatchStore(other).batchEntries('b_n')).map((e) => [e.idx, e.task_id, e.status])).toEqual([[0, 'n1', 'running'], [2, 'n2', 'succeeded'], [4, 'n3', 'queued']]);
      // All or nothing: a failing link takes the batch's tasks with it.
      await expect(b.batchCreate({ id: 'b_bad', owner: null, created_at: 1, size: 2 }, [{ idx: 0, task_id: 'n8' }, { idx: 0, task_id: 'n9' }], [task('n8'), task('n9')])).rejects.toThrow();
      expect(await s.getTask('n8')).toBeUndefined();
      expect(await b.batchGet('b_bad')).toBeUndefined();
    });

    it('keeps one sealed guest jar per account, replaced whole', async () => {
      await start();
      expect(await s.guestJarGet('x:guest')).toBeUndefined();
      await s.guestJarPut('x:guest', 'UA/1', '{"cookies":[1]}', 1);
      await s.guestJarPut('x:guest', 'UA/2', '{"cookies":[2]}', 2);
      expect(await (await h.other()).guestJarGet('x:guest')).toEqual({ user_agent: 'UA/2', data: '{"cookies":[2]}' });
    });
  });
}
