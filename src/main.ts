import { Command } from 'commander';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScopes, TokenService } from './auth/tokens.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { ApiError } from './domain/errors.js';
import { createService, VERSION } from './service.js';
import { DEMO_EXAMPLES } from './demo.js';
import { openStore } from './store/open.js';
import { ProfileService } from './accounts/profiles.js';
import { BrowserPool, LoginManager, saveLoginScreenshot } from './accounts/browser/index.js';
import { parseCookies } from './accounts/cookies.js';
import { Registry } from './platforms/registry.js';
import { readFileSync } from 'node:fs';
import { writeOps } from './crawl/ops.js';
import { parseRole, resolveDeployment, type Deployment } from './deploy/roles.js';
import { addCallerCommands } from './cli/index.js';
import { addMcpCommand } from './mcp/cli.js';
import { webhookSecret } from './webhooks/signing.js';

const program = new Command();
program.name('crawler').description('Social-platform crawler service').version(VERSION, '-V, --version', 'print the version').showHelpAfterError();

function config(overrides: Partial<Config> = {}): Config {
  try {
    return loadConfig(process.env, overrides);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

async function serve(cfg: Config, banner?: (url: string) => string, deployment: Deployment = { mode: 'embedded', role: 'all' }): Promise<void> {
  const service = createService(cfg, { deployment });
  const url = await service.listen();
  service.log.info({ url, replay: cfg.replay.length > 0, dataDir: cfg.dataDir, ...deployment }, 'crawler listening');
  if (banner) process.stdout.write(banner(url));
  const shutdown = (signal: string) => {
    service.log.info({ signal }, 'shutting down');
    void service.close().then(() => process.exit(0));
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

/** Printed at start while the data dir holds no usable token: the one step a newcomer cannot guess. */
async function firstTokenHint(cfg: Config) {
  const store = openStore(cfg);
  const live = (await new TokenService(store).list()).filter((t) => !t.revoked_at).length;
  await store.close();
  if (live) return undefined;
  return (url: string) => {
    const base = url.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
    const dataDir = cfg.dataDir === resolve('./data') ? '' : `CRAWLER_DATA_DIR=${cfg.dataDir} `;
    return [
      '',
      `crawler ${VERSION} listening on ${base}`,
      'No API token exists yet. Create the first one (admin; it is printed once, keep it):',
      '',
      `  ${dataDir}npx crawler tokens create --scopes read,write,admin --name me`,
      '',
      `Then: curl -H "Authorization: Bearer <token>" ${base}/v1/task-sources`,
      '',
    ].join('\n');
  };
}

program
  .command('serve')
  .description('run the HTTP API and the workers (configuration from the environment, see README)')
  .option('--role <role>', 'api: HTTP only, runs no crawls; worker: runs crawls, serves only /v1/health; all: both (a fleet needs CRAWLER_DATABASE_URL and CRAWLER_REDIS_URL for api and worker)', 'all')
  .action(async (o: { role: string }) => {
    const cfg = config();
    let deployment: Deployment;
    try {
      deployment = resolveDeployment(cfg, parseRole(o.role));
    } catch (e) {
      fail(e);
    }
    await serve(cfg, deployment.mode === 'embedded' ? await firstTokenHint(cfg) : undefined, deployment);
  });

program
  .command('demo')
  .description('run the service in replay mode on the bundled hand-made sandbox recordings, and print a token')
  .action(async () => {
    const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
    const cfg = config({ replay: [join(root, 'sandbox')], dataDir: resolve(process.env.CRAWLER_DATA_DIR ?? './data/demo'), minGapMs: 0 });
    const store = openStore(cfg);
    const { token } = await new TokenService(store).create(['read', 'write', 'admin'], 'demo');
    await store.close();
    await serve(cfg, (url) => {
      const base = url.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
      const task = (source: string, action: string, params: object) =>
        `  curl -s -X POST "${base}/v1/tasks?wait=8000" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '${JSON.stringify({ source, action, params })}'`;
      return [
        '',
        `Demo running at ${base} in replay mode (answers come from ./sandbox recordings, never the network).`,
        `Token (read, write, admin): ${token}`,
        '',
        `  export TOKEN=${token}`,
        `  curl -s ${base}/v1/health`,
        `  curl -s -H "Authorization: Bearer $TOKEN" ${base}/v1/task-sources`,
        ...DEMO_EXAMPLES.map((e) => task(e.source, e.action, e.params)),
        `  curl -s -i "${base}/v1/preview?platform=weibo&id=4645748019299849"   # 202 rendering, then 200 video/mp4`,
        `  curl -s ${base}/docs/agent.txt`,
        '',
        'Thumbs and video URLs in the results load through /v1/media as given (no token needed). More: README.md, "A short tour of the API".',
        '',
      ].join('\n');
    });
  });

addMcpCommand(program);

const tokens = program.command('tokens').description('manage API tokens (works while the server runs: revocation is immediate)');

function tokenService(): { svc: TokenService; close: () => Promise<void> } {
  const cfg = config();
  const store = openStore(cfg);
  return { svc: new TokenService(store), close: () => store.close() };
}

function fail(e: unknown): never {
  process.stderr.write(`${e instanceof ApiError ? e.message : (e as Error).message}\n`);
  // A bad configuration value exits 2, as at start.
  process.exit(e instanceof ConfigError ? 2 : 1);
}

tokens
  .command('create')
  .description('create a token and print it alone on stdout')
  .requiredOption('--scopes <list>', 'comma-separated: read,write,admin')
  .option('--name <name>', 'a label for the token')
  .action(async (o: { scopes: string; name?: string }) => {
    const { svc, close } = tokenService();
    try {
      const { token, info } = await svc.create(parseScopes(o.scopes), o.name);
      process.stdout.write(`${token}\n`);
      process.stderr.write(`created ${info.id} (${info.scopes.join(',')})\n`);
    } catch (e) {
      fail(e);
    } finally {
      await close();
    }
  });

tokens
  .command('list')
  .description('list tokens (never their secrets)')
  .option('--json', 'print JSON')
  .action(async (o: { json?: boolean }) => {
    const { svc, close } = tokenService();
    const list = await svc.list();
    await close();
    if (o.json) return void process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
    for (const t of list) process.stdout.write(`${t.id}\t${t.scopes.join(',')}\t${t.revoked_at ? `revoked ${t.revoked_at}` : 'active'}\t${t.created_at}\t${t.name ?? ''}\n`);
  });

tokens
  .command('revoke <tokenOrId>')
  .description('revoke a token by its id (tok_…) or by the token itself')
  .action(async (tokenOrId: string) => {
    const { svc, close } = tokenService();
    const done = await svc.revoke(tokenOrId);
    await close();
    if (!done) fail(new Error('no such token'));
    process.stdout.write(`${done.already ? 'already revoked' : 'revoked'} ${done.id}\n`);
  });

const profiles = program.command('profiles').description('stored platform logins (cookies, credentials); values are never printed');

function profileService(): { svc: ProfileService; close: () => Promise<void> } {
  const cfg = config();
  const store = openStore(cfg);
  return { svc: new ProfileService(store, new Registry()), close: () => store.close() };
}

profiles
  .command('add <platform> [name]')
  .description('store or replace a login: --cookies-file (Cookie header, cookies.txt or JSON export) and/or --credential key=value')
  .option('--cookies-file <file>', 'file holding the cookies')
  .option('--cookie <header>', 'cookies as a Cookie header string')
  .option('--credential <key=value>', 'a named credential (repeatable), e.g. app_password=xxxx', (v: string, acc: string[]) => [...acc, v], [] as string[])
  .action(async (platform: string, name: string | undefined, o: { cookiesFile?: string; cookie?: string; credential: string[] }) => {
    const { svc, close } = profileService();
    try {
      const cookies = o.cookiesFile ? readFileSync(o.cookiesFile, 'utf8') : o.cookie;
      const credentials = o.credential.length
        ? Object.fromEntries(
            o.credential.map((kv) => {
              const i = kv.indexOf('=');
              if (i <= 0) throw new Error(`--credential ${kv.split('=')[0]}: expected key=value`);
              return [kv.slice(0, i), kv.slice(i + 1)];
            }),
          )
        : undefined;
      const v = await svc.upsert({ platform, name: name ?? 'default', cookies, credentials });
      process.stdout.write(`stored ${v.platform}/${v.name}: cookies [${(v.cookies ?? []).join(', ')}], credentials [${(v.credentials ?? []).join(', ')}]\n`);
    } catch (e) {
      fail(e);
    } finally {
      await close();
    }
  });

profiles
  .command('login <platform> [name]')
  .description('log a profile in by hand: opens the login page in headless Chromium and keeps a PNG of it (QR code or form) up to date for you')
  .option('--timeout <seconds>', 'give up after this long', '300')
  .action(async (platform: string, name: string | undefined, o: { timeout: string }) => {
    const cfg = config();
    const store = openStore(cfg);
    const adapter = new Registry().get(platform);
    if (!adapter?.login) fail(new Error(`${platform}: no login page is known for this platform`));
    const pool = new BrowserPool({});
    const logins = new LoginManager(pool, {
      async onSuccess(p, n, header) {
        const before = await store.profileGet(p, n);
        await store.profilePut({ platform: p, name: n, cookies: parseCookies(header), credentials: before?.credentials ?? null });
        await store.profileHealth({ platform: p, name: n, health: 'ok', checked_at: Date.now(), cooling_until: null, strikes: 0 });
      },
    });
    const profile = name ?? 'default';
    try {
      const id = await logins.start({
        platform: adapter!.id,
        name: profile,
        loginUrl: adapter!.login!.url,
        successWhen: { cookie: adapter!.login!.successCookie },
        domains: adapter!.login!.domains,
        timeoutMs: Number(o.timeout) * 1000,
        cookies: (await store.profileGet(adapter!.id, profile))?.cookies ?? null,
      });
      const dir = join(cfg.dataDir, 'logins');
      let shown = false;
      for (;;) {
        const s = await logins.get(id, { screenshot: true });
        if (!s) break;
        if (s.screenshot) {
          const file = await saveLoginScreenshot(s.screenshot, dir, id);
          if (!shown) process.stderr.write(`scan or fill in the login page shown in ${file} (refreshed every 3 s)\n`);
          shown = true;
        }
        if (s.state !== 'waiting') {
          process.stdout.write(`${s.state}${s.error ? `: ${s.error}` : ''}\n`);
          process.exitCode = s.state === 'done' ? 0 : 1;
          break;
        }
        await new Promise((r) => setTimeout(r, 3000));
      }
    } catch (e) {
      fail(e);
    } finally {
      await logins.close();
      await pool.close();
      await store.close();
    }
  });

profiles
  .command('check <platform> [name]')
  .description("probe a stored login with the platform's \"who am I\" request and print its health")
  .action(async (platform: string, name: string | undefined) => {
    const service = createService(config({ logLevel: 'warn' }));
    try {
      const r = await service.checker.check(platform, name ?? 'default');
      process.stdout.write(`${platform}/${name ?? 'default'}\t${r.health}${r.note ? `\t${r.note}` : ''}\n`);
      process.exitCode = r.health === 'ok' ? 0 : 1;
    } catch (e) {
      fail(e);
    } finally {
      await service.close();
    }
  });

profiles
  .command('list')
  .description('list profiles and their health')
  .action(async () => {
    const { svc, close } = profileService();
    const list = await svc.list();
    await close();
    for (const p of list) process.stdout.write(`${p.platform}/${p.name}\t${p.health}\tused ${p.used_at ?? 'never'}\n`);
  });

profiles
  .command('remove <platform> <name>')
  .description('delete a stored login')
  .action(async (platform: string, name: string) => {
    const { svc, close } = profileService();
    const done = await svc.remove(platform, name);
    await close();
    if (!done) fail(new Error('no such profile'));
    process.stdout.write(`removed ${platform}/${name}\n`);
  });

const platforms = program.command('platforms').description('platform operation data (GraphQL ids, doc_ids, feature flags)');

platforms
  .command('refresh <source>')
  .description("re-derive a platform's operation ids from its own web bundle; written to <data dir>/ops/<source>.json, used from the next start")
  .option('--profile <name>', 'the stored login to load the pages with', 'default')
  .action(async (source: string, o: { profile: string }) => {
    const cfg = config({ logLevel: 'warn' });
    const adapter = new Registry().get(source);
    if (!adapter) fail(new Error(`unknown platform: ${source}`));
    if (!adapter.ops) fail(new Error(`${adapter.id} keeps no operation data (nothing to refresh)`));
    const service = createService(cfg);
    const warnings: string[] = [];
    try {
      const fresh = await service.runner.refreshOps(adapter, o.profile, AbortSignal.timeout(120_000), warnings);
      const before = adapter.ops.defaults;
      const changed = Object.keys(fresh).filter((k) => JSON.stringify(fresh[k]) !== JSON.stringify(before[k]));
      const path = writeOps(cfg.dataDir, adapter.id, fresh);
      for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
      process.stdout.write(`${adapter.id}: ${Object.keys(fresh).length} operations, ${changed.length} differ from the built-in ids${changed.length ? ` (${changed.join(', ')})` : ''}\nwritten to ${path} (used from the next start)\n`);
    } catch (e) {
      fail(e);
    } finally {
      await service.close();
    }
  });

program
  .command('webhooks')
  .description('webhook notifications (params.callback_url)')
  .command('secret')
  .description('print the secret X-Crawler-Signature is keyed with (CRAWLER_WEBHOOK_SECRET, or derived from the server secret)')
  .action(() => {
    try {
      process.stdout.write(`${webhookSecret(config())}\n`);
    } catch (e) {
      fail(e);
    }
  });

// A caller's commands (run, tasks): they talk to a running service over HTTP, like any client.
addCallerCommands(program);

program.parseAsync(process.argv).catch(fail);
