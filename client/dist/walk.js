import { CrawlerError } from './errors.js';
import { runTask as follow } from './follow.js';
const PAGE_LIMIT_MAX = 100;
/** Tasks in a row that bring no item although a cursor goes on (filters dropping everything): the walk stops there. */
const EMPTY_TASKS_MAX = 5;
/** One task of the walk, followed to its end (never a write: no plan can come back). */
async function runTask(client, source, action, params, o, onProgress) {
    return (await follow(client, source, action, params, { signal: o.signal, onTask: o.onTask, onProgress }));
}
/** A task that ended without a usable page is an error: failed, cancelled elsewhere, or a crawl error in the result. */
function pageOf(task) {
    const details = { task_id: task.task_id, task };
    if (task.status === 'failed') {
        throw task.error ? CrawlerError.fromBody(task.error, 0, details) : new CrawlerError({ code: 'upstream_error', message: `task ${task.task_id} failed`, details });
    }
    if (task.status === 'cancelled')
        throw new CrawlerError({ code: 'cancelled', message: `task ${task.task_id} was cancelled`, retryable: true, details });
    const result = task.result;
    if (!result)
        throw new CrawlerError({ code: 'upstream_error', message: `task ${task.task_id} succeeded without a result`, details });
    // Blocked, not_found, session_expired…: the task succeeded, the crawl did not.
    if (result.error)
        throw CrawlerError.fromBody(result.error, 0, { ...details, result });
    return result;
}
const nextCursorOf = (r) => ('next_cursor' in r ? r.next_cursor : 'has_more' in r && r.has_more ? r.cursor : undefined);
export async function* walkPages(client, source, action, params, o) {
    const { max_items: fromParams, ...rest } = params;
    const maxItems = o.maxItems ?? (typeof fromParams === 'number' ? fromParams : undefined);
    if (maxItems !== undefined && (!Number.isInteger(maxItems) || (maxItems < 1 && maxItems !== -1))) {
        throw new CrawlerError({ code: 'invalid_request', message: 'maxItems: -1 (everything) or a whole number from 1' });
    }
    let mode = o.mode ?? 'auto';
    if (mode === 'auto') {
        const entry = maxItems === undefined ? undefined : await client.entry(source, action);
        mode = entry?.params.some((p) => p.name === 'max_items') ? 'task' : 'pages';
    }
    if (mode === 'task') {
        const task = await runTask(client, source, action, maxItems === undefined ? rest : { ...rest, max_items: maxItems }, o, (p, id) => o.onProgress?.({ ...p, task_id: id }));
        yield { task, result: pageOf(task) };
        return;
    }
    const target = maxItems === undefined || maxItems === -1 ? Number.POSITIVE_INFINITY : maxItems;
    const done = { items: 0, pages: 0 };
    let cursor = rest.cursor;
    let emptyInARow = 0;
    while (done.items < target) {
        // The limit may change between pages (a cursor is bound to the query, not to the page size).
        const limit = Math.min(rest.limit ?? PAGE_LIMIT_MAX, target - done.items);
        const task = await runTask(client, source, action, { ...rest, limit, ...(cursor === undefined ? {} : { cursor }) }, o, (p, id) => o.onProgress?.({ items: Math.min(target, done.items + p.items), pages: done.pages + p.pages, task_id: id }));
        const result = pageOf(task);
        const room = target - done.items;
        const page = result.items.length > room ? { ...result, items: result.items.slice(0, room) } : result;
        done.items += page.items.length;
        done.pages += task.progress?.pages ?? 1;
        o.onProgress?.({ ...done, task_id: task.task_id });
        yield { task, result: page };
        emptyInARow = page.items.length ? 0 : emptyInARow + 1;
        const next = nextCursorOf(result);
        if (!next || next === cursor || emptyInARow >= EMPTY_TASKS_MAX)
            return;
        cursor = next;
    }
}
