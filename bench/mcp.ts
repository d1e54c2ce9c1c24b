// MCP: what a tools/list weighs per token, a cached tool call beside the same cached POST /v1/tasks,
// and how long `crawler mcp` takes from spawn to a listed tool (light entry beside the main CLI).
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startService } from '../test/helpers/service.js';
import { mcpClient } from '../test/helpers/mcp.js';

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 300);
const SPAWNS = Number(process.env.BENCH_MCP_SPAWNS ?? 3);

const s = await startService({ config: { replay: [resolve('sandbox')] } });
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const ms = (n: number) => n.toFixed(1).padStart(8);

try {
  const read = await s.token(['read']);
  const admin = await s.token(['admin']);

  console.log('\nMCP tools/list (JSON bytes of the tools array)');
  for (const [name, token, query] of [['read token', read, ''], ['admin token', admin, ''], ['read token, ?sources=weibo', read, '?sources=weibo']] as const) {
    const client = await mcpClient(s.base, token, query);
    const { tools } = await client.listTools();
    console.log(`  ${name.padEnd(30)}${String(tools.length).padStart(5)} tools ${String(JSON.stringify(tools).length).padStart(9)} B`);
    await client.close();
  }

  const args = { query: '洛天依', limit: 5 };
  const client = await mcpClient(s.base, read);
  await client.callTool({ name: 'bilibili_search', arguments: args });
  const viaMcp: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await client.callTool({ name: 'bilibili_search', arguments: args });
    viaMcp.push(performance.now() - t);
  }
  await client.close();
  const viaHttp: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'bilibili', action: 'search', params: args }, token: read });
    viaHttp.push(performance.now() - t);
  }
  console.log(`\nA cached bilibili search, ${CALLS} sequential calls (ms)          p50     p99`);
  console.log(`  tools/call bilibili_search (SDK client)            ${ms(quantile(viaMcp, 0.5))}${ms(quantile(viaMcp, 0.99))}`);
  console.log(`  POST /v1/tasks?wait=8000 (fetch)                   ${ms(quantile(viaHttp, 0.5))}${ms(quantile(viaHttp, 0.99))}`);

  console.log(`\ncrawler mcp from spawn to the first tools/list answer (${SPAWNS} runs, median ms)`);
  for (const [name, args] of [
    ['npx crawler mcp (bin/crawler.js, light entry)', [resolve('bin/crawler.js'), 'mcp']],
    ['node --import tsx src/main.ts mcp', ['--import', 'tsx', resolve('src/main.ts'), 'mcp']],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < SPAWNS; i++) {
      const t = performance.now();
      const stdio = new Client({ name: 'bench', version: '1' });
      await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [...args, '--url', s.base, '--token', read], stderr: 'ignore' }));
      await stdio.listTools();
      times.push(performance.now() - t);
      await stdio.close();
    }
    console.log(`  ${name.padEnd(50)}${ms(quantile(times, 0.5))}`);
  }
} finally {
  await s.close();
}
