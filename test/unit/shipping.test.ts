import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { parseRole, resolveDeployment } from '../../src/deploy/roles.js';

// Docker cannot run here: these read the shipped files and check them against the code they start.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const crawlers = Object.entries(services).filter(([, s]) => s.build !== undefined);

/** Compose's ${VAR:?msg} and ${VAR:-default}, with the operator's variables set. */
const OPERATOR = { POSTGRES_PASSWORD: 'pw123', CRAWLER_SECRET_KEY: 'ab'.repeat(32) } as Record<string, string>;
const substitute = (v: string) =>
  v.replace(/\$\{([A-Z_]+)(?::([?-])([^}]*))?\}/g, (_m, name: string, op?: string, rest?: string) => OPERATOR[name] ?? (op === '-' ? (rest ?? '') : ''));

describe('compose.yaml', () => {
  it('has postgres, redis, two api and two worker processes built from this Dockerfile', () => {
    expect(Object.keys(services).sort()).toEqual(['api-1', 'api-2', 'postgres', 'redis', 'worker-1', 'worker-2']);
    expect(crawlers.map(([n]) => n).sort()).toEqual(['api-1', 'api-2', 'worker-1', 'worker-2']);
    for (const [, s] of crawlers) expect(s.build).toBe('.');
  });

  it('gives every crawler process a role the CLI accepts, and the right one by name', () => {
    for (const [name, s] of crawlers) {
      const [cmd, flag, role] = s.command ?? [];
      expect([cmd, flag], name).toEqual(['serve', '--role']);
      expect(parseRole(role!)).toBe(name.startsWith('api') ? 'api' : 'worker');
    }
  });

  it('wires one environment into all of them, and the service accepts it as distributed mode', () => {
    const envs = crawlers.map(([, s]) => JSON.stringify(s.environment));
    expect(new Set(envs).size).toBe(1);
    const env = Object.fromEntries(Object.entries(crawlers[0]![1].environment!).map(([k, v]) => [k, substitute(String(v))]));
    const config = loadConfig(env);
    expect(resolveDeployment(config, 'api')).toEqual({ mode: 'distributed', role: 'api' });
    expect(config.blob).toEqual({ kind: 'file', dir: '/clips' });
    expect(config.secretKey).toBe(OPERATOR.CRAWLER_SECRET_KEY);
    expect(config.port).toBe(8080);

    const db = new URL(config.databaseUrl!);
    const pg = services.postgres!.environment!;
    expect([db.hostname, db.port, db.username, db.pathname.slice(1)]).toEqual(['postgres', '5432', pg.POSTGRES_USER, pg.POSTGRES_DB]);
    expect(decodeURIComponent(db.password)).toBe(substitute(pg.POSTGRES_PASSWORD!));
    const redis = new URL(config.redisUrl!);
    expect([redis.hostname, redis.port]).toEqual(['redis', '6379']);
    expect(services.redis!.command).toEqual(expect.arrayContaining(['--maxmemory-policy', 'noeviction', '--appendonly', 'yes']));
  });

  it('refuses to start without the operator secrets rather than running with empty ones', () => {
    const raw = read('compose.yaml');
    expect(raw).toMatch(/\$\{POSTGRES_PASSWORD:\?/);
    expect(raw).toMatch(/CRAWLER_SECRET_KEY: \$\{CRAWLER_SECRET_KEY:\?/);
  });

  it('mounts one shared clips volume where CRAWLER_BLOB_URL points, in every crawler process', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['clips', 'pgdata', 'redisdata']);
    const dir = (loadConfig({ CRAWLER_BLOB_URL: crawlers[0]![1].environment!.CRAWLER_BLOB_URL! }).blob as { dir: string }).dir;
    for (const [name, s] of crawlers) expect(s.volumes, name).toContain(`clips:${dir}`);
    expect(services.postgres!.volumes).toEqual(['pgdata:/var/lib/postgresql/data']);
  });

  it('publishes the api processes on distinct host ports and the workers on none', () => {
    const published = crawlers.filter(([n]) => n.startsWith('api')).map(([, s]) => s.ports?.[0]);
    expect(published.every((p) => p?.endsWith(':8080'))).toBe(true);
    expect(new Set(published).size).toBe(2);
    for (const [name, s] of crawlers.filter(([n]) => n.startsWith('worker'))) expect(s.ports, name).toBeUndefined();
  });

  it('starts the crawlers once postgres and redis answer their health checks', () => {
    expect(services.postgres!.healthcheck?.test.join(' ')).toMatch(/pg_isready/);
    expect(services.redis!.healthcheck?.test.join(' ')).toMatch(/redis-cli ping/);
    for (const [name, s] of crawlers) expect(s.depends_on, name).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
  });
});

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const lines = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  const froms = lines.map((l, i) => [l, i] as const).filter(([l]) => /^FROM /i.test(l));
  const stage = (name: string) => {
    const at = froms.findIndex(([l]) => new RegExp(` AS ${name}$`, 'i').test(l));
    expect(at, `stage ${name}`).toBeGreaterThanOrEqual(0);
    return lines.slice(froms[at]![1], froms[at + 1]?.[1] ?? lines.length).join('\n');
  };

  it('builds in one stage (npm ci, tsc) and runs from Debian slim Node 20 in another', () => {
    expect(froms.map(([l]) => l)).toEqual(['FROM node:20-bookworm-slim AS build', 'FROM node:20-bookworm-slim AS runtime']);
    const build = stage('build');
    expect(build).toMatch(/COPY package\.json package-lock\.json/);
    expect(build).toMatch(/RUN npm ci\b/);
    expect(build).toMatch(/tsc -p tsconfig\.build\.json/);
    expect(build).toMatch(/npm prune --omit=dev/);
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src/main.ts']) expect(existsSync(join(ROOT, f)), f).toBe(true);
  });

  it('installs ffmpeg and chromium from Debian packages and points CHROMIUM_PATH at it', () => {
    const runtime = stage('runtime');
    expect(runtime).toMatch(/apt-get install -y --no-install-recommends[^\n]*\bffmpeg\b[^\n]*\bchromium\b/);
    expect(runtime).toMatch(/CHROMIUM_PATH=\/usr\/bin\/chromium/);
    expect(runtime).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(runtime).toMatch(/COPY --from=build \/app\/node_modules/);
    // The web console's files are read beside dist/ (src/api/routes/console.ts).
    expect(runtime).toMatch(/^COPY console \.\/console$/m);
  });

  it('runs as a non-root user from the runtime stage on', () => {
    const runtime = stage('runtime');
    const users = [...runtime.matchAll(/^USER (\S+)/gm)].map((m) => m[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(runtime).toMatch(new RegExp(`useradd [^\\n]*\\b${users.at(-1)}\\b`));
    // Nothing after USER runs as root again, and the process starts after it.
    const tail = runtime.slice(runtime.lastIndexOf('USER '));
    expect(tail).toMatch(/ENTRYPOINT \[.*"node", "dist\/main\.js"\]/);
  });

  it('checks health on /v1/health and starts the compiled CLI, whose serve the compose roles extend', () => {
    expect(text).toMatch(/HEALTHCHECK [\s\S]*\/v1\/health/);
    expect(text).toMatch(/CMD \["serve", "--role", "all"\]/);
    const ignore = read('.dockerignore').split('\n');
    expect(ignore).toEqual(expect.arrayContaining(['node_modules', 'dist', 'data']));
  });
});
