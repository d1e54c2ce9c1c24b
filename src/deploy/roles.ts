import { ConfigError, type Config } from '../config.js';

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];
export type Mode = 'embedded' | 'distributed';

export interface Deployment {
  mode: Mode;
  role: Role;
}

export function parseRole(raw: string): Role {
  if ((ROLES as readonly string[]).includes(raw)) return raw as Role;
  throw new ConfigError(`--role ${raw}: expected one of ${ROLES.join(', ')}`);
}

/**
 * The mode follows from the configuration: both shared backends set means distributed, neither means
 * embedded. Embedded is one process with SQLite under the data dir, so it only runs as `all`.
 */
export function resolveDeployment(config: Pick<Config, 'databaseUrl' | 'redisUrl'>, role: Role): Deployment {
  const db = Boolean(config.databaseUrl);
  const redis = Boolean(config.redisUrl);
  if (db !== redis) {
    throw new ConfigError(`distributed mode needs both CRAWLER_DATABASE_URL and CRAWLER_REDIS_URL (only ${db ? 'CRAWLER_DATABASE_URL' : 'CRAWLER_REDIS_URL'} is set); unset it to run embedded`);
  }
  if (!db) {
    if (role !== 'all') {
      throw new ConfigError(
        `--role ${role} runs one part of a fleet and needs CRAWLER_DATABASE_URL and CRAWLER_REDIS_URL (the shared store and queue). ` +
          'Without them the service runs embedded, in a single process (SQLite under the data dir): use --role all, the default.',
      );
    }
    return { mode: 'embedded', role };
  }
  return { mode: 'distributed', role };
}
