// @ts-check
// One task: live status until it ends, then its result in the view its shape calls for.
import { badge, errorText, fmtTime, h, replace } from './dom.js';
import { describeParams, fmtProgress } from './view-tasks.js';
import { galleryResult } from './result-gallery.js';
import { commentsResult } from './result-comments.js';
import { creatorResult, trendsResult, writeResult } from './result-misc.js';

const ACTIVE = new Set(['queued', 'running']);

/**
 * Which renderer a result needs: keyed on the result's own fields, so a new action of a known shape
 * renders without changes here.
 * @param {import('./app.js').Ctx} ctx @param {any} task
 */
function renderResult(ctx, task) {
  const r = task.result;
  if (r.state !== undefined) return writeResult(r);
  if (r.data?.author) return creatorResult(ctx, task);
  if (r.data?.trends) return trendsResult(ctx, task);
  if (task.action === 'comments' || (Array.isArray(r.items) && r.items[0]?.cid !== undefined)) return commentsResult(ctx, task);
  return galleryResult(ctx, task);
}

/** @type {import('./app.js').View} */
export function taskView(ctx, root, route) {
  const id = route.id ?? '';
  const head = h('div', { class: 'task-head' });
  const resultBox = h('section', { class: 'result', id: 'result' });
  const error = h('p', { class: 'error', role: 'alert' });
  /** @type {(() => void) | undefined} */
  let stop;
  /** @type {any} */
  let current;
  replace(root, head, error, resultBox);
  replace(head, h('p', { class: 'muted' }, 'Loading…'));

  /** @param {any} task */
  function show(task) {
    const changed = !current || current.status !== task.status || current.attempts !== task.attempts;
    // A whole task object replaces the last one (a retried task drops its old result); progress merges.
    current = task.task_id ? { ...task } : { ...current, ...task };
    const t = current;
    replace(
      head,
      h('h1', {}, `${t.source}.${t.action} `, h('small', { class: 'muted' }, describeParams(t))),
      h(
        'div',
        { class: 'task-meta' },
        h('span', { id: 'task-status', dataset: { status: t.status } }, badge('status', t.status)),
        t.progress ? h('span', { class: 'progress' }, fmtProgress(t.progress)) : null,
        h('span', { class: 'muted' }, `created ${fmtTime(t.created_at)}`),
        t.finished_at ? h('span', { class: 'muted' }, `finished ${fmtTime(t.finished_at)}`) : null,
        t.attempts > 1 ? h('span', { class: 'muted' }, `attempt ${t.attempts}`) : null,
        h('code', { class: 'muted', title: 'task id' }, t.task_id),
        ACTIVE.has(t.status) ? h('button', { type: 'button', class: 'secondary small', id: 'cancel-task', onclick: () => act('cancel') }, 'Cancel') : null,
        canRetry(t) ? h('button', { type: 'button', class: 'secondary small', id: 'retry-task', onclick: () => act('retry') }, 'Retry') : null,
      ),
    );
    if (!changed && !task.result) return;
    if (t.status === 'succeeded' && t.result) replace(resultBox, renderResult(ctx, t), rawJson(t.result));
    else if (t.status === 'failed') replace(resultBox, h('div', { class: 'error-box' }, h('b', {}, t.error?.code ?? 'failed'), ': ', t.error?.message ?? 'the task failed'));
    else if (t.status === 'cancelled') replace(resultBox, h('p', { class: 'muted' }, 'Cancelled.'));
    else if (t.status === 'succeeded' && !stop) void load();
    else if (t.status === 'succeeded') replace(resultBox, h('p', { class: 'muted waiting' }, 'Reading the result…'));
    else replace(resultBox, h('p', { class: 'muted waiting' }, t.status === 'queued' ? 'Waiting for a worker…' : 'Crawling…'));
    if (ACTIVE.has(t.status) && !stop) follow();
  }

  /** @param {any} t */
  const canRetry = (t) => t.status === 'failed' || t.status === 'cancelled' || (t.status === 'succeeded' && t.result?.source === 'blocked');

  function follow() {
    stop = ctx.watcher.watch(
      id,
      (u) => {
        if (u.type === 'error') return replace(error, errorText(u.error));
        if (u.type === 'progress') return show({ progress: u.data });
        if (u.type === 'result') stop = undefined;
        show(u.data);
      },
      { priority: true },
    );
  }

  /** @param {'cancel' | 'retry'} what */
  async function act(what) {
    replace(error);
    try {
      stop?.();
      stop = undefined;
      show(await ctx.api.post(`/v1/tasks/${encodeURIComponent(id)}/${what}`));
    } catch (e) {
      replace(error, `${what} failed: ${errorText(e)}`);
    }
  }

  async function load() {
    try {
      current = undefined;
      show(await ctx.api.get(`/v1/tasks/${encodeURIComponent(id)}`));
    } catch (e) {
      replace(head, h('h1', {}, 'Task'));
      replace(error, errorText(e));
    }
  }
  void load();
  return () => stop?.();
}

/** @param {unknown} result */
const rawJson = (result) => h('details', { class: 'raw' }, h('summary', {}, 'Raw JSON'), h('pre', {}, JSON.stringify(result, null, 2)));
