import { ConfigError, type Config } from '../config.js';

export const ROLES = ['api', 'worker', 'all'] as const;
export type Role = (typeof ROLES)[number];
export type Mode = 'embedded' | 'distributed';

export interface Deployment {
  mode: Mode;
  role: Role;
}

/**
 * Whether this build can run distributed: true once a Postgres store and a Redis queue are wired into
 * the composition root. Until then a fleet is refused rather than silently run on local SQLite.
 */
export const DISTRIBUTED_BACKENDS = false;

export function parseRole(raw: string): Role {
  if ((ROLES as readonly string[]).includes(raw)) return raw as Role;
  throw new ConfigError(`--role ${raw}: expected one of ${ROLES.join(', ')}`);
}

/**
 * The mode follows from the configuration: both shared backends set means distributed, neither means
 * embedded. Embedded is one process with SQLite under the data dir, so it only runs as `all`.
 */
export function resolveDeployment(config: Pick<Config, 'databaseUrl' | 'redisUrl'>, role: Role, distributedBackends = DISTRIBUTED_BACKENDS): Deployment {
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
  if (!distributedBackends) {
    throw new ConfigError(
      'CRAWLER_DATABASE_URL and CRAWLER_REDIS_URL are set, but this build has no Postgres store or Redis queue wired yet, so distributed mode cannot start. ' +
        'Unset both to run embedded (one process, --role all).',
    );
  }
  return { mode: 'distributed', role };
}
