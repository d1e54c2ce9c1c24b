import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

export const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `crawler …` as a spawned process with pipes (not a terminal), the way scripts and CI call it. */
export function cli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['bin/crawler.js', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`crawler ${args.join(' ')} did not end in ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const TMUX = '/usr/bin/tmux';

/**
 * A pseudo-terminal through tmux on a server of its own (socket in a temp dir): a command runs in a detached 120x30 session
 * whose screen is read back with capture-pane, and keys (C-c) are sent as a user would type them.
 */
export class Terminal {
  private readonly dir = mkdtempSync(join(tmpdir(), 'crawler-tmux-'));
  private readonly socket = join(this.dir, 'socket');

  static available(): void {
    if (!existsSync(TMUX)) throw new Error(`pseudo-terminal tests need tmux at ${TMUX} (Debian: apt-get install -y tmux)`);
  }

  private tmux(...args: string[]) {
    return run(TMUX, ['-S', this.socket, '-f', '/dev/null', ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm-256color' } });
  }

  /** Runs `crawler <args>` in the terminal, then prints `EXIT=<code>` and keeps the pane open for reading. */
  async start(args: string[], env: Record<string, string>): Promise<void> {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const vars = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`);
    const command = `cd ${quote(ROOT)} && env ${vars.join(' ')} ${quote(process.execPath)} bin/crawler.js ${args.map(quote).join(' ')}; echo EXIT=$?; sleep 600`;
    await this.tmux('new-session', '-d', '-s', 'cli', '-x', '120', '-y', '30', 'bash', '--norc', '--noprofile', '-c', command);
  }

  /** What the terminal shows, scrollback included, lines joined by \n. */
  async screen(): Promise<string> {
    return (await this.tmux('capture-pane', '-p', '-S', '-', '-t', 'cli')).stdout;
  }

  async keys(...keys: string[]): Promise<void> {
    await this.tmux('send-keys', '-t', 'cli', ...keys);
  }

  /** Polls the screen until `test` finds what it wants (its result), or fails with the screen as it was. */
  async until<T>(test: (screen: string) => T | undefined | false, ms = 30_000): Promise<T> {
    const end = Date.now() + ms;
    let last = '';
    for (;;) {
      last = await this.screen();
      const got = test(last);
      if (got) return got;
      if (Date.now() > end) throw new Error(`the terminal never showed what the test waits for; screen:\n${last}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async close(): Promise<void> {
    await this.tmux('kill-server').catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}
