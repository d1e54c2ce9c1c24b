import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's own client on the service's /mcp with a bearer token. */
export async function mcpClient(base: string, token: string, query = ''): Promise<Client> {
  const client = new Client({ name: 'crawler-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

export interface ToolAnswer {
  text: string;
  data: any;
  isError: boolean;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { text, data: r.structuredContent, isError: r.isError === true };
}
