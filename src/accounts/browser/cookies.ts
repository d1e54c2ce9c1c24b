import type { Cookie } from 'playwright-core';

type NewCookie = { name: string; value: string; url?: string; domain?: string; path?: string };

/**
 * Where a profile's cookies live, in the adapters' host convention: ".example.com" (the site and its
 * subdomains), "example.com" (that host only) or a URL (that origin only).
 */
export type CookieScope = string;

const isUrl = (scope: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(scope);

/** A Cookie header string ("a=1; b=2") as browser cookies, once per scope. */
export function headerToCookies(header: string, scopes: CookieScope[]): NewCookie[] {
  if (!scopes.length) throw new Error('browser cookies: no domains to put the profile cookies on');
  const pairs = header
    .replace(/^cookie:\s*/i, '')
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const eq = p.indexOf('=');
      if (eq <= 0) throw new Error(`browser cookies: "${p.slice(0, 40)}" is not name=value`);
      return { name: p.slice(0, eq).trim(), value: p.slice(eq + 1).trim() };
    });
  return scopes.flatMap((scope) =>
    pairs.map((c) => (isUrl(scope) ? { ...c, url: scope } : { ...c, domain: scope, path: '/' })),
  );
}

/** Whether a cookie belongs to one of the scopes (the site for ".x", the host for "x", what the URL would send). */
export function inScopes(cookie: Cookie, scopes: CookieScope[]): boolean {
  const cd = cookie.domain.replace(/^\./, '').toLowerCase();
  return scopes.some((raw) => {
    const scope = raw.toLowerCase();
    const host = isUrl(scope) ? new URL(scope).hostname : scope.replace(/^\./, '');
    if (scope.startsWith('.')) return cd === host || cd.endsWith(`.${host}`);
    // A host (or URL) receives its own cookies and those of the parent domains that set Domain=.
    return cd === host || (cookie.domain.startsWith('.') && host.endsWith(`.${cd}`));
  });
}

/**
 * Browser cookies as one Cookie header. A name set on several domains/paths keeps its broadest
 * version, because the stored header is sent to every host of the platform.
 */
export function cookiesToHeader(cookies: Cookie[]): string {
  const broadFirst = [...cookies].sort(
    (a, b) => a.domain.replace(/^\./, '').length - b.domain.replace(/^\./, '').length || a.path.length - b.path.length,
  );
  const seen = new Map<string, string>();
  for (const c of broadFirst) if (!seen.has(c.name)) seen.set(c.name, c.value);
  return [...seen].map(([n, v]) => `${n}=${v}`).join('; ');
}
