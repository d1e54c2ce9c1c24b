// @ts-check
// Shape B (comments): a flat list whose replies name their parent_id, shown as a tree with folded threads.
import { errorText, fmtCount, fmtTime, h, outLink, replace } from './dom.js';
import { outcomeLine, runTask, withCursor } from './result-misc.js';

/** @param {import('./app.js').Ctx} ctx @param {any} task */
export function commentsResult(ctx, task) {
  const r = task.result;
  /** @type {any[]} */
  const all = [];
  const known = new Set();
  /** Threads the reader opened stay open when more comments arrive. */
  const expanded = new Set();
  const tree = h('ul', { class: 'comments', id: 'comments' });
  const count = h('span', {});
  const error = h('p', { class: 'error', role: 'alert' });
  let cursor = r.has_more ? r.cursor : undefined;
  const more = h('button', { type: 'button', id: 'more-comments', hidden: !cursor, onclick: () => void loadMore() }, 'More comments');

  /** @param {any[]} items */
  function add(items) {
    for (const c of items) {
      if (known.has(c.cid)) continue;
      known.add(c.cid);
      all.push(c);
    }
    /** @type {Map<string, any[]>} */
    const children = new Map();
    const roots = [];
    for (const c of all) {
      if (c.parent_id && known.has(c.parent_id)) children.set(c.parent_id, [...(children.get(c.parent_id) ?? []), c]);
      else roots.push(c);
    }
    replace(tree, roots.map((c) => node(c, children)));
    replace(count, `${all.length} of ${typeof r.total === 'number' ? r.total : '?'} comments`);
  }

  /** @param {any} c @param {Map<string, any[]>} children @returns {HTMLElement} */
  function node(c, children) {
    const kids = children.get(c.cid) ?? [];
    const open = expanded.has(c.cid);
    const replies = h('ul', { class: 'replies', hidden: !open }, kids.map((k) => node(k, children)));
    const label = (/** @type {boolean} */ o) => `${o ? '▾' : '▸'} ${kids.length} ${kids.length === 1 ? 'reply' : 'replies'}`;
    const toggle = kids.length
      ? h('button', {
        type: 'button',
        class: 'link replies-toggle',
        'aria-expanded': String(open),
        onclick: () => {
          const now = Boolean(replies.hidden);
          replies.hidden = !now;
          if (now) expanded.add(c.cid);
          else expanded.delete(c.cid);
          toggle?.setAttribute('aria-expanded', String(now));
          if (toggle) toggle.textContent = label(now);
        },
      }, label(open))
      : null;
    const elsewhere = (c.reply_total ?? 0) > kids.length ? h('span', { class: 'muted' }, ` ${fmtCount(c.reply_total - kids.length)} more replies on the platform`) : null;
    return h(
      'li',
      { class: 'comment', dataset: { cid: c.cid } },
      h('div', { class: 'c-head' }, h('b', {}, c.user_name || c.handle || c.user_id), c.handle && c.handle !== c.user_name ? h('span', { class: 'muted' }, ` @${c.handle}`) : null, h('span', { class: 'muted' }, ` · ${fmtTime(c.created_at)} · ${fmtCount(c.likes)} likes`), c.url ? [' · ', outLink(c.url, 'open')] : null),
      h('p', { class: 'c-text' }, c.text),
      toggle || elsewhere ? h('div', { class: 'c-foot' }, toggle, elsewhere) : null,
      kids.length ? replies : null,
    );
  }

  async function loadMore() {
    more.disabled = true;
    replace(error);
    try {
      const t = await runTask(ctx, withCursor(task, cursor));
      if (t.status !== 'succeeded') throw new Error(t.error?.message ?? `the task ${t.status}`);
      add(t.result.items ?? []);
      cursor = t.result.has_more ? t.result.cursor : undefined;
    } catch (e) {
      replace(error, `More comments failed: ${errorText(e)}`);
    } finally {
      more.disabled = false;
      more.hidden = !cursor;
    }
  }

  add(r.items ?? []);
  return h('div', { class: 'comments-result' }, outcomeLine(r, [count]), tree, h('div', { class: 'actions' }, more), error);
}
