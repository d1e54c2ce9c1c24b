// Start time (spawn → /v1/health answers) and idle RSS, compiled (npm start) beside the sources through tsx.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist, distIsFresh } from '../bin/dist.js';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const IDLE_MS = 3000;

async function once(args: string[]): Promise<{ readyMs: number; rssMb: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, CRAWLER_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /"url":"(http[^"]+)"/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    for (;;) {
      try {
        if ((await fetch(`${url}/v1/health`)).ok) break;
      } catch {
        /* not yet */
      }
    }
    const readyMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
    return { readyMs, rssMb: rssKb / 1024 };
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!distIsFresh()) buildDist();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\nstartup (${RUNS} runs each, median; idle RSS ${IDLE_MS / 1000} s after /v1/health first answers, no browser running)`);
for (const [name, args] of [
  ['npm start (dist/, compiled)', ['bin/start.js', 'serve']],
  ['sources through tsx', ['--import', 'tsx', 'src/main.ts', 'serve']],
] as const) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once([...args]));
  console.log(`  ${name.padEnd(30)} ready ${Math.round(median(runs.map((r) => r.readyMs)))} ms   idle RSS ${Math.round(median(runs.map((r) => r.rssMb)))} MB`);
}
