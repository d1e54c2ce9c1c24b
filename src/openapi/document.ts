import type { Config } from '../config.js';
import { ERROR_CODES, HTTP_STATUS, isRetryable } from '../domain/errors.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import type { Registry } from '../platforms/registry.js';
import { actionRequestSchemas } from './catalog.js';
import { routeDocs } from './paths/index.js';
import { webhookCallbacks } from './paths/webhooks.js';
import { ERROR_MEANINGS, errorResponses, type ErrorSpec } from './responses.js';
import { TAGS, type RouteDoc } from './route-doc.js';
import { componentSchemas, jsonSchemaOf } from './schemas.js';
import type { OpenApiDocument, OperationObject, ParameterObject } from './types.js';

export interface OpenApiInput {
  catalog: CatalogIndex;
  registry: Registry;
  config: Pick<Config, 'publicUrl'>;
  version: string;
}

/** Fastify's /v1/tasks/:id as OpenAPI's /v1/tasks/{id}. */
export const openApiPath = (fastifyPath: string) => fastifyPath.replace(/:([A-Za-z_]+)/g, '{$1}');

function operationId(doc: RouteDoc): string {
  const words = doc.path
    .split('/')
    .filter((s) => s && s !== 'v1')
    .map((s) => (s.startsWith(':') ? `by-${s.slice(1)}` : s))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return doc.method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

function security(doc: RouteDoc): Array<Record<string, string[]>> {
  if (doc.access === 'public') return doc.optionalScope ? [{}, { bearerAuth: [doc.optionalScope] }] : [];
  return [{ bearerAuth: doc.access === 'any' ? [] : [doc.access] }];
}

function parameters(doc: RouteDoc): ParameterObject[] {
  const out: ParameterObject[] = [];
  for (const [, name] of doc.path.matchAll(/:([A-Za-z_]+)/g)) {
    out.push({ name, in: 'path', required: true, description: doc.pathParams?.[name], schema: { type: 'string' } });
  }
  if (doc.query) {
    const schema = jsonSchemaOf(doc.query, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, s] of Object.entries(schema.properties ?? {})) {
      const { description, ...rest } = s;
      out.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, ...(description ? { description: String(description) } : {}), schema: rest });
    }
  }
  return [...out, ...(doc.headers ?? [])];
}

/** Errors every route can answer, before its own: malformed requests, a service briefly unavailable, and the token checks. */
function sharedErrors(doc: RouteDoc): ErrorSpec[] {
  const out: ErrorSpec[] = ['invalid_request', { code: 'upstream_error', status: 503, when: 'the service is shutting down or its database is briefly unavailable; retry after Retry-After' }];
  if (doc.access !== 'public') out.push('auth_required');
  if (doc.access !== 'public' && doc.access !== 'any') out.push('forbidden_scope');
  return out;
}

function operation(doc: RouteDoc): OperationObject {
  const scopeNote = doc.access === 'public' ? (doc.optionalScope ? `Public; some variants need a \`${doc.optionalScope}\` token.` : 'Public: no token.') : doc.access === 'any' ? 'Any valid token.' : `Token scope: \`${doc.access}\` (admin implies every scope).`;
  const errors = errorResponses([...sharedErrors(doc), ...(doc.errors ?? [])], doc.errorComponent);
  const responses = { ...Object.fromEntries(Object.entries(doc.responses).map(([s, r]) => [String(s), r])) };
  for (const [status, r] of Object.entries(errors)) responses[status] ??= r;
  const params = parameters(doc);
  return {
    operationId: operationId(doc),
    tags: [doc.tag],
    summary: doc.summary,
    description: [doc.description, scopeNote].filter(Boolean).join('\n\n'),
    security: security(doc),
    ...(params.length ? { parameters: params } : {}),
    ...(doc.body ? { requestBody: { required: true, ...(doc.body.description ? { description: doc.body.description } : {}), content: { 'application/json': { schema: doc.body.schema, ...(doc.body.examples ? { examples: doc.body.examples } : {}) } } } } : {}),
    responses,
    'x-scope': doc.access,
    ...(doc.extensions ?? {}),
  };
}

function overview(input: OpenApiInput): string {
  const platforms = input.registry.adapters.map((a) => a.id).join(', ');
  return [
    'An asynchronous social-platform crawler: submit a task `{source, action, params}`, then poll it, stream it (SSE) or wait inline, and read one normalized result shape whatever the platform.',
    '',
    `Platforms (\`source\`): ${platforms}. Every \`source.action\` and its params: \`GET /v1/task-sources\`, and the \`TaskRequest.<source>.<action>\` schemas below.`,
    '',
    'Auth: `Authorization: Bearer <token>` (capital B). Scopes: read (crawl), write (publish), admin (operator; implies both). Public routes: health, media, preview, and these docs.',
    '',
    'Every result states its provenance in `source`: live, cache, empty (the platform honestly said nothing) or blocked (captcha or risk control: ok false, retryable). Branch on `source` and `error.code`, never on `message`.',
    '',
    'Error codes (the body is `{ok: false, error: {code, message, retryable}}` on every route):',
    '',
    '| code | HTTP | retryable | meaning |',
    '|---|---|---|---|',
    ...ERROR_CODES.map((c) => `| ${c} | ${HTTP_STATUS[c]} | ${isRetryable(c) ? 'yes' : 'no'} | ${ERROR_MEANINGS[c]} |`),
    '',
    'Inside a task result the envelope carries the code and the task itself still succeeded. Two answers keep their own body: a first write call (409 `{status: "needs_confirmation", plan}`) and a terminal preview failure (404 `{code: "preview_unavailable", reason}`). A wrong method on an existing path is 405 with Allow.',
  ].join('\n');
}

/** The OpenAPI 3.1 document: built from the route docs, the zod schemas the handlers share, and the catalog. */
export function openApiDocument(input: OpenApiInput): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const doc of routeDocs(input.catalog)) {
    const path = openApiPath(doc.path);
    const method = doc.method.toLowerCase();
    if (paths[path]?.[method]) throw new Error(`${doc.method} ${doc.path} is documented twice`);
    (paths[path] ??= {})[method] = operation(doc);
  }
  const schemas = { ...componentSchemas(), ...actionRequestSchemas(input.catalog) };
  // Login inputs are told apart by their action, as the handler does.
  schemas.LoginInputRequest = { ...schemas.LoginInputRequest, discriminator: { propertyName: 'action' } };
  return {
    openapi: '3.1.0',
    info: { title: 'Social crawler API', version: input.version, description: overview(input) },
    servers: [{ url: input.config.publicUrl ?? '/', description: input.config.publicUrl ? 'this service' : 'this service (the address the document was fetched from)' }],
    security: [{ bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: webhookCallbacks(),
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token issued by the operator (crawler tokens create). Scopes: read, write, admin; a revoked token is refused at once.' },
      },
    },
    'x-error-codes': ERROR_CODES.map((code) => ({ code, status: HTTP_STATUS[code], retryable: isRetryable(code), meaning: ERROR_MEANINGS[code] })),
  };
}
