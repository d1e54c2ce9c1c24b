import { CrawlerError, isAbort } from './errors.js';
const isTimeout = (reason) => reason?.name === 'TimeoutError';
async function cancelQuietly(client, taskId) {
    try {
        await client.cancel(taskId);
    }
    catch {
        // The caller is already leaving with the abort; a cancel that failed leaves the task to end on its own.
    }
}
/** Submits a task and follows its event stream to the end: the finished task, whatever its status. */
export async function runTask(client, source, action, params, o) {
    // The submit is not abortable: its answer carries the id an abort needs to cancel the task.
    const accepted = (await client.submit({ source, action, params }));
    if (accepted.status === 'needs_confirmation')
        return accepted;
    const id = accepted.task_id;
    o.onTask?.(id);
    try {
        o.signal?.throwIfAborted();
        for await (const e of client.stream(id, { signal: o.signal })) {
            if (e.type === 'progress')
                o.onProgress?.(e.progress, id);
            else if (e.type === 'result') {
                // A task that ended before the stream opened sends no progress events: its last count is on the task.
                if (e.task.progress)
                    o.onProgress?.(e.task.progress, id);
                return e.task;
            }
        }
    }
    catch (e) {
        if ((isAbort(e) || o.signal?.aborted) && !isTimeout(o.signal?.reason))
            await cancelQuietly(client, id);
        throw e;
    }
    throw new CrawlerError({ code: 'network_error', message: `task stream ${id} ended without a result`, retryable: true, details: { task_id: id } });
}
