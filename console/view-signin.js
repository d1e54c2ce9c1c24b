// @ts-check
import { ApiError, createApi } from './api.js';
import { errorText, h, replace } from './dom.js';

/**
 * Asks for a token and checks it before keeping it: read scope for the console's views, and whether
 * it is an admin token (the tokens view and profile logins).
 * @param {string} token
 * @returns {Promise<{admin: boolean, scopes: string}>}
 */
async function check(token) {
  const api = createApi(() => token, () => {});
  const caps = await api.send('/v1/capabilities');
  if (caps.status === 403) throw new ApiError(403, 'forbidden_scope', 'this token lacks the "read" scope the console needs (a write-only token is for publishing from scripts)');
  if (caps.status !== 200) throw new ApiError(caps.status, 'upstream_error', `the service answered HTTP ${caps.status}`);
  const admin = (await api.send('/v1/tokens')).status === 200;
  return { admin, scopes: admin ? 'admin' : 'read' };
}

/**
 * @param {HTMLElement} root
 * @param {{message?: string, token?: string, onToken: (token: string, who: {admin: boolean, scopes: string}) => void}} opts
 */
export function signInView(root, opts) {
  const error = h('p', { class: 'error', role: 'alert', id: 'signin-error' }, opts.message ?? '');
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', spellcheck: 'false', placeholder: 'crw_…', required: true });
  const button = h('button', { type: 'submit' }, 'Sign in');
  /** @param {string} token */
  const attempt = async (token) => {
    button.disabled = true;
    replace(error);
    try {
      const who = await check(token);
      opts.onToken(token, who);
    } catch (e) {
      // A 401 throws from api.send with the service's own message ("invalid or revoked token").
      replace(error, `Sign-in failed: ${errorText(e)}`);
      button.disabled = false;
      input.focus();
    }
  };
  const form = h(
    'form',
    {
      class: 'signin card-panel',
      id: 'signin',
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        void attempt(input.value.trim());
      },
    },
    h('h1', {}, 'Sign in'),
    h('p', {}, 'Paste an API token (', h('code', {}, 'npx crawler tokens create --scopes read,write,admin'), '). It is kept in this tab only and sent as a Bearer header.'),
    h('label', { class: 'field', for: 'token' }, h('span', { class: 'label' }, 'Token'), input),
    button,
    error,
  );
  replace(root, form);
  root.dataset.view = 'signin';
  document.title = 'Sign in · crawler console';
  if (opts.token) void attempt(opts.token);
  else input.focus();
}
