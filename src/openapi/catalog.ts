import type { CatalogParam } from '../domain/catalog.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import { STRING_MAX } from '../tasks/params.js';
import { RESULT_SHAPES } from './schemas.js';
import type { JsonSchema } from './types.js';

/** One catalog param as JSON Schema: the same limits validateParams enforces. */
export function paramSchema(p: CatalogParam): JsonSchema {
  const s: JsonSchema = { type: p.accepts_number ? [p.type, 'number'] : p.type, description: p.description };
  if (p.type === 'string') {
    s.maxLength = STRING_MAX;
    // Values are trimmed first: a required one must hold more than blanks.
    if (p.required) s.pattern = '\\S';
  }
  if (p.enum) s.enum = p.enum;
  if (p.min !== undefined) s.minimum = p.min;
  if (p.max !== undefined) s.maximum = p.max;
  if (p.default !== undefined) s.default = p.default;
  return s;
}

export const requestComponent = (name: string) => `TaskRequest.${name}`;
export const paramComponent = (name: string) => `Param.${name}`;

/**
 * Params shared by many actions (limit, cursor, filters...) as one component each: the most common
 * form of each name, when at least two actions use it; other forms stay inline where they are used.
 */
function sharedParams(catalog: CatalogIndex): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const e of catalog.entries) {
    for (const p of e.params) {
      const forms = counts.get(p.name) ?? new Map<string, number>();
      const key = JSON.stringify(paramSchema(p));
      forms.set(key, (forms.get(key) ?? 0) + 1);
      counts.set(p.name, forms);
    }
  }
  const shared = new Map<string, string>();
  for (const [name, forms] of counts) {
    const [key, n] = [...forms].sort((a, b) => b[1] - a[1])[0];
    if (n >= 2) shared.set(name, key);
  }
  return shared;
}

/**
 * One request schema per catalog entry (`source` and `action` as constants, params from the entry),
 * each naming the result shape it returns, plus the shared param components. The catalog is the only
 * input, so they cannot drift apart.
 */
export function actionRequestSchemas(catalog: CatalogIndex): Record<string, JsonSchema> {
  const shared = sharedParams(catalog);
  const out: Record<string, JsonSchema> = {};
  for (const [name, key] of shared) out[paramComponent(name)] = JSON.parse(key) as JsonSchema;
  for (const entry of catalog.entries) {
    const source = entry.group;
    const action = entry.name.slice(source.length + 1);
    const shape = RESULT_SHAPES[catalog.get(source, action)!.def.shape];
    const required = entry.params.filter((p) => p.required).map((p) => p.name);
    const property = (p: CatalogParam): JsonSchema => {
      const schema = paramSchema(p);
      return shared.get(p.name) === JSON.stringify(schema) ? { $ref: `#/components/schemas/${paramComponent(p.name)}` } : schema;
    };
    const params: JsonSchema = {
      type: 'object',
      properties: Object.fromEntries(entry.params.map((p) => [p.name, property(p)])),
      additionalProperties: false,
      ...(required.length ? { required } : {}),
    };
    const notes = [entry.summary, `Result: shape ${shape.letter} (${shape.component}).`];
    if (entry.write) notes.push('Write verb: needs the write scope; the first call without confirm answers 409 needs_confirmation.');
    out[requestComponent(entry.name)] = {
      title: entry.name,
      description: notes.join(' '),
      type: 'object',
      properties: { source: { const: source }, action: { const: action }, params },
      required: required.length ? ['source', 'action', 'params'] : ['source', 'action'],
      additionalProperties: false,
      'x-result-shape': shape.letter,
      'x-result': `#/components/schemas/${shape.component}`,
      ...(entry.write ? { 'x-write': true } : {}),
    };
  }
  return out;
}
