// @ts-check
// Pieces every result view shares, and the small shapes: creator (C), trends (D), writes (E).
import { ApiError } from './api.js';
import { badge, errorText, fmtCount, h, outLink, replace } from './dom.js';

/**
 * Where the result came from and how it went: provenance, counts, timing, warnings and the error.
 * @param {any} r a result of any shape
 * @param {(string | Node | null)[]} [extra]
 * @param {{pagedCount?: boolean}} [opts] pagedCount: the caller shows the count over every page it loaded
 */
export function outcomeLine(r, extra = [], opts = {}) {
  const warnings = Array.isArray(r.warnings) ? r.warnings : [];
  return h(
    'div',
    { class: 'outcome' },
    h('div', { class: 'outcome-line' },
      badge('prov', String(r.source), provenanceHint(String(r.source))),
      typeof r.count === 'number' && !opts.pagedCount ? h('span', {}, `${r.count} items`) : null,
      typeof r.ms === 'number' ? h('span', { class: 'muted' }, `${r.ms} ms`) : null,
      typeof r.age_s === 'number' ? h('span', { class: 'muted' }, `cached ${r.age_s} s ago`) : null,
      ...extra,
    ),
    r.error ? h('div', { class: 'error-box', id: 'result-error' }, h('b', {}, r.error.code), ': ', r.error.message, r.error.retryable ? ' (retryable)' : '') : null,
    warnings.length ? h('ul', { class: 'warnings' }, warnings.map((w) => h('li', {}, String(w)))) : null,
  );
}

/** @param {string} source */
function provenanceHint(source) {
  return {
    live: 'crawled just now',
    cache: 'served from the result cache',
    empty: 'the platform honestly answered: no results',
    blocked: 'a captcha or risk control: retry the task later; no re-login needed',
  }[source];
}

/**
 * Resolves with the finished task, following its stream.
 * @param {import('./app.js').Ctx} ctx @param {string} id
 * @returns {Promise<any>}
 */
export function awaitTask(ctx, id) {
  return new Promise((resolve, reject) => {
    const stop = ctx.watcher.watch(
      id,
      (u) => {
        if (u.type === 'result') {
          stop();
          resolve(u.data);
        } else if (u.type === 'error') {
          stop();
          reject(u.error);
        }
      },
      { priority: true },
    );
  });
}

/**
 * Submits a follow-up task (the next page) and waits for it: inline up to 8 s, then over its stream.
 * @param {import('./app.js').Ctx} ctx @param {{source: string, action: string, params: Record<string, unknown>}} body
 */
export async function runTask(ctx, body) {
  const r = await ctx.api.send('/v1/tasks?wait=8000', { method: 'POST', json: body });
  if (r.status === 200) return r.body;
  if (r.status === 202) return awaitTask(ctx, r.body.task_id);
  throw new ApiError(r.status, r.body?.error?.code ?? 'upstream_error', r.body?.error?.message ?? `HTTP ${r.status}`, r.body);
}

/** The same task's params with another cursor. @param {any} task @param {string} cursor */
export function withCursor(task, cursor) {
  const params = { ...task.params };
  delete params.cursor;
  return { source: task.source, action: task.action, params: { ...params, cursor } };
}

/**
 * Submits a task a result suggests (a post's comments, a creator's posts) and opens it; a refusal is
 * said in `note`.
 * @param {import('./app.js').Ctx} ctx @param {{source: string, action: string, params: Record<string, unknown>}} body @param {HTMLElement} note
 */
export async function followUp(ctx, body, note) {
  replace(note);
  try {
    const id = await ctx.submit(body);
    ctx.go(`#/task/${encodeURIComponent(id)}`);
  } catch (e) {
    replace(note, errorText(e));
  }
}

/** @param {import('./app.js').Ctx} ctx @param {any} task */
export function creatorResult(ctx, task) {
  const r = task.result;
  const a = r.data.author;
  // 0 means "not reported" for creator counts (spec, shape C).
  const count = (/** @type {unknown} */ n, /** @type {string} */ label) => h('li', {}, h('b', {}, n ? fmtCount(n) : '–'), ` ${label}`);
  const note = h('span', { class: 'error' });
  const postsButton = h('button', {
    type: 'button',
    class: 'secondary',
    hidden: true,
    onclick: () => followUp(ctx, { source: task.source, action: 'posts', params: { query: a.handle ? `@${a.handle}` : a.id } }, note),
  }, 'Their posts');
  ctx.catalog().then((es) => (postsButton.hidden = !es.some((e) => e.name === `${task.source}.posts`)), () => {});
  return h(
    'div',
    {},
    outcomeLine(r),
    h(
      'article',
      { class: 'creator card-panel' },
      a.avatar ? h('img', { class: 'avatar', src: a.avatar, alt: '', onerror: (/** @type {Event} */ e) => /** @type {HTMLElement} */ (e.target).remove() }) : null,
      h('div', {},
        h('h2', {}, a.name ?? a.handle ?? a.id, a.verified ? h('span', { class: 'verified', title: 'verified' }, ' ✓') : null),
        h('p', { class: 'muted' }, a.handle ? `@${a.handle} · ` : '', a.url ? outLink(a.url, 'profile') : ''),
        a.bio ? h('p', { class: 'bio' }, a.bio) : null,
        h('ul', { class: 'stats' }, count(a.followers, 'followers'), count(a.following, 'following'), count(a.posts, 'posts'), count(a.likes, 'likes')),
        h('div', { class: 'actions' }, postsButton, note),
      ),
    ),
  );
}

/** @param {import('./app.js').Ctx} _ctx @param {any} task */
export function trendsResult(_ctx, task) {
  const r = task.result;
  return h(
    'div',
    {},
    outcomeLine(r),
    h('ul', { class: 'trends' }, r.data.trends.map((/** @type {any} */ t) =>
      h('li', {}, h('span', { class: 'rank' }, String(t.rank)), ' ', t.url ? outLink(t.url, t.word) : t.word, t.hot_value !== undefined ? h('span', { class: 'muted' }, ` ${fmtCount(t.hot_value)}`) : null),
    )),
  );
}

/** @param {any} r */
export function writeResult(r) {
  return h(
    'div',
    { class: 'write card-panel' },
    h('p', {}, badge('state', String(r.state)), ' ', r.ok ? 'ok' : 'not ok', typeof r.ms === 'number' ? h('span', { class: 'muted' }, ` · ${r.ms} ms`) : null),
    r.url ? h('p', {}, outLink(r.url, r.url)) : null,
    r.target ? h('p', { class: 'muted' }, `target ${r.target}`) : null,
    r.task_id ? h('p', {}, 'original task ', h('a', { href: `#/task/${encodeURIComponent(r.task_id)}` }, r.task_id)) : null,
    r.error ? h('div', { class: 'error-box' }, h('b', {}, r.error.code), ': ', r.error.message) : null,
  );
}

/** Downloads (files on the service): one link each. @param {any[]} files */
export function filesList(files) {
  return h('ul', { class: 'files' }, files.map((f) => h('li', {}, h('a', { href: f.url, download: '' }, `${f.kind} · ${f.mime}`), h('span', { class: 'muted' }, ` ${fmtCount(f.bytes)} bytes${f.w ? ` · ${f.w}×${f.h}` : ''}`))));
}
