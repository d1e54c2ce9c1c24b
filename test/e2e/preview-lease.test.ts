import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBlobUrl } from '../../src/blobs/open.js';
import { startFakeCdn, type FakeCdn } from '../helpers/fake-cdn.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { mediaFiles } from '../helpers/media-files.js';
import { testSchema } from '../helpers/postgres.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';
import { startService, until, type Running } from '../helpers/service.js';

/*
 * Two processes of a fleet (one crawling, one API only) on one Postgres schema and one clip directory
 * (CRAWLER_BLOB_URL=file://…, a shared disk): a clip asked of both at once is rendered once, by whichever
 * takes the render lease, and served by both.
 */
const prefix = testPrefix('lease');
const blobDir = mkdtempSync(join(tmpdir(), 'preview-lease-'));
let schema: Awaited<ReturnType<typeof testSchema>>;
let cdn: FakeCdn;
let fake: FakePlatform;
let a: Running;
let b: Running;

beforeAll(async () => {
  await requireRedis();
  mediaFiles();
  schema = await testSchema();
  cdn = await startFakeCdn();
  fake = await startFakePlatform('fake', { base: cdn.base, ttlMs: 600_000 });
  const config = {
    databaseUrl: schema.url,
    databaseSchema: schema.schema,
    redisUrl: TEST_REDIS_URL,
    redisPrefix: prefix,
    secretKey: 'c'.repeat(64),
    previewWorkers: 2,
    blob: parseBlobUrl(`file://${blobDir}`),
  };
  const media = { resolve: async (host: string) => (host === 'cdn.fake.test' ? [{ address: '127.0.0.1', family: 4 as const }] : []), allowAddress: (x: string) => x === '127.0.0.1', extraPorts: [cdn.port] };
  // A short lease and poll so the expiry case takes a second, not a minute.
  const fleet = { previewLeaseMs: 1500, previewPollMs: 100 };
  a = await startService({ adapters: [fake.adapter], config, media, fleet, deployment: { mode: 'distributed', role: 'all' } });
  b = await startService({ adapters: [fake.adapter], config, media, fleet, deployment: { mode: 'distributed', role: 'api' } });
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await fake?.close();
  await cdn?.close();
  await dropPrefix(prefix);
  await schema?.drop();
  rmSync(blobDir, { recursive: true, force: true });
});

const renders = () => a.svc.previews.rendersStarted + b.svc.previews.rendersStarted;
const preview = (s: Running, id: string, headers: Record<string, string> = {}) => fetch(`${s.base}/v1/preview?platform=fake&id=${id}`, { headers });
async function crawl(query: string, limit: number) {
  const r = await b.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query, limit, force: true } } });
  expect(r.body.status, JSON.stringify(r.body).slice(0, 300)).toBe('succeeded');
}
async function clipOf(s: Running, id: string): Promise<Buffer> {
  return until(async () => {
    const r = await preview(s, id);
    const body = Buffer.from(await r.arrayBuffer());
    if (r.status === 200) return body;
    expect(r.status, body.toString()).toBe(202);
    return undefined;
  }, 60_000, 100);
}

describe('preview render lease across processes', () => {
  it('the same preview asked of both processes at once is rendered once and served by both, with Range', async () => {
    await crawl('lease-http', 3);
    const before = renders();
    const first = await Promise.all([preview(a, '1003'), preview(b, '1003'), preview(b, '1003'), preview(a, '1003')]);
    for (const r of first) {
      expect(r.status).toBe(202);
      await r.arrayBuffer();
    }
    const [fromA, fromB] = await Promise.all([clipOf(a, '1003'), clipOf(b, '1003')]);
    expect(renders()).toBe(before + 1);
    expect(fromA.subarray(4, 8).toString()).toBe('ftyp');
    expect(fromB.equals(fromA)).toBe(true);
    for (const s of [a, b]) {
      const part = await preview(s, '1003', { range: 'bytes=4-7' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 4-7/${fromA.length}`);
      expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('ftyp');
    }
    expect(await a.svc.store.previewGet('fake', '1003')).toMatchObject({ state: 'ready', owner: null, lease_until: null });
  }, 90_000);

  it('a render awaited on both processes at once: the loser waits for the winner\'s clip and answers it', async () => {
    await crawl('lease-wait', 6);
    const before = renders();
    const [onA, onB] = await Promise.all([a.svc.previews.render('fake', '1006'), b.svc.previews.render('fake', '1006')]);
    expect(onA).toMatchObject({ status: 'ready' });
    expect(onB).toEqual(onA);
    expect(renders()).toBe(before + 1);
  }, 90_000);

  it('a lease whose holder died is taken over once it runs out', async () => {
    await crawl('lease-dead', 9);
    // A process that claimed the clip, then stopped renewing (killed).
    const now = Date.now();
    expect(await a.svc.store.previewClaim({ platform: 'fake', native_id: '1009', owner: 'dead-process', now, lease_until: now + 1000 })).toBe(true);
    const before = renders();
    expect((await preview(b, '1009')).status).toBe(202);
    expect(renders()).toBe(before);
    const waited = b.svc.previews.render('fake', '1009');
    expect(await waited).toMatchObject({ status: 'ready' });
    expect(Date.now() - now).toBeGreaterThanOrEqual(1000);
    expect(renders()).toBe(before + 1);
    expect((await clipOf(a, '1009')).subarray(4, 8).toString()).toBe('ftyp');
  }, 90_000);
});
