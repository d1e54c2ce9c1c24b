import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';

let fake: FakePlatform;
let s: Running;
let token: string;

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter], pingMs: 100 });
  token = await s.token(['read']);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

interface Frame {
  id?: number;
  event?: string;
  data?: any;
  comment?: string;
}

/** Reads an SSE stream to its end (the server closes after the result). */
async function readStream(taskId: string, lastEventId?: number, stopAfter?: (f: Frame[]) => boolean): Promise<{ frames: Frame[]; headers: Headers }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
  const ac = new AbortController();
  const res = await fetch(`${s.base}/v1/tasks/${taskId}/stream`, { headers, signal: ac.signal });
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let idx;
      while ((idx = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        const f: Frame = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) f.comment = line.slice(1).trim();
          else if (line.startsWith('id: ')) f.id = Number(line.slice(4));
          else if (line.startsWith('event: ')) f.event = line.slice(7);
          else if (line.startsWith('data: ')) f.data = JSON.parse(line.slice(6));
        }
        frames.push(f);
      }
      if (stopAfter?.(frames)) {
        ac.abort();
        break;
      }
    }
  } catch (e) {
    if (!ac.signal.aborted) throw e;
  }
  return { frames, headers: res.headers };
}

const submit = (params: Record<string, unknown>, action = 'posts') =>
  s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action, params }, token });

describe('SSE task stream', () => {
  it('streams status, progress and result with increasing ids, then closes', async () => {
    const t = await submit({ query: 'stream-walk', max_items: -1 });
    const { frames, headers } = await readStream(t.body.task_id);
    expect(headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = frames.filter((f) => f.event);
    const ids = events.map((f) => f.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(events.at(-1)!.event).toBe('result');
    expect(events.at(-1)!.data.result.count).toBe(45);
    expect(events.at(-2)!.event).toBe('status');
    expect(events.at(-2)!.data.status).toBe('succeeded');
    expect(events.at(-2)!.data.result).toBeUndefined();
    const progress = events.filter((f) => f.event === 'progress').map((f) => f.data);
    if (progress.length) expect(progress.at(-1)).toEqual({ items: 45, pages: 5 });
  });

  it('sends status and result at once for a finished task, and resumes after Last-Event-ID', async () => {
    const t = await submit({ query: 'finished', limit: 3 }, 'search');
    await s.api(`/v1/tasks/${t.body.task_id}?`, { token });
    const done = await readStream(t.body.task_id);
    const events = done.frames.filter((f) => f.event);
    expect(events.slice(-2).map((f) => f.event)).toEqual(['status', 'result']);
    const resultId = events.at(-1)!.id as number;
    const resumed = await readStream(t.body.task_id, resultId - 1);
    const rest = resumed.frames.filter((f) => f.event);
    expect(rest.map((f) => f.event)).toEqual(['result']);
    expect(rest[0].id).toBe(resultId);
    const nothing = await readStream(t.body.task_id, resultId);
    expect(nothing.frames.filter((f) => f.event)).toEqual([]);
  });

  it('pings while a crawl hangs, and ends with the cancelled task', async () => {
    const t = await submit({ query: 'slow', force: true }, 'search');
    const cancelLater = setTimeout(() => void s.api(`/v1/tasks/${t.body.task_id}/cancel`, { method: 'POST', token }), 450);
    const { frames } = await readStream(t.body.task_id);
    clearTimeout(cancelLater);
    expect(frames.filter((f) => f.comment === 'ping').length).toBeGreaterThanOrEqual(2);
    const last = frames.filter((f) => f.event).at(-1)!;
    expect(last.event).toBe('result');
    expect(last.data.status).toBe('cancelled');
  });

  it('resumes a running task without repeating events', async () => {
    const t = await submit({ query: 'slow', force: true }, 'search');
    const first = await readStream(t.body.task_id, undefined, (f) => f.some((x) => x.event === 'status' && x.data.status === 'running'));
    const lastId = first.frames.filter((f) => f.event).at(-1)!.id as number;
    setTimeout(() => void s.api(`/v1/tasks/${t.body.task_id}/cancel`, { method: 'POST', token }), 200);
    const second = await readStream(t.body.task_id, lastId);
    const events = second.frames.filter((f) => f.event);
    expect(events.every((f) => (f.id as number) > lastId)).toBe(true);
    expect(events.at(-1)!.event).toBe('result');
  });

  it('resumes from the stored event log: progress another process wrote reaches a stream resuming after Last-Event-ID', async () => {
    const t = await submit({ query: 'slow', force: true }, 'search');
    const first = await readStream(t.body.task_id, undefined, (f) => f.some((x) => x.event === 'status' && x.data.status === 'running'));
    const running = first.frames.filter((f) => f.event).at(-1)!;
    // Written only to the log, as a worker elsewhere would: this process's bus never carried it.
    await s.svc.eventLog.append(t.body.task_id, 1, { id: (running.id as number) + 1, type: 'progress', data: '{"items":7,"pages":1}' });
    setTimeout(() => void s.api(`/v1/tasks/${t.body.task_id}/cancel`, { method: 'POST', token }), 200);
    const events = (await readStream(t.body.task_id, running.id)).frames.filter((f) => f.event);
    expect(events[0]).toMatchObject({ id: (running.id as number) + 1, event: 'progress', data: { items: 7 } });
    expect(events.at(-1)!.event).toBe('result');
  });
});

describe('streams follow the current attempt and are served from the store once a task ends', () => {
  const submit = (params: Record<string, unknown>) => s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params }, token });

  it('a stream on a finished task sends its status and result at once and closes, not its history', async () => {
    const done = await submit({ query: 'history', limit: 20, force: true });
    expect(done.body.status).toBe('succeeded');
    const { frames } = await readStream(done.body.task_id);
    const events = frames.filter((f) => f.event);
    expect(events.map((f) => f.event)).toEqual(['status', 'result']);
    expect(events[0].data.status).toBe('succeeded');
    expect(events[1].data.result.count).toBe(20);
    expect(events[1].id).toBeGreaterThan(events[0].id!);
  });

  it('after a retry, a new stream shows the new attempt live and its result, never the earlier result', async () => {
    const first = await submit({ query: 'captcha', force: true });
    expect(first.body.result.source).toBe('blocked');
    const before = await readStream(first.body.task_id);
    const oldResultId = before.frames.find((f) => f.event === 'result')!.id!;
    const retried = await s.api(`/v1/tasks/${first.body.task_id}/retry`, { method: 'POST', token });
    expect(retried.body.attempts).toBe(2);
    const after = await readStream(first.body.task_id);
    const events = after.frames.filter((f) => f.event);
    const results = events.filter((f) => f.event === 'result');
    expect(results).toHaveLength(1);
    expect(results[0].data.attempts).toBe(2);
    expect(results[0].id).toBeGreaterThan(oldResultId);
    expect(events.every((f) => f.data.attempts === 2)).toBe(true);
    // Ids go on from the first attempt's: one sequence per task.
    expect(events[0].id).toBeGreaterThan(oldResultId);
  });

  it('a client resuming with Last-Event-ID after a retry hears the new attempt, not the old end', async () => {
    const first = await submit({ query: 'captcha', force: true });
    const before = await readStream(first.body.task_id);
    const oldResultId = before.frames.find((f) => f.event === 'result')!.id!;
    await s.api(`/v1/tasks/${first.body.task_id}/retry`, { method: 'POST', token });
    const resumed = await readStream(first.body.task_id, oldResultId);
    const events = resumed.frames.filter((f) => f.event);
    // The new attempt may have ended already: then its end is restated; either way nothing of the old one.
    expect(events[0].id).toBeGreaterThan(oldResultId);
    expect(events[0].event).toBe('status');
    expect(events.every((f) => f.data.attempts === 2)).toBe(true);
    expect(events.at(-1)!.event).toBe('result');
    expect(events.at(-1)!.data.attempts).toBe(2);
  });

  it('keeps no event channel for finished tasks nobody listens to', async () => {
    for (let i = 0; i < 25; i++) await submit({ query: `no-listener-${i}`, force: true });
    expect(s.svc.bus.size).toBe(0);
    // A late subscriber still gets the end, from the store.
    const late = await submit({ query: 'late-subscriber', force: true });
    const { frames } = await readStream(late.body.task_id);
    expect(frames.filter((f) => f.event).map((f) => f.event)).toEqual(['status', 'result']);
    expect(s.svc.bus.size).toBe(0);
  });
});

describe('open streams have a hard ceiling', () => {
  it('answers 429 rate_limited past the ceiling, and takes streams again once one closes', async () => {
    const capped = await startService({ adapters: [fake.adapter], maxStreams: 1 });
    try {
      const t = await capped.token(['read']);
      const task = await capped.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'slow', force: true } }, token: t });
      const ac = new AbortController();
      const first = await fetch(`${capped.base}/v1/tasks/${task.body.task_id}/stream`, { headers: { authorization: `Bearer ${t}` }, signal: ac.signal });
      expect(first.status).toBe(200);
      const second = await capped.api(`/v1/tasks/${task.body.task_id}/stream`, { token: t });
      expect(second.status).toBe(429);
      expect(second.body.error.code).toBe('rate_limited');
      expect(second.headers.get('retry-after')).toBe('5');
      ac.abort();
      const third = await until(async () => {
        const r = await fetch(`${capped.base}/v1/tasks/${task.body.task_id}/stream`, { headers: { authorization: `Bearer ${t}` } });
        if (r.status === 200) return r;
        await r.arrayBuffer();
        return undefined;
      });
      expect(third.status).toBe(200);
      await capped.api(`/v1/tasks/${task.body.task_id}/cancel`, { method: 'POST', token: t });
      await third.text();
    } finally {
      await capped.close();
    }
  });
});

describe('a stream whose state cannot be read', () => {
  it('ends instead of pinging forever, and frees its slot (the client reconnects with Last-Event-ID)', async () => {
    const svc = await startService({ adapters: [fake.adapter], maxStreams: 1, pingMs: 50 });
    try {
      const t = await svc.token(['read', 'write']);
      const task = await svc.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'slow', force: true } }, token: t });
      const log = svc.svc.eventLog;
      const after = log.after.bind(log);
      log.after = () => Promise.reject(new Error('store unreachable'));
      const broken = await fetch(`${svc.base}/v1/tasks/${task.body.task_id}/stream`, { headers: { authorization: `Bearer ${t}` } });
      expect(broken.status).toBe(200);
      // The body ends: text() resolves rather than hanging on pings.
      expect(await broken.text()).toContain('retry: 2000');
      log.after = after;
      const again = await fetch(`${svc.base}/v1/tasks/${task.body.task_id}/stream`, { headers: { authorization: `Bearer ${t}` } });
      expect(again.status).toBe(200);
      await svc.api(`/v1/tasks/${task.body.task_id}/cancel`, { method: 'POST', token: t });
      expect(await again.text()).toContain('event: result');
    } finally {
      await svc.close();
    }
  });
});
