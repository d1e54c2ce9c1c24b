// npm run bench: API hot paths beside a bare Fastify route serving the same bytes, one machine, one run,
// for the embedded service (SQLite) and the distributed one (Postgres + Redis, an API and a worker).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Each case runs this many times, interleaved with the others, and the mean is reported (the machine is noisy). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODES = (process.env.BENCH_MODES ?? 'embedded,distributed').split(',').map((m) => m.trim());

interface Row {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Servers {
  service: string;
  bare: string;
  token: string;
  body: unknown;
  taskId: string;
  postBytes: number;
  getBytes: number;
}

const CASES = [
  'bare POST (same bytes, as text)',
  'bare POST (same bytes, pre-encoded)',
  'service POST /v1/tasks?wait=8000 (cache hit)',
  'bare GET (same bytes, as text)',
  'bare GET (same bytes, pre-encoded)',
  'service GET /v1/tasks/{id}',
] as const;

async function measure(opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, pipelining: 1, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}

function mean(rows: Row[]): Row {
  const avg = (f: (r: Row) => number) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
  return { rps: avg((r) => r.rps), p50: avg((r) => r.p50), p99: avg((r) => r.p99), errors: rows.reduce((a, r) => a + r.errors, 0) };
}

async function benchMode(mode: string): Promise<{ info: Servers; rows: Row[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts', mode], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'silent' } });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const info = await new Promise<Servers>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
      child.once('exit', (code) => reject(new Error(`bench servers (${mode}) exited with ${code}`)));
    });
    const auth = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
    const post = { method: 'POST' as const, body: JSON.stringify(info.body), headers: auth };
    const targets: autocannon.Options[] = [
      { url: `${info.bare}/bare/tasks`, ...post },
      { url: `${info.bare}/bare/tasks-bytes`, ...post },
      { url: `${info.service}/v1/tasks?wait=8000`, ...post },
      { url: `${info.bare}/bare/task`, headers: auth },
      { url: `${info.bare}/bare/task-bytes`, headers: auth },
      { url: `${info.service}/v1/tasks/${info.taskId}`, headers: auth },
    ];
    const runs: Row[][] = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++) for (let i = 0; i < targets.length; i++) runs[i].push(await measure(targets[i]));
    return { info, rows: runs.map(mean) };
  } finally {
    // The child removes its Postgres schema and Redis keys on SIGTERM: wait for it.
    child.kill('SIGTERM');
    await exited;
  }
}

const fmt = (n: number, w = 10) => n.toFixed(n >= 100 ? 0 : 1).padStart(w);
const results: Array<{ mode: string; info: Servers; rows: Row[] }> = [];
for (const mode of MODES) results.push({ mode, ...(await benchMode(mode)) });

console.log(`\nAPI benchmark: ${DURATION_S} s per case, ${CONNECTIONS} connections, mean of ${ROUNDS} interleaved rounds (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_MODES)`);
for (const { mode, info, rows } of results) {
  console.log(`\n${mode}${mode === 'distributed' ? ' (Postgres + Redis, API process answering, a worker beside it)' : ' (SQLite)'}: body ${info.postBytes} B (POST) / ${info.getBytes} B (GET)`);
  console.log(`${'case'.padEnd(48)}${'req/s'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'errors'.padStart(10)}`);
  rows.forEach((r, i) => console.log(`${CASES[i].padEnd(48)}${fmt(r.rps)}${fmt(r.p50)}${fmt(r.p99)}${fmt(r.errors)}`));
  const ratio = (service: Row, bare: Row) => (service.rps / bare.rps).toFixed(2);
  console.log(`ratio service/bare: POST ${ratio(rows[2], rows[0])} (pre-encoded ${ratio(rows[2], rows[1])})  GET ${ratio(rows[5], rows[3])} (pre-encoded ${ratio(rows[5], rows[4])})`);
}
