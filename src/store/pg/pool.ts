import pg from 'pg';

/** Millisecond times and counts are BIGINT; they fit a double, and the rest of the service uses numbers. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface PgOptions {
  /** postgres://user@host:port/db */
  url: string;
  /** Tables live in this schema (created if missing); tests give each file its own. */
  schema?: string;
  /** Connections at most (default 10). */
  max?: number;
}

/** A pool whose sessions use the schema, if given. */
export function createPool(o: PgOptions): pg.Pool {
  if (o.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(o.schema)) throw new Error(`invalid Postgres schema name "${o.schema}"`);
  const pool = new pg.Pool({
    connectionString: o.url,
    max: o.max ?? 10,
    types,
    options: o.schema ? `-c search_path=${o.schema}` : undefined,
    // A server that is down makes calls fail fast (the API answers 503) rather than hang.
    connectionTimeoutMillis: 5_000,
  });
  // An idle connection the server dropped (a restart) is replaced on the next checkout; no crash.
  pool.on('error', () => {});
  return pool;
}

/** A quoted SQL identifier, for the statements that cannot take it as a parameter (CREATE SCHEMA). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
