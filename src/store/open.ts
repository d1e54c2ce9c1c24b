import { join } from 'node:path';
import { loadSecretKey, SecretBox } from '../accounts/secrets.js';
import type { Config } from '../config.js';
import { openDatabase, SqliteStore } from './sqlite.js';

/** The embedded store of a data dir, with profile secrets sealed by the configured key. */
export function openStore(config: Pick<Config, 'dataDir' | 'secretKey'> & Partial<Pick<Config, 'groupCommitMs'>>): SqliteStore {
  return new SqliteStore(openDatabase(join(config.dataDir, 'crawler.sqlite')), new SecretBox(loadSecretKey(config.dataDir, config.secretKey)), config.groupCommitMs ?? 0);
}
