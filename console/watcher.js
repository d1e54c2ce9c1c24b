// @ts-check
// Live task status over SSE, shared by every view. A browser opens at most six HTTP/1.1 connections
// to one host; streams take a few of them so thumbs, previews and API calls keep the rest.
import { toError } from './api.js';
import { readEvents, SseParser } from './sse.js';
import { sleep } from './dom.js';

/**
 * @typedef {{type: 'status' | 'progress' | 'result', data: any} | {type: 'error', error: Error}} TaskUpdate
 * @typedef {(u: TaskUpdate) => void} Listener
 * @typedef {{id: string, listeners: Set<Listener>, priority: boolean, ctrl?: AbortController, running: boolean, done: boolean, parser: SseParser}} Watch
 */

export class TaskWatcher {
  /** @param {import('./api.js').Api} api @param {(e: Error) => void} onAuthLost @param {number} [maxStreams] */
  constructor(api, onAuthLost, maxStreams = 3) {
    this.api = api;
    this.onAuthLost = onAuthLost;
    this.max = maxStreams;
    /** @type {Map<string, Watch>} */
    this.watches = new Map();
    /** @type {Watch[]} */
    this.waiting = [];
  }

  /**
   * Follows a task until its result; priority watches (the task being looked at) take a stream from
   * a list row when all are busy. Returns the unsubscribe function.
   * @param {string} id @param {Listener} listener @param {{priority?: boolean}} [opts]
   */
  watch(id, listener, opts = {}) {
    let w = this.watches.get(id);
    if (!w) {
      w = { id, listeners: new Set(), priority: false, running: false, done: false, parser: new SseParser() };
      this.watches.set(id, w);
      this.waiting.push(w);
    }
    w.listeners.add(listener);
    if (opts.priority && !w.priority) {
      w.priority = true;
      if (!w.running) this.waiting = [w, ...this.waiting.filter((x) => x !== w)];
    }
    this.pump();
    const watch = w;
    return () => {
      watch.listeners.delete(listener);
      if (!watch.listeners.size) this.drop(watch);
    };
  }

  /** Streams in use (for tests and the status line). */
  get active() {
    return [...this.watches.values()].filter((w) => w.running).length;
  }

  /** @param {Watch} w */
  drop(w) {
    this.watches.delete(w.id);
    this.waiting = this.waiting.filter((x) => x !== w);
    w.done = true;
    w.ctrl?.abort();
  }

  pump() {
    const running = () => [...this.watches.values()].filter((w) => w.running);
    const first = this.waiting[0];
    if (first?.priority && running().length >= this.max) {
      // Pause a list row's stream; it resumes from its Last-Event-ID when a slot frees.
      const victim = running().find((w) => !w.priority);
      if (victim) {
        victim.ctrl?.abort();
        victim.running = false;
        this.waiting.push(victim);
      }
    }
    while (running().length < this.max && this.waiting.length) {
      const w = /** @type {Watch} */ (this.waiting.shift());
      if (w.done) continue;
      w.running = true;
      const ctrl = new AbortController();
      w.ctrl = ctrl;
      void this.run(w, ctrl).finally(() => {
        // A paused stream may have been restarted already under a new controller.
        if (w.ctrl === ctrl) w.running = false;
        this.pump();
      });
    }
  }

  /** @param {Watch} w @param {AbortController} ctrl aborted when the watch is dropped or paused */
  async run(w, ctrl) {
    let failures = 0;
    while (!w.done && this.watches.get(w.id) === w) {
      try {
        const headers = w.parser.lastId ? { 'last-event-id': w.parser.lastId } : undefined;
        const res = await this.api.raw(`/v1/tasks/${encodeURIComponent(w.id)}/stream`, { headers, signal: ctrl.signal });
        if (!res.ok) {
          const err = toError(res.status, await res.json().catch(() => null));
          if (res.status === 429 || res.status >= 500) throw err;
          if (res.status === 401) this.onAuthLost(err);
          this.emit(w, { type: 'error', error: err });
          w.done = true;
          this.watches.delete(w.id);
          return;
        }
        failures = 0;
        await readEvents(res, w.parser, (ev) => this.deliver(w, ev));
      } catch (e) {
        if (ctrl.signal.aborted) return;
        failures++;
      }
      if (!w.done) await sleep(Math.max(w.parser.retryMs ?? 2000, 500) * Math.min(failures + 1, 5), ctrl.signal);
      if (ctrl.signal.aborted) return;
    }
  }

  /** @param {Watch} w @param {import('./sse.js').SseEvent} ev */
  deliver(w, ev) {
    if (ev.event !== 'status' && ev.event !== 'progress' && ev.event !== 'result') return;
    let data;
    try {
      data = JSON.parse(ev.data);
    } catch {
      return;
    }
    this.emit(w, { type: ev.event, data });
    if (ev.event === 'result') {
      w.done = true;
      this.watches.delete(w.id);
      w.ctrl?.abort();
    }
  }

  /** @param {Watch} w @param {TaskUpdate} u */
  emit(w, u) {
    for (const l of [...w.listeners]) {
      try {
        l(u);
      } catch (e) {
        console.error(e);
      }
    }
  }
}
