// @ts-check
// The console's shell: sign-in, navigation, and a hash router over the views.
import { createApi } from './api.js';
import { badge, h, replace } from './dom.js';
import { TaskWatcher } from './watcher.js';
import { signInView } from './view-signin.js';
import { newTaskView } from './view-new.js';
import { tasksView } from './view-tasks.js';
import { taskView } from './view-task.js';
import { profilesView } from './view-profiles.js';
import { tokensView } from './view-tokens.js';

/** Kept for this tab only: closing it signs out, and no other site or tab can read it. */
const TOKEN_KEY = 'crawler-console-token';

/**
 * @typedef {import('./form.js').CatalogEntry} CatalogEntry
 * @typedef {{source: string, actions: string[], auth: string, write: boolean, categories: boolean, name?: string}} Provider
 * @typedef {{
 *   api: import('./api.js').Api,
 *   watcher: TaskWatcher,
 *   admin: boolean,
 *   scopes: string,
 *   catalog: () => Promise<CatalogEntry[]>,
 *   providers: () => Promise<Provider[]>,
 *   go: (hash: string) => void,
 *   submit: (body: {source: string, action: string, params: Record<string, unknown>}) => Promise<string>,
 * }} Ctx
 * @typedef {{id?: string, query: URLSearchParams}} Route
 * @typedef {(ctx: Ctx, root: HTMLElement, route: Route) => (void | (() => void))} View
 */

/** @type {Record<string, {title: string, view: View, admin?: boolean}>} */
const VIEWS = {
  new: { title: 'New task', view: newTaskView },
  tasks: { title: 'Tasks', view: tasksView },
  task: { title: 'Task', view: taskView },
  profiles: { title: 'Profiles', view: profilesView },
  tokens: { title: 'Tokens', view: tokensView, admin: true },
};
const NAV = ['new', 'tasks', 'profiles', 'tokens'];

const top = /** @type {HTMLElement} */ (document.getElementById('top'));
const main = /** @type {HTMLElement} */ (document.getElementById('view'));
/** @type {(() => void) | void} */
let cleanup;

/** @param {string} [message] */
function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  window.removeEventListener('hashchange', route);
  replace(top);
  signInView(main, { message, onToken: start });
}

/** @param {string} token @param {{admin: boolean, scopes: string}} who */
function start(token, who) {
  sessionStorage.setItem(TOKEN_KEY, token);
  let lost = false;
  const onAuthLost = (/** @type {Error} */ e) => {
    if (lost) return;
    lost = true;
    signOut(`Signed out: ${e.message}`);
  };
  const api = createApi(() => sessionStorage.getItem(TOKEN_KEY), onAuthLost);
  const watcher = new TaskWatcher(api, onAuthLost);
  /** @type {Promise<CatalogEntry[]> | undefined} */
  let catalog;
  /** @type {Promise<Provider[]> | undefined} */
  let providers;
  /** @type {Ctx} */
  const ctx = {
    api,
    watcher,
    ...who,
    catalog: () => (catalog ??= api.get('/v1/task-sources').catch((e) => ((catalog = undefined), Promise.reject(e)))),
    providers: () => (providers ??= api.get('/v1/capabilities').then((b) => b.providers, (e) => ((providers = undefined), Promise.reject(e)))),
    go: (hash) => {
      if (location.hash === hash) route();
      else location.hash = hash;
    },
    async submit(body) {
      const r = await api.post('/v1/tasks', body);
      return r.task_id;
    },
  };
  shell(ctx);
  currentCtx = ctx;
  window.addEventListener('hashchange', route);
  route();
}

/** @type {Ctx | undefined} */
let currentCtx;

/** @param {Ctx} ctx */
function shell(ctx) {
  const links = NAV.filter((n) => !VIEWS[n].admin || ctx.admin).map((n) => h('a', { href: `#/${n}`, dataset: { view: n } }, VIEWS[n].title));
  const mode = h('span', { class: 'mode' });
  replace(
    top,
    h('a', { class: 'brand', href: '#/tasks' }, 'crawler console'),
    h('nav', {}, links),
    mode,
    h('span', { class: 'who', title: 'scopes of the token in use' }, ctx.scopes),
    h('button', { type: 'button', class: 'link', id: 'sign-out', onclick: () => signOut() }, 'Sign out'),
  );
  // Public and cheap: tells the operator whether results are replayed recordings.
  fetch('/v1/health', { cache: 'no-store' })
    .then((r) => r.json())
    .then((hl) => replace(mode, hl.replay ? badge('mode', 'replay', 'platform traffic is answered from recordings (CRAWLER_REPLAY)') : null, hl.version ? ` v${hl.version}` : ''))
    .catch(() => {});
}

function route() {
  const ctx = currentCtx;
  if (!ctx) return;
  const [path, qs] = location.hash.replace(/^#\/?/, '').split('?');
  const [name, ...rest] = path.split('/');
  const entry = VIEWS[name] && (!VIEWS[name].admin || ctx.admin) ? VIEWS[name] : VIEWS.tasks;
  const key = VIEWS[name] === entry ? name : 'tasks';
  if (typeof cleanup === 'function') cleanup();
  for (const a of top.querySelectorAll('nav a')) a.classList.toggle('active', /** @type {HTMLElement} */ (a).dataset.view === key);
  document.title = `${entry.title} · crawler console`;
  main.replaceChildren();
  main.dataset.view = key;
  cleanup = entry.view(ctx, main, { id: rest.length ? decodeURIComponent(rest.join('/')) : undefined, query: new URLSearchParams(qs ?? '') });
}

const saved = sessionStorage.getItem(TOKEN_KEY);
// Checked again on every load; kept only once it passes (start() stores it back).
sessionStorage.removeItem(TOKEN_KEY);
if (saved) signInView(main, { token: saved, onToken: start });
else signOut();
