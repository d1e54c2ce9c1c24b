// @ts-check
// Shape A (search, posts, hot, recommended, detail): a gallery of item cards. Thumbs load through
// /v1/media; hovering a video plays its preview clip from /v1/preview, the strip under it scrubs.
import { append, badge, errorText, fmtCount, fmtDuration, fmtTime, h, outLink, plural, replace, sleep } from './dom.js';
import { filesList, followUp, outcomeLine, runTask, withCursor } from './result-misc.js';

/** @param {import('./app.js').Ctx} ctx @param {any} task */
export function galleryResult(ctx, task) {
  const r = task.result;
  const grid = h('div', { class: 'gallery', id: 'gallery' });
  const seen = new Set();
  /** @type {Set<string>} */
  let commentable = new Set();
  /** @param {any[]} items */
  const add = (items) => {
    for (const item of items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      grid.append(card(ctx, item, commentable));
    }
  };
  add(r.items ?? []);
  ctx.catalog().then((entries) => {
    commentable = new Set(entries.filter((e) => e.name.endsWith('.comments')).map((e) => e.group));
    for (const el of grid.querySelectorAll('.card')) addCommentsButton(ctx, /** @type {HTMLElement} */ (el), commentable);
  }, () => {});

  let cursor = r.next_cursor;
  let page = 1;
  const pages = h('span', { class: 'pages', id: 'gallery-count' });
  const counted = () => `${plural(seen.size, 'item')}${page > 1 ? ` over ${page} pages` : ''}`;
  replace(pages, counted());
  const pageError = h('p', { class: 'error', role: 'alert' });
  const next = h('button', { type: 'button', id: 'next-page', hidden: !cursor, onclick: () => void loadNext() }, 'Next page');
  async function loadNext() {
    next.disabled = true;
    replace(pageError);
    replace(pages, `loading page ${page + 1}…`);
    try {
      const t = await runTask(ctx, withCursor(task, cursor));
      if (t.status !== 'succeeded') throw new Error(t.error?.message ?? `the next page's task ${t.status}`);
      if (t.result.error) throw new Error(`${t.result.error.code}: ${t.result.error.message}`);
      page++;
      add(t.result.items ?? []);
      cursor = t.result.next_cursor;
      replace(pages, counted(), ' · ', h('a', { href: `#/task/${encodeURIComponent(t.task_id)}`, class: 'muted' }, `page ${page}'s task`));
    } catch (e) {
      replace(pages, counted());
      replace(pageError, `Next page failed: ${errorText(e)}`);
    } finally {
      next.disabled = false;
      next.hidden = !cursor;
    }
  }

  return h(
    'div',
    { class: 'gallery-result' },
    outcomeLine(r, [pages], { pagedCount: true }),
    Array.isArray(r.files) && r.files.length ? filesList(r.files) : null,
    grid,
    h('div', { class: 'actions' }, next),
    pageError,
  );
}

/** @param {import('./app.js').Ctx} ctx @param {any} item @param {Set<string>} commentable */
function card(ctx, item, commentable) {
  const stats = item.stats ?? {};
  const title = item.title || firstLine(item.text) || item.id;
  const media = h('div', { class: 'media' });
  if (item.thumb) {
    const img = h('img', { class: 'thumb', src: item.thumb, alt: '', decoding: 'async' });
    img.addEventListener('error', () => media.classList.add('no-thumb'));
    media.append(img);
  } else media.classList.add('no-thumb');
  append(media, [
    h('span', { class: 'corner' }, badge('prov', item.provenance ?? 'live', 'where this item came from'), ' ', badge('type', item.type)),
    item.duration_s ? h('span', { class: 'duration' }, fmtDuration(item.duration_s)) : null,
  ]);
  const el = h(
    'article',
    { class: 'card', dataset: { id: item.id, type: item.type } },
    media,
    h(
      'div',
      { class: 'body' },
      h('h3', { class: 'title', title }, title),
      item.title && item.text ? h('p', { class: 'text' }, item.text) : null,
      h('p', { class: 'author' }, item.author_url ? outLink(item.author_url, item.author ?? item.author_handle ?? '') : item.author ?? '', item.author_handle && item.author_handle !== item.author ? h('span', { class: 'muted' }, ` @${item.author_handle}`) : null),
      h(
        'ul',
        { class: 'stats' },
        ['likes', 'comments', 'shares', 'views'].filter((k) => typeof stats[k] === 'number').map((k) => h('li', { class: `stat-${k}`, title: `${stats[k]} ${k}` }, h('b', {}, fmtCount(stats[k])), ` ${k}`)),
      ),
      h('p', { class: 'meta muted' }, item.ts ? fmtTime(item.ts) : '', ' · ', item.provider, item.url ? [' · ', outLink(item.url, 'open')] : null, h('span', { class: 'card-actions' })),
    ),
  );
  if (item.preview?.url) attachPreview(el, media, item.preview);
  const video = (item.media ?? []).find((/** @type {any} */ m) => m.kind === 'video' && m.url);
  if (video) addButton(el, h('button', { type: 'button', class: 'link', onclick: () => playFull(video.url) }, 'play'));
  addCommentsButton(ctx, el, commentable);
  return el;
}

/** @param {HTMLElement} el @param {HTMLElement} button */
function addButton(el, button) {
  el.querySelector('.card-actions')?.append(' · ', button);
}

/** @param {import('./app.js').Ctx} ctx @param {HTMLElement} el @param {Set<string>} commentable */
function addCommentsButton(ctx, el, commentable) {
  const provider = el.dataset.id?.split(':')[0] ?? '';
  if (!commentable.has(provider) || el.querySelector('.comments-button')) return;
  const native = el.dataset.id?.slice(provider.length + 1) ?? '';
  const url = el.querySelector('.meta a')?.getAttribute('href');
  const note = h('span', { class: 'error' });
  addButton(el, h('button', {
    type: 'button',
    class: 'link comments-button',
    onclick: () => followUp(ctx, { source: provider, action: 'comments', params: { query: url && url !== '#' ? url : native } }, note),
  }, 'comments'));
  el.querySelector('.card-actions')?.append(' ', note);
}

/**
 * Hover: ask for the clip (202 while it renders, polled with HEAD), then play it muted in a loop.
 * Moving along the strip at the bottom seeks through it.
 * @param {HTMLElement} el @param {HTMLElement} media @param {{url: string, status?: string, seconds?: number}} preview
 */
function attachPreview(el, media, preview) {
  const video = h('video', { class: 'preview', loop: true, playsinline: true, preload: 'none', disablepictureinpicture: true });
  video.muted = true;
  const note = h('span', { class: 'preview-note' });
  const bar = h('div', { class: 'scrub-bar' });
  const strip = h('div', { class: 'scrub', title: 'scrub the preview' }, bar);
  media.append(video, strip, note);
  el.classList.add('has-preview');
  /** @type {'idle' | 'ready' | 'unavailable'} */
  let state = 'idle';
  /** @type {AbortController | undefined} */
  let hover;

  video.addEventListener('playing', () => el.classList.add('playing'));
  video.addEventListener('timeupdate', () => {
    if (video.duration) bar.style.width = `${(100 * video.currentTime) / video.duration}%`;
  });

  /** @param {AbortSignal} signal */
  async function ready(signal) {
    while (state === 'idle' && !signal.aborted) {
      let res;
      try {
        res = await fetch(preview.url, { method: 'HEAD', cache: 'no-store', signal });
      } catch {
        return false;
      }
      if (res.status === 200) state = 'ready';
      else if (res.status === 202 || res.status === 429) {
        replace(note, 'rendering preview…');
        const after = Number(res.headers.get('retry-after')) || 1;
        await sleep(Math.min(Math.max(after * 1000, 500), 2000), signal);
      } else if (res.status === 404) {
        // HEAD has no body: one GET says why (expired, blocked, no_stream…).
        const body = await fetch(preview.url, { cache: 'no-store', signal }).then((r) => r.json(), () => null);
        state = 'unavailable';
        replace(note, `no preview${body?.reason ? `: ${body.reason}` : ''}`);
      } else {
        replace(note, `preview: HTTP ${res.status}`);
        return false;
      }
    }
    return state === 'ready';
  }

  media.addEventListener('mouseenter', () => {
    hover?.abort();
    const ctrl = new AbortController();
    hover = ctrl;
    el.classList.add('hovering');
    void ready(ctrl.signal).then((ok) => {
      if (!ok || ctrl.signal.aborted) return;
      replace(note);
      if (!video.getAttribute('src')) video.src = preview.url;
      video.play().catch(() => {});
    });
  });
  media.addEventListener('mouseleave', () => {
    hover?.abort();
    hover = undefined;
    el.classList.remove('hovering', 'playing');
    if (state !== 'unavailable') replace(note);
    video.pause();
  });
  strip.addEventListener('mousemove', (e) => {
    if (!video.duration) return;
    const box = strip.getBoundingClientRect();
    const at = Math.min(Math.max((e.clientX - box.left) / box.width, 0), 1);
    video.currentTime = at * video.duration;
  });
}

/** The whole video (the signed /v1/media URL the result carries), in a dialog. @param {string} url */
function playFull(url) {
  const video = h('video', { src: url, controls: true, autoplay: true, playsinline: true });
  const dialog = h('dialog', { class: 'player' }, video, h('button', { type: 'button', onclick: () => dialog.close() }, 'Close'));
  dialog.addEventListener('close', () => {
    video.pause();
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
}

/** @param {unknown} text */
function firstLine(text) {
  return typeof text === 'string' ? text.split('\n')[0].slice(0, 140) : '';
}
