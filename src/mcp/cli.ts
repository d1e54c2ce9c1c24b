import type { Command } from 'commander';

/**
 * `crawler mcp`: registered on the main CLI and on the light entry (mcp/main.ts) that bin/crawler.js
 * uses for it, since an MCP client starts the bridge often and it needs none of the service's modules.
 */
export function addMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description("an MCP server on stdin/stdout for agents: forwards to a running service's /mcp (logs on stderr)")
    .option('--url <url>', 'the service (default: CRAWLER_URL, else http://127.0.0.1:<PORT or 8080>)')
    .option('--token <token>', 'an API token (default: CRAWLER_TOKEN); its scopes decide the tools')
    .option('--sources <list>', "list only these platforms' tools, comma-separated (e.g. weibo,bilibili)")
    .action(async (o: { url?: string; token?: string; sources?: string }) => {
      const { runStdioBridge, BridgeError, BRIDGE_EXIT } = await import('./bridge.js');
      const log = (line: string) => process.stderr.write(`${line}\n`);
      const token = o.token ?? process.env.CRAWLER_TOKEN;
      const port = /^\d+$/.test(process.env.PORT ?? '') ? process.env.PORT : '8080';
      if (!token) {
        log('crawler mcp: no token: pass --token or set CRAWLER_TOKEN (npx crawler tokens create --scopes read)');
        process.exit(BRIDGE_EXIT.usage);
      }
      try {
        await runStdioBridge({ url: o.url ?? process.env.CRAWLER_URL ?? `http://127.0.0.1:${port}`, token, sources: o.sources, log });
        process.exit(0);
      } catch (e) {
        if (!(e instanceof BridgeError)) throw e;
        log(`crawler mcp: ${e.message}`);
        process.exit(e.exitCode);
      }
    });
}
