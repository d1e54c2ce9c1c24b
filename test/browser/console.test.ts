import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, defaultChromiumPath } from '../../src/accounts/browser/pool.js';
import { ADAPTERS } from '../../src/platforms/registry.js';
import type { PlatformAdapter } from '../../src/platforms/types.js';
import { startService, type Running } from '../helpers/service.js';
import { html, requireChromium, serveLocal, type LocalSite } from './helpers.js';

// The callbacks handed to page.evaluate/$eval run in the page; the project compiles without the DOM
// library, so the few browser names they use are declared here, for this file only.
declare const document: { querySelector(selector: string): any; querySelectorAll<T = any>(selector: string): Iterable<T> & ArrayLike<T> };
declare const sessionStorage: { getItem(key: string): string | null };
type HTMLElement = { dataset: Record<string, string | undefined> };
type HTMLOptionElement = { value: string };
type HTMLFormElement = { noValidate: boolean };
type HTMLImageElement = { complete: boolean; naturalWidth: number };
type HTMLVideoElement = { currentTime: number; duration: number; paused: boolean; currentSrc: string };
type HTMLCanvasElement = { width: number; dataset: Record<string, string | undefined> };

/** Screenshots of each view, kept for the closing note (gitignored). */
const SHOTS = resolve('test-output/console');
const REDDIT_POST = 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/';

const FORM = `<!doctype html><title>Log in</title><body style="font:16px sans-serif;padding:40px"><h1>Gate login</h1>
<form method="post" action="/login"><p><input id="user" name="user" placeholder="user"></p><p><input id="pass" name="pass" type="password" placeholder="password"></p><button id="go" type="submit">Log in</button></form></body>`;

/**
 * A platform whose search answers only when the test opens its gate: the one crawl in this file that
 * stays queued/running long enough to watch the console follow it live. Everything else is replayed
 * from ./sandbox.
 */
function gatedPlatform() {
  let open!: () => void;
  let gate!: Promise<void>;
  const close = () => {
    gate = new Promise<void>((r) => (open = r));
  };
  close();
  const adapter: PlatformAdapter = {
    id: 'gate',
    name: 'Gate',
    region: 'global',
    auth: 'none',
    hosts: [],
    mediaHosts: [],
    minGapMs: 0,
    authorUrl: () => undefined,
    actions: {
      search: {
        shape: 'items',
        summary: 'answers once the test opens the gate',
        params: [{ name: 'query', type: 'string', required: true, description: 'anything' }],
        async page(ctx, params) {
          const waiting = gate;
          await new Promise<void>((resolve, reject) => {
            void waiting.then(resolve);
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
          });
          return { items: [{ native_id: `${params.query}-1`, type: 'text', text: `answer to ${params.query}`, stats: { likes: 1 } }] };
        },
      },
    },
  };
  return { adapter, open: () => open(), close };
}

let s: Running;
let site: LocalSite;
let browser: Browser;
let page: Page;
let adminToken: string;
const gate = gatedPlatform();
const pageErrors: string[] = [];
const shots: string[] = [];

async function shot(name: string): Promise<void> {
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  shots.push(path);
  console.log(`console screenshot: ${path}`);
}

const view = (name: string) => page.waitForSelector(`main[data-view="${name}"]`);

async function submitFromForm(source: string, action: string, fields: Record<string, string>): Promise<string> {
  await page.click('nav a[data-view="new"]');
  await page.waitForSelector('#task-form');
  await page.selectOption('#source', source);
  await page.selectOption('#action', action);
  for (const [name, value] of Object.entries(fields)) await page.fill(`#task-form [name="${name}"]`, value);
  await page.click('#submit-task');
  await page.waitForURL(/#\/task\//);
  return decodeURIComponent(new URL(page.url()).hash.replace('#/task/', ''));
}

beforeAll(async () => {
  requireChromium();
  // Only this run's screenshots: none left over from a view that no longer exists.
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  site = await serveLocal({
    '/login': (req, res, body) => {
      if (req.method !== 'POST') return html(res, FORM);
      if (new URLSearchParams(body).get('pass') !== 'hunter2') return html(res, `${FORM}<p>wrong password</p>`);
      res.writeHead(302, { location: '/home', 'set-cookie': 'SESSION=after-login; Path=/' }).end();
    },
    '/home': (_req, res) => html(res, '<p>welcome</p>'),
  });
  s = await startService({ adapters: [...ADAPTERS, gate.adapter], config: { replay: [resolve('sandbox')] } });
  adminToken = await s.token(['read', 'write', 'admin']);
  browser = await chromium.launch({ executablePath: defaultChromiumPath(), args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    // Refused requests (the bad token's 401, the bad limit's 400, a sandbox cover no recording
    // answers) are logged by Chromium as failed resources; the views assert what must load. Any
    // other error is a bug in the console.
    if (m.type() === 'error' && !/^Failed to load resource: /.test(m.text())) pageErrors.push(m.text());
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
  await site?.close();
  if (shots.length) console.log(`console screenshots (${shots.length}) in ${SHOTS}:\n${shots.join('\n')}`);
});

describe('the web console in headless Chromium, against the service in replay mode', () => {
  it('refuses a bad token on the sign-in view, then signs in with a good one', async () => {
    await page.goto(`${s.base}/console`);
    await page.fill('#token', 'crw_not-a-real-token');
    await page.click('#signin button[type=submit]');
    await page.waitForSelector('#signin-error:not(:empty)');
    expect(await page.textContent('#signin-error')).toMatch(/Sign-in failed: invalid or revoked token/);
    await shot('01-signin-error');

    await page.fill('#token', adminToken);
    await page.click('#signin button[type=submit]');
    await page.waitForSelector('nav a[data-view="tokens"]');
    // The token lives in this tab's session storage, not in a cookie or the URL.
    expect(await page.evaluate(() => sessionStorage.getItem('crawler-console-token'))).toBe(adminToken);
    expect(page.url()).not.toContain(adminToken);
    expect((await page.context().cookies()).length).toBe(0);
  });

  it('builds the submit form from the catalog', async () => {
    await page.click('nav a[data-view="new"]');
    await page.waitForSelector('#task-form');
    const catalog = (await s.api('/v1/task-sources')).body as Array<{ name: string; group: string; params: Array<{ name: string; required: boolean; enum?: string[] }> }>;
    const sources = await page.$$eval('#source option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(sources.sort()).toEqual([...new Set(catalog.map((e) => e.group))].sort());
    await page.selectOption('#source', 'pinterest');
    const actions = await page.$$eval('#action option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(actions.sort()).toEqual(catalog.filter((e) => e.group === 'pinterest').map((e) => e.name.split('.')[1]).sort());
    await page.selectOption('#action', 'search');
    const entry = catalog.find((e) => e.name === 'pinterest.search')!;
    for (const p of entry.params.filter((x) => x.name !== 'cursor')) {
      expect(await page.$(`#task-form [name="${p.name}"]`), p.name).not.toBeNull();
    }
    expect(await page.getAttribute('#task-form [name="query"]', 'required')).not.toBeNull();
    const media = await page.$$eval('#task-form [name="media"] option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(media).toEqual(['', ...entry.params.find((p) => p.name === 'media')!.enum!]);
    // A value the service refuses comes back as its own message, next to the form.
    await page.fill('#task-form [name="query"]', 'harbor lights');
    await page.fill('#task-form [name="limit"]', '500');
    await page.$eval('#task-form', (f) => ((f as HTMLFormElement).noValidate = true));
    await page.click('#submit-task');
    await page.waitForSelector('#submit-error:not(:empty)');
    expect(await page.textContent('#submit-error')).toMatch(/params\.limit: must be at most 100/);
    await page.fill('#task-form [name="limit"]', '2');
    await shot('02-new-task-form');
  });

  it('submits a search and shows a gallery: thumbs loaded, provenance badges, stats', async () => {
    const id = await submitFromForm('pinterest', 'search', { query: 'harbor lights', limit: '2' });
    await page.waitForSelector('#gallery .card');
    const task = (await s.api(`/v1/tasks/${id}`)).body;
    expect(task.status).toBe('succeeded');
    expect(await page.$$eval('#gallery .card', (cs) => cs.map((c) => (c as HTMLElement).dataset.id))).toEqual(task.result.items.map((i: { id: string }) => i.id));
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('#gallery img.thumb')].every((i) => i.complete));
    const widths = await page.$$eval('#gallery img.thumb', (is) => is.map((i) => (i as HTMLImageElement).naturalWidth));
    expect(widths.length).toBe(2);
    for (const w of widths) expect(w).toBeGreaterThan(0);
    const thumbSrc = await page.$$eval('#gallery img.thumb', (is) => is.map((i) => i.getAttribute('src')!));
    for (const src of thumbSrc) expect(src).toMatch(/^\/v1\/media\?u=/);
    expect(await page.$$eval('#gallery .card .prov-live', (bs) => bs.map((b) => b.textContent))).toEqual(['live', 'live']);
    expect(await page.textContent('.outcome .prov-live')).toBe('live');
    const likes = task.result.items[0].stats.likes;
    expect(await page.getAttribute('#gallery .card:first-child .stat-likes', 'title')).toBe(`${likes} likes`);
    await shot('03-gallery');
  });

  it('plays the preview clip of a video card on hover, from /v1/preview', async () => {
    const video = '#gallery .card.has-preview';
    expect(await page.getAttribute(video, 'data-type')).toBe('video');
    await page.hover(`${video} .media`);
    await page.waitForSelector(`${video}.playing`, { timeout: 45_000 });
    const src = await page.$eval(`${video} video.preview`, (v) => (v as HTMLVideoElement).currentSrc);
    expect(src).toContain('/v1/preview?platform=pinterest&id=');
    // It really plays: time moves on.
    const t0 = await page.$eval(`${video} video.preview`, (v) => (v as HTMLVideoElement).currentTime);
    await page.waitForFunction((t) => (document.querySelector('#gallery .card.has-preview video.preview') as HTMLVideoElement).currentTime > t + 0.2, t0, { timeout: 10_000 });
    expect(await page.$eval(`${video} video.preview`, (v) => (v as HTMLVideoElement).paused)).toBe(false);
    // Scrubbing along the strip seeks into the clip.
    const strip = (await page.$(`${video} .scrub`))!.boundingBox();
    const box = (await strip)!;
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    const duration = await page.$eval(`${video} video.preview`, (v) => (v as HTMLVideoElement).duration);
    await page.waitForFunction((d) => (document.querySelector('#gallery .card.has-preview video.preview') as HTMLVideoElement).currentTime >= d * 0.6, duration);
    await shot('04-gallery-preview-playing');
    await page.mouse.move(5, 5);
    await page.waitForFunction(() => (document.querySelector('#gallery .card.has-preview video.preview') as HTMLVideoElement).paused);
  }, 60_000);

  it('loads the next page into the same gallery', async () => {
    expect(await page.$$eval('#gallery .card', (cs) => cs.length)).toBe(2);
    await page.click('#next-page');
    await page.waitForFunction(() => document.querySelectorAll('#gallery .card').length === 4);
    expect(await page.textContent('#gallery-count')).toMatch(/4 items over 2 pages/);
    const ids = await page.$$eval('#gallery .card', (cs) => cs.map((c) => (c as HTMLElement).dataset.id));
    expect(new Set(ids).size).toBe(4);
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('#gallery img.thumb')].every((i) => i.complete && i.naturalWidth > 0));
    await shot('05-gallery-next-page');
  });

  it('walks a comment tree: replies folded under their parent, opened on click', async () => {
    const id = await submitFromForm('reddit', 'comments', { query: REDDIT_POST });
    await page.waitForSelector('#comments > li.comment');
    const items = (await s.api(`/v1/tasks/${id}`)).body.result.items as Array<{ cid: string; parent_id?: string }>;
    const roots = items.filter((c) => !c.parent_id || !items.some((p) => p.cid === c.parent_id));
    expect(await page.$$eval('#comments > li.comment', (ls) => ls.map((l) => (l as HTMLElement).dataset.cid))).toEqual(roots.map((c) => c.cid));
    const parent = items.find((c) => items.some((r) => r.parent_id === c.cid) && !c.parent_id)!;
    const reply = items.find((r) => r.parent_id === parent.cid)!;
    const thread = `#comments > li.comment[data-cid="${parent.cid}"]`;
    expect(await page.isVisible(`${thread} li.comment[data-cid="${reply.cid}"]`)).toBe(false);
    await page.click(`${thread} > .c-foot .replies-toggle`);
    await page.waitForSelector(`${thread} > .replies > li.comment[data-cid="${reply.cid}"]`, { state: 'visible' });
    expect(await page.getAttribute(`${thread} > .c-foot .replies-toggle`, 'aria-expanded')).toBe('true');
    // A reply of a reply is one level deeper, folded until its own toggle opens.
    const grandchild = items.find((g) => g.parent_id === reply.cid);
    if (grandchild) {
      const sub = `${thread} li.comment[data-cid="${reply.cid}"]`;
      await page.click(`${sub} > .c-foot .replies-toggle`);
      await page.waitForSelector(`${sub} > .replies > li.comment[data-cid="${grandchild.cid}"]`, { state: 'visible' });
    }
    await shot('06-comment-tree');
  });

  it('shows a creator card (shape C) and a trend list (shape D)', async () => {
    await submitFromForm('tiktok', 'user', { query: '@harborcook' });
    await page.waitForSelector('.creator h2');
    expect(await page.textContent('.creator h2')).toContain('Harbor Cook');
    await page.waitForFunction(() => (document.querySelector('.creator img.avatar') as HTMLImageElement | null)?.naturalWidth! > 0);
    await shot('07-creator');
    // Its "posts" button is there because the catalog has tiktok.posts, and opens that crawl.
    await page.click('.creator button:has-text("Their posts")');
    await page.waitForSelector('#gallery .card');
    expect(new URL(page.url()).hash).toMatch(/^#\/task\//);
    expect(await page.textContent('main h1')).toContain('tiktok.posts');

    const id = await submitFromForm('mastodon', 'trending', {});
    await page.waitForSelector('ul.trends li');
    const trends = (await s.api(`/v1/tasks/${id}`)).body.result.data.trends as Array<{ word: string; rank: number }>;
    expect(await page.$$eval('ul.trends li', (ls) => ls.length)).toBe(trends.length);
    expect(await page.textContent('ul.trends li:first-child')).toContain(trends[0].word);
    await shot('08-trends');
  });

  it('follows task status live in the task list (SSE), and cancels from it', async () => {
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/stream')) streams.push(r.headers().authorization ?? '');
    });
    const id = await submitFromForm('gate', 'search', { query: 'slow-one' });
    await page.waitForSelector('#task-status[data-status="running"]');
    await page.click('nav a[data-view="tasks"]');
    const row = `#task-list tr[data-task-id="${id}"]`;
    await page.waitForSelector(`${row}[data-status="running"]`);
    await shot('09-task-list-running');
    gate.open();
    // No reload and no poll: the row changes when the stream says so.
    await page.waitForSelector(`${row}[data-status="succeeded"]`);
    expect(streams.length).toBeGreaterThan(0);
    // The stream carries the token as a header, never in its URL.
    for (const auth of streams) expect(auth).toBe(`Bearer ${adminToken}`);

    gate.close();
    const second = await submitFromForm('gate', 'search', { query: 'slow-two' });
    await page.click('nav a[data-view="tasks"]');
    const row2 = `#task-list tr[data-task-id="${second}"]`;
    await page.waitForSelector(`${row2}[data-status="running"]`);
    await page.click(`${row2} button:has-text("Cancel")`);
    await page.waitForSelector(`${row2}[data-status="cancelled"]`);
    expect((await s.api(`/v1/tasks/${second}`)).body.status).toBe('cancelled');
    await shot('10-task-list');
  });

  it('logs a profile in through the form on the login screenshot, and its health turns ok', async () => {
    await page.click('nav a[data-view="profiles"]');
    await page.waitForSelector('#add-profile');
    await page.waitForSelector('#add-profile select[name="platform"] option[value="gate"]', { state: 'attached' });
    await page.selectOption('#add-profile select[name="platform"]', 'gate');
    await page.fill('#add-profile input[name="name"]', 'main');
    await page.fill('#add-profile textarea[name="cookies"]', 'SESSION=stale');
    await page.click('#add-profile button[type="submit"]');
    await page.waitForSelector('#profile-list tr[data-profile="gate/main"]');
    expect(await page.getAttribute('#profile-list tr[data-profile="gate/main"]', 'data-health')).not.toBe('ok');

    await page.click('#login-gate-main');
    await page.click('#login-form details summary');
    // Replay mode never opens a platform's real site: the login page is named (the API's login_url).
    await page.fill('#login-form input[name="login_url"]', `${site.origin}/login`);
    await page.fill('#login-form input[name="success_cookie"]', 'SESSION');
    await page.fill('#login-form input[name="domains"]', '127.0.0.1');
    const started = page.waitForResponse((r) => r.url().endsWith('/v1/profiles/gate/main/login') && r.request().method() === 'POST');
    await page.click('#login-start');
    const login = await (await started).json();
    expect(login.state).toBe('waiting');
    // The screenshot is redrawn until the login ends.
    await page.waitForFunction(() => Number((document.querySelector('#login-screen') as HTMLCanvasElement | null)?.dataset.frames ?? 0) >= 2);
    await shot('11-profile-login-form');

    // Where the user field is on the login page = where it is on the screenshot, scaled to the canvas.
    const field = (await s.svc.logins.page(login.id)!.locator('#user').boundingBox())!;
    const canvas = (await page.$('#login-screen'))!;
    const cbox = (await canvas.boundingBox())!;
    const scale = cbox.width / (await canvas.evaluate((c) => (c as HTMLCanvasElement).width));
    await page.mouse.click(cbox.x + (field.x + field.width / 2) * scale, cbox.y + (field.y + field.height / 2) * scale);
    await page.fill('#login-text', 'alice');
    await page.click('#login-type');
    await page.click('.keys button[data-key="Tab"]');
    await page.fill('#login-text', 'hunter2');
    await page.click('#login-type');
    await page.click('.keys button[data-key="Enter"]');
    await page.waitForSelector('#login-state[data-state="done"]', { timeout: 20_000 });
    // Nothing left to type into once the login is over.
    expect(await page.isVisible('.login-controls')).toBe(false);
    await page.waitForSelector('#profile-list tr[data-profile="gate/main"][data-health="ok"]');
    expect((await s.svc.store.profileGet('gate', 'main'))?.cookies).toContain('SESSION=after-login');
    expect((await s.api('/v1/profiles')).body.profiles.find((p: { platform: string }) => p.platform === 'gate').health).toBe('ok');
    await shot('12-profiles-after-login');
  }, 60_000);

  it('lists tokens for an admin and issues one', async () => {
    await page.click('nav a[data-view="tokens"]');
    await page.waitForSelector('#token-list tbody tr');
    const listed = (await s.api('/v1/tokens')).body.tokens.length;
    expect(await page.$$eval('#token-list tbody tr', (rs) => rs.length)).toBe(listed);
    await page.fill('#new-token input[name="name"]', 'console-made');
    await page.click('#new-token button[type="submit"]');
    await page.waitForSelector('#token-issued input.secret');
    const issued = await page.inputValue('#token-issued input.secret');
    expect(issued).toMatch(/^crw_/);
    await page.waitForFunction((n) => document.querySelectorAll('#token-list tbody tr').length === n + 1, listed);
    expect((await s.api('/v1/tokens')).body.tokens.some((t: { name: string; scopes: string[] }) => t.name === 'console-made' && t.scopes.join() === 'read')).toBe(true);
    await shot('13-tokens');
  });

  it('hides the admin views from a read token, and signs out when the token is revoked', async () => {
    const tab = await browser.newPage();
    try {
      const read = await s.token(['read']);
      await tab.goto(`${s.base}/console#/tasks`);
      await tab.fill('#token', read);
      await tab.click('#signin button[type=submit]');
      await tab.waitForSelector('main[data-view="tasks"] #task-list');
      expect(await tab.$('nav a[data-view="tokens"]')).toBeNull();
      await s.api(`/v1/tokens/${encodeURIComponent(read)}`, { method: 'DELETE' });
      await tab.click('#refresh-tasks');
      await tab.waitForSelector('#signin-error:not(:empty)');
      expect(await tab.textContent('#signin-error')).toMatch(/Signed out: invalid or revoked token/);
      expect(await tab.evaluate(() => sessionStorage.getItem('crawler-console-token'))).toBeNull();
    } finally {
      await tab.close();
    }
  });

  it('reads event streams split anywhere, as the WHATWG parser does (the console has no EventSource)', async () => {
    // A string, not a function: the test runner rewrites import() inside functions it compiles.
    const events = (await page.evaluate(`(async () => {
      const { SseParser } = await import('/console/sse.js');
      const text = 'retry: 2000\\r\\n\\r\\n: ping\\n\\nid: 7\\nevent: status\\ndata: {"a":\\ndata: 1}\\r\\n\\r\\nid: 8\\nevent: result\\ndata: done\\n\\n';
      const out = [];
      // Every split point, including between \\r and \\n.
      for (let cut = 0; cut <= text.length; cut++) {
        const p = new SseParser();
        const got = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut))];
        out.push(JSON.stringify({ got, last: p.lastId, retry: p.retryMs }));
      }
      return [...new Set(out)];
    })()`)) as string[];
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0] as string)).toEqual({
      got: [
        { id: '7', event: 'status', data: '{"a":\n1}' },
        { id: '8', event: 'result', data: 'done' },
      ],
      last: '8',
      retry: 2000,
    });
  });

  it('raised no script error on any view', () => {
    expect(pageErrors).toEqual([]);
  });
});
