// Exports and batches: time and peak RSS growth of exporting a 10,000-item task (jsonl, csv, and the
// whole task JSON for reference), and time to accept a 500-entry batch, embedded and on Postgres.
// npx tsx bench/export.ts   (Postgres part: the test server, CRAWLER_TEST_DATABASE_URL to point elsewhere)
import { request } from 'node:http';
import type { ItemDraft, PlatformAdapter } from '../src/platforms/types.js';
import { startService, type Running } from '../test/helpers/service.js';
import { testSchema } from '../test/helpers/postgres.js';

const ITEMS = Number(process.env.BENCH_EXPORT_ITEMS ?? 10_000);
const BATCH = 500;
const RUNS = 3;

let release: () => void = () => {};
let held = new Promise<void>((r) => (release = r));

/** A platform without a network: posts are generated cards with realistic text; search waits (queued work stays queued). */
const bench: PlatformAdapter = {
  id: 'bench',
  name: 'Bench',
  region: 'global',
  auth: 'none',
  hosts: [],
  mediaHosts: ['cdn.bench.test'],
  minGapMs: 0,
  authorUrl: ({ handle }) => (handle ? `https://bench.test/@${handle}` : undefined),
  actions: {
    posts: {
      shape: 'items',
      summary: 'posts',
      walk: true,
      params: [{ name: 'query', type: 'string', required: true, description: 'q' }],
      async page(_ctx, _params, cursor) {
        const start = cursor ? Number(cursor) : 0;
        const items = Array.from({ length: Math.min(100, ITEMS - start) }, (_, i): ItemDraft => {
          const n = start + i;
          return {
            native_id: String(7_300_000_000_000_000_000n + BigInt(n)),
            type: n % 3 ? 'image' : 'video',
            title: `Post ${n}`,
            text: `=caption ${n}, with "quotes", a comma and a line\nbreak `.padEnd(240, 'x'),
            author: 'Bench Creator',
            author_id: '7312345678901234567',
            author_handle: 'bench',
            url: `https://bench.test/p/${n}`,
            thumb: `https://cdn.bench.test/t/${n}.jpg`,
            media: [{ kind: 'image', url: `https://cdn.bench.test/i/${n}.jpg`, w: 1080, h: 1350 }],
            ts: 1_700_000_000 + n,
            stats: { likes: n, comments: n % 17, shares: n % 5, views: n * 10 },
          } as ItemDraft;
        });
        return { items, next_cursor: start + 100 < ITEMS ? String(start + 100) : undefined };
      },
    },
    search: {
      shape: 'items',
      summary: 'search',
      params: [{ name: 'query', type: 'string', required: true, description: 'q' }],
      async page() {
        await held;
        return { items: [] };
      },
    },
  },
};

/** Downloads path, discarding the bytes; samples this process's RSS meanwhile (the server runs in it). */
function download(s: Running, path: string, token: string): Promise<{ ms: number; bytes: number; chunks: number; peakMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(s.base + path, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      let chunks = 0;
      res.on('data', (b: Buffer) => ((bytes += b.length), chunks++));
      res.on('end', () => {
        clearInterval(timer);
        peak = Math.max(peak, process.memoryUsage().rss);
        resolve({ ms: performance.now() - t0, bytes, chunks, peakMb: (peak - base) / 1024 / 1024 });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function exports(): Promise<void> {
  const s = await startService({ adapters: [bench] });
  try {
    const token = await s.token(['read']);
    const sub = await s.api('/v1/tasks?wait=8000', { method: 'POST', token, json: { source: 'bench', action: 'posts', params: { query: 'all', max_items: ITEMS } } });
    let task = sub.body;
    while (task.status !== 'succeeded') {
      await new Promise((r) => setTimeout(r, 100));
      task = (await s.api(`/v1/tasks/${task.task_id}`, { token })).body;
    }
    console.log(`\nexport of a ${task.result.count}-item task (${RUNS} runs, median; peak RSS growth of the process serving it, sampled every 2 ms)`);
    for (const [name, path] of [
      ['GET /v1/tasks/{id} (whole JSON)', `/v1/tasks/${task.task_id}`],
      ['export jsonl', `/v1/tasks/${task.task_id}/export?format=jsonl`],
      ['export csv', `/v1/tasks/${task.task_id}/export?format=csv`],
    ] as const) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await download(s, path, token));
      const mb = runs[0].bytes / 1024 / 1024;
      console.log(`  ${name.padEnd(32)} ${String(Math.round(median(runs.map((r) => r.ms)))).padStart(5)} ms  ${mb.toFixed(1)} MB in ${runs[0].chunks} chunks  peak RSS +${median(runs.map((r) => r.peakMb)).toFixed(1)} MB`);
    }
  } finally {
    await s.close();
  }
}

async function batches(name: string, s: Running): Promise<void> {
  const token = await s.token(['read']);
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const tasks = Array.from({ length: BATCH }, (_, i) => ({ source: 'bench', action: 'search', params: { query: `q-${run}-${i}` } }));
    const t0 = performance.now();
    const r = await s.api('/v1/tasks/batch', { method: 'POST', token, json: { tasks } });
    times.push(performance.now() - t0);
    if (r.body.accepted !== BATCH) throw new Error(`batch: ${JSON.stringify(r.body).slice(0, 300)}`);
  }
  console.log(`  ${name.padEnd(32)} ${String(Math.round(median(times))).padStart(5)} ms for ${BATCH} entries (${(median(times) / BATCH).toFixed(2)} ms each)`);
}

await exports();
console.log(`\nbatch of ${BATCH} new (queued) read tasks, POST /v1/tasks/batch (${RUNS} runs, median)`);
{
  const s = await startService({ adapters: [bench] });
  await batches('embedded (SQLite)', s);
  release();
  await s.close();
}
{
  held = new Promise<void>((r) => (release = r));
  const db = await testSchema();
  const s = await startService({ adapters: [bench], config: { databaseUrl: db.url, databaseSchema: db.schema, secretKey: 'ab'.repeat(32) } });
  try {
    await batches('Postgres', s);
  } finally {
    release();
    await s.close();
    await db.drop();
  }
}
