import { CrawlerError, isAbort } from './errors.js';
import type { Http } from './http.js';
import { SseParser, type SseMessage } from './sse.js';
import { sleep } from './sleep.js';
import type { TaskEvent } from './types.js';

export interface StreamOptions {
  /** Resume after this event id (the `id` of the last event you handled). */
  lastEventId?: number;
  signal?: AbortSignal;
  /** Wait before reconnecting after a drop; default: the server's `retry:` hint. Doubles per failed attempt, at most 30 s. */
  reconnectDelayMs?: number;
  /** Consecutive reconnects that bring no event before giving up with `network_error`; default 8. */
  maxReconnects?: number;
}

const MAX_DELAY_MS = 30_000;

function toEvent(m: SseMessage): TaskEvent | undefined {
  const id = Number(m.id);
  if (m.event !== 'status' && m.event !== 'progress' && m.event !== 'result') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(m.data);
  } catch {
    throw new CrawlerError({ code: 'upstream_error', message: `task stream: event ${m.id} (${m.event}) carries no JSON` });
  }
  if (m.event === 'progress') return { id, type: 'progress', progress: data as { items: number; pages: number } };
  return { id, type: m.event, task: data } as TaskEvent;
}

/**
 * GET /v1/tasks/{id}/stream as an async iterator. A dropped connection is reopened with
 * Last-Event-ID, so every event arrives once and in order; the iterator ends after `result`.
 */
export async function* streamTask<R>(http: Http, taskId: string, o: StreamOptions = {}): AsyncGenerator<TaskEvent<R>, void, undefined> {
  let lastId = o.lastEventId;
  let serverRetryMs = 1000;
  let failures = 0;
  const maxReconnects = o.maxReconnects ?? 8;
  const path = `/v1/tasks/${encodeURIComponent(taskId)}/stream`;

  const backOff = async (why: string, cause?: unknown, retryAfterS?: number) => {
    failures++;
    if (failures > maxReconnects) {
      throw new CrawlerError({ code: 'network_error', message: `task stream ${taskId}: ${why}; gave up after ${maxReconnects} reconnects`, retryable: true, details: { task_id: taskId, last_event_id: lastId }, cause });
    }
    const base = o.reconnectDelayMs ?? serverRetryMs;
    await sleep(retryAfterS !== undefined ? retryAfterS * 1000 : Math.min(MAX_DELAY_MS, base * 2 ** (failures - 1)), o.signal);
  };

  for (;;) {
    o.signal?.throwIfAborted();
    let res: Response;
    try {
      res = await http.send(path, { headers: { accept: 'text/event-stream', ...(lastId !== undefined ? { 'last-event-id': String(lastId) } : {}) }, signal: o.signal });
    } catch (e) {
      if (!(e instanceof CrawlerError)) throw e;
      await backOff(e.message, e);
      continue;
    }
    if (!res.ok || !res.body) {
      let body: unknown = await res.text().catch(() => '');
      try {
        body = JSON.parse(body as string);
      } catch {
        /* not JSON */
      }
      const err = CrawlerError.fromResponse(res.status, body, res.headers.get('retry-after'));
      // An unknown task, a bad token: asking again cannot help.
      if (!err.retryable) throw err;
      await backOff(err.message, err, err.details.retry_after_s as number | undefined);
      continue;
    }

    // Events of a type this client does not know still move the resume point, in order.
    const ready: Array<{ id: number; event?: TaskEvent<R> }> = [];
    const parser = new SseParser(
      (m) => {
        if (m.id === undefined || !/^\d{1,15}$/.test(m.id)) return;
        ready.push({ id: Number(m.id), event: toEvent(m) as TaskEvent<R> | undefined });
      },
      (ms) => (serverRetryMs = ms),
    );
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let broke: unknown;
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (e) {
          if (isAbort(e) || o.signal?.aborted) throw e;
          broke = e;
          break;
        }
        if (chunk.done) break;
        parser.push(decoder.decode(chunk.value, { stream: true }));
        while (ready.length) {
          const { id, event } = ready.shift()!;
          // After a reconnect the server restarts after Last-Event-ID; anything older is a repeat.
          if (lastId !== undefined && id <= lastId) continue;
          lastId = id;
          failures = 0;
          if (!event) continue;
          yield event;
          if (event.type === 'result') return;
        }
      }
    } finally {
      // Early exit (break, throw, abort): close the connection instead of leaving it to the server's ping.
      reader.cancel().catch(() => {});
    }
    await backOff(broke ? `the connection broke (${(broke as Error)?.message ?? broke})` : 'the server closed the stream before the result', broke);
  }
}
