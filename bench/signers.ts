// Native signer cost per request (X-Bogus, a_bogus) and a whole replayed douyin detail, in one run.
import { browserFingerprint, aBogus } from '../src/crawl/bytedance/abogus.js';
import { xBogus } from '../src/crawl/bytedance/xbogus.js';
import { webQuery } from '../src/platforms/douyin/api.js';

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const query = webQuery(UA, { aweme_id: '7300000000000000001' }, 'x'.repeat(156));
const fp = browserFingerprint();

function rate(name: string, n: number, f: () => unknown): void {
  for (let i = 0; i < 200; i++) f();
  const t = performance.now();
  for (let i = 0; i < n; i++) f();
  const ms = performance.now() - t;
  console.log(`${name.padEnd(34)} ${Math.round((n / ms) * 1000).toLocaleString('en')} signs/s  (${((ms * 1000) / n).toFixed(1)} µs each, query ${query.length} B)`);
}

console.log('\nsigners');
rate('X-Bogus', 20_000, () => xBogus(query, UA));
rate('a_bogus', 20_000, () => aBogus({ query, userAgent: UA, fingerprint: fp }));
