import type Database from 'better-sqlite3';
import type { PreviewClaim } from './types.js';

/** Render leases on the previews table of the embedded store (the Store's previewClaim/Renew/Release). */
export class SqlitePreviewLeases {
  private readonly s;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // One statement: an insert, or an update only of a row whose lease ran out or that is still the stale row named.
      claim: p(`INSERT INTO previews (platform, native_id, state, reason, w, h, seconds, file, updated_at, owner, lease_until)
                VALUES (@platform, @native_id, 'rendering', NULL, NULL, NULL, NULL, NULL, @now, @owner, @lease_until)
                ON CONFLICT (platform, native_id) DO UPDATE SET state = 'rendering', reason = NULL, w = NULL, h = NULL, seconds = NULL,
                  file = NULL, updated_at = excluded.updated_at, owner = excluded.owner, lease_until = excluded.lease_until
                WHERE (previews.state = 'rendering' AND COALESCE(previews.lease_until, 0) <= @now)
                   OR (previews.state = @stale_state AND previews.updated_at = @stale_at)`),
      renew: p(`UPDATE previews SET lease_until = ? WHERE platform = ? AND native_id = ? AND state = 'rendering' AND owner = ?`),
      release: p(`DELETE FROM previews WHERE platform = ? AND native_id = ? AND state = 'rendering' AND owner = ?`),
    };
  }

  claim(c: PreviewClaim): boolean {
    const { stale, ...rest } = c;
    return this.s.claim.run({ ...rest, stale_state: stale?.state ?? null, stale_at: stale?.updated_at ?? null }).changes === 1;
  }

  renew(platform: string, nativeId: string, owner: string, leaseUntil: number): boolean {
    return this.s.renew.run(leaseUntil, platform, nativeId, owner).changes === 1;
  }

  release(platform: string, nativeId: string, owner: string): void {
    this.s.release.run(platform, nativeId, owner);
  }
}
