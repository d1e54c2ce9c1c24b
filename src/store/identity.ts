/** What a profile's identity adds to its login: the proxy it always leaves by, and the pool it serves in. */
export interface ProfileIdentity {
  /** The proxy URL with its credentials (opened from its sealed form); null: direct. */
  proxy: string | null;
  pool: string | null;
}

export type OutcomeKind = 'ok' | 'blocked' | 'failed';

/** Outcomes are kept per minute: a window starts at the minute its start falls in. */
export const minuteOf = (ms: number) => Math.floor(ms / 60_000);

/** A profile as a pool ranks it: health, cooling, recent outcomes and the work already given to it. */
export interface PoolCandidate {
  name: string;
  health: string;
  cooling_until: number | null;
  used_at: number | null;
  pool: string | null;
  /** Outcomes since the minute of the window's start. */
  tasks: number;
  ok: number;
  blocked: number;
  /** Its queued and running tasks, fleet-wide. */
  active: number;
}

export interface OutcomeCounts {
  platform: string;
  name: string;
  tasks: number;
  ok: number;
  blocked: number;
}

/**
 * The identity sub-port of the store: proxies (sealed at rest) and pools per profile, and a rolling record
 * of crawl outcomes per profile. It lives in the same database as the Store, so a fleet sees one truth.
 */
export interface IdentityStore {
  identityGet(platform: string, name: string): Promise<ProfileIdentity | undefined>;
  identityPut(platform: string, name: string, identity: ProfileIdentity): Promise<void>;
  /** Every profile's identity, without proxy credentials opened (listings show masked proxies only). */
  identityList(): Promise<Array<{ platform: string; name: string } & ProfileIdentity>>;
  identityDelete(platform: string, name: string): Promise<void>;
  outcomeAdd(platform: string, name: string, kind: OutcomeKind, at: number): Promise<void>;
  outcomeCounts(since: number): Promise<OutcomeCounts[]>;
  outcomePurge(before: number): Promise<void>;
  /** The platform's stored profiles (of one pool, or all when pool is null) with what ranking needs. */
  poolCandidates(platform: string, pool: string | null, since: number): Promise<PoolCandidate[]>;
}
