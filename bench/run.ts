// npm run bench: API hot paths beside a bare Fastify route serving the same bytes, one machine, one run.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(name: string, opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, pipelining: 1, ...opts });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/servers.ts'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'silent' } });
const info = await new Promise<{ service: string; bare: string; token: string; body: unknown; taskId: string; postBytes: number; getBytes: number }>((resolve, reject) => {
  createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l)));
  child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)));
});

const auth = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
const rows: Row[] = [];
try {
  rows.push(await measure('bare  POST (same bytes)', { url: `${info.bare}/bare/tasks`, method: 'POST', body: JSON.stringify(info.body), headers: auth }));
  rows.push(await measure('service POST /v1/tasks?wait=8000 (cache hit)', { url: `${info.service}/v1/tasks?wait=8000`, method: 'POST', body: JSON.stringify(info.body), headers: auth }));
  rows.push(await measure('bare  GET (same bytes)', { url: `${info.bare}/bare/task`, headers: auth }));
  rows.push(await measure('service GET /v1/tasks/{id}', { url: `${info.service}/v1/tasks/${info.taskId}`, headers: auth }));
} finally {
  child.kill('SIGTERM');
}

const fmt = (n: number, w = 10) => n.toFixed(n >= 100 ? 0 : 1).padStart(w);
console.log(`\nAPI benchmark: ${DURATION_S} s each, ${CONNECTIONS} connections, body ${info.postBytes} B (POST) / ${info.getBytes} B (GET)\n`);
console.log(`${'case'.padEnd(48)}${'req/s'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'errors'.padStart(10)}`);
for (const r of rows) console.log(`${r.name.padEnd(48)}${fmt(r.rps)}${fmt(r.p50)}${fmt(r.p99)}${fmt(r.errors + r.non2xx)}`);
console.log(`\nratio service/bare: POST ${(rows[1].rps / rows[0].rps).toFixed(2)}  GET ${(rows[3].rps / rows[2].rps).toFixed(2)}`);
