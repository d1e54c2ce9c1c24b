// Preview render benchmark: a 60 s 720p source rendered by the service (queue, its own media proxy,
// ffmpeg) beside the bare ffmpeg command with the same arguments reading the same CDN directly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clipArgs, probe, run } from '../src/media/preview/ffmpeg.js';
import { startFakeCdn } from '../test/helpers/fake-cdn.js';
import { startFakePlatform } from '../test/helpers/fake-platform.js';
import { hd60Mp4 } from '../test/helpers/media-files.js';
import { startService } from '../test/helpers/service.js';

const RUNS = Number(process.env.BENCH_PREVIEW_RUNS ?? 3);
const SOURCE_S = 60;

hd60Mp4(); // made once per machine, outside the timings
const cdn = await startFakeCdn();
const fake = await startFakePlatform('fake', { base: cdn.base, ttlMs: 3_600_000 });
const s = await startService({
  adapters: [fake.adapter],
  config: { previewWorkers: 1 },
  media: { resolve: async () => [{ address: '127.0.0.1', family: 4 }], allowAddress: (a) => a === '127.0.0.1', extraPorts: [cdn.port] },
});
const out = mkdtempSync(join(tmpdir(), 'bench-preview-'));

async function bare(k: number): Promise<number> {
  const file = join(out, `bare-${k}.mp4`);
  const t = performance.now();
  const r = await run('ffmpeg', clipArgs(`http://127.0.0.1:${cdn.port}/hd60.mp4?k=bare${k}`, file, ''), 600_000);
  if (r.code !== 0) throw new Error(`bare ffmpeg failed: ${r.stderr}`);
  return (performance.now() - t) / 1000;
}

async function service(k: number): Promise<{ s: number; h: number; seconds: number }> {
  const q = `hd60-${k}`;
  const crawl = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: q } } });
  const item = crawl.body.result.items[0];
  const t = performance.now();
  const state = await s.svc.previews.render('fake', item.id.slice('fake:'.length));
  const took = (performance.now() - t) / 1000;
  if (state.status !== 'ready') throw new Error(`service render ended ${JSON.stringify(state)}`);
  return { s: took, h: state.h, seconds: state.seconds };
}

try {
  // One warm-up of each so neither side pays for cold caches in the timings.
  await bare(0);
  await service(0);
  const bareT: number[] = [];
  const svcT: number[] = [];
  let shape = { h: 0, seconds: 0 };
  for (let i = 1; i <= RUNS; i++) {
    bareT.push(await bare(i));
    const r = await service(i);
    svcT.push(r.s);
    shape = r;
  }
  const clip = await probe(join(out, `bare-${RUNS}.mp4`));
  const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  const b = mean(bareT);
  const v = mean(svcT);
  console.log(`\nPreview render benchmark (60 s 1280x720 30 fps H.264 source on the loopback CDN, ${RUNS} runs each, alternating)\n`);
  console.log(`bare ffmpeg, same arguments, reading the CDN: ${b.toFixed(2)} s (runs ${bareT.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`service render through /v1/media:            ${v.toFixed(2)} s (runs ${svcT.map((x) => x.toFixed(2)).join(', ')})`);
  console.log(`ratio bare/service ${(b / v).toFixed(3)}; service render takes ${((v / SOURCE_S) * 100).toFixed(1)}% of real time (${(SOURCE_S / v).toFixed(1)}x faster than playback)`);
  console.log(`clip: ${shape.h} px high, ${shape.seconds.toFixed(1)} s; bare output ${clip.height} px, ${clip.seconds.toFixed(1)} s`);
} finally {
  await s.close();
  await fake.close();
  await cdn.close();
  rmSync(out, { recursive: true, force: true });
}
