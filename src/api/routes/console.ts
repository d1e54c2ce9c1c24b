import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { ApiDeps } from '../context.js';

/** console/ at the repository root: the same three levels up from src/api/routes and dist/api/routes. */
export const CONSOLE_DIR = new URL('../../../console/', import.meta.url);

/**
 * Every file the console serves. A request names a key of this list or gets 404: no request path is
 * ever joined onto the directory, so nothing else on disk is reachable.
 */
export const CONSOLE_FILES = [
  'index.html',
  'console.css',
  'icon.svg',
  'app.js',
  'api.js',
  'sse.js',
  'dom.js',
  'watcher.js',
  'form.js',
  'view-signin.js',
  'view-new.js',
  'view-tasks.js',
  'view-task.js',
  'view-profiles.js',
  'view-login.js',
  'view-tokens.js',
  'result-gallery.js',
  'result-comments.js',
  'result-misc.js',
] as const;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function loadAssets(dir: URL): Map<string, Asset> | Error {
  const assets = new Map<string, Asset>();
  try {
    for (const name of CONSOLE_FILES) {
      const body = readFileSync(new URL(name, dir));
      const etag = `"c-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      assets.set(name, { body, type: TYPES[name.slice(name.lastIndexOf('.') + 1)], etag });
    }
  } catch (e) {
    return e as Error;
  }
  return assets;
}

/**
 * The page holds no data and runs only our own scripts; the API calls it makes carry the token from
 * the tab's session storage. Media come from this origin, or from the public URL results point at.
 */
export function consolePolicy(publicUrl?: string): string {
  const media = ["'self'"];
  if (publicUrl) media.push(new URL(publicUrl).origin);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${media.join(' ')}`,
    `media-src ${media.join(' ')}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The web console at /console: static files from a fixed list, public like /docs (every call it makes needs a token). */
export function consoleRoutes(app: FastifyInstance, d: ApiDeps, dir: URL = CONSOLE_DIR): void {
  const assets = loadAssets(dir);
  const policy = consolePolicy(d.config.publicUrl);

  const send = (req: FastifyRequest, reply: FastifyReply, name: string) => {
    if (assets instanceof Error) {
      throw new ApiError('not_found', `the console's files are not installed next to the service (console/ beside src/ or dist/): ${assets.message.split('\n')[0]}`);
    }
    const asset = assets.get(name);
    if (!asset) throw new ApiError('not_found', `no console file ${JSON.stringify(name.slice(0, 64))}`);
    reply
      .header('content-security-policy', policy)
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      // Names carry no content hash: revalidate every time, answered 304 by the ETag.
      .header('cache-control', 'no-cache')
      .header('etag', asset.etag)
      .type(asset.type);
    if (req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.send(asset.body);
  };

  app.get('/console', async (req, reply) => send(req, reply, 'index.html'));
  app.get('/console/', async (req, reply) => send(req, reply, 'index.html'));
  app.get('/console/:file', async (req, reply) => send(req, reply, (req.params as { file: string }).file));
}
