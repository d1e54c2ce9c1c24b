import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { ident } from './pool.js';

/** migrations/postgres at the package root, the same relative path from src/store/pg and dist/store/pg. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/postgres/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** NNN_name.sql files, in version order; a gap or a repeated number is a packaging error. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => {
      const m = /^(\d+)_([\w-]+)\.sql$/.exec(f);
      if (!m) throw new Error(`migration file name must be NNN_name.sql: ${f}`);
      return { version: Number(m[1]), name: m[2], sql: readFileSync(`${dir}/${f}`, 'utf8') };
    })
    .sort((a, b) => a.version - b.version);
  out.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migrations must be numbered 1, 2, 3…: found ${m.version} at position ${i + 1}`);
  });
  return out;
}

/**
 * Applies the migrations not yet recorded, all in one transaction under an advisory lock keyed by the
 * schema: processes starting at once queue on the lock, and each later one finds the work done.
 * Returns the versions this call applied.
 */
export async function migrate(pool: pg.Pool, schema?: string, migrations = readMigrations()): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Creating the schema is inside the lock too: two concurrent CREATE SCHEMA IF NOT EXISTS can collide.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('crawler-migrations:' || COALESCE($1, current_schema(), 'public')))", [schema ?? null]);
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    return applied;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
