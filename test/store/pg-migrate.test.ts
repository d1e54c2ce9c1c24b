import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, readMigrations } from '../../src/store/pg/migrate.js';
import { createPool } from '../../src/store/pg/pool.js';
import { testSchema } from '../helpers/postgres.js';

describe('Postgres migrations', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const fresh = async (pools: number) => {
    const db = await testSchema();
    const list = Array.from({ length: pools }, () => createPool({ url: db.url, schema: db.schema, max: 2 }));
    cleanups.push(db.drop);
    for (const p of list) cleanups.push(() => p.end());
    return { db, pools: list };
  };
  const dir = (files: Record<string, string>) => {
    const d = mkdtempSync(join(tmpdir(), 'migrations-'));
    for (const [name, sql] of Object.entries(files)) writeFileSync(join(d, name), sql);
    return d;
  };

  it('reads the shipped SQL files in version order', () => {
    const list = readMigrations();
    expect(list.length).toBeGreaterThan(0);
    expect(list.map((m) => m.version)).toEqual(list.map((_, i) => i + 1));
    expect(list[0].sql).toContain('CREATE TABLE tasks');
  });

  it('refuses a gap in the numbering or a badly named file', () => {
    expect(() => readMigrations(dir({ '001_a.sql': 'SELECT 1', '003_c.sql': 'SELECT 1' }))).toThrow(/numbered/);
    expect(() => readMigrations(dir({ '001_a.sql': 'SELECT 1', 'b.sql': 'SELECT 1' }))).toThrow(/NNN_name/);
  });

  it('runs each migration once when several processes start at the same moment', async () => {
    const { db, pools } = await fresh(5);
    // Each pool's sessions are in the test schema (search_path); the lock is keyed by it.
    const runs = await Promise.all(pools.map((p) => migrate(p, db.schema)));
    expect(runs.flat().sort()).toEqual(readMigrations().map((m) => m.version));
    expect(runs.filter((r) => r.length > 0).length).toBe(1);
    const rows = (await pools[0].query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows;
    expect(rows.map((r) => r.version)).toEqual(readMigrations().map((m) => m.version));
    expect(await migrate(pools[1])).toEqual([]);
  });

  it('applies only the new files on a later start, and a failing one leaves nothing half done', async () => {
    const { db, pools } = await fresh(1);
    const [pool] = pools as [pg.Pool];
    const one = { '001_first.sql': 'CREATE TABLE a (x INTEGER);' };
    expect(await migrate(pool, db.schema, readMigrations(dir(one)))).toEqual([1]);
    const broken = { ...one, '002_second.sql': 'CREATE TABLE b (x INTEGER);', '003_third.sql': 'CREATE TABLE c (x NOSUCHTYPE);' };
    await expect(migrate(pool, db.schema, readMigrations(dir(broken)))).rejects.toThrow(/nosuchtype/i);
    const tables = async () => (await pool.query<{ t: string }>('SELECT tablename AS t FROM pg_tables WHERE schemaname = $1 ORDER BY 1', [db.schema])).rows.map((r) => r.t);
    expect(await tables()).toEqual(['a', 'schema_migrations']);
    const fixed = { ...broken, '003_third.sql': 'CREATE TABLE c (x INTEGER);' };
    expect(await migrate(pool, db.schema, readMigrations(dir(fixed)))).toEqual([2, 3]);
    expect(await tables()).toEqual(['a', 'b', 'c', 'schema_migrations']);
  });
});
