import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PersistedGuestJar } from '../../src/accounts/guest.js';
import { SecretBox } from '../../src/accounts/secrets.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';

describe('guest jars', () => {
  it('persist minted state across restarts, sealed, bound to one User-Agent for life', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jar-'));
    const box = new SecretBox(Buffer.alloc(32, 7));
    const open = () => new SqliteStore(openDatabase(join(dir, 'db.sqlite')), box);
    const now = { t: 1000 };
    const s1 = open();
    const jar = await PersistedGuestJar.load(s1, 'bilibili:default', { now: () => now.t, pickAgent: () => 'UA-ONE' });
    jar.set('buvid', 'b3-secret-value', 60_000);
    jar.set('short', 1, 10);
    await jar.saved();
    s1.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(join(dir, 'db.sqlite')).includes('b3-secret-value')).toBe(false);
    await s1.close();
    const s2 = open();
    now.t = 2000;
    const again = await PersistedGuestJar.load(s2, 'bilibili:default', { now: () => now.t, pickAgent: () => 'UA-TWO' });
    expect(again.userAgent).toBe('UA-ONE');
    expect(again.get('buvid')).toBe('b3-secret-value');
    expect(again.get('short')).toBeUndefined();
    again.delete('buvid');
    await again.saved();
    expect((await PersistedGuestJar.load(s2, 'bilibili:default')).get('buvid')).toBeUndefined();
    expect((await PersistedGuestJar.load(s2, 'weibo:default', { now: () => 0, pickAgent: () => 'UA-THREE' })).userAgent).toBe('UA-THREE');
  });
});
