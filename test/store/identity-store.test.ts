import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/accounts/secrets.js';
import type { IdentityStore } from '../../src/store/identity.js';
import { PgIdentityStore } from '../../src/store/pg/identity.js';
import { createPool } from '../../src/store/pg/pool.js';
import { PgStore } from '../../src/store/pg/store.js';
import { SqliteIdentityStore } from '../../src/store/sqlite-identity.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';
import { testSchema } from '../helpers/postgres.js';

interface Harness {
  store: Store;
  ids: IdentityStore;
  rawProxy(platform: string, name: string): Promise<string | null>;
  close(): Promise<void>;
}

const backends: Array<[string, () => Promise<Harness>]> = [
  [
    'SQLite',
    async () => {
      const box = new SecretBox(randomBytes(32));
      const store = new SqliteStore(openDatabase(':memory:'), box);
      return {
        store,
        ids: new SqliteIdentityStore(store.db, box),
        rawProxy: async (p, n) => (store.db.prepare('SELECT proxy FROM profile_identity WHERE platform = ? AND name = ?').get(p, n) as { proxy: string | null }).proxy,
        close: () => store.close(),
      };
    },
  ],
  [
    'Postgres',
    async () => {
      const db = await testSchema();
      const box = new SecretBox(randomBytes(32));
      const store = new PgStore(createPool({ url: db.url, schema: db.schema, max: 4 }), box, db.schema);
      await store.ready();
      return {
        store,
        ids: new PgIdentityStore(store.pool, box, () => store.ready()),
        rawProxy: async (p, n) => (await store.pool.query<{ proxy: string | null }>('SELECT proxy FROM profile_identity WHERE platform = $1 AND name = $2', [p, n])).rows[0].proxy,
        close: async () => {
          await store.close();
          await db.drop();
        },
      };
    },
  ],
];

for (const [backend, open] of backends) {
  describe(`IdentityStore conformance: ${backend}`, () => {
    let h: Harness;
    afterEach(async () => h?.close());

    it('stores a proxy sealed, reads it opened, replaces and deletes it', async () => {
      h = await open();
      expect(await h.ids.identityGet('x', 'a')).toBeUndefined();
      await h.ids.identityPut('x', 'a', { proxy: 'socks5://u:SECRETPW@h:1080', pool: 'eu' });
      expect(await h.ids.identityGet('x', 'a')).toEqual({ proxy: 'socks5://u:SECRETPW@h:1080', pool: 'eu' });
      const raw = await h.rawProxy('x', 'a');
      expect(raw).toMatch(/^enc1:/);
      expect(raw).not.toContain('SECRETPW');
      await h.ids.identityPut('x', 'a', { proxy: null, pool: 'us' });
      await h.ids.identityPut('x', 'b', { proxy: 'http://h:3128', pool: null });
      expect(await h.ids.identityList()).toEqual([
        { platform: 'x', name: 'a', proxy: null, pool: 'us' },
        { platform: 'x', name: 'b', proxy: 'http://h:3128', pool: null },
      ]);
      await h.ids.identityDelete('x', 'a');
      expect(await h.ids.identityGet('x', 'a')).toBeUndefined();
    });

    it('counts outcomes per minute over a window (several adds to one minute add up) and purges old minutes', async () => {
      h = await open();
      const M = 60_000;
      await h.ids.outcomeAdd('x', 'a', 'ok', 10 * M + 5);
      await h.ids.outcomeAdd('x', 'a', 'ok', 10 * M + 59_000);
      await h.ids.outcomeAdd('x', 'a', 'blocked', 12 * M);
      await h.ids.outcomeAdd('x', 'b', 'failed', 12 * M + 1);
      await h.ids.outcomeAdd('x', 'a', 'ok', 9 * M);
      // A window starting within minute 10 counts all of minute 10.
      const counts = (await h.ids.outcomeCounts(10 * M + 30_000)).sort((p, q) => p.name.localeCompare(q.name));
      expect(counts).toEqual([
        { platform: 'x', name: 'a', tasks: 3, ok: 2, blocked: 1 },
        { platform: 'x', name: 'b', tasks: 1, ok: 0, blocked: 0 },
      ]);
      await Promise.all(Array.from({ length: 20 }, () => h.ids.outcomeAdd('x', 'c', 'ok', 12 * M)));
      expect((await h.ids.outcomeCounts(0)).find((c) => c.name === 'c')).toMatchObject({ tasks: 20, ok: 20 });
      await h.ids.outcomePurge(11 * M);
      expect((await h.ids.outcomeCounts(0)).find((c) => c.name === 'a')).toMatchObject({ tasks: 1, blocked: 1 });
    });

    it('lists pool candidates with health, cooling, recent outcomes and queued+running tasks', async () => {
      h = await open();
      for (const n of ['a', 'b', 'c']) await h.store.profilePut({ platform: 'x', name: n, cookies: 'k=v', credentials: null });
      await h.store.profilePut({ platform: 'y', name: 'a', cookies: 'k=v', credentials: null });
      await h.ids.identityPut('x', 'a', { proxy: null, pool: 'eu' });
      await h.ids.identityPut('x', 'b', { proxy: null, pool: 'eu' });
      await h.store.profileHealth({ platform: 'x', name: 'b', health: 'cooling', checked_at: 1, cooling_until: 9999, strikes: 2 });
      await h.ids.outcomeAdd('x', 'a', 'ok', 5 * 60_000);
      await h.ids.outcomeAdd('x', 'a', 'blocked', 6 * 60_000);
      await h.ids.outcomeAdd('x', 'a', 'ok', 60_000);
      const base = { source: 'x', action: 'search', params: '{}', owner: null, createdAt: 1 };
      await h.store.insertTask({ ...base, id: 't1', account: 'x:a' });
      await h.store.insertTask({ ...base, id: 't2', account: 'x:a' });
      await h.store.insertTask({ ...base, id: 't3', account: 'x:b' });
      await h.store.insertTask({ ...base, id: 't4', account: 'x:a', finished: { text: '{}' } });
      await h.store.markRunning('t2', 2);
      const eu = await h.ids.poolCandidates('x', 'eu', 2 * 60_000);
      expect(eu).toEqual([
        { name: 'a', health: 'unknown', cooling_until: null, used_at: null, pool: 'eu', tasks: 2, ok: 1, blocked: 1, active: 2 },
        { name: 'b', health: 'cooling', cooling_until: 9999, used_at: null, pool: 'eu', tasks: 0, ok: 0, blocked: 0, active: 1 },
      ]);
      expect((await h.ids.poolCandidates('x', null, 2 * 60_000)).map((c) => c.name)).toEqual(['a', 'b', 'c']);
      expect(await h.ids.poolCandidates('x', 'us', 2 * 60_000)).toEqual([]);
    });
  });
}
