// @ts-check
// Form fields generated from a catalog entry's params ({name, type, required, default, description, enum, min, max}).
import { h } from './dom.js';

/**
 * @typedef {{name: string, type: 'string' | 'integer' | 'number' | 'boolean', required: boolean, default?: unknown, description: string, enum?: string[], min?: number, max?: number}} CatalogParam
 * @typedef {{name: string, group: string, summary: string, params: CatalogParam[], write?: boolean, confirm?: boolean}} CatalogEntry
 */

/** Shown outside "More options": what most tasks set, and every param that is the action's own. */
const PRIMARY = new Set(['query', 'text', 'limit', 'category', 'media', 'max_items']);
/** Params the service adds to every action of a shape (filters, cache, profile, write safety). */
const COMMON = new Set(['limit', 'cursor', 'media', 'min_duration_s', 'max_duration_s', 'orientation', 'min_width', 'min_height', 'preview', 'force', 'max_age_s', 'profile', 'max_items', 'category', 'confirm', 'dry_run', 'idempotency_key']);
/** Steered by the console itself (next page, confirmation step), not typed by hand. */
const HIDDEN = new Set(['cursor', 'confirm']);

/** @param {CatalogParam} p */
function field(p) {
  const id = `param-${p.name}`;
  const hint = p.description + (p.default !== undefined ? ` (default ${JSON.stringify(p.default)})` : '');
  /** @type {HTMLElement} */
  let input;
  if (p.type === 'boolean') {
    input = h('input', { id, name: p.name, type: 'checkbox', checked: p.default === true, dataset: { type: p.type } });
    return h('label', { class: 'field check', title: hint }, input, ` ${p.name}`, h('small', {}, p.description));
  }
  if (p.enum) {
    input = h(
      'select',
      { id, name: p.name, required: p.required, dataset: { type: p.type } },
      p.required && p.default === undefined ? null : h('option', { value: '' }, p.default === undefined ? '(any)' : `(default: ${p.default})`),
      p.enum.map((v) => h('option', { value: v }, v)),
    );
  } else if (p.type === 'integer' || p.type === 'number') {
    input = h('input', {
      id,
      name: p.name,
      type: 'number',
      step: p.type === 'integer' ? '1' : 'any',
      min: p.min,
      max: p.max,
      required: p.required,
      placeholder: p.default !== undefined ? String(p.default) : '',
      dataset: { type: p.type },
    });
  } else {
    const long = p.name === 'text' || p.name === 'cookies';
    input = h(long ? 'textarea' : 'input', {
      id,
      name: p.name,
      required: p.required,
      placeholder: p.default !== undefined ? String(p.default) : p.name === 'query' ? 'keyword, URL, @handle or id' : '',
      autocomplete: 'off',
      dataset: { type: p.type },
    });
  }
  return h('label', { class: 'field', for: id, title: hint }, h('span', { class: 'label' }, p.name, p.required ? h('b', { class: 'req' }, ' *') : null), input, h('small', {}, p.description));
}

/** Fields of one entry: required and common ones first, the rest folded. @param {CatalogEntry} entry */
export function paramFields(entry) {
  const shown = entry.params.filter((p) => !HIDDEN.has(p.name));
  const main = shown.filter((p) => p.required || PRIMARY.has(p.name) || !COMMON.has(p.name));
  const more = shown.filter((p) => !main.includes(p));
  return h(
    'div',
    { class: 'params' },
    main.map(field),
    more.length ? h('details', { class: 'more' }, h('summary', {}, `More options (${more.length})`), h('div', { class: 'params' }, more.map(field))) : null,
  );
}

/**
 * The params object a form holds: empty fields are left out so the service applies its defaults.
 * @param {HTMLFormElement} form @param {CatalogEntry} entry
 * @returns {Record<string, unknown>}
 */
export function readParams(form, entry) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const p of entry.params) {
    const el = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(p.name));
    if (!el) continue;
    if (p.type === 'boolean') {
      if (el.checked !== (p.default === true)) out[p.name] = el.checked;
      continue;
    }
    const raw = el.value.trim();
    if (raw === '') continue;
    out[p.name] = p.type === 'integer' || p.type === 'number' ? Number(raw) : raw;
  }
  return out;
}
