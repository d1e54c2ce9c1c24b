import { createRequire } from 'node:module';
import type * as Cheerio from 'cheerio';

export type { Cheerio, CheerioAPI } from 'cheerio';

const requireModule = createRequire(import.meta.url);
let cheerio: typeof Cheerio | undefined;

/**
 * cheerio's load, required on first use: it costs ~160 ms and ~28 MB at start, and a service that
 * never parses an HTML page (most platforms answer JSON) should not pay that.
 */
export function load(...args: Parameters<typeof Cheerio.load>): ReturnType<typeof Cheerio.load> {
  cheerio ??= requireModule('cheerio') as typeof Cheerio;
  return cheerio.load(...args);
}
