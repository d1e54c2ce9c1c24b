import type pg from 'pg';
import type { SecretBox } from '../../accounts/secrets.js';
import { minuteOf, type IdentityStore, type OutcomeCounts, type OutcomeKind, type PoolCandidate, type ProfileIdentity } from '../identity.js';

const num = (v: unknown) => Number(v ?? 0);

/** The identity tables in Postgres (migration 003), shared by every process of a fleet. */
export class PgIdentityStore implements IdentityStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly box?: SecretBox,
    /** Resolves once the tables exist (the store's migrations). */
    private readonly ready: () => Promise<void> = () => Promise.resolve(),
  ) {}

  private async q<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    await this.ready();
    return (await this.pool.query<R>(sql, params)).rows;
  }

  async identityGet(platform: string, name: string): Promise<ProfileIdentity | undefined> {
    const [row] = await this.q<ProfileIdentity>('SELECT proxy, pool FROM profile_identity WHERE platform = $1 AND name = $2', [platform, name]);
    if (row?.proxy && this.box) row.proxy = this.box.open(row.proxy);
    return row;
  }
  async identityPut(platform: string, name: string, i: ProfileIdentity): Promise<void> {
    await this.q(
      `INSERT INTO profile_identity (platform, name, proxy, pool) VALUES ($1, $2, $3, $4)
       ON CONFLICT (platform, name) DO UPDATE SET proxy = excluded.proxy, pool = excluded.pool`,
      [platform, name, i.proxy !== null && this.box ? this.box.seal(i.proxy) : i.proxy, i.pool],
    );
  }
  async identityList(): Promise<Array<{ platform: string; name: string } & ProfileIdentity>> {
    const rows = await this.q<{ platform: string; name: string } & ProfileIdentity>('SELECT platform, name, proxy, pool FROM profile_identity ORDER BY platform, name', []);
    return rows.map((r) => ({ ...r, proxy: r.proxy && this.box ? this.box.open(r.proxy) : r.proxy }));
  }
  async identityDelete(platform: string, name: string): Promise<void> {
    await this.q('DELETE FROM profile_identity WHERE platform = $1 AND name = $2', [platform, name]);
  }
  async outcomeAdd(platform: string, name: string, kind: OutcomeKind, at: number): Promise<void> {
    // One row per profile and minute, counted up in place (one statement: processes of a fleet add at once).
    await this.q(
      `INSERT INTO profile_outcomes (platform, name, minute, ok, blocked, failed) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (platform, name, minute) DO UPDATE SET ok = profile_outcomes.ok + excluded.ok,
         blocked = profile_outcomes.blocked + excluded.blocked, failed = profile_outcomes.failed + excluded.failed`,
      [platform, name, minuteOf(at), +(kind === 'ok'), +(kind === 'blocked'), +(kind === 'failed')],
    );
  }
  async outcomeCounts(since: number): Promise<OutcomeCounts[]> {
    const rows = await this.q<OutcomeCounts>(
      `SELECT platform, name, SUM(ok + blocked + failed) AS tasks, SUM(ok) AS ok, SUM(blocked) AS blocked
       FROM profile_outcomes WHERE minute >= $1 GROUP BY platform, name`,
      [minuteOf(since)],
    );
    return rows.map((r) => ({ platform: r.platform, name: r.name, tasks: num(r.tasks), ok: num(r.ok), blocked: num(r.blocked) }));
  }
  async outcomePurge(before: number): Promise<void> {
    await this.q('DELETE FROM profile_outcomes WHERE minute < $1', [minuteOf(before)]);
  }
  async poolCandidates(platform: string, pool: string | null, since: number): Promise<PoolCandidate[]> {
    const rows = await this.q<PoolCandidate>(
      `SELECT p.name, p.health, p.cooling_until, p.used_at, i.pool,
         COALESCE(o.tasks, 0) AS tasks, COALESCE(o.ok, 0) AS ok, COALESCE(o.blocked, 0) AS blocked,
         (SELECT COUNT(*) FROM tasks t WHERE t.account = p.platform || ':' || p.name AND t.status = 'queued')
         + (SELECT COUNT(*) FROM tasks t WHERE t.account = p.platform || ':' || p.name AND t.status = 'running') AS active
       FROM profiles p LEFT JOIN profile_identity i ON i.platform = p.platform AND i.name = p.name
       LEFT JOIN (SELECT name, SUM(ok + blocked + failed) AS tasks, SUM(ok) AS ok, SUM(blocked) AS blocked
                  FROM profile_outcomes WHERE platform = $1 AND minute >= $3 GROUP BY name) o ON o.name = p.name
       WHERE p.platform = $1 AND ($2::text IS NULL OR i.pool = $2::text)
       ORDER BY p.name`,
      [platform, pool, minuteOf(since)],
    );
    return rows.map((r) => ({
      ...r,
      cooling_until: r.cooling_until === null ? null : num(r.cooling_until),
      used_at: r.used_at === null ? null : num(r.used_at),
      tasks: num(r.tasks),
      ok: num(r.ok),
      blocked: num(r.blocked),
      active: num(r.active),
    }));
  }
}
