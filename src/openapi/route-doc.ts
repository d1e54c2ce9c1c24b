import type { z } from 'zod';
import type { Scope } from '../auth/tokens.js';
import type { ErrorSpec } from './responses.js';
import type { JsonSchema, MediaTypeObject, ParameterObject, ResponseObject } from './types.js';

export const TAGS = {
  Tasks: 'Submit a crawl or a write, then poll, stream, cancel or retry it.',
  Watches: 'Repeat a feed crawl on a schedule and collect only the items not seen before.',
  Catalog: 'What exists: every source.action with its params, grouped by platform, and feed tabs.',
  Media: 'Service-hosted images, video streams and scrub previews (items carry these URLs ready-made).',
  Operator: 'Stored logins (profiles), human re-login and API tokens.',
  Service: 'Health, metrics and this documentation.',
} as const;
export type Tag = keyof typeof TAGS;

/**
 * The documentation of one registered route. Adding a route to the app means adding one of these
 * (the coverage test names any route without one). `access` must equal the route's config.scope
 * ('public' where it has none).
 */
export interface RouteDoc {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify's pattern, e.g. /v1/tasks/:id */
  path: string;
  access: Scope | 'any' | 'public';
  /** A public route that takes a token in some variants (the video proxy). */
  optionalScope?: Scope;
  tag: Tag;
  summary: string;
  description?: string;
  /** Query parameters, from the zod schema the handler shares. */
  query?: z.ZodObject;
  /** Path parameter descriptions, by name. */
  pathParams?: Record<string, string>;
  headers?: ParameterObject[];
  body?: { description?: string; schema: JsonSchema; examples?: MediaTypeObject['examples'] };
  responses: Record<number, ResponseObject>;
  /** Error answers beyond the ones every route shares (400 malformed request, 503 unavailable, 401/403 with a token). */
  errors?: readonly ErrorSpec[];
  /** Error body component for this route's errors (default Error). */
  errorComponent?: string;
  extensions?: Record<`x-${string}`, unknown>;
}
