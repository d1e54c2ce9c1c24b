import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Scope, TokenService } from '../auth/tokens.js';
import { ApiError } from '../domain/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope a route needs; 'any' = any valid token; absent = public. */
    scope?: Scope | 'any';
  }
  interface FastifyRequest {
    tokenId?: string;
    tokenScopes?: readonly string[];
  }
}

/** Only "Bearer" with a capital B, one space, one token. */
const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/]+=*)$/;

export function authHook(tokens: TokenService) {
  return async function authenticate(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const need = req.routeOptions.config?.scope;
    if (!need) return;
    await requireToken(tokens, req, need);
  };
}

/** Checks the bearer token for a scope; routes that are public only in some variants call it themselves. */
export async function requireToken(tokens: TokenService, req: FastifyRequest, need: Scope | 'any'): Promise<void> {
  {
    const header = req.headers.authorization;
    if (!header) throw new ApiError('auth_required', 'send Authorization: Bearer <token>');
    const m = BEARER.exec(header);
    if (!m) throw new ApiError('auth_required', 'malformed Authorization header: expected "Bearer <token>" (capital B)');
    const token = await tokens.check(m[1]);
    if (!token) throw new ApiError('auth_required', 'invalid or revoked token');
    const scopes = token.scopes;
    // admin is the operator's token and may do everything.
    if (need !== 'any' && !scopes.includes(need) && !scopes.includes('admin')) {
      throw new ApiError('forbidden_scope', `this route needs a token with the "${need}" scope (this token has: ${scopes.join(', ')})`);
    }
    req.tokenId = token.row.id;
    req.tokenScopes = scopes;
  }
}
