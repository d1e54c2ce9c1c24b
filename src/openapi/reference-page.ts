import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The only files /docs serves from swagger-ui-dist: a fixed list, so no request names a path of its own. */
const VENDOR_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

export interface Asset {
  type: string;
  body: Buffer;
}

// Relative to the page (/docs), so the page also works behind a proxy that mounts the service under a prefix.
const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // Swagger UI's default validator badge is an image from another host: the page stays offline.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Social crawler API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" sizes="32x32" href="docs/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="docs/favicon-16x16.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

/**
 * The interactive reference at /docs: Swagger UI from the installed swagger-ui-dist package (no CDN),
 * pointed at /v1/openapi.json. Vendor files are read on first request and kept.
 */
export function referencePage(): { html: string; asset(name: string): Asset | undefined } {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Asset>([['init.js', { type: 'text/javascript; charset=utf-8', body: Buffer.from(INIT_JS) }]]);
  return {
    html: PAGE,
    asset(name) {
      const hit = cache.get(name);
      if (hit) return hit;
      if (!Object.hasOwn(VENDOR_ASSETS, name)) return undefined;
      const asset = { type: VENDOR_ASSETS[name], body: readFileSync(join(dir, name)) };
      cache.set(name, asset);
      return asset;
    },
  };
}

/** What the page may load and call: its own scripts and styles (Swagger UI sets inline styles), data: icons, this origin. */
export function pagePolicy(publicUrl?: string): string {
  const api = publicUrl ? ` ${new URL(publicUrl).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
