#!/usr/bin/env node
// `npx crawler …`: the compiled CLI when dist/ is current, else the sources through tsx (no build step needed).
import { distIsFresh } from './dist.js';

if (distIsFresh()) {
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
