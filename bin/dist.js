// The compiled service in dist/: whether it is current, and building it with tsc when it is not.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'dist', '.built');
const INPUTS = ['package.json', 'tsconfig.json', 'tsconfig.build.json'];

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

/** True when dist/ was built after the last change to src/ or the build's configuration. */
export function distIsFresh() {
  if (!existsSync(STAMP) || !existsSync(join(ROOT, 'dist', 'main.js'))) return false;
  const built = statSync(STAMP).mtimeMs;
  return newest(join(ROOT, 'src')) <= built && INPUTS.every((f) => !existsSync(join(ROOT, f)) || statSync(join(ROOT, f)).mtimeMs <= built);
}

/** Runs tsc; false when TypeScript is not installed (a production install without dev dependencies). */
export function buildDist() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return false;
  }
  process.stderr.write('building dist/ with tsc (src/ changed since the last build)...\n');
  const started = Date.now();
  const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('tsc failed: see the errors above (npm run typecheck shows them too)');
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!buildDist()) {
    process.stderr.write('typescript is not installed: run npm install first\n');
    process.exit(1);
  }
}
