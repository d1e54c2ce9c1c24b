import { CrawlerError } from './errors.js';
import { Http } from './http.js';
import { sleep } from './sleep.js';
import { streamTask } from './stream.js';
import { runTask } from './follow.js';
import { walkPages } from './walk.js';
const INLINE_WAIT_MAX_MS = 8000;
const POLL_MAX_MS = 5000;
export const isFinished = (status) => status === 'succeeded' || status === 'failed' || status === 'cancelled';
/** A typed client of the crawler's HTTP API. Needs nothing but `fetch`. */
export class CrawlerClient {
    url;
    http;
    catalogCache;
    constructor(o) {
        const f = o.fetch ?? globalThis.fetch;
        if (!f)
            throw new TypeError('CrawlerClient: no fetch available; pass options.fetch');
        if (!/^https?:\/\//i.test(o.url))
            throw new TypeError(`CrawlerClient: url must be an http(s) address, got ${JSON.stringify(o.url)}`);
        this.http = new Http(o.url, o.token, (input, init) => f(input, init));
        this.url = this.http.base;
    }
    /** POST /v1/tasks. With `wait`, a task finished in time comes back whole; otherwise `{task_id, status: 'queued'}`. */
    async submit(task, o = {}) {
        const params = o.idempotencyKey === undefined ? (task.params ?? {}) : { ...task.params, idempotency_key: o.idempotencyKey };
        const query = o.wait ? `?wait=${o.wait}` : '';
        const res = await this.http.json(`/v1/tasks${query}`, {
            method: 'POST',
            json: { source: task.source, action: task.action, params },
            signal: o.signal,
            accept: [409],
        });
        if (res.status === 409 && res.body?.status !== 'needs_confirmation')
            throw CrawlerError.fromResponse(409, res.body, null);
        return res.body;
    }
    /** GET /v1/tasks/{id}: narrow the result's type on `task.action`. */
    async get(taskId, o = {}) {
        return (await this.http.json(`/v1/tasks/${encodeURIComponent(taskId)}`, { signal: o.signal })).body;
    }
    async wait(target, o = {}) {
        const deadline = o.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + o.timeoutMs;
        const left = () => deadline - Date.now();
        let id;
        if (typeof target === 'string')
            id = target;
        else {
            const inline = Math.max(0, Math.min(INLINE_WAIT_MAX_MS, Math.floor(left())));
            const first = (await this.submit(target, { wait: inline, signal: o.signal }));
            if (first.status === 'needs_confirmation' || isFinished(first.status))
                return first;
            id = first.task_id;
        }
        let interval = o.pollMs ?? 250;
        for (let firstPoll = typeof target === 'string';; firstPoll = false) {
            if (!firstPoll) {
                if (left() <= 0)
                    break;
                await sleep(Math.min(interval, left()), o.signal);
                interval = Math.min(POLL_MAX_MS, Math.ceil(interval * 1.5));
            }
            try {
                const task = await this.get(id, { signal: o.signal });
                if (isFinished(task.status))
                    return task;
            }
            catch (e) {
                if (!(e instanceof CrawlerError && e.retryable))
                    throw e;
            }
            if (left() <= 0)
                break;
        }
        throw new CrawlerError({ code: 'timeout', message: `task ${id} did not finish within ${o.timeoutMs} ms (it goes on: poll it, stream it or cancel it)`, retryable: true, details: { task_id: id } });
    }
    /**
     * Submits the task and follows its event stream to the end: the finished task whatever its status
     * (or a write's plan). Progress comes as it happens; aborting the signal cancels the task on the server.
     */
    run(task, o = {}) {
        return runTask(this, task.source, task.action, task.params ?? {}, o);
    }
    /** The task's events (status, progress, result) as they happen; a dropped connection resumes with Last-Event-ID. */
    stream(taskId, o = {}) {
        return streamTask(this.http, taskId, o);
    }
    /** Cancels a queued or running task (idempotent: an ended task comes back unchanged). */
    async cancel(taskId, o = {}) {
        return (await this.http.json(`/v1/tasks/${encodeURIComponent(taskId)}/cancel`, { method: 'POST', signal: o.signal })).body;
    }
    /** Queues a failed, cancelled or blocked task again under the same id (attempts + 1). */
    async retry(taskId, o = {}) {
        return (await this.http.json(`/v1/tasks/${encodeURIComponent(taskId)}/retry`, { method: 'POST', signal: o.signal })).body;
    }
    /** GET /v1/tasks: the caller's tasks, newest first, without results. */
    async list(q = {}, o = {}) {
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries(q))
            if (v !== undefined && v !== false)
                search.set(k, String(v));
        const qs = search.toString();
        return (await this.http.json(`/v1/tasks${qs ? `?${qs}` : ''}`, { signal: o.signal })).body;
    }
    /**
     * Every item of a paged action (shape A cards, or comments), yielded as each task ends. It follows
     * next_cursor task by task, or, for `maxItems` on an action that takes `max_items` (posts), runs one
     * paced walk on the server. Aborting the signal cancels the task in flight on the server.
     */
    async *walk(source, action, params = {}, o = {}) {
        for await (const page of this.pages(source, action, params, o))
            yield* page.result.items;
    }
    /** What `walk` runs, one finished task (page) at a time, with its result: for callers that want cursors and warnings too. */
    pages(source, action, params = {}, o = {}) {
        return walkPages(this, source, action, params, o);
    }
    /** POST /v1/tasks/batch: up to 500 read tasks in one request; each refused entry says why, by index. */
    async batch(tasks, o = {}) {
        const json = { tasks: tasks.map((t) => ({ source: t.source, action: t.action, params: t.params ?? {} })) };
        return (await this.http.json('/v1/tasks/batch', { method: 'POST', json, signal: o.signal })).body;
    }
    /** GET /v1/batches/{id}: counts per status and every task id, in entry order. */
    async getBatch(batchId, o = {}) {
        return (await this.http.json(`/v1/batches/${encodeURIComponent(batchId)}`, { signal: o.signal })).body;
    }
    /** POST /v1/batches/{id}/retry: retries only the retryable failures (and blocked results). */
    async retryBatch(batchId, o = {}) {
        return (await this.http.json(`/v1/batches/${encodeURIComponent(batchId)}/retry`, { method: 'POST', signal: o.signal })).body;
    }
    /**
     * A succeeded task's rows (GET /v1/tasks/{id}/export), or a watch's collected new items (`{watch: id}`), as
     * JSON lines or CSV: the response, whose body streams (pipe it to a file; nothing is buffered here).
     */
    async export(target, o = {}) {
        const path = typeof target === 'string' ? `/v1/tasks/${encodeURIComponent(target)}/export` : `/v1/watches/${encodeURIComponent(target.watch)}/export`;
        const res = await this.http.send(`${path}?format=${o.format ?? 'jsonl'}`, { signal: o.signal });
        if (res.ok)
            return res;
        const text = await res.text();
        let body = text;
        try {
            body = JSON.parse(text);
        }
        catch {
            /* the error as text */
        }
        throw CrawlerError.fromResponse(res.status, body, res.headers.get('retry-after'));
    }
    /** POST /v1/watches: a feed crawl repeated every every_s seconds (≥ 900) whose runs carry only new items. */
    async createWatch(watch, o = {}) {
        return (await this.http.json('/v1/watches', { method: 'POST', json: watch, signal: o.signal })).body;
    }
    /** GET /v1/watches: the caller's watches, newest first (admins: `all`), paged by `cursor` (a previous next_cursor). */
    async listWatches(q = {}, o = {}) {
        const search = new URLSearchParams();
        for (const [k, v] of Object.entries(q))
            if (v !== undefined && v !== false)
                search.set(k, String(v));
        const qs = search.toString();
        return (await this.http.json(`/v1/watches${qs ? `?${qs}` : ''}`, { signal: o.signal })).body;
    }
    /** GET /v1/watches/{id}, with its recent runs. */
    async getWatch(watchId, o = {}) {
        return (await this.http.json(`/v1/watches/${encodeURIComponent(watchId)}`, { signal: o.signal })).body;
    }
    /** PATCH /v1/watches/{id}: every_s, params, paused, callback_url (null removes it), full_page. */
    async updateWatch(watchId, patch, o = {}) {
        return (await this.http.json(`/v1/watches/${encodeURIComponent(watchId)}`, { method: 'PATCH', json: patch, signal: o.signal })).body;
    }
    /** DELETE /v1/watches/{id}, with what it has seen. */
    async deleteWatch(watchId, o = {}) {
        await this.http.json(`/v1/watches/${encodeURIComponent(watchId)}`, { method: 'DELETE', signal: o.signal });
    }
    /** GET /v1/task-sources (fetched once per client). */
    catalog() {
        this.catalogCache ??= this.http.json('/v1/task-sources').then((r) => r.body, (e) => {
            this.catalogCache = undefined;
            throw e;
        });
        return this.catalogCache;
    }
    /** The catalog entry of `source.action`, or undefined (also for a platform alias such as `x`: the catalog lists platform ids). */
    async entry(source, action) {
        const name = `${source.toLowerCase()}.${action}`;
        return (await this.catalog()).find((e) => e.name === name);
    }
    async capabilities() {
        return (await this.http.json('/v1/capabilities')).body;
    }
    async categories(source) {
        return (await this.http.json(`/v1/categories?source=${encodeURIComponent(source)}`)).body;
    }
    async health() {
        return (await this.http.json('/v1/health')).body;
    }
    /** A service-hosted URL as given in results (`/v1/media?u=…`, `/v1/preview?…`), made absolute against the base. */
    mediaUrl(url) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(url))
            return url;
        if (url.startsWith('/'))
            return this.http.url(url);
        return new URL(url, `${this.http.base}/`).toString();
    }
    previewUrl(a, nativeId) {
        if (typeof a !== 'string' && a.preview?.url)
            return this.mediaUrl(a.preview.url);
        let platform;
        let id;
        if (typeof a === 'string') {
            platform = a;
            id = nativeId ?? '';
        }
        else {
            const at = a.id.indexOf(':');
            platform = a.id.slice(0, at);
            id = a.id.slice(at + 1);
        }
        if (!platform || !id)
            throw new TypeError('previewUrl: needs a platform and a native id (or an item whose id is <provider>:<native_id>)');
        return this.http.url(`/v1/preview?platform=${encodeURIComponent(platform)}&id=${encodeURIComponent(id)}`);
    }
}
