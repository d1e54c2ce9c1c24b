import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/*
 * A fleet of real processes on loopback, as `crawler serve --role` runs them: each API and worker is its own
 * `node src/main.ts serve` with its own data dir, sharing one Postgres schema, one Redis prefix and one
 * request log file (CRAWLER_REQUEST_LOG, appended by every worker).
 */

export const ROOT = resolve(import.meta.dirname, '../..');

export interface Proc {
  name: string;
  role: 'api' | 'worker';
  child: ChildProcess;
  /** http://127.0.0.1:port */
  url: string;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  /** SIGKILL (nothing flushed, no shutdown) and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM and wait for a clean exit. */
  stop(): Promise<void>;
}

export interface LogLine {
  phase: 'send' | 'done';
  id: string;
  t: number;
  platform: string;
  account: string;
  task?: string;
  attempt?: number;
  method: string;
  host: string;
  path: string;
  status?: number;
  error?: string;
  /** When the pacer let the request go (Redis's clock in a fleet). */
  slot?: number;
}

export const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });

export class ProcFleet {
  readonly dir = mkdtempSync(join(tmpdir(), 'fleet-procs-'));
  readonly logPath = join(this.dir, 'requests.log');
  readonly procs: Proc[] = [];
  private n = 0;

  constructor(readonly env: Record<string, string>) {}

  /** Starts one process in the role and resolves once it listens. */
  async start(role: 'api' | 'worker', extraEnv: Record<string, string> = {}): Promise<Proc> {
    const name = `${role}${++this.n}`;
    const dataDir = join(this.dir, name);
    // The compiled service (test/fleet/setup.ts builds dist/ when src/ changed): five processes starting
    // through tsx would each transpile the whole tree.
    const child = spawn(process.execPath, ['dist/main.js', 'serve', '--role', role], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', CRAWLER_DATA_DIR: dataDir, CRAWLER_REQUEST_LOG: this.logPath, ...this.env, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr!.on('data', (b: Buffer) => (out = (out + b.toString()).slice(-20_000)));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`${name} did not start in 60 s:\n${out}`)), 60_000);
      createInterface({ input: child.stdout! }).on('line', (l) => {
        out = (out + l + '\n').slice(-20_000);
        const m = /"url":"(http:\/\/[^"]+)"/.exec(l);
        if (m && l.includes('crawler listening')) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        fail(new Error(`${name} exited with ${code} before listening:\n${out}`));
      });
    });
    const exited = new Promise<void>((ok) => (child.exitCode !== null ? ok() : child.once('exit', () => ok())));
    const proc: Proc = {
      name,
      role,
      child,
      url,
      output: () => out,
      kill: async () => {
        child.kill('SIGKILL');
        await exited;
      },
      stop: async () => {
        child.kill('SIGTERM');
        await exited;
      },
    };
    this.procs.push(proc);
    return proc;
  }

  /** Every line the workers have appended so far. */
  requests(): LogLine[] {
    if (!existsSync(this.logPath)) return [];
    return readFileSync(this.logPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine);
  }

  async close(): Promise<void> {
    await Promise.all(this.procs.map((p) => (p.child.exitCode === null ? p.kill() : undefined)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One HTTP call to a process of the fleet. */
export async function call(base: string, path: string, o: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const res = await fetch(base + path, {
    method: o.method ?? (o.json === undefined ? 'GET' : 'POST'),
    headers: { ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...(o.json === undefined ? {} : { 'content-type': 'application/json' }), ...o.headers },
    body: o.json === undefined ? undefined : JSON.stringify(o.json),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

export async function waitFor<T>(f: () => Promise<T | undefined>, ms: number, every = 100, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await f();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, every));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

/** Each task's span on the platform: its first request sent to its last one ended (attempts kept apart). */
export function spans(lines: LogLine[]): Map<string, { account: string; start: number; end: number; attempt: number }> {
  const out = new Map<string, { account: string; start: number; end: number; attempt: number }>();
  for (const l of lines) {
    if (!l.task) continue;
    const key = `${l.task}#${l.attempt ?? 0}`;
    const s = out.get(key) ?? { account: l.account, start: l.t, end: l.t, attempt: l.attempt ?? 0 };
    s.start = Math.min(s.start, l.t);
    s.end = Math.max(s.end, l.t);
    out.set(key, s);
  }
  return out;
}

/** Pairs of spans of one account that overlap in time (there must be none). */
export function overlaps(lines: LogLine[]): string[] {
  const byAccount = new Map<string, Array<{ key: string; start: number; end: number }>>();
  for (const [key, s] of spans(lines)) {
    const list = byAccount.get(s.account) ?? [];
    list.push({ key, start: s.start, end: s.end });
    byAccount.set(s.account, list);
  }
  const bad: string[] = [];
  for (const [account, list] of byAccount) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 1; i < list.length; i++) {
      if (list[i].start < list[i - 1].end) bad.push(`${account}: ${list[i - 1].key} [${list[i - 1].start}, ${list[i - 1].end}] and ${list[i].key} starting ${list[i].start}`);
    }
  }
  return bad;
}

/** Per platform: the smallest gap between two consecutive pacing slots, and between two consecutive sends. */
export function minGaps(lines: LogLine[], by: 'slot' | 't'): Map<string, { gap: number; count: number; pair: LogLine[]; under: (ms: number) => number }> {
  const sends = new Map<string, LogLine[]>();
  for (const l of lines) if (l.phase === 'send') (sends.get(l.platform) ?? sends.set(l.platform, []).get(l.platform)!).push(l);
  const out = new Map<string, { gap: number; count: number; pair: LogLine[]; under: (ms: number) => number }>();
  for (const [platform, ls] of sends) {
    const at = (l: LogLine) => (by === 'slot' ? (l.slot ?? Number.NaN) : l.t);
    ls.sort((a, b) => at(a) - at(b));
    let gap = Number.POSITIVE_INFINITY;
    let pair: LogLine[] = [];
    const gaps: number[] = [];
    for (let i = 1; i < ls.length; i++) {
      const g = at(ls[i]) - at(ls[i - 1]);
      gaps.push(g);
      if (!(g >= gap)) {
        gap = g;
        pair = [ls[i - 1], ls[i]];
      }
    }
    out.set(platform, { gap, count: ls.length, pair, under: (ms) => gaps.filter((g) => g < ms).length });
  }
  return out;
}

/** An SSE stream read until `stop` says so; the events in order, with their ids. */
export async function readEvents(url: string, token: string, o: { lastEventId?: string; stop: (ev: { id?: string; event?: string; data: string }) => boolean; timeoutMs: number }) {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), o.timeoutMs);
  const events: Array<{ id?: string; event?: string; data: string }> = [];
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...(o.lastEventId ? { 'last-event-id': o.lastEventId } : {}) }, signal: ac.signal });
    if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const ev: { id?: string; event?: string; data: string } = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) ev.id = line.slice(3).trim();
          else if (line.startsWith('event:')) ev.event = line.slice(6).trim();
          else if (line.startsWith('data:')) ev.data += line.slice(5).trim();
        }
        if (!ev.event && !ev.id) continue;
        events.push(ev);
        if (o.stop(ev)) return events;
      }
    }
    return events;
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}
