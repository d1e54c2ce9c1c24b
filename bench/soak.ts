// Soak: RSS of the service at start, at its peak and at the end of minutes of mixed load (cached
// submits, polls, SSE streams, live replay crawls). Memory must follow work in flight and level off.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildDist, distIsFresh } from '../bin/dist.js';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 120);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 16);
const SAMPLE_MS = 2000;

if (!distIsFresh()) buildDist();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
const env = { ...process.env, CRAWLER_DATA_DIR: dataDir, CRAWLER_REPLAY: resolve('sandbox'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
const token = spawnSync(process.execPath, ['bin/crawler.js', 'tokens', 'create', '--scopes', 'read'], { env, encoding: 'utf8' }).stdout.trim();
const child = spawn(process.execPath, ['bin/start.js', 'serve'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
const base = await new Promise<string>((ok) => {
  let out = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
    const m = /"url":"(http[^"]+)"/.exec(out);
    if (m) ok(m[1]);
  });
});
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const LIVE = [
  { source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 5, force: true } },
  { source: 'bilibili', action: 'search', params: { query: '洛天依', limit: 5, force: true } },
  { source: 'mastodon', action: 'trending', params: { force: true } },
  { source: 'telegram', action: 'posts', params: { query: 'harborweather', limit: 5, force: true } },
  { source: 'reddit', action: 'comments', params: { query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/', force: true } },
];
const CACHED = { source: 'mastodon', action: 'trending', params: {} };
const ids: string[] = [];
const counts = { cached: 0, live: 0, polls: 0, streams: 0, errors: 0 };

async function op(): Promise<void> {
  const r = Math.random();
  if (r < 0.4) {
    const res = await fetch(`${base}/v1/tasks`, { method: 'POST', headers, body: JSON.stringify(CACHED) });
    const body = (await res.json()) as { task_id?: string };
    if (body.task_id) ids.push(body.task_id);
    counts.cached++;
  } else if (r < 0.6) {
    const res = await fetch(`${base}/v1/tasks?wait=8000`, { method: 'POST', headers, body: JSON.stringify(LIVE[Math.floor(Math.random() * LIVE.length)]) });
    const body = (await res.json()) as { task_id?: string };
    if (body.task_id) ids.push(body.task_id);
    counts.live++;
  } else if (r < 0.9 && ids.length) {
    await (await fetch(`${base}/v1/tasks/${ids[Math.floor(Math.random() * ids.length)]}`, { headers })).arrayBuffer();
    counts.polls++;
  } else if (ids.length) {
    await (await fetch(`${base}/v1/tasks/${ids[Math.floor(Math.random() * ids.length)]}/stream`, { headers })).text();
    counts.streams++;
  }
  if (ids.length > 50_000) ids.splice(0, 25_000);
}

await new Promise((r) => setTimeout(r, 1000));
const samples: number[] = [rss()];
const sampler = setInterval(() => samples.push(rss()), SAMPLE_MS);
const until = Date.now() + SECONDS * 1000;
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (Date.now() < until) {
      try {
        await op();
      } catch {
        counts.errors++;
      }
    }
  }),
);
clearInterval(sampler);
samples.push(rss());
child.kill('SIGKILL');
rmSync(dataDir, { recursive: true, force: true });

const tail = samples.slice(-Math.max(2, Math.floor(samples.length / 4)));
const mb = (n: number) => `${Math.round(n)} MB`;
console.log(`\nsoak: ${SECONDS} s of mixed load, ${CLIENTS} clients (BENCH_SOAK_SECONDS, BENCH_SOAK_CLIENTS)`);
console.log(`  requests: ${counts.cached} cached submits, ${counts.live} live replay crawls, ${counts.polls} polls, ${counts.streams} streams, ${counts.errors} errors`);
console.log(`  RSS: start ${mb(samples[0])}, peak ${mb(Math.max(...samples))}, end ${mb(samples.at(-1)!)}; last quarter ${mb(Math.min(...tail))} to ${mb(Math.max(...tail))}`);
