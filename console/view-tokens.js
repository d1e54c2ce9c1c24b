// @ts-check
// API tokens (admin): list, issue (shown once), revoke.
import { badge, errorText, fmtTime, h, replace } from './dom.js';

/** @type {import('./app.js').View} */
export function tokensView(ctx, root) {
  const body = h('tbody', {});
  const error = h('p', { class: 'error', role: 'alert' });
  const issued = h('div', { id: 'token-issued' });

  async function load() {
    replace(error);
    try {
      const { tokens } = await ctx.api.get('/v1/tokens');
      replace(body, tokens.map(row));
    } catch (e) {
      replace(error, `Could not list tokens: ${errorText(e)}`);
    }
  }

  /** @param {any} t */
  function row(t) {
    let armed = false;
    const revoke = h('button', {
      type: 'button',
      class: 'secondary small',
      onclick: async () => {
        // Two clicks, no native dialog: revoking is immediate, even for the token in use.
        if (!armed) {
          armed = true;
          revoke.textContent = 'Really revoke?';
          return;
        }
        try {
          await ctx.api.del(`/v1/tokens/${encodeURIComponent(t.id)}`);
          await load();
        } catch (e) {
          replace(error, errorText(e));
        }
      },
    }, 'Revoke');
    return h(
      'tr',
      { dataset: { tokenId: t.id } },
      h('td', {}, h('code', {}, t.id)),
      h('td', {}, t.name ?? ''),
      h('td', {}, t.scopes.join(', ')),
      h('td', { class: 'muted' }, fmtTime(t.created_at)),
      h('td', {}, t.revoked_at ? badge('token', 'revoked', fmtTime(t.revoked_at)) : badge('token', 'active')),
      h('td', {}, t.revoked_at ? null : revoke),
    );
  }

  const name = h('input', { name: 'name', placeholder: 'who or what uses it' });
  const scopes = ['read', 'write', 'admin'].map((s) => h('input', { type: 'checkbox', name: 'scope', value: s, checked: s === 'read' }));
  const form = h(
    'form',
    {
      class: 'card-panel',
      id: 'new-token',
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        replace(issued);
        try {
          const picked = scopes.filter((s) => s.checked).map((s) => s.value);
          const t = await ctx.api.post('/v1/tokens', { scopes: picked, ...(name.value.trim() ? { name: name.value.trim() } : {}) });
          name.value = '';
          replace(issued, h('p', {}, 'New token (shown once: copy it now):'), h('input', { class: 'secret', readonly: true, value: t.token, onfocus: (/** @type {Event} */ ev) => /** @type {HTMLInputElement} */ (ev.target).select() }));
          await load();
        } catch (err) {
          replace(issued, h('p', { class: 'error' }, errorText(err)));
        }
      },
    },
    h('h2', {}, 'Issue a token'),
    h('div', { class: 'row' }, h('label', { class: 'field' }, h('span', { class: 'label' }, 'name'), name), h('div', { class: 'field' }, h('span', { class: 'label' }, 'scopes'), scopes.map((s) => h('label', { class: 'check' }, s, ` ${s.value} `)))),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Issue')),
    issued,
  );

  replace(
    root,
    h('div', { class: 'heading' }, h('h1', {}, 'Tokens'), h('button', { type: 'button', class: 'secondary', onclick: () => void load() }, 'Refresh')),
    error,
    h('table', { class: 'tokens', id: 'token-list' }, h('thead', {}, h('tr', {}, ['id', 'name', 'scopes', 'created', 'state', ''].map((c) => h('th', {}, c)))), body),
    form,
  );
  void load();
}
