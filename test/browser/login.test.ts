import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoginManager, saveLoginScreenshot, type LoginRequest } from '../../src/accounts/browser/login.js';
import { BrowserPool } from '../../src/accounts/browser/pool.js';
import { cookieSet, decodePng, html, refusedOrigin, requireChromium, serveLocal, waitFor, type LocalSite } from './helpers.js';

const LOGIN_FORM = `<!doctype html><title>Log in</title>
<body style="font: 20px sans-serif; padding: 40px">
<h1>Log in to Site</h1>
<div style="width: 160px; height: 160px; background: repeating-conic-gradient(#000 0 25%, #fff 0 50%) 0 0 / 20px 20px"></div>
<form method="post" action="/login">
  <input id="user" name="user" placeholder="user"> <input id="pass" name="pass" type="password" placeholder="password">
  <button id="go" type="submit">Log in</button>
</form></body>`;

let site: LocalSite;
let pool: BrowserPool;
let logins: LoginManager;
let stored: Array<{ platform: string; name: string; cookies: string }>;
let failStore = false;
const posted: string[] = [];

beforeAll(async () => {
  site = await serveLocal({
    '/login': (req, res, body) => {
      if (req.method !== 'POST') return html(res, LOGIN_FORM);
      posted.push(body);
      const form = new URLSearchParams(body);
      if (form.get('user') !== 'alice' || form.get('pass') !== 'hunter2') return html(res, `${LOGIN_FORM}<p>wrong password</p>`);
      res.writeHead(302, { location: '/home', 'set-cookie': 'SESSION=fresh-token; Path=/; HttpOnly' }).end();
    },
    '/home': (req, res) => html(res, `<pre>${req.headers.cookie ?? ''}</pre>`),
  });
});
afterAll(() => site.close());
beforeEach(() => {
  stored = [];
  failStore = false;
  posted.length = 0;
  pool = new BrowserPool();
  logins = new LoginManager(pool, {
    pollMs: 100,
    onSuccess: (platform, name, cookies) => {
      if (failStore) throw new Error('disk full');
      stored.push({ platform, name, cookies });
    },
  });
  requireChromium();
});
afterEach(async () => {
  await logins.close();
  await pool.close();
});

const request = (over: Partial<LoginRequest> = {}): LoginRequest => ({
  platform: 'site',
  name: 'alice',
  loginUrl: `${site.origin}/login`,
  successWhen: { cookie: 'SESSION' },
  domains: ['127.0.0.1'],
  timeoutMs: 20_000,
  ...over,
});

/** The test plays the human at the keyboard, on the very page the manager shows in screenshots. */
async function logInAsHuman(id: string, pass = 'hunter2') {
  const page = logins.page(id);
  if (!page) throw new Error('no live login page');
  await page.fill('#user', 'alice');
  await page.fill('#pass', pass);
  await page.click('#go');
}

const stateOf = async (id: string) => (await logins.get(id, { screenshot: false }))?.state;

describe('LoginManager', () => {
  it('waits for the human, then hands the fresh session cookie to onSuccess', async () => {
    const id = await logins.start(request({ cookies: 'SESSION=expired-token; device=d1' }));
    const waiting = await logins.get(id);
    expect(waiting).toMatchObject({ state: 'waiting', platform: 'site', name: 'alice', url: `${site.origin}/login` });
    expect(decodePng(waiting!.screenshot!)).toMatchObject({ width: 1280, height: 720 });
    const dir = mkdtempSync(join(tmpdir(), 'login-shot-'));
    try {
      const path = await saveLoginScreenshot(waiting!.screenshot!, dir, id);
      expect(decodePng(readFileSync(path)).width).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The stale SESSION the profile already had must not count as a login.
    await new Promise((r) => setTimeout(r, 400));
    expect(await stateOf(id)).toBe('waiting');

    await logInAsHuman(id, 'wrong');
    await new Promise((r) => setTimeout(r, 300));
    expect(await stateOf(id)).toBe('waiting');

    await logInAsHuman(id);
    await waitFor(async () => (await stateOf(id)) === 'done', 5_000, 'the login to finish');
    expect(posted).toEqual(['user=alice&pass=wrong', 'user=alice&pass=hunter2']);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ platform: 'site', name: 'alice' });
    expect(cookieSet(stored[0].cookies)).toEqual(new Set(['SESSION=fresh-token', 'device=d1']));
    expect(await logins.get(id)).toMatchObject({ state: 'done', finishedAt: expect.any(Number) });
    expect(logins.page(id)).toBeUndefined();

    // The profile's context now carries the new session for whatever runs in it next.
    const seen = await pool.withPage('site:alice', { domains: ['127.0.0.1'] }, async (page) => {
      await page.goto(`${site.origin}/home`);
      return page.textContent('pre');
    });
    expect(cookieSet(seen ?? '')).toEqual(new Set(['SESSION=fresh-token', 'device=d1']));
  });

  it('can succeed on the URL the site lands on', async () => {
    const id = await logins.start(request({ successWhen: { urlMatches: /\/home$/ } }));
    await logInAsHuman(id);
    await waitFor(async () => (await stateOf(id)) === 'done', 5_000, 'the login to finish');
    expect(stored.map((s) => s.cookies)).toEqual(['SESSION=fresh-token']);
  });

  it('expires when nobody logs in in time', async () => {
    const id = await logins.start(request({ timeoutMs: 1_000 }));
    expect(await stateOf(id)).toBe('waiting');
    await waitFor(async () => (await stateOf(id)) === 'expired', 4_000, 'the expiry');
    expect((await logins.get(id))?.error).toMatch(/nobody logged in within 1000 ms/);
    expect(stored).toEqual([]);
  });

  it('fails when the login page crashes', async () => {
    const id = await logins.start(request());
    await logins.page(id)!.goto('chrome://crash').catch(() => {});
    await waitFor(async () => (await stateOf(id)) === 'failed', 5_000, 'the failure');
    expect((await logins.get(id))?.error).toMatch(/crashed/);
  });

  it('fails when the cookies cannot be stored', async () => {
    failStore = true;
    const id = await logins.start(request());
    await logInAsHuman(id);
    await waitFor(async () => (await stateOf(id)) === 'failed', 5_000, 'the failure');
    expect((await logins.get(id))?.error).toMatch(/storing the new cookies failed: disk full/);
  });

  it('reuses a waiting login for the same profile, and can cancel it', async () => {
    const id = await logins.start(request());
    expect(await logins.start(request())).toBe(id);
    expect(logins.cancel(id)).toBe(true);
    expect(await logins.get(id, { screenshot: false })).toMatchObject({ state: 'failed', error: 'cancelled' });
    expect(logins.cancel(id)).toBe(false);
    expect(await logins.get('no-such-login')).toBeUndefined();
    await expect(logins.start(request({ loginUrl: `${await refusedOrigin()}/login` }))).rejects.toThrow(/ERR_CONNECTION_REFUSED/);
  });
});
