import { ApiError } from '../domain/errors.js';
import type { Profile } from '../domain/operator.js';
import type { Registry } from '../platforms/registry.js';
import type { ProfileRow, Store } from '../store/types.js';
import { cookieNames, parseCookies } from './cookies.js';

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The public view of a profile, as documented (src/domain/operator.ts). */
export type ProfileView = Profile;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Stored logins: cookies and named credentials per platform account. Values never leave the service. */
export class ProfileService {
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
  ) {}

  view(p: ProfileRow, detail = false): ProfileView {
    const v: ProfileView = { platform: p.platform, name: p.name, health: p.health, checked_at: iso(p.checked_at), used_at: iso(p.used_at) };
    if (detail) {
      v.cookies = cookieNames(p.cookies);
      v.credentials = p.credentials ? Object.keys(JSON.parse(p.credentials) as object) : [];
    }
    return v;
  }

  async list(): Promise<ProfileView[]> {
    return (await this.store.profileList()).map((p) => this.view(p));
  }

  async upsert(input: { platform: unknown; name: unknown; cookies?: unknown; credentials?: unknown }): Promise<ProfileView> {
    const adapter = typeof input.platform === 'string' ? this.registry.get(input.platform) : undefined;
    if (!adapter) throw new ApiError('invalid_request', 'platform: one of the catalog sources');
    const name = input.name ?? 'default';
    if (typeof name !== 'string' || !NAME_RE.test(name)) throw new ApiError('invalid_request', 'name: letters, digits, _ . - only (1 to 64)');
    let cookies: string | null = null;
    if (input.cookies !== undefined && input.cookies !== null) {
      try {
        cookies = parseCookies(input.cookies);
      } catch (e) {
        throw new ApiError('invalid_request', (e as Error).message);
      }
      if (cookies.length > 64 * 1024) throw new ApiError('invalid_request', 'cookies: larger than 64 KiB');
    }
    let credentials: string | null = null;
    if (input.credentials !== undefined && input.credentials !== null) {
      const c = input.credentials;
      if (typeof c !== 'object' || Array.isArray(c)) throw new ApiError('invalid_request', 'credentials: expected an object of name → string');
      const entries = Object.entries(c as Record<string, unknown>);
      for (const [k, v] of entries) {
        if (!/^[A-Za-z0-9_.-]{1,64}$/.test(k) || typeof v !== 'string' || v.length > 8192) throw new ApiError('invalid_request', `credentials.${k.slice(0, 64)}: expected a string value`);
      }
      credentials = JSON.stringify(Object.fromEntries(entries));
    }
    if (cookies === null && credentials === null) throw new ApiError('invalid_request', 'give cookies, credentials, or both');
    await this.store.profilePut({ platform: adapter.id, name, cookies, credentials });
    return this.view((await this.store.profileGet(adapter.id, name)) as ProfileRow, true);
  }

  async remove(platform: string, name: string): Promise<boolean> {
    const adapter = this.registry.get(platform);
    return adapter ? this.store.profileDelete(adapter.id, name) : false;
  }
}
