import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '../../src/accounts/secrets.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';
import { storeConformance } from './store-conformance.js';

storeConformance('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
  const file = join(dir, 'crawler.sqlite');
  const box = new SecretBox(randomBytes(32));
  const store = new SqliteStore(openDatabase(file), box);
  const others: Store[] = [];
  return {
    store,
    async other() {
      const o = new SqliteStore(openDatabase(file), box);
      others.push(o);
      return o;
    },
    async rawCookies(platform, name) {
      return (store.db.prepare('SELECT cookies FROM profiles WHERE platform = ? AND name = ?').get(platform, name) as { cookies: string | null }).cookies;
    },
    async close() {
      for (const o of others) await o.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
