// Child process of bench/run.ts: the real service (fake platform on loopback) and a bare Fastify
// server answering with the same bytes, so the two are measured under the same conditions.
// Argument: embedded (SQLite in a temp dir) or distributed (an API and a worker on a fresh Postgres
// schema and Redis prefix, both removed again on SIGTERM).
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { Config } from '../src/config.js';
import { startFakePlatform } from '../test/helpers/fake-platform.js';
import { testSchema } from '../test/helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../test/helpers/redis.js';
import { startService, type Running } from '../test/helpers/service.js';

const mode = process.argv[2] === 'distributed' ? 'distributed' : 'embedded';
const cleanups: Array<() => Promise<unknown>> = [];
const cleanUp = async () => {
  for (const c of cleanups.reverse()) await c().catch((e) => process.stderr.write(`bench cleanup: ${(e as Error).message}\n`));
};

// Registered first: a bench stopped while this is still starting removes what was made so far.
process.once('SIGTERM', () => void cleanUp().then(() => process.exit(0)));

async function start(): Promise<Running> {
  const fake = await startFakePlatform();
  cleanups.push(() => fake.close());
  if (mode === 'embedded') {
    const s = await startService({ adapters: [fake.adapter], config: { workers: 4 } });
    cleanups.push(() => s.close());
    return s;
  }
  await requireRedis();
  const schema = await testSchema();
  const prefix = testPrefix('bench');
  // Dropped last, after every process using them has closed.
  cleanups.push(() => schema.drop(), () => dropPrefix(prefix));
  const config: Partial<Config> = { workers: 4, databaseUrl: schema.url, databaseSchema: schema.schema, redisUrl: TEST_REDIS_URL, redisPrefix: prefix, secretKey: randomBytes(32).toString('hex') };
  // The worker runs the crawl that fills the cache; the API answers every measured request.
  const worker = await startService({ adapters: [fake.adapter], config, deployment: { mode: 'distributed', role: 'worker' } });
  cleanups.push(() => worker.close());
  const api = await startService({ adapters: [fake.adapter], config, deployment: { mode: 'distributed', role: 'api' } });
  cleanups.push(() => api.close());
  return api;
}

try {
  const s = await start();
  const token = await s.token(['read']);
  const body = { source: 'fake', action: 'search', params: { query: 'bench', limit: 24 } };
  const primed = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: body, token });
  const cachedPost = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: body, token });
  if (cachedPost.body.result?.source !== 'cache') throw new Error(`bench (${mode}): the cache did not answer: ${cachedPost.text.slice(0, 200)}`);
  const taskGet = await s.api(`/v1/tasks/${primed.body.task_id}`, { token });

  // Two bare routes per case: the answer as text (what a plain route sends), and as bytes encoded once at
  // start (the cheapest answer any route can give: the floor).
  const postBytes = Buffer.from(cachedPost.text);
  const getBytes = Buffer.from(taskGet.text);
  const bare = Fastify();
  const json = 'application/json; charset=utf-8';
  bare.post('/bare/tasks', async (_req, reply) => reply.type(json).send(cachedPost.text));
  bare.post('/bare/tasks-bytes', async (_req, reply) => reply.type(json).send(postBytes));
  bare.get('/bare/task', async (_req, reply) => reply.type(json).send(taskGet.text));
  bare.get('/bare/task-bytes', async (_req, reply) => reply.type(json).send(getBytes));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(() => bare.close());

  process.stdout.write(`${JSON.stringify({ service: s.base, bare: bareUrl, token, body, taskId: primed.body.task_id, postBytes: cachedPost.text.length, getBytes: taskGet.text.length })}\n`);
} catch (e) {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  await cleanUp();
  process.exit(1);
}
