import type Database from 'better-sqlite3';
import type { SecretBox } from '../accounts/secrets.js';
import type { IdentityStore, OutcomeCounts, OutcomeKind, PoolCandidate, ProfileIdentity } from './identity.js';

/** The identity tables of the embedded store (created by its MIGRATIONS). */
export class SqliteIdentityStore implements IdentityStore {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly box?: SecretBox,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      get: p('SELECT proxy, pool FROM profile_identity WHERE platform = ? AND name = ?'),
      put: p(`INSERT INTO profile_identity (platform, name, proxy, pool) VALUES (?, ?, ?, ?)
              ON CONFLICT (platform, name) DO UPDATE SET proxy = excluded.proxy, pool = excluded.pool`),
      list: p('SELECT platform, name, proxy, pool FROM profile_identity ORDER BY platform, name'),
      del: p('DELETE FROM profile_identity WHERE platform = ? AND name = ?'),
      add: p('INSERT INTO profile_outcomes (platform, name, at, outcome) VALUES (?, ?, ?, ?)'),
      counts: p(`SELECT platform, name, COUNT(*) AS tasks, SUM(outcome = 'ok') AS ok, SUM(outcome = 'blocked') AS blocked
                 FROM profile_outcomes WHERE at >= ? GROUP BY platform, name`),
      purge: p('DELETE FROM profile_outcomes WHERE at < ?'),
      candidates: p(`SELECT p.name, p.health, p.cooling_until, p.used_at, i.pool,
                       (SELECT COUNT(*) FROM profile_outcomes o WHERE o.platform = p.platform AND o.name = p.name AND o.at >= @since) AS tasks,
                       (SELECT COUNT(*) FROM profile_outcomes o WHERE o.platform = p.platform AND o.name = p.name AND o.at >= @since AND o.outcome = 'ok') AS ok,
                       (SELECT COUNT(*) FROM profile_outcomes o WHERE o.platform = p.platform AND o.name = p.name AND o.at >= @since AND o.outcome = 'blocked') AS blocked,
                       (SELECT COUNT(*) FROM tasks t WHERE t.account = p.platform || ':' || p.name AND t.status IN ('queued', 'running')) AS active
                     FROM profiles p LEFT JOIN profile_identity i ON i.platform = p.platform AND i.name = p.name
                     WHERE p.platform = @platform AND (@pool IS NULL OR i.pool = @pool)
                     ORDER BY p.name`),
    };
  }

  async identityGet(platform: string, name: string): Promise<ProfileIdentity | undefined> {
    const row = this.s.get.get(platform, name) as ProfileIdentity | undefined;
    if (row?.proxy && this.box) row.proxy = this.box.open(row.proxy);
    return row;
  }
  async identityPut(platform: string, name: string, i: ProfileIdentity): Promise<void> {
    this.s.put.run(platform, name, i.proxy !== null && this.box ? this.box.seal(i.proxy) : i.proxy, i.pool);
  }
  async identityList(): Promise<Array<{ platform: string; name: string } & ProfileIdentity>> {
    const rows = this.s.list.all() as Array<{ platform: string; name: string } & ProfileIdentity>;
    return rows.map((r) => ({ ...r, proxy: r.proxy && this.box ? this.box.open(r.proxy) : r.proxy }));
  }
  async identityDelete(platform: string, name: string): Promise<void> {
    this.s.del.run(platform, name);
  }
  async outcomeAdd(platform: string, name: string, kind: OutcomeKind, at: number): Promise<void> {
    this.s.add.run(platform, name, at, kind);
  }
  async outcomeCounts(since: number): Promise<OutcomeCounts[]> {
    return (this.s.counts.all(since) as OutcomeCounts[]).map((r) => ({ ...r, ok: Number(r.ok), blocked: Number(r.blocked) }));
  }
  async outcomePurge(before: number): Promise<void> {
    this.s.purge.run(before);
  }
  async poolCandidates(platform: string, pool: string | null, since: number): Promise<PoolCandidate[]> {
    return this.s.candidates.all({ platform, pool, since }) as PoolCandidate[];
  }
}
