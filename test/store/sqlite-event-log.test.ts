import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openDatabase } from '../../src/store/sqlite.js';
import { SqliteEventLog } from '../../src/store/sqlite-events.js';
import { eventLogConformance } from './event-log-conformance.js';

eventLogConformance('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'event-log-sqlite-'));
  const file = join(dir, 'crawler.sqlite');
  const dbs: Database.Database[] = [openDatabase(file)];
  return {
    log: new SqliteEventLog(dbs[0]),
    async other() {
      dbs.push(openDatabase(file));
      return new SqliteEventLog(dbs[dbs.length - 1]);
    },
    async close() {
      for (const db of dbs) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
