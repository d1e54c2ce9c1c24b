import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isInitializeRequest, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface BridgeOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  token: string;
  /** Lists only these platforms' tools (the service's ?sources=). */
  sources?: string;
  log: (line: string) => void;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/** Exit codes, so a wrapper script can tell a dead service from a refused token. */
export const BRIDGE_EXIT = { usage: 2, unreachable: 3, refused: 4 } as const;

export class BridgeError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const PREFLIGHT_MS = 10_000;

export function mcpEndpoint(base: string, sources?: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new BridgeError(`--url ${JSON.stringify(base)}: not a URL (expected e.g. http://127.0.0.1:8080)`, BRIDGE_EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BridgeError(`--url ${base}: expected http:// or https://`, BRIDGE_EXIT.usage);
  const endpoint = new URL('mcp', url.href.endsWith('/') ? url.href : `${url.href}/`);
  if (sources) endpoint.searchParams.set('sources', sources);
  return endpoint;
}

/** One MCP ping before anything is forwarded: a dead service or a refused token is said at once, not on the first tool call. */
async function preflight(endpoint: URL, token: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'preflight', method: 'ping' }),
      signal: AbortSignal.timeout(PREFLIGHT_MS),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new BridgeError(`cannot reach the crawler service at ${endpoint.origin}: ${cause?.code ?? cause?.message ?? (e as Error).message} (is it running? set --url or CRAWLER_URL)`, BRIDGE_EXIT.unreachable);
  }
  const text = await res.text().catch(() => '');
  if (res.ok) return;
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
  } catch {
    /* not the service's JSON error body */
  }
  if (res.status === 401 || res.status === 403) throw new BridgeError(`the crawler service refused the token (${res.status}): ${message}`, BRIDGE_EXIT.refused);
  if (res.status === 404 || res.status === 405) throw new BridgeError(`${endpoint.origin} has no MCP endpoint at /mcp (${res.status}): is this the crawler service?`, BRIDGE_EXIT.unreachable);
  throw new BridgeError(`${endpoint.href}: HTTP ${res.status}: ${message}`, BRIDGE_EXIT.unreachable);
}

/**
 * Speaks MCP on stdin/stdout and forwards every message to the service's /mcp with the bearer token,
 * so the tools exist in one place (the service). Resolves when stdin closes.
 */
export async function runStdioBridge(o: BridgeOptions): Promise<void> {
  const endpoint = mcpEndpoint(o.url, o.sources);
  await preflight(endpoint, o.token);
  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${o.token}` } } });
  const local = new StdioServerTransport(o.stdin as never, o.stdout as never);
  const initializeIds = new Set<string | number>();

  local.onmessage = (msg: JSONRPCMessage) => {
    if (isJSONRPCRequest(msg) && isInitializeRequest(msg)) initializeIds.add(msg.id);
    upstream.send(msg).catch((e: Error) => {
      const status = e instanceof StreamableHTTPError ? ` (HTTP ${e.code})` : '';
      o.log(`forwarding ${'method' in msg ? msg.method : 'a response'} failed${status}: ${e.message}`);
      // A request must get an answer, or the client waits forever.
      if (isJSONRPCRequest(msg)) void local.send({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: `crawler service: ${e.message}${status}` } });
    });
  };
  upstream.onmessage = (msg: JSONRPCMessage) => {
    // Later requests must carry the negotiated version (Mcp-Protocol-Version), as the SDK's own client does.
    if (isJSONRPCResultResponse(msg) && initializeIds.delete(msg.id)) {
      const version = (msg.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') upstream.setProtocolVersion(version);
    }
    void local.send(msg);
  };
  upstream.onerror = (e) => o.log(`service: ${e.message}`);
  local.onerror = (e) => o.log(`stdin: ${e.message}`);

  await upstream.start();
  await local.start();
  o.log(`crawler mcp: forwarding stdio to ${endpoint.href}`);
  const stdin = o.stdin ?? process.stdin;
  await new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  await local.close();
  await upstream.close();
}
