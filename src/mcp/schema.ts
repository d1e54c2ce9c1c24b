import type { CatalogParam } from '../domain/catalog.js';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, object>;
  required?: string[];
  additionalProperties?: boolean;
  [k: string]: unknown;
}

/** What an agent reads about confirm: the MCP flow, not the HTTP status the catalog's wording names. */
const WRITE_PARAM_TEXT: Record<string, string> = {
  confirm:
    'Leave out on the first call: you get the plan (what would be posted, where) and nothing is posted. Show it to the user; to publish, call again with the same arguments plus confirm: true and the same idempotency_key.',
  idempotency_key:
    'Unique per intended write (the plan suggests one). Reuse it when you call again with confirm, and on any retry: the service then replays the first outcome instead of posting twice.',
};

/** One catalog param as a JSON Schema property; the catalog's own checks (enum, bounds, default) carry over. */
export function paramSchema(p: CatalogParam, write: boolean): object {
  const out: Record<string, unknown> = { type: p.accepts_number ? [p.type, 'number'] : p.type, description: (write && WRITE_PARAM_TEXT[p.name]) || p.description };
  if (p.enum) out.enum = p.enum;
  if (p.min !== undefined) out.minimum = p.min;
  if (p.max !== undefined) out.maximum = p.max;
  if (p.default !== undefined) out.default = p.default;
  if (p.type === 'string' && p.required) out.minLength = 1;
  return out;
}

export function inputSchema(params: readonly CatalogParam[], write: boolean): JsonSchemaObject {
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, paramSchema(p, write)])),
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

const ERROR = {
  type: 'object',
  description: "the spec's error: branch on code and retryable, never on message",
  properties: { code: { type: 'string' }, message: { type: 'string' }, retryable: { type: 'boolean' } },
  required: ['code', 'message', 'retryable'],
};

/**
 * What every task tool answers in structuredContent: the task as GET /v1/tasks/{id} gives it, the
 * spec's refusal body {ok: false, error}, or (first write call) the plan to confirm. Kept small: it is
 * repeated on every tool, and clients compile each copy.
 */
export const TASK_OUTPUT_SCHEMA: JsonSchemaObject = {
  type: 'object',
  properties: {
    task_id: { type: 'string' },
    status: { type: 'string' },
    result: { type: 'object' },
    error: { type: 'object' },
    plan: { type: 'object' },
    confirm_with: { type: 'object' },
  },
};
