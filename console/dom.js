// @ts-check
// DOM helpers. Data from results is only ever set as text or checked attributes, never parsed as HTML.

/**
 * @typedef {{[key: string]: unknown}} Attrs
 * @typedef {Node | string | number | null | undefined | false} Child
 */

/**
 * Builds an element. `on*` keys add listeners, `class` sets className, `dataset` sets data-*,
 * `value`/`checked`/`disabled`/`hidden`/`selected` are properties, everything else an attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === 'class') el.className = String(value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (['value', 'checked', 'disabled', 'hidden', 'selected', 'open'].includes(key)) /** @type {any} */ (el)[key] = value;
    else if (key === 'href' || key === 'src') el.setAttribute(key, safeUrl(String(value)));
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** @param {Element} el @param {(Child | Child[])[]} children */
export function append(el, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'object' ? c : String(c));
  }
}

/** @param {Element} el @param {...(Child | Child[])} children */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** Only http(s), same-origin paths and the console's own #/ routes: a platform's text never becomes a javascript: link. */
export function safeUrl(url) {
  if ((url.startsWith('/') && !url.startsWith('//')) || url.startsWith('#/')) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : '#';
  } catch {
    return '#';
  }
}

/** An external link that tells the target nothing about the console. */
export const outLink = (/** @type {string} */ href, /** @type {Child} */ text) => h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
/** @param {unknown} n */
export const fmtCount = (n) => (typeof n === 'number' && Number.isFinite(n) ? compact.format(n) : '–');

/** @param {number} n @param {string} word */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** @param {number | undefined} s seconds */
export function fmtDuration(s) {
  if (typeof s !== 'number' || !Number.isFinite(s) || s < 0) return '';
  const t = Math.round(s);
  const hh = Math.floor(t / 3600);
  const mm = Math.floor((t % 3600) / 60);
  const ss = String(t % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** @param {string | number | undefined | null} t ISO string or unix seconds */
export function fmtTime(t) {
  if (t === undefined || t === null || t === '') return '';
  const d = typeof t === 'number' ? new Date(t * 1000) : new Date(t);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString();
}

/** A small status/provenance pill; the class carries the value for styling. */
export const badge = (/** @type {string} */ kind, /** @type {string} */ value, /** @type {string | undefined} */ title = undefined) =>
  h('span', { class: `badge ${kind} ${kind}-${value}`, title }, value);

/** @param {unknown} e */
export const errorText = (e) => (e instanceof Error ? e.message : String(e));

/** @param {number} ms @param {AbortSignal} [signal] */
export function sleep(ms, signal) {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve(undefined);
    }, { once: true });
  });
}
