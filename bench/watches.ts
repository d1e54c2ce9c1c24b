// Watches: how long a scheduler tick takes to fire due watches (claim + submit of each run), on the
// embedded SQLite store and on Postgres, with a crawl worker busy beside it.
import { startFakePlatform } from '../test/helpers/fake-platform.js';
import { testSchema } from '../test/helpers/postgres.js';
import { startService } from '../test/helpers/service.js';
import { newWatchId } from '../src/watches/service.js';

const WATCHES = Number(process.env.BENCH_WATCHES ?? 1000);
const clock = Date.UTC(2026, 0, 1);

async function fireAll(backend: string, config: Record<string, unknown>): Promise<void> {
  const fake = await startFakePlatform();
  const s = await startService({ adapters: [fake.adapter], config: { watchTickMs: 3_600_000, workers: 1, ...config }, watches: { now: () => clock } });
  try {
    const owner = (await s.svc.tokens.create(['read'])).info.id;
    const params = JSON.stringify({ query: 'growing', limit: 24, profile: 'default' });
    for (let i = 0; i < WATCHES; i++) {
      await s.svc.watches.store.insert(
        { id: newWatchId(), owner, source: 'fake', action: 'posts', params, every_s: 900, callback_url: null, paused: false, full_page: false, next_run_at: clock, failures: 0, last_run_at: null, last_task_id: null, last_error: null, last_error_at: null, last_new_count: null, created_at: clock },
        WATCHES,
      );
    }
    const t = performance.now();
    let fired = 0;
    for (let n = -1; n !== 0; ) fired += n = await s.svc.watches.scheduler.tick();
    const ms = performance.now() - t;
    console.log(`  ${backend.padEnd(10)}${String(fired).padStart(6)} runs fired in ${ms.toFixed(0).padStart(6)} ms  ${(ms / fired).toFixed(2).padStart(6)} ms per run`);
  } finally {
    await s.close();
    await fake.close();
  }
}

console.log(`\nWatches: one due period of ${WATCHES} watches, fired by one process`);
await fireAll('SQLite', {});
const db = await testSchema();
try {
  await fireAll('Postgres', { databaseUrl: db.url, databaseSchema: db.schema });
} finally {
  await db.drop();
}
