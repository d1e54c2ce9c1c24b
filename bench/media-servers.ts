// Child process of bench/media.ts: the real service proxying the loopback CDN.
import { startFakePlatform } from '../test/helpers/fake-platform.js';
import { startService } from '../test/helpers/service.js';

const cdnBase = process.env.BENCH_CDN_BASE as string;
const cdnPort = Number(new URL(cdnBase).port);
const fake = await startFakePlatform('fake', { base: cdnBase, ttlMs: 3_600_000 });
const s = await startService({
  adapters: [fake.adapter],
  config: { mediaMaxVideoBytes: 512 * 1024 * 1024 },
  media: { resolve: async () => [{ address: '127.0.0.1', family: 4 }], allowAddress: (a) => a === '127.0.0.1', extraPorts: [cdnPort] },
});
const token = await s.token(['read']);
process.send?.({ service: s.base, token });
process.on('message', (m: { cmd: string }) => {
  if (m.cmd === 'rss') process.send?.({ maxRssMb: process.resourceUsage().maxRSS / 1024, rssMb: process.memoryUsage().rss / 1024 / 1024 });
  if (m.cmd === 'stop') void Promise.all([s.close(), fake.close()]).then(() => process.exit(0));
});
