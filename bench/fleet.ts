// Replay crawl throughput of a fleet on this machine: one API process and N worker processes
// (`crawler serve --role api|worker`) on a fresh Postgres schema and Redis prefix, for N = 1, 2, 3,
// then the embedded service (one process, SQLite) on the same batch. Every child is killed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TokenService } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { DEMO_EXAMPLES } from '../src/demo.js';
import { openStore } from '../src/store/open.js';
import { testSchema } from '../test/helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../test/helpers/redis.js';

const WORKER_COUNTS = (process.env.BENCH_FLEET_WORKERS ?? '1,2,3').split(',').map(Number);
/** The demo's sandbox tasks, each this many times: every source is its own account, so they run side by side. */
const REPEAT = Number(process.env.BENCH_FLEET_REPEAT ?? 10);
const BATCH = Array.from({ length: REPEAT }, () => DEMO_EXAMPLES.map((e) => ({ ...e, params: { ...e.params, force: true } }))).flat();
const START_TIMEOUT_MS = 60_000;
const RUN_TIMEOUT_MS = 300_000;

const children = new Set<ChildProcess>();
const killAll = (signal: NodeJS.Signals) => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill(signal);
};
// A bench stopped by hand or by an error leaves no process behind.
process.once('exit', () => killAll('SIGKILL'));
for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => process.exit(130));

type Env = Record<string, string>;

/** CPU time the service processes have used so far, in ms (Linux /proc; Postgres and Redis not counted). */
function childrenCpuMs(): number {
  let ms = 0;
  for (const c of children) {
    try {
      const f = readFileSync(`/proc/${c.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      /* exited */
    }
  }
  return ms;
}

/** Starts `crawler serve` and resolves with its URL once it listens; its data dir is its own unless env names one. */
function serve(role: string, env: Env): Promise<string> {
  const ownDir = env.CRAWLER_DATA_DIR === undefined;
  const dataDir = env.CRAWLER_DATA_DIR ?? mkdtempSync(join(tmpdir(), `bench-fleet-${role}-`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--role', role], {
    env: { ...process.env, ...env, CRAWLER_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => {
    children.delete(child);
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
  });
  let out = '';
  let listening = false;
  child.stderr!.on('data', (b: Buffer) => {
    if (!listening) out += b.toString();
  });
  return new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${role} did not start in ${START_TIMEOUT_MS / 1000} s: ${out.slice(-2000)}`)), START_TIMEOUT_MS);
    // The log is read to the end either way, so the child never blocks on a full pipe.
    child.stdout!.on('data', (b: Buffer) => {
      if (listening) return;
      out += b.toString();
      const m = /"url":"(http[^"]+)"/.exec(out);
      if (!m) return;
      listening = true;
      clearTimeout(timer);
      ok(m[1]);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!listening) fail(new Error(`${role} exited with ${code} before listening: ${out.slice(-2000)}`));
    });
  });
}

async function stopAll(): Promise<void> {
  const exits = [...children].map((c) => new Promise((r) => c.once('exit', r)));
  killAll('SIGTERM');
  const forced = setTimeout(() => killAll('SIGKILL'), 10_000);
  await Promise.all(exits);
  clearTimeout(forced);
}

/** A read token made in the store the processes share (Postgres) or will open (the embedded SQLite file). */
async function tokenFor(env: Env): Promise<string> {
  const store = openStore(loadConfig(env));
  try {
    return (await new TokenService(store).create(['read'], 'bench')).token;
  } finally {
    await store.close();
  }
}

/** Submits the batch at once and waits for every task to end; tasks/s from the first submit to the last finish. */
async function runBatch(base: string, token: string): Promise<{ tasksPerS: number; seconds: number; failed: number; cpuMsPerTask: number }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const cpuBefore = childrenCpuMs();
  const started = Date.now();
  const ids = await Promise.all(
    BATCH.map(async (t) => {
      const res = await fetch(`${base}/v1/tasks`, { method: 'POST', headers, body: JSON.stringify(t) });
      const body = (await res.json()) as { task_id?: string };
      if (res.status !== 202 || !body.task_id) throw new Error(`submit ${t.source}.${t.action}: ${res.status} ${JSON.stringify(body)}`);
      return body.task_id;
    }),
  );
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  const ended = new Map<string, { status: string; finished_at?: string }>();
  while (ended.size < ids.length) {
    if (Date.now() > deadline) throw new Error(`only ${ended.size} of ${ids.length} tasks ended in ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
    // The caller's tasks, newest first, without results: one page holds the whole batch.
    for (let cursor: string | undefined, page = 0; page < Math.ceil(ids.length / 100); page++) {
      const res = await fetch(`${base}/v1/tasks?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers });
      const body = (await res.json()) as { tasks: Array<{ task_id: string; status: string; finished_at?: string }>; next_cursor?: string };
      for (const t of body.tasks) if (['succeeded', 'failed', 'cancelled'].includes(t.status)) ended.set(t.task_id, t);
      cursor = body.next_cursor;
      if (!cursor) break;
    }
  }
  const last = Math.max(...[...ended.values()].map((t) => Date.parse(t.finished_at ?? '') || 0));
  const seconds = (last - started) / 1000;
  return {
    tasksPerS: ids.length / seconds,
    seconds,
    failed: [...ended.values()].filter((t) => t.status !== 'succeeded').length,
    cpuMsPerTask: (childrenCpuMs() - cpuBefore) / ids.length,
  };
}

const secretKey = randomBytes(32).toString('hex');
const replay = resolve('sandbox');
const rows: Array<{ name: string; tasksPerS: number; seconds: number; failed: number; cpuMsPerTask: number }> = [];
try {
  await requireRedis();
  for (const n of WORKER_COUNTS) {
    const schema = await testSchema();
    const prefix = testPrefix('fleet');
    const env: Env = {
      CRAWLER_DATABASE_URL: schema.url,
      CRAWLER_DATABASE_SCHEMA: schema.schema,
      CRAWLER_REDIS_URL: TEST_REDIS_URL,
      CRAWLER_REDIS_PREFIX: prefix,
      CRAWLER_REPLAY: replay,
      CRAWLER_SECRET_KEY: secretKey,
    };
    try {
      const base = await serve('api', env);
      await Promise.all(Array.from({ length: n }, () => serve('worker', env)));
      // The API process has migrated the schema by now: the token goes into the shared store.
      rows.push({ name: `fleet: 1 API + ${n} worker${n > 1 ? 's' : ''}`, ...(await runBatch(base, await tokenFor(env))) });
    } finally {
      await stopAll();
      await dropPrefix(prefix);
      await schema.drop();
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-fleet-embedded-'));
  try {
    // Shared backends blanked, whatever the caller's environment holds: this one runs embedded.
    const env: Env = { CRAWLER_REPLAY: replay, CRAWLER_SECRET_KEY: secretKey, CRAWLER_DATA_DIR: dataDir, CRAWLER_DATABASE_URL: '', CRAWLER_REDIS_URL: '' };
    // The embedded service keeps its SQLite file in its data dir: the token goes there before it starts.
    const token = await tokenFor(env);
    const base = await serve('all', env);
    rows.push({ name: 'embedded: one process (SQLite)', ...(await runBatch(base, token)) });
  } finally {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
} finally {
  await stopAll();
}

const sources = new Set(BATCH.map((t) => t.source)).size;
console.log(`\nfleet: ${BATCH.length} replay crawls (the demo's sandbox tasks × ${REPEAT}, force: true; ${sources} sources, each its own account), submitted at once`);
console.log(`${'setup'.padEnd(36)}${'tasks/s'.padStart(10)}${'seconds'.padStart(10)}${'failed'.padStart(8)}${'CPU ms/task'.padStart(14)}`);
for (const r of rows) {
  console.log(`${r.name.padEnd(36)}${r.tasksPerS.toFixed(1).padStart(10)}${r.seconds.toFixed(1).padStart(10)}${String(r.failed).padStart(8)}${r.cpuMsPerTask.toFixed(1).padStart(14)}`);
}
console.log(`(CPU: the service's own processes, polling included; Postgres and Redis not counted. ${availableParallelism()} cores here.)`);
