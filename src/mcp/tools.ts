import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogEntry } from '../domain/catalog.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import type { ActionDef } from '../platforms/types.js';
import { inputSchema, TASK_OUTPUT_SCHEMA } from './schema.js';

/** A tool that submits one catalog action as a task. */
export interface CatalogTool {
  tool: Tool;
  entry: CatalogEntry;
  source: string;
  action: string;
  write: boolean;
}

/** MCP tool names allow [A-Za-z0-9_-]: `reddit.post.create` becomes `reddit_post_create`. */
export const toolName = (catalogName: string) => catalogName.replace(/[^A-Za-z0-9_-]/g, '_');

function returns(action: string, def: ActionDef): string {
  switch (def.shape) {
    case 'items': {
      if (action === 'detail') return 'Returns one item (shape A) whose media[].url plays.';
      let text = 'Returns shape A: items (normalized cards: id, type, title, text, author, url, thumb, media, stats, ts), source (live, cache, empty or blocked), next_cursor: pass it back as cursor for the next page.';
      if (def.walk) text += ' max_items walks the back catalogue (-1: the whole account; paced, can outlast the inline wait: then poll get_task).';
      return text;
    }
    case 'comments':
      return 'Returns shape B: items (comments: cid, text, likes, reply_total, handle, parent_id for replies), total, has_more, cursor for the next page. replies: none|first|all (all pages every thread where the platform can); max_items walks pages to that many comments (-1: all; paced, can outlast the inline wait: then poll get_task).';
    case 'creator':
      return 'Returns shape C: data.author (handle, name, bio, followers, following, posts, likes; 0 means not reported).';
    case 'trends':
      return 'Returns shape D: data.trends (word, rank, hot_value, url).';
    case 'write':
      return 'Writes on the platform (write scope). Two steps: without confirm it returns the plan and posts nothing; with confirm: true and the same idempotency_key it runs once, never retried (shape E: state published, deleted, rejected, ...).';
    case 'download':
      return "Stores the post's video or images on the service, watermark-free where the platform offers it (media: video, image or any; quality: best or smallest). Returns shape A with one item plus files[]: id, url (a signed service URL that opens without a token; 404 once the quota evicted it), kind, mime, bytes, sha256, w, h, duration_s, source_quality (which stream it is: says when it is watermarked), name.";
  }
}

/** One tool per catalog entry; built once, since the catalog is fixed for the life of the process. */
export function catalogTools(catalog: CatalogIndex): Map<string, CatalogTool> {
  const tools = new Map<string, CatalogTool>();
  for (const entry of catalog.entries) {
    const dot = entry.name.indexOf('.');
    const source = entry.name.slice(0, dot);
    const action = entry.name.slice(dot + 1);
    const def = catalog.get(source, action)?.def;
    if (!def) continue;
    const write = entry.write === true;
    const name = toolName(entry.name);
    if (tools.has(name)) throw new Error(`two catalog entries map to the MCP tool name ${name}`);
    const destructive = action === 'delete';
    tools.set(name, {
      entry,
      source,
      action,
      write,
      tool: {
        name,
        title: `${source} ${action}`,
        description: `${entry.summary} (${entry.name}). ${returns(action, def)}`,
        inputSchema: inputSchema(entry.params, write),
        outputSchema: TASK_OUTPUT_SCHEMA,
        annotations: { readOnlyHint: !write, destructiveHint: destructive, idempotentHint: !write, openWorldHint: true },
      },
    });
  }
  return tools;
}

/** admin implies both read and write; the generic tools need only a valid token. */
export function mayUse(scopes: readonly string[], write: boolean): boolean {
  return scopes.includes('admin') || scopes.includes(write ? 'write' : 'read');
}
