import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PersistedGuestJar } from '../../src/accounts/guest.js';
import { SecretBox } from '../../src/accounts/secrets.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';

describe('guest jars', () => {
  it('persist minted state across restarts, sealed, bound to one User-Agent for life', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jar-'));
    const box = new SecretBox(Buffer.alloc(32, 7));
    const open = () => new SqliteStore(openDatabase(join(dir, 'db.sqlite')), box);
    const now = { t: 1000 };
    const s1 = open();
    const jar = new PersistedGuestJar(s1, 'bilibili:default', () => now.t, () => 'UA-ONE');
    jar.set('buvid', 'b3-secret-value', 60_000);
    jar.set('short', 1, 10);
    s1.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(join(dir, 'db.sqlite')).includes('b3-secret-value')).toBe(false);
    s1.close();
    const s2 = open();
    now.t = 2000;
    const again = new PersistedGuestJar(s2, 'bilibili:default', () => now.t, () => 'UA-TWO');
    expect(again.userAgent).toBe('UA-ONE');
    expect(again.get('buvid')).toBe('b3-secret-value');
    expect(again.get('short')).toBeUndefined();
    again.delete('buvid');
    expect(new PersistedGuestJar(s2, 'bilibili:default').get('buvid')).toBeUndefined();
    expect(new PersistedGuestJar(s2, 'weibo:default', () => 0, () => 'UA-THREE').userAgent).toBe('UA-THREE');
  });
});
