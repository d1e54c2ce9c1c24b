import { describe, expect, it } from 'vitest';
import { CatalogEntrySchema } from '../../src/domain/catalog.js';
import type { FakePlatform } from '../helpers/fake-platform.js';
import { useFakeService } from '../helpers/fake-service.js';
import { type Running } from '../helpers/service.js';
import type { SqliteStore } from '../../src/store/sqlite.js';

let fake: FakePlatform;
let s: Running;
useFakeService((f, r) => ([fake, s] = [f, r]));

describe('catalog and discovery', () => {
  it('lists every source.action from the registry with its params', async () => {
    const r = await s.api('/v1/task-sources');
    expect(r.status).toBe(200);
    const names = r.body.map((e: any) => e.name).sort();
    expect(names).toEqual(['fake.comments', 'fake.detail', 'fake.hot', 'fake.post.create', 'fake.posts', 'fake.search', 'fake.trending', 'fake.user']);
    for (const e of r.body) expect(() => CatalogEntrySchema.parse(e)).not.toThrow();
    const posts = r.body.find((e: any) => e.name === 'fake.posts');
    expect(posts.group).toBe('fake');
    const byName = Object.fromEntries(posts.params.map((p: any) => [p.name, p]));
    expect(byName.query).toMatchObject({ type: 'string', required: true });
    expect(byName.limit).toMatchObject({ type: 'integer', default: 24, max: 100 });
    expect(byName.max_items).toMatchObject({ type: 'integer', min: -1 });
    const search = r.body.find((e: any) => e.name === 'fake.search');
    expect(search.params.some((p: any) => p.name === 'max_items')).toBe(false);
  });

  it('groups capabilities by provider and lists categories', async () => {
    const caps = await s.api('/v1/capabilities');
    expect(caps.body).toEqual({
      providers: [{ source: 'fake', name: 'Fake', region: 'global', actions: ['search', 'posts', 'detail', 'hot', 'user', 'comments', 'post.create', 'trending'], auth: 'none', write: true, categories: true }],
    });
    const cats = await s.api('/v1/categories?source=fake');
    expect(cats.body).toEqual({ source: 'fake', categories: [{ id: 'all', name: 'All', actions: ['hot'] }, { id: 'news', name: 'News', actions: ['hot'] }] });
  });

  it('reports health without account data, and profiles without cookies', async () => {
    const h = await s.api('/v1/health', { token: null });
    expect(h.body).toMatchObject({ ok: true, mode: 'embedded', replay: false, workers: 4, queue: { queued: 0, running: 0 } });
    expect(typeof h.body.ffmpeg).toBe('boolean');
    expect(typeof h.body.browser).toBe('boolean');
    expect(typeof h.body.uptime_s).toBe('number');
    (s.svc.store as SqliteStore).db.prepare("INSERT INTO profiles (platform, name, cookies, health) VALUES ('fake', 'default', 'SESSION=secret', 'ok')").run();
    const p = await s.api('/v1/profiles');
    expect(p.body).toEqual({ profiles: [{ platform: 'fake', name: 'default', health: 'ok', checked_at: null, used_at: null, egress: 'direct', pool: null, tasks_1h: 0, success_rate_1h: null, block_rate_1h: null }] });
    expect(p.text).not.toContain('secret');
  });

  it('exposes Prometheus metrics', async () => {
    await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'metrics' } } });
    const m = await s.api('/metrics');
    expect(m.headers.get('content-type')).toMatch(/text\/plain/);
    expect(m.text).toMatch(/crawler_tasks_submitted_total\{source="fake",action="search"\} \d+/);
    expect(m.text).toMatch(/crawler_tasks_finished_total\{[^}]*outcome="live"[^}]*\} \d+/);
    expect(m.text).toMatch(/crawler_tasks_in_queue\{status="queued"\} 0/);
  });

  it('serves an agent guide generated from the catalog', async () => {
    const g = await s.api('/docs/agent.txt', { token: null });
    expect(g.headers.get('content-type')).toMatch(/text\/plain/);
    for (const e of ['fake.search', 'fake.posts', 'fake.comments', 'fake.trending', 'fake.user', 'fake.hot', 'fake.post.create']) expect(g.text).toContain(e);
    expect(g.text).toContain('Authorization: Bearer');
    expect(g.text).toMatch(/category \(string, optional, one of all\|news/);
  });
});
