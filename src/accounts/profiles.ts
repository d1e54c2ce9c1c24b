import { ApiError } from '../domain/errors.js';
import type { Profile } from '../domain/operator.js';
import type { Identities } from '../identity/identities.js';
import { egressId, maskProxy, parseProxy } from '../identity/proxy-url.js';
import type { Registry } from '../platforms/registry.js';
import type { OutcomeCounts } from '../store/identity.js';
import type { ProfileRow, Store } from '../store/types.js';
import { cookieNames, parseCookies } from './cookies.js';

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** The public view of a profile, as documented (src/domain/operator.ts). */
export type ProfileView = Profile;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const rate = (n: number, of: number) => (of ? Math.round((n / of) * 1000) / 1000 : null);

export interface ProfileInput {
  platform: unknown;
  name: unknown;
  cookies?: unknown;
  credentials?: unknown;
  /** A proxy URL; null removes it; absent keeps what is stored. */
  proxy?: unknown;
  /** A pool name; null removes it; absent keeps what is stored. */
  pool?: unknown;
}

/** Stored logins: cookies and named credentials per platform account, its proxy and pool. Secret values never leave the service. */
export class ProfileService {
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly identities?: Identities,
  ) {}

  view(p: ProfileRow, detail = false, identity?: { proxy: string | null; pool: string | null }, counts?: OutcomeCounts): ProfileView {
    const v: ProfileView = { platform: p.platform, name: p.name, health: p.health, checked_at: iso(p.checked_at), used_at: iso(p.used_at) };
    if (detail) {
      v.cookies = cookieNames(p.cookies);
      v.credentials = p.credentials ? Object.keys(JSON.parse(p.credentials) as object) : [];
    }
    if (this.identities) {
      const proxy = identity?.proxy ? parseProxy(identity.proxy) : undefined;
      v.egress = egressId(proxy);
      if (proxy) v.proxy = maskProxy(proxy);
      v.pool = identity?.pool ?? null;
      v.tasks_1h = counts?.tasks ?? 0;
      v.success_rate_1h = rate(counts?.ok ?? 0, v.tasks_1h);
      v.block_rate_1h = rate(counts?.blocked ?? 0, v.tasks_1h);
    }
    return v;
  }

  async list(): Promise<ProfileView[]> {
    const [rows, identities, rates] = await Promise.all([
      this.store.profileList(),
      this.identities ? this.identities.store.identityList() : [],
      this.identities ? this.identities.rates() : new Map<string, OutcomeCounts>(),
    ]);
    const byKey = new Map(identities.map((i) => [`${i.platform}:${i.name}`, i]));
    return rows.map((p) => this.view(p, false, byKey.get(`${p.platform}:${p.name}`), rates.get(`${p.platform}:${p.name}`)));
  }

  async upsert(input: ProfileInput): Promise<ProfileView> {
    const adapter = typeof input.platform === 'string' ? this.registry.get(input.platform) : undefined;
    if (!adapter) throw new ApiError('invalid_request', 'platform: one of the catalog sources');
    const name = input.name ?? 'default';
    if (typeof name !== 'string' || !NAME_RE.test(name)) throw new ApiError('invalid_request', 'name: letters, digits, _ . - only (1 to 64)');
    if (name === 'pool') throw new ApiError('invalid_request', 'name: "pool" is reserved (params.profile "pool" asks the service to pick a profile)');
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
    const identityGiven = input.proxy !== undefined || input.pool !== undefined;
    if (identityGiven && !this.identities) throw new ApiError('invalid_request', 'proxy and pool are not available on this service');
    const proxy = input.proxy === undefined || input.proxy === null ? input.proxy : parseProxy(input.proxy).url;
    if (input.pool !== undefined && input.pool !== null && (typeof input.pool !== 'string' || !NAME_RE.test(input.pool))) {
      throw new ApiError('invalid_request', 'pool: letters, digits, _ . - only (1 to 64)');
    }
    const pool = input.pool as string | null | undefined;
    const before = await this.store.profileGet(adapter.id, name);
    const login = cookies !== null || credentials !== null;
    if (!login && !identityGiven) throw new ApiError('invalid_request', 'give cookies, credentials, a proxy or a pool (or several)');
    // A login-less profile is an identity of its own (guest crawling from its proxy); re-posting only the proxy or pool keeps the login.
    if (login || !before) await this.store.profilePut({ platform: adapter.id, name, cookies, credentials });
    let identity: { proxy: string | null; pool: string | null } | undefined;
    if (this.identities) {
      const old = await this.identities.store.identityGet(adapter.id, name);
      identity = { proxy: proxy === undefined ? (old?.proxy ?? null) : proxy, pool: pool === undefined ? (old?.pool ?? null) : pool };
      if (identityGiven) {
        await this.identities.store.identityPut(adapter.id, name, identity);
        this.identities.forget(adapter.id, name);
      }
    }
    const counts = this.identities ? (await this.identities.rates()).get(`${adapter.id}:${name}`) : undefined;
    return this.view((await this.store.profileGet(adapter.id, name)) as ProfileRow, true, identity, counts);
  }

  async remove(platform: string, name: string): Promise<boolean> {
    const adapter = this.registry.get(platform);
    if (!adapter) return false;
    const gone = await this.store.profileDelete(adapter.id, name);
    if (gone) {
      await this.identities?.store.identityDelete(adapter.id, name);
      this.identities?.forget(adapter.id, name);
    }
    return gone;
  }
}
