// @ts-check
// Headless re-login of a profile: the service's Chromium shows the platform's login page (a QR code
// or a form); the console redraws its screenshot until the login ends and forwards clicks, text and
// keys through /v1/logins/{id}/input. The screenshot is drawn on a canvas: it needs the bearer
// header, and a canvas keeps the page's image policy to 'self' (no blob: URLs).
import { errorText, h, replace, sleep } from './dom.js';

const KEYS = ['Tab', 'Shift+Tab', 'Enter', 'Backspace', 'Escape'];
const REFRESH_MS = 1000;

/**
 * @param {import('./app.js').Ctx} ctx @param {string} platform @param {string} name
 * @param {{onDone: () => void, onClose: () => void}} on
 * @returns {{el: HTMLElement, stop: () => void}}
 */
export function loginPanel(ctx, platform, name, on) {
  const stopped = new AbortController();
  const el = h('div', { class: 'login card-panel', id: 'login-panel' });
  const error = h('p', { class: 'error', role: 'alert', id: 'login-error' });

  const timeout = h('input', { name: 'timeout_s', type: 'number', min: 5, max: 1800, placeholder: '300' });
  const loginUrl = h('input', { name: 'login_url', type: 'url', placeholder: 'https://…' });
  const cookie = h('input', { name: 'success_cookie', placeholder: 'SESSION' });
  const domains = h('input', { name: 'domains', placeholder: '.example.com, example.com' });
  const startButton = h('button', { type: 'submit', id: 'login-start' }, 'Open the login page');
  const startForm = h(
    'form',
    {
      id: 'login-form',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        void start();
      },
    },
    h('p', {}, 'The service opens the platform\'s login page in its own browser, with this profile\'s cookies. Scan the QR code or fill the form on the screenshot.'),
    h('label', { class: 'field' }, h('span', { class: 'label' }, 'timeout (s)'), timeout),
    h(
      'details',
      { class: 'more' },
      h('summary', {}, 'Another login page'),
      h('p', { class: 'muted' }, 'For platforms without a configured login page, or in replay mode (which never opens a platform\'s real site).'),
      h('label', { class: 'field' }, h('span', { class: 'label' }, 'login_url'), loginUrl),
      h('label', { class: 'field' }, h('span', { class: 'label' }, 'success_cookie'), cookie),
      h('label', { class: 'field' }, h('span', { class: 'label' }, 'domains'), domains),
    ),
    h('div', { class: 'actions' }, startButton, ' ', h('button', { type: 'button', class: 'secondary', onclick: () => on.onClose() }, 'Close')),
  );
  replace(el, h('h2', {}, `Log in ${platform}/${name}`), startForm, error);

  async function start() {
    replace(error);
    startButton.disabled = true;
    /** @type {Record<string, unknown>} */
    const body = {};
    if (timeout.value) body.timeout_s = Number(timeout.value);
    if (loginUrl.value.trim()) body.login_url = loginUrl.value.trim();
    if (cookie.value.trim()) body.success_cookie = cookie.value.trim();
    if (domains.value.trim()) body.domains = domains.value.split(',').map((d) => d.trim()).filter(Boolean);
    try {
      const login = await ctx.api.post(`/v1/profiles/${encodeURIComponent(platform)}/${encodeURIComponent(name)}/login`, body);
      startForm.remove();
      session(login);
    } catch (e) {
      replace(error, errorText(e));
      startButton.disabled = false;
    }
  }

  /** @param {any} login the 202 body: {id, state, screenshot_url, input_url, ends_at} */
  function session(login) {
    const state = h('p', { id: 'login-state', dataset: { state: login.state } });
    const canvas = h('canvas', { id: 'login-screen', tabindex: 0, title: 'click where you would click on the page' });
    const g = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    const text = h('input', { id: 'login-text', autocomplete: 'off', spellcheck: 'false', placeholder: 'text to type into the focused field' });
    let inputs = Promise.resolve();
    let wake = new AbortController();

    /** Inputs go one after another, in the order given. @param {Record<string, unknown>} input */
    const send = (input) => {
      inputs = inputs.then(async () => {
        if (stopped.signal.aborted) return;
        try {
          const s = await ctx.api.post(login.input_url, input);
          show(s);
        } catch (e) {
          replace(error, errorText(e));
        }
        wake.abort();
      });
      return inputs;
    };

    canvas.addEventListener('click', (e) => {
      const box = canvas.getBoundingClientRect();
      if (!canvas.width || !box.width) return;
      const x = Math.round(((e.clientX - box.left) * canvas.width) / box.width);
      const y = Math.round(((e.clientY - box.top) * canvas.height) / box.height);
      void send({ action: 'click', x, y });
    });
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      void send({ action: 'scroll', dy: Math.max(-5000, Math.min(5000, Math.round(e.deltaY))) });
    }, { passive: false });
    const typeForm = h(
      'form',
      {
        class: 'row',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          if (!text.value) return;
          void send({ action: 'type', text: text.value });
          text.value = '';
        },
      },
      text,
      h('button', { type: 'submit', id: 'login-type' }, 'Type'),
    );
    const keys = h('div', { class: 'keys' }, KEYS.map((k) => h('button', { type: 'button', class: 'secondary small', dataset: { key: k }, onclick: () => void send({ action: 'key', key: k }) }, k)));
    const cancel = h('button', {
      type: 'button',
      class: 'secondary',
      id: 'login-cancel',
      onclick: async () => {
        try {
          await ctx.api.del(`/v1/logins/${encodeURIComponent(login.id)}`);
        } catch (e) {
          replace(error, errorText(e));
        }
        wake.abort();
      },
    }, 'Cancel login');
    const controls = h('div', { class: 'login-controls' }, typeForm, keys, cancel);
    replace(el, h('h2', {}, `Log in ${platform}/${name}`), state, h('div', { class: 'screen' }, canvas), controls, error, h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', onclick: () => on.onClose() }, 'Close')));

    /** @param {any} s */
    function show(s) {
      state.dataset.state = s.state;
      const left = s.ends_at ? Math.max(0, Math.round((Date.parse(s.ends_at) - Date.now()) / 1000)) : undefined;
      const words = {
        waiting: `Waiting for you to log in${left !== undefined ? ` (${left} s left)` : ''}${s.url ? ` · ${s.url}` : ''}`,
        done: 'Logged in: the new cookies are stored and the profile is healthy again.',
        failed: `The login failed${s.error ? `: ${s.error}` : ''}.`,
        expired: 'Nobody logged in in time: start again.',
      };
      replace(state, words[/** @type {keyof words} */ (s.state)] ?? s.state);
      if (s.state !== 'waiting') {
        controls.hidden = true;
        canvas.classList.add('over');
      }
    }

    async function refresh() {
      while (!stopped.signal.aborted) {
        try {
          const s = await ctx.api.get(`/v1/logins/${encodeURIComponent(login.id)}`, { signal: stopped.signal });
          if (s.state === 'waiting') {
            const res = await ctx.api.raw(login.screenshot_url, { signal: stopped.signal });
            if (res.ok) {
              const bitmap = await createImageBitmap(await res.blob());
              canvas.width = bitmap.width;
              canvas.height = bitmap.height;
              g.drawImage(bitmap, 0, 0);
              bitmap.close();
              canvas.dataset.frames = String(Number(canvas.dataset.frames ?? 0) + 1);
            }
          }
          show(s);
          if (s.state !== 'waiting') {
            if (s.state === 'done') on.onDone();
            return;
          }
        } catch (e) {
          if (stopped.signal.aborted) return;
          replace(error, errorText(e));
        }
        wake = new AbortController();
        await sleep(REFRESH_MS, AbortSignal.any([stopped.signal, wake.signal]));
      }
    }
    show(login);
    void refresh();
  }

  return { el, stop: () => stopped.abort() };
}
