import type Database from 'better-sqlite3';
import type { SecretBox } from '../accounts/secrets.js';
import { minuteOf, type IdentityStore, type OutcomeCounts, type OutcomeKind, type PoolCandidate, type ProfileIdentity } from './identity.js';

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
      // One row per profile and minute, counted up in place: a window is at most 60 rows per profile.
      add: p(`INSERT INTO profile_outcomes (platform, name, minute, ok, blocked, failed) VALUES (@platform, @name, @minute, @ok, @blocked, @failed)
              ON CONFLICT (platform, name, minute) DO UPDATE SET ok = ok + excluded.ok, blocked = blocked + excluded.blocked, failed = failed + excluded.failed`),
      counts: p(`SELECT platform, name, SUM(ok + blocked + failed) AS tasks, SUM(ok) AS ok, SUM(blocked) AS blocked
                 FROM profile_outcomes WHERE minute >= ? GROUP BY platform, name`),
      purge: p('DELETE FROM profile_outcomes WHERE minute < ?'),
      // Each count reads an index: outcomes by (platform, name, at), queued and running tasks by account.
      candidates: p(`SELECT p.name, p.health, p.cooling_until, p.used_at, i.pool,
                       COALESCE(o.tasks, 0) AS tasks, COALESCE(o.ok, 0) AS ok, COALESCE(o.blocked, 0) AS blocked,
                       (SELECT COUNT(*) FROM tasks t WHERE t.account = p.platform || ':' || p.name AND t.status = 'queued')
                       + (SELECT COUNT(*) FROM tasks t WHERE t.account = p.platform || ':' || p.name AND t.status = 'running') AS active
                     FROM profiles p LEFT JOIN profile_identity i ON i.platform = p.platform AND i.name = p.name
                     LEFT JOIN (SELECT name, SUM(ok + blocked + failed) AS tasks, SUM(ok) AS ok, SUM(blocked) AS blocked
                                FROM profile_outcomes WHERE platform = @platform AND minute >= @since GROUP BY name) o ON o.name = p.name
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
    this.s.add.run({ platform, name, minute: minuteOf(at), ok: +(kind === 'ok'), blocked: +(kind === 'blocked'), failed: +(kind === 'failed') });
  }
  async outcomeCounts(since: number): Promise<OutcomeCounts[]> {
    return (this.s.counts.all(minuteOf(since)) as OutcomeCounts[]).map((r) => ({ ...r, tasks: Number(r.tasks), ok: Number(r.ok), blocked: Number(r.blocked) }));
  }
  async outcomePurge(before: number): Promise<void> {
    this.s.purge.run(minuteOf(before));
  }
  async poolCandidates(platform: string, pool: string | null, since: number): Promise<PoolCandidate[]> {
    return this.s.candidates.all({ platform, pool, since: minuteOf(since) }) as PoolCandidate[];
  }
}
