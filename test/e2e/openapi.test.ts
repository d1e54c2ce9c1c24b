import { request } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, HTTP_STATUS } from '../../src/domain/errors.js';
import { DEMO_EXAMPLES } from '../../src/demo.js';
import { openApiPath } from '../../src/openapi/document.js';
import { UNDOCUMENTED_ROUTES } from '../../src/openapi/paths/index.js';
import type { OpenApiDocument, OperationObject } from '../../src/openapi/types.js';
import { schemaChecker } from '../helpers/openapi.js';
import { startService, type Running } from '../helpers/service.js';

let s: Running;
let doc: OpenApiDocument;

beforeAll(async () => {
  s = await startService();
  const r = await s.api('/v1/openapi.json', { token: null });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  doc = r.body;
});
afterAll(async () => {
  await s?.close();
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op: op as OperationObject })));

/** The spec's table "Actions and return shapes": the shape each action returns, whatever the platform. */
const SPEC_SHAPES: Record<string, string> = {
  search: 'A', posts: 'A', hot: 'A', recommended: 'A', detail: 'A', comments: 'B', user: 'C', trending: 'D', 'post.create': 'E', 'comment.create': 'E', delete: 'E',
  // decisions.md "Download": shape A with the stored files.
  download: 'A',
};

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, public', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect((await s.api('/v1/openapi.json', { token: 'not-a-token' })).status).toBe(200);
  });

  it('documents every route the app registers, and only those', () => {
    const registered = s.svc.app.registeredRoutes();
    const documented = new Set(operations().map((o) => `${o.method} ${o.path}`));
    const getPaths = new Set(registered.filter((r) => r.method === 'GET').map((r) => r.url));
    const missing = registered
      .filter((r) => !(UNDOCUMENTED_ROUTES as readonly string[]).includes(`${r.method} ${r.url}`))
      // Fastify answers HEAD on every GET route: HEAD is an alias unless documented on its own.
      .filter((r) => !(r.method === 'HEAD' && getPaths.has(r.url)) || documented.has(`HEAD ${openApiPath(r.url)}`))
      .filter((r) => !documented.has(`${r.method} ${openApiPath(r.url)}`))
      .map((r) => `${r.method} ${r.url} is registered but not documented: add its RouteDoc in src/openapi/paths/`);
    expect(missing).toEqual([]);
    const registeredKeys = new Set(registered.map((r) => `${r.method} ${openApiPath(r.url)}`));
    const phantom = [...documented].filter((k) => !registeredKeys.has(k)).map((k) => `${k} is documented but no such route is registered`);
    expect(phantom).toEqual([]);
    // The exclusion list names only routes that exist.
    for (const k of UNDOCUMENTED_ROUTES) expect(registered.some((r) => `${r.method} ${r.url}` === k), k).toBe(true);
  });

  it("states each route's access as the route itself enforces it", () => {
    const wrong: string[] = [];
    for (const r of s.svc.app.registeredRoutes()) {
      const op = doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()];
      if (!op) continue;
      const scope = r.scope ?? 'public';
      if (op['x-scope'] !== scope) wrong.push(`${r.method} ${r.url}: documented ${String(op['x-scope'])}, registered ${scope}`);
      const expected = scope === 'public' ? undefined : scope === 'any' ? [] : [scope];
      const bearer = op.security.find((x) => x.bearerAuth)?.bearerAuth;
      if (scope === 'public' ? op.security.length > 0 && !op.security.some((x) => Object.keys(x).length === 0) : JSON.stringify(bearer) !== JSON.stringify(expected)) {
        wrong.push(`${r.method} ${r.url}: security ${JSON.stringify(op.security)} does not match scope ${scope}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('documents every catalog source.action with its params and the result shape the spec gives its action', async () => {
    const catalog = (await s.api('/v1/task-sources')).body as Array<{ name: string; group: string; params: Array<Record<string, any> & { name: string; required: boolean }> }>;
    const resolve = (x: any): any => (x.$ref ? doc.components.schemas[x.$ref.split('/').pop()] : x);
    const body = doc.paths['/v1/tasks'].post.requestBody!.content['application/json'].schema as { anyOf: Array<{ $ref: string }> };
    const offered = new Set(body.anyOf.map((x) => x.$ref));
    expect(catalog.length).toBeGreaterThan(50);
    for (const e of catalog) {
      const name = `TaskRequest.${e.name}`;
      const schema = doc.components.schemas[name] as any;
      expect(schema, name).toBeDefined();
      expect(offered.has(`#/components/schemas/${name}`), name).toBe(true);
      expect(Object.keys(schema.properties.params.properties).sort(), name).toEqual(e.params.map((p) => p.name).sort());
      expect(schema.properties.params.required ?? [], name).toEqual(e.params.filter((p) => p.required).map((p) => p.name));
      expect(schema['x-result-shape'], name).toBe(SPEC_SHAPES[e.name.slice(e.group.length + 1)]);
      // Each param as the live catalog states it: type, allowed values, range, default.
      for (const p of e.params) {
        const ps = resolve(schema.properties.params.properties[p.name]);
        expect({ type: ps.type, enum: ps.enum, min: ps.minimum, max: ps.maximum, default: ps.default }, `${e.name} ${p.name}`).toEqual({ type: p.type, enum: p.enum, min: p.min, max: p.max, default: p.default });
      }
    }
    // Nothing documented that the catalog lacks.
    const documented = Object.keys(doc.components.schemas).filter((n) => n.startsWith('TaskRequest.'));
    expect(documented.sort()).toEqual(catalog.map((e) => `TaskRequest.${e.name}`).sort());
  });

  it('accepts what the catalog accepts and refuses what it refuses, per action', () => {
    const check = schemaChecker(doc);
    for (const e of DEMO_EXAMPLES) expect(check.component(`TaskRequest.${e.source}.${e.action}`, e), `${e.source}.${e.action}`).toEqual([]);
    expect(check.component('TaskRequest.weibo.search', { source: 'weibo', action: 'search', params: { query: 'x', bogus: 1 } })).not.toEqual([]);
    expect(check.component('TaskRequest.weibo.search', { source: 'weibo', action: 'search', params: { query: 'x', limit: 101 } })).not.toEqual([]);
    expect(check.component('TaskRequest.weibo.search', { source: 'weibo', action: 'search', params: {} })).not.toEqual([]);
    expect(check.component('TaskRequest.weibo.search', { source: 'bilibili', action: 'search', params: { query: 'x' } })).not.toEqual([]);
    // The generic form still admits an alias in any case, as the service does.
    expect(check.component('TaskRequest', { source: 'X', action: 'search', params: { query: 'x' } })).toEqual([]);
    // Every example the document offers is valid for the body it illustrates.
    const post = doc.paths['/v1/tasks'].post.requestBody!.content['application/json'];
    expect(Object.keys(post.examples ?? {}).length).toBeGreaterThan(0);
    for (const [name, ex] of Object.entries(post.examples ?? {})) expect(check.component(`TaskRequest.${name}`, ex.value), name).toEqual([]);
  });

  it('documents every error code at its HTTP status, and no other code', () => {
    const table = doc['x-error-codes'] as Array<{ code: string; status: number }>;
    expect(table.map((x) => x.code)).toEqual([...ERROR_CODES]);
    for (const c of ERROR_CODES) {
      expect(table.find((x) => x.code === c)?.status, c).toBe(HTTP_STATUS[c]);
      expect(doc.info.description).toContain(`| ${c} | ${HTTP_STATUS[c]} |`);
    }
    expect((doc.components.schemas.ErrorBody as any).properties.code.enum).toEqual([...ERROR_CODES]);
    const seen = new Map<string, Set<string>>();
    for (const { op } of operations()) {
      for (const [status, res] of Object.entries(op.responses)) {
        const codes = (res.content?.['application/json']?.schema as any)?.allOf?.[1]?.properties?.error?.properties?.code?.enum as string[] | undefined;
        for (const c of codes ?? []) {
          expect(ERROR_CODES as readonly string[]).toContain(c);
          seen.set(c, (seen.get(c) ?? new Set()).add(status));
        }
      }
    }
    // Every code a route can answer at the HTTP level appears at its usual status somewhere.
    for (const c of ERROR_CODES.filter((x) => x !== 'duplicate')) expect([...(seen.get(c) ?? [])], c).toContain(String(HTTP_STATUS[c]));
    // duplicate never surfaces as an HTTP status: it is a write result's state and error code.
    expect((doc.components.schemas.WriteResult as any).properties.state.enum).toContain('duplicate');
  });

  it('gives every operation a success answer, the shared error answers, and a unique operationId', () => {
    const ids = new Set<string>();
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      expect(Object.keys(op.responses).some((st) => st.startsWith('2')), where).toBe(true);
      expect(op.responses['400'], where).toBeDefined();
      if (op['x-scope'] !== 'public') expect(op.responses['401'], where).toBeDefined();
      expect(ids.has(op.operationId), op.operationId).toBe(false);
      ids.add(op.operationId);
    }
    expect(doc.paths['/v1/tasks/{id}/stream'].get.responses['200'].content?.['text/event-stream']).toBeDefined();
    expect(doc.paths['/v1/preview'].get.responses['206'].headers?.['Content-Range']).toBeDefined();
  });
});

describe('/docs', () => {
  it('serves an HTML page that loads only its own assets, each with its type', async () => {
    const r = await fetch(`${s.base}/docs`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await r.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/(src|href)="\/\//);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, png: /^image\/png/ };
    for (const ref of refs) {
      const asset = await fetch(new URL(ref, `${s.base}/docs`));
      expect(asset.status, ref).toBe(200);
      expect(asset.headers.get('content-type'), ref).toMatch(types[ref.split('.').pop()!]);
      expect((await asset.arrayBuffer()).byteLength, ref).toBeGreaterThan(100);
    }
    expect(refs.some((x) => x.endsWith('.js'))).toBe(true);
    expect(refs.some((x) => x.endsWith('.css'))).toBe(true);
    // The page's script points Swagger UI at this service's document, not at a demo on the web.
    const init = await (await fetch(`${s.base}/docs/init.js`)).text();
    expect(init).toContain("url: 'v1/openapi.json'");
    expect(init).not.toMatch(/https?:\/\//);
  });

  it('answers 404 to any file outside its fixed list, traversal attempts included', async () => {
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(s.base);
        const req = request({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['/docs/../package.json', '/docs/..%2Fpackage.json', '/docs/%2e%2e%2fpackage.json', '/docs/..%2F..%2Fpackage.json', '/docs/package.json', '/docs/swagger-ui.js', '/docs/index.html', '/docs/%2Fetc%2Fpasswd', '/docs/swagger-ui.css%00']) {
      const status = await raw(path);
      expect(status === 404 || status === 400, `${path}: ${status}`).toBe(true);
    }
    const r = await s.api('/docs/..%2Fpackage.json', { token: null });
    expect(r.body).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
