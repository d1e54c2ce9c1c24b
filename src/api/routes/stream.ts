import type { FastifyInstance } from 'fastify';
import type { TaskEvent } from '../../tasks/events.js';
import { isFinished, taskJson } from '../../tasks/serialize.js';
import type { ApiDeps } from '../context.js';
import { ApiError } from '../../domain/errors.js';
import { callerOf } from './tasks.js';

const frame = (e: TaskEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${e.data}\n\n`;

/** SSE per decisions.md: status/progress/result events with increasing ids, Last-Event-ID resume, pings. */
export function streamRoutes(app: FastifyInstance, d: ApiDeps): void {
  let open = 0;
  app.get('/v1/tasks/:id/stream', { config: { scope: 'any' } }, async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const first = await d.tasks.get(id, callerOf(req));
    const rawLast = req.headers['last-event-id'] ?? (req.query as Record<string, string>).last_event_id;
    const lastId = /^\d{1,12}$/.test(String(rawLast ?? '')) ? Number(rawLast) : 0;

    if (open >= d.maxStreams) {
      reply.header('retry-after', '5');
      throw new ApiError('rate_limited', `too many open streams (${d.maxStreams}): poll GET /v1/tasks/{id} or retry shortly`);
    }
    open++;
    reply.hijack();
    const res = reply.raw;
    // Headers the hooks set (CORS, nosniff) go out with the hijacked stream too.
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');

    let closed = false;
    let sentUpTo = lastId;
    const send = (e: TaskEvent) => {
      if (closed || e.id <= sentUpTo) return;
      sentUpTo = e.id;
      res.write(frame(e));
      if (e.type === 'result') finish();
    };
    // Live events wait while the state is read (an await), so none overtakes the older ones it restates.
    let held: TaskEvent[] | undefined = [];
    const live = (e: TaskEvent) => (held ? held.push(e) : send(e));
    const ping = setInterval(() => {
      if (!closed) res.write(': ping\n\n');
    }, d.pingMs);
    // Subscribe before reading the state so no transition falls between the two.
    const off = d.bus.subscribe(id, first.event_seq, live);
    const finish = () => {
      if (closed) return;
      closed = true;
      open--;
      clearInterval(ping);
      off();
      res.end();
    };
    req.raw.on('close', finish);

    try {
      const row = await d.tasks.get(id, callerOf(req));
      if (isFinished(row.status)) {
        // The end, restated from the store: the task's last status and its result, not its history.
        send({ id: row.event_seq - 1, type: 'status', data: taskJson(row, false) });
        send({ id: row.event_seq, type: 'result', data: taskJson(row, true) });
        finish();
        return;
      }
      const missed = await d.eventLog.after(id, row.attempts, lastId);
      if (missed.length) for (const e of missed) send(e);
      else if (lastId < row.event_seq) send({ id: row.event_seq, type: 'status', data: taskJson(row, false) });
      const waiting = held;
      held = undefined;
      for (const e of waiting) send(e);
    } catch (e) {
      // The stream is open already (no error status can follow): end it, and the client's reconnect
      // with Last-Event-ID (retry: 2000) asks again, instead of a stream that pings and never moves.
      req.log.warn({ err: e, task: id }, 'task stream ended: its state could not be read');
      finish();
    }
  });
}
