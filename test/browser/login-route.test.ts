import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';
import { decodePng, html, requireChromium, serveLocal, type LocalSite } from './helpers.js';

const FORM = `<!doctype html><title>Log in</title><body><h1>Fake login</h1>
<form method="post" action="/login"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="go" type="submit">Log in</button></form></body>`;

let site: LocalSite;
let fake: FakePlatform;
let s: Running;

beforeAll(async () => {
  requireChromium();
  site = await serveLocal({
    '/login': (req, res, body) => {
      if (req.method !== 'POST') return html(res, FORM);
      const form = new URLSearchParams(body);
      if (form.get('pass') !== 'hunter2') return html(res, `${FORM}<p>wrong password</p>`);
      res.writeHead(302, { location: '/home', 'set-cookie': 'SESSION=after-login; Path=/' }).end();
    },
    '/home': (_req, res) => html(res, '<p>welcome</p>'),
    // The "platform site" whose own script computes a signature from a secret only the page holds.
    '/sign': (req, res) => html(res, `<script>const k = 'page-secret'; window.signer = { sign: (s) => k + ':' + s.split('').reverse().join('') + ':' + document.cookie };</script>`, { 'set-cookie': 'renewed=yes; Path=/' }),
  });
  fake = await startFakePlatform();
  fake.adapter.login = { url: `${site.origin}/login`, successCookie: 'SESSION', domains: ['127.0.0.1'] };
  fake.adapter.actions.trending = {
    shape: 'trends',
    summary: 'signed in the page',
    async run(ctx) {
      const sig = await ctx.signer!.sign<string>({ pageUrl: `${site.origin}/sign`, fn: 'signer.sign', args: ['abc'] });
      return [{ word: sig, source: 'fake', rank: 1 }];
    },
  };
  s = await startService({ adapters: [fake.adapter] });
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
  await site?.close();
});

describe('human re-login over the API, in real headless Chromium', () => {
  it('expired → session_expired → re-login → ok, with a PNG of the login page for the operator', async () => {
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'main', cookies: 'SESSION=old', credentials: { note: 'kept' } } });
    await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'expired', profile: 'main' } } });
    expect((await s.api('/v1/profiles')).body.profiles[0].health).toBe('session_expired');

    expect((await s.api('/v1/profiles/fake/main/login', { method: 'POST', json: {}, token: await s.token(['read']) })).status).toBe(403);
    const started = await s.api('/v1/profiles/fake/main/login', { method: 'POST', json: { timeout_s: 60 } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ platform: 'fake', name: 'main', state: 'waiting', screenshot_url: `/v1/logins/${started.body.id}/screenshot` });
    const shot = await fetch(`${s.base}${started.body.screenshot_url}`, { headers: { authorization: `Bearer ${await s.token(['admin'])}` } });
    expect(shot.headers.get('content-type')).toBe('image/png');
    const png = decodePng(Buffer.from(await shot.arrayBuffer()));
    expect(png.width).toBeGreaterThan(0);

    // The operator logs in on the page the screenshots show.
    const page = s.svc.logins.page(started.body.id)!;
    await page.fill('#user', 'alice');
    await page.fill('#pass', 'hunter2');
    await page.click('#go');
    const done = await until(async () => {
      const r = await s.api(`/v1/logins/${started.body.id}`);
      return r.body.state === 'done' ? r.body : undefined;
    }, 20_000, 200);
    expect(done.finished_at).toBeTruthy();
    const profile = await s.svc.store.profileGet('fake', 'main');
    expect(profile?.cookies).toContain('SESSION=after-login');
    expect(profile?.credentials).toContain('kept');
    expect((await s.api('/v1/profiles')).body.profiles[0].health).toBe('ok');
    const after = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'back-in', profile: 'main' } } });
    expect(after.body.result.source).toBe('live');
  });

  it('lets a remote operator fill a password form through /input: click, type, key', async () => {
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'remote', cookies: 'SESSION=stale' } });
    const started = await s.api('/v1/profiles/fake/remote/login', { method: 'POST', json: { timeout_s: 60 } });
    expect(started.status).toBe(202);
    const input = (json: unknown) => s.api(started.body.input_url, { method: 'POST', json });
    // Where the human sees the user field on the screenshot.
    const box = (await s.svc.logins.page(started.body.id)!.locator('#user').boundingBox())!;
    for (const wrong of [{ action: 'click', x: -1, y: 5 }, { action: 'type', text: '' }, { action: 'key', key: 'Control+W' }, { action: 'drag' }, []]) {
      const r = await input(wrong);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
    expect((await s.api(started.body.input_url, { method: 'POST', json: { action: 'key', key: 'Tab' }, token: await s.token(['read', 'write']) })).status).toBe(403);
    expect((await input({ action: 'click', x: box.x + box.width / 2, y: box.y + box.height / 2 })).body.state).toBe('waiting');
    await input({ action: 'type', text: 'alice' });
    await input({ action: 'key', key: 'Tab' });
    await input({ action: 'type', text: 'hunter2' });
    await input({ action: 'key', key: 'Enter' });
    await until(async () => ((await s.api(`/v1/logins/${started.body.id}`)).body.state === 'done' ? true : undefined), 20_000, 200);
    expect((await s.svc.store.profileGet('fake', 'remote'))?.cookies).toContain('SESSION=after-login');
    const late = await input({ action: 'key', key: 'Enter' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/this login is done/);
    expect((await s.api('/v1/logins/nope/input', { method: 'POST', json: { action: 'key', key: 'Tab' } })).status).toBe(404);
  });

  it('answers clearly for unknown logins and platforms without a login page', async () => {
    expect((await s.api('/v1/logins/nope')).status).toBe(404);
    expect((await s.api('/v1/profiles/nope/main/login', { method: 'POST', json: {} })).status).toBe(404);
    expect((await s.api('/v1/profiles/fake/main/login', { method: 'POST', json: { timeout_s: 1 } })).status).toBe(400);
  });

  it('signs a request in the profile page through the crawl context (in-page signing)', async () => {
    await s.api('/v1/profiles', { method: 'POST', json: { platform: 'fake', name: 'signer', cookies: 'device=d42' } });
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'trending', params: { profile: 'signer' } } });
    expect(r.body.result.data.trends[0].word).toMatch(/^page-secret:cba:device=d42/);
    // What the site set in the browser goes back to the stored login when the context closes.
    await s.svc.browser.discard('fake:signer');
    const cookies = (await s.svc.store.profileGet('fake', 'signer'))?.cookies ?? '';
    expect(cookies).toContain('renewed=yes');
    expect(cookies).toContain('device=d42');
  });
});
