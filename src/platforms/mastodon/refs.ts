import { InvalidInput } from '../../crawl/errors.js';

/** A status named by the caller. `host` is set when the reference names its server (URL, native id). */
export interface StatusRef {
  id: string;
  host?: string;
  /** The original URL, when the reference was one (a reply to another server's post resolves it). */
  url?: string;
}

/** An account named by the caller: a username (`acct`, maybe `user@remote`) or a numeric account id. */
export interface AccountRef {
  acct?: string;
  id?: string;
  host?: string;
}

const ID = /^\d{1,20}$/;
const USER = '[A-Za-z0-9_][A-Za-z0-9_.-]*';
const HOST = '[A-Za-z0-9.-]+(?::\\d{1,5})?';
const USER_RE = new RegExp(`^${USER}$`);
const HANDLE_RE = new RegExp(`^@?(${USER})@(${HOST})$`);

/** Status paths a Mastodon web page or ActivityPub URI carries, ending in the status id. */
const STATUS_PATHS: RegExp[] = [
  new RegExp(`^/(?:web/)?@${USER}(?:@${HOST})?/(\\d+)(?:/embed)?/?$`),
  new RegExp(`^/users/${USER}/statuses/(\\d+)(?:/activity)?/?$`),
  /^\/ap\/users\/\d+\/statuses\/(\d+)\/?$/,
  /^\/(?:web\/)?statuses\/(\d+)\/?$/,
];

const ACCOUNT_PATHS: Array<{ re: RegExp; kind: 'acct' | 'id' }> = [
  { re: new RegExp(`^/(?:web/)?@(${USER}(?:@${HOST})?)(?:/(?:with_replies|media|followers|following))?/?$`), kind: 'acct' },
  { re: new RegExp(`^/users/(${USER})/?$`), kind: 'acct' },
  { re: /^\/ap\/users\/(\d+)\/?$/, kind: 'id' },
  { re: /^\/web\/accounts\/(\d+)\/?$/, kind: 'id' },
];

function parseUrl(input: string): URL | undefined {
  if (!/^https?:\/\//i.test(input)) return undefined;
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

/**
 * Status references: `https://host/@user/<id>` (also `/@user@remote/<id>`, `/users/user/statuses/<id>`,
 * `/ap/users/<n>/statuses/<id>`, `/web/statuses/<id>`), our native id `host/<id>` or item id
 * `mastodon:host/<id>`, or a bare status id (on params.instance).
 */
export function parseStatusRef(input: unknown): StatusRef {
  const raw = typeof input === 'string' ? input.trim() : '';
  if (!raw) throw new InvalidInput('a mastodon status reference is required (a status URL or id)');
  if (ID.test(raw)) return { id: raw };
  const url = parseUrl(raw);
  if (url) {
    for (const re of STATUS_PATHS) {
      const m = re.exec(url.pathname);
      if (m) return { id: m[1], host: url.host.toLowerCase(), url: raw };
    }
    throw new InvalidInput(`not a mastodon status URL: ${raw} (expected https://server/@user/<status id>)`);
  }
  const native = /^(?:mastodon:)?([A-Za-z0-9.-]+(?::\d{1,5})?)\/(\d{1,20})$/.exec(raw);
  if (native) return { id: native[2], host: native[1].toLowerCase() };
  throw new InvalidInput(`not a mastodon status reference: ${raw} (a status URL, server/<id>, or a status id)`);
}

/**
 * Account references: `https://host/@user`, `https://host/users/user`, `@user@host` / `user@host`
 * (the server is the handle's), `acct:user@host`, `@user` / `user` (on params.instance), or an account id.
 */
export function parseAccountRef(input: unknown): AccountRef {
  const raw = typeof input === 'string' ? input.trim() : '';
  if (!raw) throw new InvalidInput('a mastodon account reference is required (@user@server, a profile URL, or an account id)');
  if (ID.test(raw)) return { id: raw };
  const url = parseUrl(raw);
  if (url) {
    const host = url.host.toLowerCase();
    for (const { re, kind } of ACCOUNT_PATHS) {
      const m = re.exec(url.pathname);
      if (m) return kind === 'id' ? { id: m[1], host } : { acct: localAcct(m[1], host), host };
    }
    throw new InvalidInput(`not a mastodon profile URL: ${raw} (expected https://server/@user)`);
  }
  const handle = HANDLE_RE.exec(raw.replace(/^acct:/i, ''));
  if (handle) return { acct: handle[1], host: handle[2].toLowerCase() };
  const bare = raw.replace(/^@/, '');
  if (USER_RE.test(bare)) return { acct: bare };
  throw new InvalidInput(`not a mastodon account reference: ${raw} (@user@server, https://server/@user, or an account id)`);
}

/** `/@user@host` on host itself is just `user`; a remote account keeps its domain. */
function localAcct(acct: string, host: string): string {
  const at = acct.indexOf('@');
  return at > 0 && acct.slice(at + 1).toLowerCase() === host ? acct.slice(0, at) : acct;
}

/** `user@host` → `https://host/@user` (Mastodon's canonical profile URL form). */
export function profileUrl(handle: string | undefined): string | undefined {
  if (!handle) return undefined;
  const m = HANDLE_RE.exec(handle);
  return m ? `https://${m[2].toLowerCase()}/@${m[1]}` : undefined;
}
