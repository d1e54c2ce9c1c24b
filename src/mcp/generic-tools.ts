import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { TASK_OUTPUT_SCHEMA } from './schema.js';

const TASK_ID = { type: 'string', minLength: 1, maxLength: 64, description: 'the task_id a tool call answered with' };

/** Tools that are not catalog actions: following up on a task, and what exists. */
export function genericTools(waitMs: number): Tool[] {
  const waitMaxS = Math.floor(waitMs / 1000);
  return [
    {
      name: 'get_task',
      title: 'get task',
      description: `The task's status and, once it has finished, its result (the same structuredContent the tool that started it answers). wait_s waits up to that many seconds (at most ${waitMaxS}) for it to finish.`,
      inputSchema: {
        type: 'object',
        properties: { task_id: TASK_ID, wait_s: { type: 'integer', minimum: 0, maximum: waitMaxS, default: 0, description: 'wait up to this many seconds for the task to finish' } },
        required: ['task_id'],
        additionalProperties: false,
      },
      outputSchema: TASK_OUTPUT_SCHEMA,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'cancel_task',
      title: 'cancel task',
      description: 'Cancels a queued or running task (a running crawl is aborted). A task that already ended is returned unchanged.',
      inputSchema: { type: 'object', properties: { task_id: TASK_ID }, required: ['task_id'], additionalProperties: false },
      outputSchema: TASK_OUTPUT_SCHEMA,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'list_sources',
      title: 'list sources',
      description: 'The platforms and the tools this token may call for each (source.action, tool name, summary, whether it writes). Optionally for one source.',
      inputSchema: { type: 'object', properties: { source: { type: 'string', description: 'one platform, e.g. weibo' } }, additionalProperties: false },
      outputSchema: {
        type: 'object',
        properties: {
          sources: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                source: { type: 'string' },
                tools: { type: 'array', items: { type: 'object', properties: { tool: { type: 'string' }, action: { type: 'string' }, summary: { type: 'string' }, write: { type: 'boolean' } } } },
              },
            },
          },
          ok: { type: 'boolean' },
          error: { type: 'object' },
        },
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}
