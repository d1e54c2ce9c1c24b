import { HTTP_STATUS, isRetryable, type ErrorCode } from '../domain/errors.js';
import { ref } from './schemas.js';
import type { HeaderObject, ResponseObject } from './types.js';

/** What each code tells the caller to do (spec, Errors); typed so a new code cannot go undocumented. */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  invalid_request: 'fix the request or its params',
  auth_required: 'attach a valid bearer token (Authorization: Bearer <token>, capital B)',
  forbidden_scope: 'use a token with the needed scope',
  unsupported: 'the platform lacks this action (or the source is unknown); stop asking',
  not_found: 'the resource or post is gone; terminal',
  rate_limited: 'throttled; back off and retry later (see Retry-After)',
  blocked: 'bot-check, captcha or risk control; retryable; do not prompt a re-login',
  session_expired: 'the stored login lapsed; re-login the profile, then retry',
  timeout: 'slow upstream; back off and retry',
  duplicate: 'a write with this idempotency_key is in flight; poll the original',
  upstream_error: 'unclassified upstream failure (or the service is briefly unavailable); retry',
};

/** An error a route can answer: a code at its usual status, or at another one with the reason. */
export type ErrorSpec = ErrorCode | { code: ErrorCode; status: number; when: string };

export const JSON_TYPE = 'application/json';

export function json(component: string, description: string, headers?: Record<string, HeaderObject>): ResponseObject {
  return { description, ...(headers ? { headers } : {}), content: { [JSON_TYPE]: { schema: ref(component) } } };
}

export function binary(types: string[], description: string, headers?: Record<string, HeaderObject>): ResponseObject {
  const content = Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]));
  return { description, ...(headers ? { headers } : {}), content };
}

export function text(type: string, description: string): ResponseObject {
  return { description, content: { [type]: { schema: { type: 'string' } } } };
}

export const header = (description: string, type: 'string' | 'integer' = 'string'): HeaderObject => ({ description, schema: { type } });

export const RETRY_AFTER = { 'Retry-After': header('seconds to wait before asking again', 'integer') };

/** The error answers of one operation, one per HTTP status, each listing its codes; bodies use `component`. */
export function errorResponses(specs: readonly ErrorSpec[], component = 'Error'): Record<string, ResponseObject> {
  const byStatus = new Map<number, Array<{ code: ErrorCode; when?: string }>>();
  for (const s of specs) {
    const e = typeof s === 'string' ? { code: s, status: HTTP_STATUS[s] } : s;
    const list = byStatus.get(e.status) ?? [];
    if (!list.some((x) => x.code === e.code && x.when === (typeof s === 'string' ? undefined : s.when))) list.push({ code: e.code, when: typeof s === 'string' ? undefined : s.when });
    byStatus.set(e.status, list);
  }
  const out: Record<string, ResponseObject> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const codes = [...new Set(list.map((x) => x.code))];
    const description = list.map((x) => `\`${x.code}\`${isRetryable(x.code) ? ' (retryable)' : ''}: ${x.when ?? ERROR_MEANINGS[x.code]}`).join('; ');
    const schema = { allOf: [ref(component), { properties: { error: { properties: { code: { enum: codes } } } } }] };
    out[String(status)] = { description, ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}), content: { [JSON_TYPE]: { schema } } };
  }
  return out;
}
