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

  it('reload: a copy another process changed since is replaced by the stored one, its own changes stored first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jar-'));
    const store = new SqliteStore(openDatabase(join(dir, 'db.sqlite')), new SecretBox(Buffer.alloc(32, 9)));
    // Two processes' copies of one account; the account runs on one process at a time.
    const here = await PersistedGuestJar.load(store, 'twitter:default', { pickAgent: () => 'UA-HERE' });
    await here.saved();
    const there = await PersistedGuestJar.load(store, 'twitter:default');
    there.set('twitter:window:default:login:UserTweets', 1_900_000_000, 60_000);
    await there.saved();
    expect(here.get('twitter:window:default:login:UserTweets')).toBeUndefined();
    await here.reload();
    expect(here.get('twitter:window:default:login:UserTweets')).toBe(1_900_000_000);
    expect(here.userAgent).toBe('UA-HERE');
    // A change not yet stored is stored before the read, so the reload keeps it.
    here.set('own', 'kept');
    await here.reload();
    expect(here.get('own')).toBe('kept');
    await there.reload();
    expect(there.get('own')).toBe('kept');
    expect(there.get('twitter:window:default:login:UserTweets')).toBe(1_900_000_000);
    await store.close();
  });

  it('reload: a change made while the stored copy is read is not lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jar-'));
    const store = new SqliteStore(openDatabase(join(dir, 'db.sqlite')), new SecretBox(Buffer.alloc(32, 9)));
    const jar = await PersistedGuestJar.load(store, 'reddit:default');
    const get = store.guestJarGet.bind(store);
    let once = true;
    // The first read lets another run of this process change the jar before the read's answer arrives.
    store.guestJarGet = async (account) => {
      const row = await get(account);
      if (once) {
        once = false;
        jar.set('reddit:ratelimit:default:oauth.reddit.com', 42, 60_000);
      }
      return row;
    };
    await jar.reload();
    expect(jar.get('reddit:ratelimit:default:oauth.reddit.com')).toBe(42);
    await store.close();
  });
});
