import { createHash, hash as oneShotHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../domain/errors.js';
import { TOKEN_SCOPES, type TokenInfo as DocumentedTokenInfo } from '../domain/operator.js';
import type { Store, TokenRow } from '../store/types.js';
import { Lru } from '../tasks/lru.js';

export const SCOPES = TOKEN_SCOPES;
export type Scope = (typeof SCOPES)[number];

/** The public view of a token, as documented (src/domain/operator.ts). */
export type TokenInfo = DocumentedTokenInfo;

const TOKEN_PREFIX = 'crw_';
const TOKEN_RE = /^crw_[A-Za-z0-9_-]{43}$/;
const ID_RE = /^tok_[a-f0-9]{16}$/;

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** The token's SHA-256 as base64: one call, no hash object (a tenth of createHash's cost on the request path). */
function tokenDigest(token: string): string {
  return oneShotHash('sha256', token, 'base64');
}

/** Constant-time equality of two digests in text form. */
function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A valid token as the request path needs it: its row and its scopes, split once. */
export interface VerifiedToken {
  row: TokenRow;
  scopes: readonly string[];
}

export function parseScopes(input: string | string[]): Scope[] {
  const list = (Array.isArray(input) ? input : input.split(',')).map((s) => s.trim()).filter(Boolean);
  if (!list.length) throw new ApiError('invalid_request', 'scopes: give at least one of read, write, admin');
  for (const s of list) if (!(SCOPES as readonly string[]).includes(s)) throw new ApiError('invalid_request', `scopes: unknown scope "${s}" (read, write, admin)`);
  return [...new Set(list)] as Scope[];
}

/** Tokens are 256 random bits, stored only as a SHA-256 hash. */
export class TokenService {
  /** Verified tokens by digest; dropped whenever another process (the CLI) writes, so revocation stays immediate. */
  private readonly verified = new Lru<VerifiedToken>(1000);
  private seenVersion = -1;
  /**
   * The version is read once per event-loop turn: requests parsed in the same turn share the check,
   * and any request sent after a revocation committed is handled in a later turn, which reads it anew.
   */
  private versionRead?: Promise<number>;
  /** Times the verified tokens were dropped: a lookup that straddles a drop does not refill the cache. */
  private clears = 0;

  /** A process-local read token for the service's own loopback calls (ffmpeg reading the media proxy). */
  readonly internalToken = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  private readonly internalDigest = tokenDigest(this.internalToken);
  private readonly internal: VerifiedToken = {
    row: { id: 'internal', name: 'internal', hash: hashToken(this.internalToken), scopes: 'read', created_at: 0, revoked_at: null },
    scopes: ['read'],
  };

  constructor(private readonly store: Store) {}

  async create(scopes: Scope[], name?: string): Promise<{ token: string; info: TokenInfo }> {
    if (name !== undefined && (name.length > 100 || /[\u0000-\u001f]/.test(name))) throw new ApiError('invalid_request', 'name: at most 100 printable characters');
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row: TokenRow = {
      id: `tok_${randomBytes(8).toString('hex')}`,
      name: name ?? null,
      hash: hashToken(token),
      scopes: scopes.join(','),
      created_at: Date.now(),
      revoked_at: null,
    };
    await this.store.tokenInsert(row);
    return { token, info: toInfo(row) };
  }

  /** The token's row if it is valid and not revoked (see check). */
  async verify(token: string): Promise<TokenRow | undefined> {
    return (await this.check(token))?.row;
  }

  /**
   * The token if it is valid and not revoked. The store's version is read on every event-loop turn
   * that checks a token, so a revocation by any process holds from the next request on.
   */
  async check(token: string): Promise<VerifiedToken | undefined> {
    if (!TOKEN_RE.test(token)) return undefined;
    const digest = tokenDigest(token);
    if (sameDigest(digest, this.internalDigest)) return this.internal;
    const version = await this.currentVersion();
    if (version !== this.seenVersion) {
      this.forget();
      this.seenVersion = version;
    }
    const known = this.verified.get(digest);
    if (known) return known;
    const hash = Buffer.from(digest, 'base64');
    const cleared = this.clears;
    const row = await this.store.tokenByHash(hash);
    // The index lookup is by hash; the constant-time comparison is the one the issue asks for, kept explicit.
    if (!row || !timingSafeEqual(row.hash, hash) || row.revoked_at !== null) return undefined;
    const verified = { row, scopes: row.scopes.split(',') };
    // A row read before a revocation here finished is not remembered past it.
    if (this.clears === cleared) this.verified.set(digest, verified);
    return verified;
  }

  private forget(): void {
    this.verified.clear();
    this.clears++;
  }

  private currentVersion(): Promise<number> {
    if (!this.versionRead) {
      this.versionRead = this.store.dataVersion();
      setImmediate(() => (this.versionRead = undefined));
    }
    return this.versionRead;
  }

  async list(): Promise<TokenInfo[]> {
    return (await this.store.tokenList()).map(toInfo);
  }

  /** Revokes by id or by the token itself; returns the id, or undefined if there is no such live token. */
  async revoke(tokenOrId: string): Promise<{ id: string; already: boolean } | undefined> {
    const row = ID_RE.test(tokenOrId) ? await this.store.tokenById(tokenOrId) : TOKEN_RE.test(tokenOrId) ? await this.store.tokenByHash(hashToken(tokenOrId)) : undefined;
    if (!row) return undefined;
    const changed = await this.store.tokenRevoke(row.id, Date.now());
    this.forget();
    return { id: row.id, already: !changed };
  }

  async get(id: string): Promise<TokenInfo | undefined> {
    const row = ID_RE.test(id) ? await this.store.tokenById(id) : undefined;
    return row ? toInfo(row) : undefined;
  }
}

export function toInfo(row: TokenRow): TokenInfo {
  const info: TokenInfo = { id: row.id, name: row.name, scopes: row.scopes.split(',') as Scope[], created_at: new Date(row.created_at).toISOString() };
  if (row.revoked_at !== null) info.revoked_at = new Date(row.revoked_at).toISOString();
  return info;
}
