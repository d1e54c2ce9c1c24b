// The fleet tests run the compiled service in child processes: build dist/ once, before any of them.
import { buildDist, distIsFresh } from '../../bin/dist.js';

export default function setup(): void {
  if (!distIsFresh() && !buildDist()) throw new Error('the fleet tests run dist/main.js and TypeScript is not installed to build it: npm install');
}
