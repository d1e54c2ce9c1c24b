// A whole-suite run builds dist/ once before any test, so the tests that spawn the CLI or the service
// (bin/crawler.js, npm start) run compiled code instead of each spawned process transpiling the sources
// through tsx. A run of chosen files skips it (bin/crawler.js falls back to tsx): no build per edit.
import { buildDist, distIsFresh } from '../../bin/dist.js';

export default function setup(): void {
  const args = process.argv.slice(process.argv.indexOf('run') + 1);
  const filtered = args.some((a) => !a.startsWith('-') && !/^vitest(\.fleet)?\.config\.ts$/.test(a));
  if (filtered || distIsFresh()) return;
  if (!buildDist()) process.stderr.write('TypeScript is not installed: spawned CLI processes run the sources through tsx\n');
}
