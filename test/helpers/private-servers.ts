import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './fleet-procs.js';

/*
 * Servers a chaos test may stop and start at will, apart from the shared ones other tests use: a
 * redis-server with its own AOF directory, and a PostgreSQL cluster made with initdb in a temp dir.
 */

export class PrivateRedis {
  port = 0;
  private proc?: ChildProcess;
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (or starts again, on the same port and AOF directory: what was persisted comes back). */
  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'];
    this.proc = await new Promise<ChildProcess>((ok, fail) => {
      const p = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      p.on('error', (e) => fail(new Error(`this test starts its own redis-server (${e.message}): install it with apt-get install -y redis-server`)));
      p.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) ok(p);
      });
      p.once('exit', (code) => fail(new Error(`redis-server exited with ${code}: ${out.slice(-2000)}`)));
    });
  }

  /** SIGTERM: Redis writes what it holds and exits, as in a planned restart. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  /** SIGKILL, then the data directory is wiped: a restart that lost every key. */
  async crashAndWipe(): Promise<void> {
    await this.signal('SIGKILL');
    spawnSync('rm', ['-rf', join(this.dir, 'appendonlydir')]);
  }

  private async signal(sig: NodeJS.Signals): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    await new Promise<void>((ok) => {
      p.once('exit', () => ok());
      p.kill(sig);
    });
  }
}

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  throw new Error('this test makes its own PostgreSQL cluster and found no initdb under /usr/lib/postgresql: apt-get install -y postgresql');
}

export class PrivatePostgres {
  port = 0;
  private readonly bin = pgBin();
  private readonly data: string;
  private readonly asRoot = process.getuid?.() === 0;

  constructor(readonly dir: string) {
    this.data = join(dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** initdb (once) and start; again after stop() on the same port and data. */
  async start(): Promise<void> {
    if (!this.port) {
      this.port = await freePort();
      mkdirSync(this.dir, { recursive: true });
      // initdb refuses to run as root: the cluster belongs to the postgres user then.
      if (this.asRoot) chownSync(this.dir, uid('postgres'), gid('postgres'));
      this.run('initdb', ['-D', this.data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    }
    this.run('pg_ctl', ['-D', this.data, '-l', join(this.dir, 'log'), '-w', '-t', '60', '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`, 'start']);
  }

  /** A fast shutdown: connections are cut, the server is gone until start(). */
  async stop(): Promise<void> {
    this.run('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop'], true);
  }

  async destroy(): Promise<void> {
    this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop'], true);
  }

  private run(cmd: string, args: string[], tolerate = false): void {
    const full = join(this.bin, cmd);
    const r = this.asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' }) : spawnSync(full, args, { encoding: 'utf8' });
    if (r.status !== 0 && !tolerate) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  }
}

function uid(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}
function gid(user: string): number {
  return Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
}
