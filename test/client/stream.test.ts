import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlerClient, CrawlerError, type Accepted, type FetchLike, type Item, type TaskEvent } from '../../client/dist/index.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { pacedFeed } from '../helpers/paced-feed.js';
import { startService, type Running } from '../helpers/service.js';

/* The built client against the real service crawling the loopback fake platform, whose pages can be slow. */
let fake: FakePlatform;
let s: Running;
let token: string;
let client: CrawlerClient;

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [pacedFeed(fake.adapter)], pingMs: 100 });
  token = await s.token(['read']);
  client = new CrawlerClient({ url: s.base, token });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const accepted = async (params: Record<string, unknown>, action = 'posts') => ((await client.submit({ source: 'fake', action, params })) as Accepted).task_id;

/**
 * fetch that breaks the first task stream right after its first complete event, as a dropped
 * connection would, and records the Last-Event-ID of every stream request.
 */
function cuttingFetch(): { fetch: FetchLike; lastEventIds: Array<string | null> } {
  const lastEventIds: Array<string | null> = [];
  let cut = false;
  const f: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    if (!url.endsWith('/stream')) return res;
    lastEventIds.push(new Headers(init?.headers).get('last-event-id'));
    if (cut) return res;
    cut = true;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let broken = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        if (broken) {
          await reader.cancel();
          return ctrl.error(new TypeError('terminated: other side closed'));
        }
        const { done, value } = await reader.read();
        if (done) return ctrl.close();
        text += decoder.decode(value, { stream: true });
        const end = /(^|\n)id: \d+\n[^]*?\n\n/.exec(text);
        if (!end) return ctrl.enqueue(value);
        // Deliver exactly up to the end of the first event, then break.
        const keep = new TextEncoder().encode(text.slice(0, end.index + end[0].length));
        broken = true;
        ctrl.enqueue(keep);
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  return { fetch: f, lastEventIds };
}

describe('stream', () => {
  it('yields status, progress and result in id order and ends', async () => {
    const id = await accepted({ query: 'paced-60-events', max_items: -1 });
    const events: TaskEvent[] = [];
    for await (const e of client.stream(id)) events.push(e);
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
    expect(events.at(-1)!.type).toBe('result');
    const last = events.at(-1)!;
    if (last.type !== 'result') throw new Error('no result');
    expect(last.task.status).toBe('succeeded');
    expect(events.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ progress: { items: 45, pages: 5 } });
    const resumed: TaskEvent[] = [];
    for await (const e of client.stream(id, { lastEventId: last.id - 1 })) resumed.push(e);
    expect(resumed.map((e) => [e.id, e.type])).toEqual([[last.id, 'result']]);
  });

  it('resumes a dropped connection with Last-Event-ID: every event once, in order, to the result', async () => {
    const cutting = cuttingFetch();
    const flaky = new CrawlerClient({ url: s.base, token, fetch: cutting.fetch });
    const id = await accepted({ query: 'paced-120-resume', max_items: -1 });
    const events: TaskEvent[] = [];
    for await (const e of flaky.stream(id, { reconnectDelayMs: 20 })) events.push(e);
    expect(cutting.lastEventIds.length).toBeGreaterThanOrEqual(2);
    expect(cutting.lastEventIds[0]).toBeNull();
    expect(cutting.lastEventIds[1]).toBe(String(events[0]!.id));
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ type: 'result', task: { status: 'succeeded', result: { count: 45 } } });
  });

  it('throws at once for a task it cannot see, without reconnecting', async () => {
    const e = await client
      .stream('t_0000000000000000000000000')
      .next()
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CrawlerError);
    expect([(e as CrawlerError).code, (e as CrawlerError).status]).toEqual(['not_found', 404]);
  });
});

describe('wait, cancel, retry', () => {
  it('gives up waiting with a timeout CrawlerError naming the task; cancel and retry act on it', async () => {
    const id = await accepted({ query: 'slow', force: true }, 'search');
    const e = await client.wait(id, { timeoutMs: 300, pollMs: 50 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CrawlerError);
    expect([(e as CrawlerError).code, (e as CrawlerError).status, (e as CrawlerError).details.task_id]).toEqual(['timeout', 0, id]);
    const cancelled = await client.cancel(id);
    expect(cancelled.status).toBe('cancelled');
    expect((await client.cancel(id)).status).toBe('cancelled');
    const again = await client.retry(id);
    expect([again.status, again.attempts]).toEqual(['queued', 2]);
    const refused = await client.retry(id).catch((x: unknown) => x);
    expect(refused).toBeInstanceOf(CrawlerError);
    expect([(refused as CrawlerError).code, (refused as CrawlerError).status]).toEqual(['invalid_request', 409]);
    await client.cancel(id);
  });

  it('stops waiting when its signal aborts', async () => {
    const id = await accepted({ query: 'slow', force: true }, 'search');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const e = await client.wait(id, { signal: ac.signal }).catch((x: unknown) => x);
    expect((e as Error).name).toBe('AbortError');
    await client.cancel(id);
  });
});

describe('run', () => {
  it('submits and follows a task to its end with live progress', async () => {
    const progress: number[] = [];
    let id = '';
    const task = await client.run({ source: 'fake', action: 'posts', params: { query: 'paced-40-run', max_items: -1 } }, { onTask: (t) => (id = t), onProgress: (p) => progress.push(p.items) });
    expect(task.status).toBe('succeeded');
    expect(task.task_id).toBe(id);
    expect(task.result!.count).toBe(45);
    expect(progress.at(-1)).toBe(45);
  });

  it('a timeout stops following without cancelling; an abort cancels', async () => {
    let id = '';
    const timedOut = await client.run({ source: 'fake', action: 'posts', params: { query: 'paced-300-timeout', max_items: -1 } }, { onTask: (t) => (id = t), signal: AbortSignal.timeout(400) }).catch((x: unknown) => x);
    expect((timedOut as Error).name).toBe('TimeoutError');
    expect((await client.get(id)).status).not.toBe('cancelled');
    await client.cancel(id);
    const ac = new AbortController();
    const aborted = await client.run({ source: 'fake', action: 'posts', params: { query: 'paced-300-abort-run', max_items: -1 } }, { onTask: (t) => ((id = t), setTimeout(() => ac.abort(), 100)), signal: ac.signal }).catch((x: unknown) => x);
    expect((aborted as Error).name).toBe('AbortError');
    expect((await client.get(id)).status).toBe('cancelled');
  });
});

describe('walk', () => {
  it('cancels the task in flight on the server when its signal aborts', async () => {
    const ac = new AbortController();
    const tasks: string[] = [];
    const seen: Item[] = [];
    const run = (async () => {
      for await (const item of client.walk('fake', 'posts', { query: 'paced-600-abort' }, { maxItems: -1, signal: ac.signal, onTask: (t) => tasks.push(t), onProgress: () => ac.abort() })) seen.push(item);
    })();
    const e = await run.catch((x: unknown) => x);
    expect((e as Error).name).toBe('AbortError');
    expect(seen).toEqual([]);
    expect(tasks).toHaveLength(1);
    expect((await client.get(tasks[0]!)).status).toBe('cancelled');
  });

  it('in pages mode follows cursors task by task, reporting cumulative progress', async () => {
    const progress: Array<{ items: number; pages: number; task_id: string }> = [];
    const items: Item[] = [];
    for await (const item of client.walk('fake', 'search', { query: 'paced-30-pages', limit: 10 }, { mode: 'pages', maxItems: 23, onProgress: (p) => progress.push(p) })) items.push(item);
    expect(items.map((i) => i.id)).toEqual(Array.from({ length: 23 }, (_, i) => `fake:${1001 + i}`));
    expect(new Set(progress.map((p) => p.task_id)).size).toBe(3);
    expect(progress.at(-1)).toMatchObject({ items: 23, pages: 3 });
    for (let i = 1; i < progress.length; i++) expect(progress[i]!.items).toBeGreaterThanOrEqual(progress[i - 1]!.items);
  });
});
