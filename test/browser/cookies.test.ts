import { describe, expect, it } from 'vitest';
import type { Cookie } from 'playwright-core';
import { cookiesToHeader, headerToCookies, inScopes } from '../../src/accounts/browser/cookies.js';

const cookie = (name: string, value: string, domain: string, path = '/'): Cookie => ({
  name,
  value,
  domain,
  path,
  expires: -1,
  httpOnly: false,
  secure: false,
  sameSite: 'Lax',
});

describe('browser cookies', () => {
  it('puts a Cookie header on every scope: domains with a path, URLs as they are', () => {
    expect(headerToCookies('Cookie: a=1; b=x=y', ['.example.com', 'https://m.example.com/'])).toEqual([
      { name: 'a', value: '1', domain: '.example.com', path: '/' },
      { name: 'b', value: 'x=y', domain: '.example.com', path: '/' },
      { name: 'a', value: '1', url: 'https://m.example.com/' },
      { name: 'b', value: 'x=y', url: 'https://m.example.com/' },
    ]);
    expect(() => headerToCookies('a=1', [])).toThrow(/no domains/);
    expect(() => headerToCookies('novalue', ['.x.com'])).toThrow(/not name=value/);
  });

  it('scopes: ".site" takes the site and its subdomains, a host takes what that host is sent', () => {
    const site = cookie('s', '1', '.example.com');
    const host = cookie('h', '1', 'www.example.com');
    const other = cookie('o', '1', 'notexample.com');
    expect([site, host, other].filter((c) => inScopes(c, ['.example.com'])).map((c) => c.name)).toEqual(['s', 'h']);
    expect([site, host, other].filter((c) => inScopes(c, ['www.example.com'])).map((c) => c.name)).toEqual(['s', 'h']);
    expect([site, host, other].filter((c) => inScopes(c, ['api.example.com'])).map((c) => c.name)).toEqual(['s']);
    expect([site, host, other].filter((c) => inScopes(c, ['https://www.example.com/x'])).map((c) => c.name)).toEqual(['s', 'h']);
  });

  it('keeps the broadest version of a name set on several domains or paths', () => {
    const header = cookiesToHeader([
      cookie('sid', 'narrow', 'www.example.com'),
      cookie('sid', 'broad', '.example.com'),
      cookie('p', 'deep', '.example.com', '/a'),
      cookie('p', 'root', '.example.com', '/'),
    ]);
    expect(header).toBe('sid=broad; p=root');
  });
});
