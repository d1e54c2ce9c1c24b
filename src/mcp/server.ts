import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Caller } from '../tasks/service.js';
import type { McpTools } from './calls.js';

const INSTRUCTIONS = [
  'Each platform tool (named <source>_<action>, e.g. weibo_search) runs one crawl task and waits for it briefly.',
  'structuredContent is the task: task_id, status, and when succeeded its result in the normalized shape of the action.',
  'result.source says where it came from: live, cache (age_s old), empty (the platform honestly had nothing) or blocked (a bot-check: retry later, it is not a login problem).',
  'A task still running when the call returns keeps running: follow it with get_task (wait_s) or stop it with cancel_task.',
  'Paging: pass a result\'s next_cursor (comments: cursor) back as the cursor argument.',
  'Write tools (post_create, comment_create, delete) take two calls: the first returns the plan and posts nothing; show it to the user, then call again with confirm: true and the same idempotency_key.',
].join(' ');

/**
 * An MCP server for one request of one token: its tools are the ones that token may call. Built per
 * request (stateless streamable HTTP): nothing is kept between requests, so there are no sessions to bound.
 */
export function mcpServerFor(tools: McpTools, caller: Caller, sources: ReadonlySet<string> | undefined, version: string, validator: jsonSchemaValidator): Server {
  const server = new Server({ name: 'crawler', version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list(caller.scopes, sources) }));
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => tools.call(req.params.name, req.params.arguments, caller, extra.signal));
  return server;
}
