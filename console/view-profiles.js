// @ts-check
// Stored platform logins with their health; admins add, check, delete and re-login them.
import { badge, errorText, fmtTime, h, replace } from './dom.js';
import { loginPanel } from './view-login.js';

const HEALTH_HINT = {
  ok: 'the last crawl with this login worked',
  cooling: 'a captcha or throttle: waiting before the next crawl; no re-login needed',
  session_expired: 'the login lapsed: log in again',
  unknown: 'not used or checked yet',
};

/** @type {import('./app.js').View} */
export function profilesView(ctx, root) {
  const body = h('tbody', {});
  const error = h('p', { class: 'error', role: 'alert' });
  const note = h('p', { class: 'muted' });
  /** What the last row action said; rows are rebuilt on every load, this line is not. */
  const flash = h('p', { role: 'status', id: 'profile-flash' });
  const loginBox = h('section', { id: 'login-box' });
  /** @type {(() => void) | undefined} */
  let closeLogin;

  async function load() {
    replace(error);
    try {
      const { profiles } = await ctx.api.get('/v1/profiles');
      replace(body, profiles.map(row));
      replace(note, profiles.length ? '' : 'No stored profiles: crawls run anonymously (or add one below).');
    } catch (e) {
      replace(error, `Could not list profiles: ${errorText(e)}`);
    }
  }

  /** @param {any} p */
  function row(p) {
    const key = `${p.platform}/${p.name}`;
    const path = `/v1/profiles/${encodeURIComponent(p.platform)}/${encodeURIComponent(p.name)}`;
    const result = flash;
    /** @param {string} label @param {() => Promise<void>} fn @param {string} [id] */
    const button = (label, fn, id) =>
      h('button', {
        type: 'button',
        class: 'secondary small',
        id,
        onclick: async () => {
          replace(result);
          try {
            await fn();
          } catch (e) {
            replace(result, h('span', { class: 'error' }, errorText(e)));
          }
        },
      }, label);
    let armed = false;
    return h(
      'tr',
      { dataset: { profile: key, health: p.health } },
      h('td', {}, p.platform),
      h('td', {}, p.name),
      h('td', { class: 'health' }, badge('health', p.health, HEALTH_HINT[/** @type {keyof HEALTH_HINT} */ (p.health)])),
      h('td', { class: 'muted' }, fmtTime(p.checked_at)),
      h('td', { class: 'muted' }, fmtTime(p.used_at)),
      h(
        'td',
        { class: 'buttons' },
        ctx.admin
          ? [
            button('Check', async () => {
              const r = await ctx.api.post(`${path}/check`);
              replace(result, `${key}: ${r.health}${r.note ? ` (${r.note})` : ''}`);
              await load();
            }),
            ' ',
            button('Log in', async () => openLogin(p.platform, p.name), `login-${p.platform}-${p.name}`),
            ' ',
            button('Delete', async () => {
              // Two clicks, no native dialog: a stray click never deletes a login.
              if (!armed) {
                armed = true;
                replace(result, `click Delete again to remove ${key}`);
                return;
              }
              await ctx.api.del(path);
              await load();
            }),
          ]
          : null,
      ),
    );
  }

  /** @param {string} platform @param {string} name */
  function openLogin(platform, name) {
    closeLogin?.();
    const panel = loginPanel(ctx, platform, name, {
      onDone: () => void load(),
      onClose: () => {
        closeLogin?.();
        closeLogin = undefined;
        replace(loginBox);
      },
    });
    closeLogin = panel.stop;
    replace(loginBox, panel.el);
    panel.el.scrollIntoView({ block: 'nearest' });
  }

  const addForm = ctx.admin ? addProfileForm(ctx, () => void load()) : null;
  replace(
    root,
    h('div', { class: 'heading' }, h('h1', {}, 'Profiles'), h('button', { type: 'button', class: 'secondary', onclick: () => void load() }, 'Refresh')),
    error,
    flash,
    h('table', { class: 'profiles', id: 'profile-list' }, h('thead', {}, h('tr', {}, ['platform', 'name', 'health', 'checked', 'used', ''].map((c) => h('th', {}, c)))), body),
    note,
    loginBox,
    addForm,
  );
  void load();
  return () => closeLogin?.();
}

/** Cookies (header string, cookies.txt or a JSON export) for a platform login. @param {import('./app.js').Ctx} ctx @param {() => void} added */
function addProfileForm(ctx, added) {
  const platform = h('select', { name: 'platform', required: true });
  const name = h('input', { name: 'name', value: 'default', required: true, pattern: '[A-Za-z0-9_.\\-]{1,64}' });
  const cookies = h('textarea', { name: 'cookies', rows: 3, placeholder: 'SESSION=…; other=… (a Cookie header, cookies.txt or a JSON array)' });
  const msg = h('p', { role: 'status' });
  ctx.providers().then((ps) => replace(platform, ps.map((p) => h('option', { value: p.source }, p.source))), () => {});
  return h(
    'form',
    {
      class: 'card-panel',
      id: 'add-profile',
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        replace(msg);
        try {
          const json = { platform: platform.value, name: name.value.trim(), ...(cookies.value.trim() ? { cookies: cookies.value.trim() } : {}) };
          await ctx.api.post('/v1/profiles', json);
          cookies.value = '';
          replace(msg, `Stored ${json.platform}/${json.name}.`);
          added();
        } catch (err) {
          replace(msg, h('span', { class: 'error' }, errorText(err)));
        }
      },
    },
    h('h2', {}, 'Add or replace a profile'),
    h('div', { class: 'row' }, h('label', { class: 'field' }, h('span', { class: 'label' }, 'platform'), platform), h('label', { class: 'field' }, h('span', { class: 'label' }, 'name'), name)),
    h('label', { class: 'field' }, h('span', { class: 'label' }, 'cookies'), cookies),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Store')),
    msg,
  );
}
