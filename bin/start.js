#!/usr/bin/env node
// npm start / npm run demo: the compiled service (dist/), built first when src/ is newer.
// Without TypeScript installed and without a current build, the sources run through tsx instead.
import { buildDist, distIsFresh } from './dist.js';

if (distIsFresh() || buildDist()) {
  await import('../dist/main.js');
} else {
  process.stderr.write('dist/ is missing or stale and typescript is not installed: running the sources through tsx\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
