#!/usr/bin/env node
// `npx crawler …`: the compiled CLI when dist/ is current, else the sources through tsx (no build step needed).
import { distIsFresh } from './dist.js';

// `crawler mcp` is started by MCP clients, often: its own light entry skips loading the whole service.
const entry = process.argv[2] === 'mcp' ? 'mcp/main' : 'main';
if (distIsFresh()) {
  await import(`../dist/${entry}.js`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`../src/${entry}.ts`);
}
