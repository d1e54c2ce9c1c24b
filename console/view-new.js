// @ts-check
// A task submit form generated from the catalog (GET /v1/task-sources).
import { errorText, h, replace } from './dom.js';
import { paramFields, readParams } from './form.js';

/** @type {import('./app.js').View} */
export function newTaskView(ctx, root, route) {
  const status = h('p', { class: 'muted' }, 'Loading the catalog…');
  replace(root, h('h1', {}, 'New task'), status);
  let live = true;
  ctx.catalog().then(
    (entries) => live && render(entries),
    (e) => live && replace(status, h('span', { class: 'error' }, `Could not load the catalog: ${errorText(e)}`)),
  );

  /** @param {import('./form.js').CatalogEntry[]} entries */
  function render(entries) {
    /** @type {Map<string, import('./form.js').CatalogEntry[]>} */
    const groups = new Map();
    for (const e of entries) groups.set(e.group, [...(groups.get(e.group) ?? []), e]);
    const q = route.query;
    const source = h('select', { id: 'source', name: 'source', required: true }, [...groups.keys()].sort().map((g) => h('option', { value: g }, g)));
    const action = h('select', { id: 'action', name: 'action', required: true });
    const summary = h('p', { class: 'summary muted' });
    const fields = h('div', { class: 'fields' });
    const error = h('div', { class: 'error', role: 'alert', id: 'submit-error' });
    const confirmBox = h('div', { class: 'confirm' });
    const submit = h('button', { type: 'submit', id: 'submit-task' }, 'Submit');
    const entry = () => entries.find((e) => e.name === `${source.value}.${action.value}`);

    const fillActions = () => {
      const list = groups.get(source.value) ?? [];
      const keep = action.value;
      replace(action, list.map((e) => h('option', { value: e.name.slice(e.group.length + 1) }, e.name.slice(e.group.length + 1))));
      if (list.some((e) => e.name === `${source.value}.${keep}`)) action.value = keep;
      fillFields();
    };
    const fillFields = () => {
      const e = entry();
      replace(confirmBox);
      replace(error);
      if (!e) return replace(fields);
      replace(summary, e.summary, e.write ? ' — a write verb: the service asks for confirmation before publishing.' : '');
      replace(fields, paramFields(e));
      submit.textContent = e.write ? 'Plan (no publishing yet)' : 'Submit';
    };
    source.addEventListener('change', fillActions);
    action.addEventListener('change', fillFields);

    /** @param {Record<string, unknown>} extra */
    const send = async (extra = {}) => {
      const e = entry();
      if (!e) return;
      submit.disabled = true;
      replace(error);
      try {
        const body = { source: source.value, action: action.value, params: { ...readParams(form, e), ...extra } };
        const r = await ctx.api.send('/v1/tasks', { method: 'POST', json: body });
        if (r.status === 202 || r.status === 200) return ctx.go(`#/task/${encodeURIComponent(r.body.task_id)}`);
        if (r.status === 409 && r.body?.status === 'needs_confirmation') return showPlan(r.body.plan);
        replace(error, r.body?.error?.message ?? `HTTP ${r.status}`);
      } catch (err) {
        replace(error, errorText(err));
      } finally {
        submit.disabled = false;
      }
    };
    /** @param {{summary?: string, target?: string}} plan */
    const showPlan = (plan) =>
      replace(
        confirmBox,
        h('p', {}, h('b', {}, 'Needs confirmation: '), plan?.summary ?? 'this write', plan?.target ? ` (target ${plan.target})` : ''),
        h('button', { type: 'button', id: 'confirm-write', onclick: () => send({ confirm: true, idempotency_key: crypto.randomUUID() }) }, 'Publish once'),
        ' ',
        h('button', { type: 'button', class: 'secondary', onclick: () => send({ dry_run: true }) }, 'Dry run'),
      );

    const form = h(
      'form',
      {
        id: 'task-form',
        class: 'card-panel',
        onsubmit: (/** @type {Event} */ ev) => (ev.preventDefault(), void send()),
        // A refusal is about the values sent: it goes once they change.
        oninput: () => replace(error),
      },
      h('div', { class: 'row' }, h('label', { class: 'field', for: 'source' }, h('span', { class: 'label' }, 'source'), source), h('label', { class: 'field', for: 'action' }, h('span', { class: 'label' }, 'action'), action)),
      summary,
      fields,
      h('div', { class: 'actions' }, submit),
      confirmBox,
      error,
    );
    replace(root, h('h1', {}, 'New task'), form);

    if (q.get('source') && groups.has(/** @type {string} */ (q.get('source')))) source.value = /** @type {string} */ (q.get('source'));
    fillActions();
    if (q.get('action')) {
      action.value = /** @type {string} */ (q.get('action'));
      fillFields();
    }
    for (const [k, v] of q) {
      const el = form.elements.namedItem(k);
      if (k !== 'source' && k !== 'action' && el instanceof HTMLInputElement) el.value = v;
    }
  }
  return () => {
    live = false;
  };
}
