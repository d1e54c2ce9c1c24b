import { CrawlerError, isAbort } from './errors.js';
import { SseParser } from './sse.js';
import { sleep } from './sleep.js';
const MAX_DELAY_MS = 30_000;
function toEvent(m) {
    const id = Number(m.id);
    if (m.event !== 'status' && m.event !== 'progress' && m.event !== 'result')
        return undefined;
    let data;
    try {
        data = JSON.parse(m.data);
    }
    catch {
        throw new CrawlerError({ code: 'upstream_error', message: `task stream: event ${m.id} (${m.event}) carries no JSON` });
    }
    if (m.event === 'progress')
        return { id, type: 'progress', progress: data };
    return { id, type: m.event, task: data };
}
/**
 * GET /v1/tasks/{id}/stream as an async iterator. A dropped connection is reopened with
 * Last-Event-ID, so every event arrives once and in order; the iterator ends after `result`.
 */
export async function* streamTask(http, taskId, o = {}) {
    let lastId = o.lastEventId;
    let serverRetryMs = 1000;
    let failures = 0;
    const maxReconnects = o.maxReconnects ?? 8;
    const path = `/v1/tasks/${encodeURIComponent(taskId)}/stream`;
    const backOff = async (why, cause, retryAfterS) => {
        failures++;
        if (failures > maxReconnects) {
            throw new CrawlerError({ code: 'network_error', message: `task stream ${taskId}: ${why}; gave up after ${maxReconnects} reconnects`, retryable: true, details: { task_id: taskId, last_event_id: lastId }, cause });
        }
        const base = o.reconnectDelayMs ?? serverRetryMs;
        await sleep(retryAfterS !== undefined ? retryAfterS * 1000 : Math.min(MAX_DELAY_MS, base * 2 ** (failures - 1)), o.signal);
    };
    for (;;) {
        o.signal?.throwIfAborted();
        let res;
        try {
            res = await http.send(path, { headers: { accept: 'text/event-stream', ...(lastId !== undefined ? { 'last-event-id': String(lastId) } : {}) }, signal: o.signal });
        }
        catch (e) {
            if (!(e instanceof CrawlerError))
                throw e;
            await backOff(e.message, e);
            continue;
        }
        if (!res.ok || !res.body) {
            let body = await res.text().catch(() => '');
            try {
                body = JSON.parse(body);
            }
            catch {
                /* not JSON */
            }
            const err = CrawlerError.fromResponse(res.status, body, res.headers.get('retry-after'));
            // An unknown task, a bad token: asking again cannot help.
            if (!err.retryable)
                throw err;
            await backOff(err.message, err, err.details.retry_after_s);
            continue;
        }
        // Events of a type this client does not know still move the resume point, in order.
        const ready = [];
        const parser = new SseParser((m) => {
            if (m.id === undefined || !/^\d{1,15}$/.test(m.id))
                return;
            ready.push({ id: Number(m.id), event: toEvent(m) });
        }, (ms) => (serverRetryMs = ms));
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let broke;
        try {
            for (;;) {
                let chunk;
                try {
                    chunk = await reader.read();
                }
                catch (e) {
                    if (isAbort(e) || o.signal?.aborted)
                        throw e;
                    broke = e;
                    break;
                }
                if (chunk.done)
                    break;
                parser.push(decoder.decode(chunk.value, { stream: true }));
                while (ready.length) {
                    const { id, event } = ready.shift();
                    // After a reconnect the server restarts after Last-Event-ID; anything older is a repeat.
                    if (lastId !== undefined && id <= lastId)
                        continue;
                    lastId = id;
                    failures = 0;
                    if (!event)
                        continue;
                    yield event;
                    if (event.type === 'result')
                        return;
                }
            }
        }
        finally {
            // Early exit (break, throw, abort): close the connection instead of leaving it to the server's ping.
            reader.cancel().catch(() => { });
        }
        await backOff(broke ? `the connection broke (${broke?.message ?? broke})` : 'the server closed the stream before the result', broke);
    }
}
