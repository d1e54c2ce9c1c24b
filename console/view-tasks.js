// @ts-check
// The caller's tasks, newest first; rows of unfinished tasks follow their SSE stream.
import { badge, errorText, fmtTime, h, plural, replace } from './dom.js';

const ACTIVE = new Set(['queued', 'running']);

/** One line that says what a task asked for. @param {any} t */
export function describeParams(t) {
  const p = t.params ?? {};
  const main = p.query ?? p.text ?? p.category ?? '';
  return String(main).slice(0, 120);
}

/** @param {any} progress */
export const fmtProgress = (progress) => (progress ? `${plural(progress.items ?? 0, 'item')} · ${plural(progress.pages ?? 0, 'page')}` : '');

/** @type {import('./app.js').View} */
export function tasksView(ctx, root, route) {
  /** @type {Array<() => void>} */
  let unwatch = [];
  const stopAll = () => {
    for (const u of unwatch) u();
    unwatch = [];
  };
  const body = h('tbody', {});
  const note = h('p', { class: 'muted' });
  const error = h('p', { class: 'error', role: 'alert' });
  const statusFilter = h(
    'select',
    { id: 'filter-status', onchange: () => load() },
    h('option', { value: '' }, 'any status'),
    ['queued', 'running', 'succeeded', 'failed', 'cancelled'].map((s) => h('option', { value: s, selected: route.query.get('status') === s }, s)),
  );
  const all = h('input', { type: 'checkbox', id: 'filter-all', onchange: () => load() });
  /** @type {string | undefined} */
  let next;
  const more = h('button', { type: 'button', class: 'secondary', hidden: true, onclick: () => load(next) }, 'Older tasks');

  /** @param {any} t */
  function row(t) {
    const status = h('td', { class: 'status' }, badge('status', t.status));
    const progress = h('td', { class: 'progress muted' }, fmtProgress(t.progress));
    const buttons = h('td', { class: 'buttons' });
    const tr = h(
      'tr',
      { dataset: { taskId: t.task_id, status: t.status } },
      status,
      h('td', {}, h('a', { href: `#/task/${encodeURIComponent(t.task_id)}` }, `${t.source}.${t.action}`)),
      h('td', { class: 'query' }, describeParams(t)),
      progress,
      h('td', { class: 'muted', title: t.created_at }, fmtTime(t.created_at)),
      buttons,
    );
    let watching = false;
    /** @param {any} task */
    const update = (task) => {
      tr.dataset.status = task.status;
      replace(status, badge('status', task.status), task.attempts > 1 ? h('small', { title: 'attempts' }, ` ×${task.attempts}`) : null);
      if (task.progress) replace(progress, fmtProgress(task.progress));
      replace(
        buttons,
        ACTIVE.has(task.status) ? h('button', { type: 'button', class: 'secondary small', onclick: () => act(task.task_id, 'cancel', update) }, 'Cancel') : null,
        task.status === 'failed' || task.status === 'cancelled' ? h('button', { type: 'button', class: 'secondary small', onclick: () => act(task.task_id, 'retry', update) }, 'Retry') : null,
      );
      if (ACTIVE.has(task.status) && !watching) {
        watching = true;
        follow(task.task_id, update, () => (watching = false));
      }
    };
    update(t);
    return tr;
  }

  /** @param {string} id @param {(task: any) => void} update @param {() => void} ended */
  function follow(id, update, ended) {
    const stop = ctx.watcher.watch(id, (u) => {
      if (u.type === 'result' || u.type === 'error') ended();
      if (u.type === 'status' || u.type === 'result') update(u.data);
      else if (u.type === 'progress') {
        const tr = body.querySelector(`tr[data-task-id="${CSS.escape(id)}"] .progress`);
        if (tr) replace(tr, fmtProgress(u.data));
      } else if (u.type === 'error') replace(error, `Task ${id}: ${u.error.message}`);
    });
    unwatch.push(stop);
  }

  /** @param {string} id @param {'cancel' | 'retry'} what @param {(task: any) => void} update */
  async function act(id, what, update) {
    try {
      update(await ctx.api.post(`/v1/tasks/${encodeURIComponent(id)}/${what}`));
    } catch (e) {
      replace(error, `${what} failed: ${errorText(e)}`);
    }
  }

  /** @param {string} [cursor] */
  async function load(cursor) {
    if (!cursor) {
      stopAll();
      replace(body);
    }
    replace(error);
    const qs = new URLSearchParams({ limit: '50' });
    if (statusFilter.value) qs.set('status', statusFilter.value);
    if (all.checked) qs.set('all', 'true');
    if (cursor) qs.set('cursor', cursor);
    try {
      const page = await ctx.api.get(`/v1/tasks?${qs}`);
      for (const t of page.tasks) body.append(row(t));
      next = page.next_cursor;
      more.hidden = !next;
      replace(note, body.children.length ? '' : 'No tasks yet: submit one from “New task”.');
    } catch (e) {
      replace(error, `Could not list tasks: ${errorText(e)}`);
    }
  }

  replace(
    root,
    h('div', { class: 'heading' }, h('h1', {}, 'Tasks'), h('div', { class: 'filters' }, statusFilter, ctx.admin ? h('label', { class: 'check' }, all, ' every token') : null, h('button', { type: 'button', class: 'secondary', id: 'refresh-tasks', onclick: () => load() }, 'Refresh'))),
    error,
    h('table', { class: 'tasks', id: 'task-list' }, h('thead', {}, h('tr', {}, ['status', 'task', 'query', 'progress', 'created', ''].map((c) => h('th', {}, c)))), body),
    note,
    more,
  );
  void load();
  return stopAll;
}
