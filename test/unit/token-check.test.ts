import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenService } from '../../src/auth/tokens.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';

const dirs: string[] = [];
const stores: SqliteStore[] = [];

function open(): SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), 'token-check-'));
  dirs.push(dir);
  const store = new SqliteStore(openDatabase(join(dir, 'crawler.sqlite')));
  stores.push(store);
  return store;
}

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('TokenService.check', () => {
  it('does not remember a row read before a revocation that finished while the read was in flight', async () => {
    const inner = open();
    const gate: { release?: () => void } = {};
    // The store's token read waits for the test, as a Postgres round trip would.
    const slow = new Proxy(inner, {
      get(target, name, receiver) {
        if (name !== 'tokenByHash') return Reflect.get(target, name, receiver);
        return async (hash: Buffer) => {
          const row = await target.tokenByHash(hash);
          await new Promise<void>((r) => (gate.release = r));
          return row;
        };
      },
    }) as Store;
    const tokens = new TokenService(slow);
    const { token, info } = await tokens.create(['read']);
    /** Resolves with the release of the read the store is holding, once it holds one. */
    const held = async (): Promise<() => void> => {
      while (!gate.release) await new Promise((r) => setTimeout(r, 1));
      const release = gate.release;
      gate.release = undefined;
      return release;
    };
    const inFlight = tokens.check(token);
    const release = await held();
    await tokens.revoke(info.id);
    release();
    // That request raced the revocation and may pass; nothing after it may.
    expect((await inFlight)?.row.id).toBe(info.id);
    // Answered from memory, it would not even ask the store.
    const again = tokens.check(token);
    const answer = await Promise.race([again, held().then((r) => (r(), again))]);
    expect(answer).toBeUndefined();
  });
});
