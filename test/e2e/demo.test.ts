import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EXAMPLES } from '../../src/demo.js';
import { ADAPTERS } from '../../src/platforms/registry.js';
import { startService, until, type Running } from '../helpers/service.js';

let s: Running;

beforeAll(async () => {
  // Exactly what `npm run demo` loads: the project's own sandbox, nothing from ../shared.
  s = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
});
afterAll(async () => {
  await s?.close();
});

describe('npm run demo', () => {
  for (const e of DEMO_EXAMPLES) {
    it(`answers the banner's ${e.source}.${e.action}`, async () => {
      const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: e });
      expect(r.status, JSON.stringify(r.body).slice(0, 400)).toBe(200);
      expect(r.body.status).toBe('succeeded');
      const result = r.body.result;
      expect(result.error, JSON.stringify(result.error)).toBeUndefined();
      expect(['live', 'cache']).toContain(result.source);
      const n = result.items?.length || result.data?.trends?.length || 0;
      expect(n).toBeGreaterThan(0);
    });
  }

  it('lists every platform of the registry in the catalog', async () => {
    const caps = await s.api('/v1/capabilities');
    expect(caps.body.providers.map((p: { source: string }) => p.source).sort()).toEqual(ADAPTERS.map((a) => a.id).sort());
    expect(ADAPTERS.length).toBeGreaterThanOrEqual(8);
  });
});

describe("the banner's preview example", () => {
  it('renders on a fresh demo with no crawl before it (the service finds the stream itself)', async () => {
    const fresh = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
    try {
      const first = await fetch(`${fresh.base}/v1/preview?platform=weibo&id=4645748019299849`);
      expect([200, 202]).toContain(first.status);
      await first.arrayBuffer();
      const clip = await until(async () => {
        const r = await fetch(`${fresh.base}/v1/preview?platform=weibo&id=4645748019299849`);
        const body = Buffer.from(await r.arrayBuffer());
        if (r.status === 404) throw new Error(body.toString());
        return r.status === 200 ? body : undefined;
      }, 60_000, 250);
      expect(clip.subarray(4, 8).toString()).toBe('ftyp');
    } finally {
      await fresh.close();
    }
  }, 90_000);
});

describe('replay is deterministic when recordings tie', () => {
  it('answers the same forced telegram.posts ten times in a row with the same items', async () => {
    const firsts: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'telegram', action: 'posts', params: { query: 'harborweather', limit: 5, force: true } } });
      expect(r.body.result.ok, `run ${i}: ${JSON.stringify(r.body.result.error)}`).toBe(true);
      firsts.push(r.body.result.items.map((it: any) => it.id).join(','));
    }
    expect(new Set(firsts).size).toBe(1);
  });
});

describe("the banner's examples in any order", () => {
  for (const [name, order] of [
    ['reversed', [...DEMO_EXAMPLES].reverse()],
    ['rotated', [...DEMO_EXAMPLES.slice(3), ...DEMO_EXAMPLES.slice(0, 3)]],
  ] as const) {
    it(`all succeed ${name}, on a fresh service`, async () => {
      const fresh = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
      try {
        for (const e of order) {
          const r = await fresh.api('/v1/tasks?wait=8000', { method: 'POST', json: { ...e, params: { ...e.params, force: true } } });
          expect(r.body.result?.error, `${e.source}.${e.action}: ${JSON.stringify(r.body.result?.error)}`).toBeUndefined();
        }
      } finally {
        await fresh.close();
      }
    });
  }
});

describe('the demo shows media', () => {
  it('every thumb and image of the banner tasks loads through /v1/media, and every video plays with no token', async () => {
    let images = 0;
    let videos = 0;
    for (const e of DEMO_EXAMPLES) {
      const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: e });
      for (const item of r.body.result.items ?? []) {
        for (const url of [item.thumb, ...(item.media ?? []).map((m: any) => m.url)].filter(Boolean)) {
          const res = await fetch(new URL(url, s.base), { headers: { range: 'bytes=0-' } });
          expect(res.status, `${e.source} ${url} ${res.status >= 300 ? await res.clone().text() : ''}`).toBeLessThan(300);
          expect(res.headers.get('content-type'), url).toMatch(/^(image|video)\//);
          await res.arrayBuffer();
          if (url.includes('kind=video')) videos++;
          else images++;
        }
      }
    }
    expect(images).toBeGreaterThan(10);
    expect(videos).toBeGreaterThan(0);
  });

  it("the README's preview example renders a clip whose frame and length are what the item announced", async () => {
    const detail = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'weibo', action: 'detail', params: { query: '4645748019299849' } } });
    const announced = detail.body.result.items[0].preview;
    expect(announced).toMatchObject({ url: '/v1/preview?platform=weibo&id=4645748019299849', w: 426, h: 240 });
    const clip = await until(async () => {
      const r = await fetch(`${s.base}/v1/preview?platform=weibo&id=4645748019299849`);
      const body = Buffer.from(await r.arrayBuffer());
      if (r.status === 404) throw new Error(body.toString());
      return r.status === 200 ? body : undefined;
    }, 60_000, 250);
    const file = join(mkdtempSync(join(tmpdir(), 'demo-preview-')), 'clip.mp4');
    writeFileSync(file, clip);
    const info = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height:format=duration', '-of', 'json', file], { encoding: 'utf8' }));
    expect({ w: info.streams[0].width, h: info.streams[0].height }).toEqual({ w: announced.w, h: announced.h });
    expect(Math.abs(Number(info.format.duration) - announced.seconds)).toBeLessThan(0.3);
  }, 90_000);
});

describe('write verbs name what they act on the same way everywhere', () => {
  it('comment.create and delete take target on reddit, mastodon and bluesky; query is refused', async () => {
    const catalog = (await s.api('/v1/task-sources')).body as Array<{ name: string; params: Array<{ name: string }> }>;
    for (const platform of ['reddit', 'mastodon', 'bluesky']) {
      for (const verb of ['comment.create', 'delete']) {
        const entry = catalog.find((e) => e.name === `${platform}.${verb}`)!;
        const names = entry.params.map((p) => p.name);
        expect(names, entry.name).toContain('target');
        expect(names, entry.name).not.toContain('query');
      }
    }
    const r = await s.api('/v1/tasks', { method: 'POST', json: { source: 'bluesky', action: 'delete', params: { query: 'at://did:plc:x/app.bsky.feed.post/3k', dry_run: true } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/query/);
  });
});

describe('replay mode never reaches a network', () => {
  it("refuses a human login on the platform's real site", async () => {
    const r = await s.api('/v1/profiles/weibo/default/login', { method: 'POST', json: {} });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'unsupported' });
    expect(r.body.error.message).toMatch(/replay mode/);
  });
});
