import { randomUUID } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../domain/errors.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import type { TaskRow } from '../store/types.js';
import { taskJson } from '../tasks/serialize.js';
import type { Caller, TaskService } from '../tasks/service.js';
import { NeedsConfirmation, publicParams } from '../tasks/writes.js';
import { genericTools } from './generic-tools.js';
import { summarizeTask, taskError } from './summary.js';
import { catalogTools, mayUse, type CatalogTool } from './tools.js';

export interface McpToolsDeps {
  tasks: TaskService;
  catalog: CatalogIndex;
  /** How long a tool call waits for its task before answering with the task id to poll. */
  waitMs: number;
}

type Args = Record<string, unknown>;

/** The tools and what calling each does; one per process, shared by every MCP request. */
export class McpTools {
  private readonly catalogTools: Map<string, CatalogTool>;
  private readonly generic: Tool[];
  /** Tool lists per scope combination: there are only a handful. */
  private readonly lists = new Map<string, Tool[]>();

  constructor(private readonly d: McpToolsDeps) {
    this.catalogTools = catalogTools(d.catalog);
    this.generic = genericTools(d.waitMs);
  }

  /**
   * What this token may call: reads with read, writes with write, admin both; the generic tools always.
   * sources narrows the listing (the whole catalog is a lot of schema for an agent to read).
   */
  list(scopes: readonly string[], sources?: ReadonlySet<string>): Tool[] {
    const key = ['read', 'write', 'admin'].filter((s) => scopes.includes(s)).join(',');
    let tools = this.lists.get(key);
    if (!tools) {
      tools = [...this.catalogTools.values()].filter((t) => mayUse(scopes, t.write)).map((t) => t.tool);
      this.lists.set(key, tools);
    }
    const listed = sources ? tools.filter((t) => sources.has(this.catalogTools.get(t.name)!.source)) : tools;
    return [...listed, ...this.generic];
  }

  async call(name: string, args: Args | undefined, caller: Caller, signal: AbortSignal): Promise<CallToolResult> {
    try {
      switch (name) {
        case 'get_task':
          return await this.getTask(args ?? {}, caller, signal);
        case 'cancel_task':
          return this.taskResult(await this.d.tasks.cancel(taskIdOf(args ?? {}, ['task_id']), caller), 0);
        case 'list_sources':
          return this.listSources(args ?? {}, caller);
      }
      const tool = this.catalogTools.get(name);
      if (!tool) throw new ApiError('unsupported', `no tool "${name.slice(0, 80)}": list_sources shows what exists`);
      return await this.runAction(tool, args ?? {}, caller, signal);
    } catch (e) {
      if (e instanceof ApiError) return refusal(e);
      throw e;
    }
  }

  private async runAction(tool: CatalogTool, args: Args, caller: Caller, signal: AbortSignal): Promise<CallToolResult> {
    const started = Date.now();
    let row: TaskRow;
    try {
      row = await this.d.tasks.submit({ source: tool.source, action: tool.action, params: args, ...caller });
    } catch (e) {
      if (e instanceof NeedsConfirmation) return planResult(tool.tool.name, e.body, args);
      throw e;
    }
    row = await this.d.tasks.wait(row, this.d.waitMs, signal);
    return this.taskResult(row, Math.round((Date.now() - started) / 1000));
  }

  private async getTask(args: Args, caller: Caller, signal: AbortSignal): Promise<CallToolResult> {
    const id = taskIdOf(args, ['task_id', 'wait_s']);
    const waitS = args.wait_s ?? 0;
    const maxS = Math.floor(this.d.waitMs / 1000);
    if (typeof waitS !== 'number' || !Number.isInteger(waitS) || waitS < 0 || waitS > maxS) throw new ApiError('invalid_request', `wait_s: a whole number of seconds from 0 to ${maxS}`);
    const started = Date.now();
    const row = await this.d.tasks.wait(await this.d.tasks.get(id, caller), waitS * 1000, signal);
    return this.taskResult(row, Math.round((Date.now() - started) / 1000));
  }

  private listSources(args: Args, caller: Caller): CallToolResult {
    onlyKeys(args, ['source']);
    const wanted = args.source;
    if (wanted !== undefined && typeof wanted !== 'string') throw new ApiError('invalid_request', 'source: a platform name such as weibo');
    const bySource = new Map<string, Array<{ tool: string; action: string; summary: string; write: boolean }>>();
    for (const t of this.catalogTools.values()) {
      if (!mayUse(caller.scopes, t.write)) continue;
      if (wanted !== undefined && t.source !== this.d.catalog.get(wanted.trim().toLowerCase(), t.action)?.adapter.id) continue;
      const list = bySource.get(t.source) ?? [];
      list.push({ tool: t.tool.name, action: t.action, summary: t.entry.summary, write: t.write });
      bySource.set(t.source, list);
    }
    if (wanted !== undefined && bySource.size === 0) throw new ApiError('unsupported', `no tools for source "${wanted.slice(0, 64)}" with this token (list_sources without source shows them all)`);
    const sources = [...bySource].map(([source, tools]) => ({ source, tools }));
    const text = sources.map((s) => `${s.source}: ${s.tools.map((t) => t.tool).join(', ')}`).join('\n');
    return { content: [{ type: 'text', text }], structuredContent: { sources } };
  }

  private taskResult(row: TaskRow, waitedS: number): CallToolResult {
    const task = JSON.parse(taskJson(row)) as Record<string, unknown>;
    return { content: [{ type: 'text', text: summarizeTask(task, waitedS) }], structuredContent: task, isError: taskError(task) !== undefined };
  }
}

function onlyKeys(args: Args, allowed: string[]): void {
  for (const k of Object.keys(args)) if (!allowed.includes(k)) throw new ApiError('invalid_request', `${k}: unknown argument (accepted: ${allowed.join(', ')})`);
}

function taskIdOf(args: Args, allowed: string[]): string {
  onlyKeys(args, allowed);
  if (typeof args.task_id !== 'string' || !args.task_id.trim()) throw new ApiError('invalid_request', 'task_id: required, the task_id a tool call answered with');
  return args.task_id.trim();
}

/** The spec's error body, for a call refused before any task existed (bad params, unknown tool, scope). */
function refusal(e: ApiError): CallToolResult {
  const body = e.toBody();
  return { content: [{ type: 'text', text: `${body.error.code}: ${body.error.message} (retryable: ${body.error.retryable})` }], structuredContent: body, isError: true };
}

/** First write call: the plan, and the exact arguments that publish it, with an idempotency key if none was given. */
function planResult(tool: string, body: NeedsConfirmation['body'], args: Args): CallToolResult {
  const given = typeof args.idempotency_key === 'string' && args.idempotency_key.trim() ? args.idempotency_key.trim() : undefined;
  const key = given ?? `mcp-${randomUUID()}`;
  const { dry_run: _dry, ...rest } = args;
  const shown = publicParams(rest);
  const withheld = Object.keys(rest).filter((k) => !(k in shown));
  const confirmWith = { ...shown, confirm: true, idempotency_key: key };
  const target = body.plan.target ? ` (target ${body.plan.target})` : '';
  const text = [
    `Nothing was posted. Plan: ${body.plan.summary}${target}.`,
    `To publish, call ${tool} again with confirm: true and idempotency_key "${key}"${withheld.length ? ` plus ${withheld.join(', ')} as before` : ''}: ${JSON.stringify(confirmWith)}`,
    'It runs once and is never retried by the service; a retry with the same idempotency_key replays the first outcome.',
  ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { ...body, confirm_with: confirmWith } };
}
