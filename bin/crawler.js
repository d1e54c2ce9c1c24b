#!/usr/bin/env node
// `npx crawler …`: the compiled CLI when dist/ is current, else the sources through tsx (no build step needed).
import { distIsFresh } from './dist.js';

// A caller's commands only talk HTTP: they start from an entry that loads none of the service.
const entry = ['run', 'tasks'].includes(process.argv[2] ?? '') ? 'cli/main' : 'main';

if (distIsFresh()) {
  await import(`../dist/${entry}.js`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`../src/${entry}.ts`);
}
