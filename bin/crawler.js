#!/usr/bin/env node
// `npx crawler …`: the compiled CLI when dist/ is current, else the sources through tsx (no build step needed).
import { distIsFresh } from './dist.js';

// A caller's commands only talk HTTP, and `crawler mcp` is started by MCP clients, often: both start from a
// light entry that loads none of the service.
const command = process.argv[2] ?? '';
const entry = ['run', 'tasks', 'download', 'batch', 'export'].includes(command) ? 'cli/main' : command === 'mcp' ? 'mcp/main' : 'main';

if (distIsFresh()) {
  await import(`../dist/${entry}.js`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`../src/${entry}.ts`);
}
