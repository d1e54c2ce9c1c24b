// Child process of bench/run.ts: the real service (fake platform on loopback) and a bare Fastify
// server answering with the same bytes, so the two are measured under the same conditions.
import Fastify from 'fastify';
import { startFakePlatform } from '../test/helpers/fake-platform.js';
import { startService } from '../test/helpers/service.js';

const fake = await startFakePlatform();
const s = await startService({ adapters: [fake.adapter], config: { workers: 4 } });
const token = await s.token(['read']);
const body = { source: 'fake', action: 'search', params: { query: 'bench', limit: 24 } };
const primed = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: body, token });
const cachedPost = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: body, token });
if (cachedPost.body.result?.source !== 'cache') throw new Error('bench: the cache did not answer');
const taskGet = await s.api(`/v1/tasks/${primed.body.task_id}`, { token });

const bare = Fastify();
bare.post('/bare/tasks', async (_req, reply) => reply.type('application/json; charset=utf-8').send(cachedPost.text));
bare.get('/bare/task', async (_req, reply) => reply.type('application/json; charset=utf-8').send(taskGet.text));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

process.stdout.write(`${JSON.stringify({ service: s.base, bare: bareUrl, token, body, taskId: primed.body.task_id, postBytes: cachedPost.text.length, getBytes: taskGet.text.length })}\n`);
process.on('SIGTERM', async () => {
  await bare.close();
  await s.close();
  await fake.close();
  process.exit(0);
});
