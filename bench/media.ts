// Media proxy benchmark: 50 MB through the proxy beside a direct fetch, and 200 concurrent image requests.
import { fork } from 'node:child_process';
import { request } from 'undici';

const cdnChild = fork('bench/cdn.ts', [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const cdnInfo = await new Promise<{ port: number; base: string }>((resolve) => cdnChild.once('message', (m) => resolve(m as never)));
const child = fork('bench/media-servers.ts', [], { execArgv: ['--import', 'tsx'], env: { ...process.env, LOG_LEVEL: 'silent', BENCH_CDN_BASE: cdnInfo.base }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const svc = await new Promise<{ service: string; token: string }>((resolve) => child.once('message', (m) => resolve(m as never)));
const info = { ...svc, cdn: cdnInfo.base, direct: `http://127.0.0.1:${cdnInfo.port}` };
const rawChild = fork('bench/raw-proxy.ts', [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_CDN_PORT: String(cdnInfo.port) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const raw = await new Promise<{ port: number }>((resolve) => rawChild.once('message', (m) => resolve(m as never)));
const ask = <T>(cmd: string) => new Promise<T>((resolve) => {
  child.once('message', (m) => resolve(m as T));
  child.send({ cmd });
});

async function drain(url: string, headers: Record<string, string> = {}): Promise<{ bytes: number; ms: number }> {
  const t = performance.now();
  const res = await request(url, { headers });
  let bytes = 0;
  for await (const c of res.body) bytes += (c as Buffer).length;
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} for ${url}`);
  return { bytes, ms: performance.now() - t };
}

const MB = 50;
const bigOrigin = `${info.cdn}/big?mb=${MB}`;
const proxied = `${info.service}/v1/media?u=${encodeURIComponent(bigOrigin)}&kind=video&platform=fake`;
const auth = { authorization: `Bearer ${info.token}` };
await drain(`${info.direct}/big?mb=${MB}`);
await drain(proxied, auth);
const runs = 3;
let direct = 0;
let proxy = 0;
let bare = 0;
const rate = (r: { bytes: number; ms: number }) => r.bytes / 1024 / 1024 / (r.ms / 1000);
for (let i = 0; i < runs; i++) {
  direct += rate(await drain(`${info.direct}/big?mb=${MB}`));
  proxy += rate(await drain(proxied, auth));
  bare += rate(await drain(`http://127.0.0.1:${raw.port}/big?mb=${MB}`));
}
direct /= runs;
proxy /= runs;
bare /= runs;

const N = 200;
const img = `${info.service}/v1/media?u=${encodeURIComponent(`${info.cdn}/img.jpg`)}`;
const lat: number[] = [];
for (let round = 0; round < 3; round++) {
  const all = Array.from({ length: N }, async () => {
    const t = performance.now();
    const res = await request(img);
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    lat.push(performance.now() - t);
  });
  await Promise.all(all);
}
lat.sort((a, b) => a - b);
const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
const mem = await ask<{ maxRssMb: number; rssMb: number }>('rss');
child.send({ cmd: 'stop' });
cdnChild.send('stop');
rawChild.send('stop');

console.log(`\nMedia proxy benchmark (loopback CDN, one machine)\n`);
console.log(`50 MB stream, mean of ${runs}: direct ${direct.toFixed(0)} MB/s, through /v1/media ${proxy.toFixed(0)} MB/s, ratio ${(proxy / direct).toFixed(2)}`);
console.log(`  for scale: a bare node:http pipe proxy on the same path ${bare.toFixed(0)} MB/s (ratio ${(bare / direct).toFixed(2)}); /v1/media vs that floor ${(proxy / bare).toFixed(2)}`);
console.log(`${N} concurrent image requests x3: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms; service peak RSS ${mem.maxRssMb.toFixed(0)} MB`);
