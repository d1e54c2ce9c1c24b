import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOps, writeOps } from '../../src/crawl/ops.js';
import { graphql } from '../../src/platforms/threads/api.js';
import { threads } from '../../src/platforms/threads/index.js';
import { operation, OPS_DEFAULTS, webConfig } from '../../src/platforms/threads/ops.js';
import { bundleUrls, scanBundle } from '../../src/platforms/threads/refresh.js';
import { threadsCtx } from '../helpers/threads-ctx.js';

const SANDBOX = resolve(process.cwd(), 'sandbox/threads');
const PAGE = resolve(SANDBOX, 'session-page.har');
const BUNDLES = resolve(SANDBOX, 'refresh-pages-and-bundles.har');

describe('threads operation data', () => {
  it('every doc_id, the app ids and the LSD patterns live in the adapter\'s defaults', () => {
    expect(threads.ops?.defaults).toBe(OPS_DEFAULTS);
    expect(OPS_DEFAULTS.BarcelonaPostPageDirectQuery.doc_id).toBe('35009275178687016');
    expect(OPS_DEFAULTS.BarcelonaPostPageQuery).toMatchObject({ doc_id: '5587632691339264', url: 'https://www.threads.net/api/graphql', pinned: true });
    expect(OPS_DEFAULTS.web.app_id).toBe('238260118697367');
    expect(OPS_DEFAULTS.app.app_id).toBe('3419628305025917');
    expect(OPS_DEFAULTS.web.lsd_patterns.length).toBeGreaterThan(0);
  });

  it('a patch names only what it changes: the rest of the entry keeps its default', () => {
    const ctx = threadsCtx({ ops: { ...OPS_DEFAULTS, BarcelonaPostPageDirectQuery: { doc_id: '111111111111' }, web: { session_page: 'https://www.threads.com/@threads' } } });
    expect(operation(ctx, 'BarcelonaPostPageDirectQuery')).toMatchObject({ doc_id: '111111111111', root: OPS_DEFAULTS.BarcelonaPostPageDirectQuery.root, providers: OPS_DEFAULTS.BarcelonaPostPageDirectQuery.providers });
    expect(webConfig(ctx)).toMatchObject({ session_page: 'https://www.threads.com/@threads', app_id: '238260118697367' });
  });

  it('a doc_id that is not one stops the crawl naming the fix', () => {
    expect(() => operation(threadsCtx({ ops: { BarcelonaPostPageDirectQuery: { doc_id: 'abc' } } }), 'BarcelonaPostPageDirectQuery')).toThrow(/doc_id "abc" is not a doc_id.*CRAWLER_THREADS_OPS/);
    expect(() => operation(threadsCtx({ ops: { BarcelonaPostPageDirectQuery: 'x' } }), 'BarcelonaPostPageDirectQuery')).toThrow(/must be an object/);
  });

  it('the crawl sends the doc_id of ctx.ops (an operator\'s CRAWLER_THREADS_OPS file wins over the built-in)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threads-ops-'));
    const patch = join(dir, 'patch.json');
    (await import('node:fs')).writeFileSync(patch, JSON.stringify({ BarcelonaUsernameHovercardImplDirectQuery: { doc_id: '424242424242' } }));
    const ops = loadOps([threads], dir, { CRAWLER_THREADS_OPS: patch }).get('threads')!;
    let body = '';
    const ctx = threadsCtx({
      ops,
      files: [PAGE],
      answers: [{ method: 'POST', url: 'https://www.threads.com/graphql/query', form: { variables: '{"username":"a"}' }, body: { data: { user: { pk: '1' } } } }],
    });
    const original = ctx.http.request.bind(ctx.http);
    ctx.http.request = async (req) => {
      if (req.method === 'POST') body = String(req.body);
      return original(req);
    };
    await graphql(ctx, 'BarcelonaUsernameHovercardImplDirectQuery', { username: 'a' }, 'user @a');
    expect(new URLSearchParams(body).get('doc_id')).toBe('424242424242');
  });
});

describe('threads platforms refresh', () => {
  it('finds the threads operation modules, never the facebook.com ones; provider lists from the query modules', () => {
    const found = scanBundle(
      [
        '__d("BarcelonaPostPageDirectQuery_facebookRelayOperation",[],(function(t,n,r,o,a,i){a.exports="111"}),null);',
        '__d("BarcelonaPostPageDirectQuery_threadsRelayOperation",[],(function(t,n,r,o,a,i){a.exports="36120000000000001"}),null);',
        '__d("BarcelonaPostPageDirectQuery.graphql",["BarcelonaPostPageDirectQuery_threadsRelayOperation","BarcelonaIsLoggedInrelayprovider","react"],(function(){}),null);',
        '__d( "OtherQuery_threadsRelayOperation" , [] , function (e) { e.exports = "27000000000000002" } ,null);',
      ].join('\n'),
    );
    expect([...found.docIds]).toEqual([
      ['BarcelonaPostPageDirectQuery', '36120000000000001'],
      ['OtherQuery', '27000000000000002'],
    ]);
    expect(found.providers.get('BarcelonaPostPageDirectQuery')).toEqual(['BarcelonaIsLoggedInrelayprovider']);
  });

  it('lists the bundles of a page once each: script tags, preloads and escaped resource maps; no other files', () => {
    const html = '<link href="https://static.cdninstagram.com/rsrc.php/v4/yQ/r/A.js" rel="preload"><script src="https://static.cdninstagram.com/rsrc.php/v4/yQ/r/A.js"></script>{"src":"https:\\/\\/static.cdninstagram.com\\/rsrc.php\\/v4iG\\/yB\\/l\\/en_US-j\\/B.js"}<img src="https://static.cdninstagram.com/rsrc.php/v4/y1/r/icon.png">';
    expect(bundleUrls(html)).toEqual(['https://static.cdninstagram.com/rsrc.php/v4/yQ/r/A.js', 'https://static.cdninstagram.com/rsrc.php/v4iG/yB/l/en_US-j/B.js']);
  });

  it('re-derives the four current doc_ids from the hand-made page and bundles; the 2023 ones stay pinned; new providers start false', async () => {
    const warnings: string[] = [];
    const requests: string[] = [];
    const fresh = await threads.ops!.refresh(threadsCtx({ files: [PAGE, BUNDLES], warnings, requests }));
    expect(Object.keys(fresh).sort()).toEqual(['BarcelonaPostPageDirectQuery', 'BarcelonaProfilePageDirectQuery', 'BarcelonaProfileThreadsTabRefetchableDirectQuery', 'BarcelonaUsernameHovercardImplDirectQuery']);
    expect(fresh).toMatchObject({
      BarcelonaPostPageDirectQuery: { doc_id: '36120000000000001', root: OPS_DEFAULTS.BarcelonaPostPageDirectQuery.root },
      BarcelonaUsernameHovercardImplDirectQuery: { doc_id: '27120000000000002' },
      BarcelonaProfilePageDirectQuery: { doc_id: '28120000000000003' },
      BarcelonaProfileThreadsTabRefetchableDirectQuery: { doc_id: '29120000000000004' },
    });
    const providers = (fresh.BarcelonaPostPageDirectQuery as { providers: Record<string, boolean> }).providers;
    expect(providers).toEqual({ ...OPS_DEFAULTS.BarcelonaPostPageDirectQuery.providers, BarcelonaHasSandboxNewFlagrelayprovider: false });
    expect(warnings.join(' ')).toContain('BarcelonaHasSandboxNewFlagrelayprovider');
    // Both pages, then only the bundles it needed (A via the home page, B via its resource map, C via the profile page).
    expect(requests).toEqual([
      'GET https://www.threads.com/',
      'GET https://www.threads.com/@threads',
      'GET https://static.cdninstagram.com/rsrc.php/v4/yQ/r/SandboxBundleA.js',
      'GET https://static.cdninstagram.com/rsrc.php/v4iG/yB/l/en_US-j/SandboxBundleB.js',
      'GET https://static.cdninstagram.com/rsrc.php/v4/yx/r/SandboxBundleC.js',
    ]);
  });

  it('written by the CLI\'s writer and loaded at the next start, the refreshed ids are what the crawl reads', async () => {
    const fresh = await threads.ops!.refresh(threadsCtx({ files: [PAGE, BUNDLES] }));
    const dir = mkdtempSync(join(tmpdir(), 'threads-ops-'));
    writeOps(dir, 'threads', fresh);
    const ops = loadOps([threads], dir, {}).get('threads')!;
    expect(operation(threadsCtx({ ops }), 'BarcelonaPostPageDirectQuery').doc_id).toBe('36120000000000001');
    expect(operation(threadsCtx({ ops }), 'BarcelonaPostPageQuery').doc_id).toBe('5587632691339264');
  });

  it('an operation no bundle holds keeps its id with a warning; none found at all is an error, nothing written', async () => {
    const warnings: string[] = [];
    const partial = await threads.ops!.refresh(threadsCtx({ files: [PAGE], answers: [{ url: 'https://static.cdninstagram.com/rsrc.php/v4/yQ/r/SandboxBundleA.js', body: '__d("BarcelonaPostPageDirectQuery_threadsRelayOperation",[],(function(t,n,r,o,a,i){a.exports="36999999999999999"}),null);', mime: 'application/javascript' }], warnings }));
    expect(partial).toMatchObject({ BarcelonaPostPageDirectQuery: { doc_id: '36999999999999999' }, BarcelonaProfilePageDirectQuery: { doc_id: OPS_DEFAULTS.BarcelonaProfilePageDirectQuery.doc_id } });
    expect(warnings.join(' ')).toMatch(/BarcelonaProfilePageDirectQuery was not found in the bundles read; its doc_id 26973787138973936 is kept/);
    await expect(threads.ops!.refresh(threadsCtx({ answers: [{ url: 'https://www.threads.com/', body: '<html>nothing</html>' }] }))).rejects.toThrow(/none of BarcelonaPostPageDirectQuery.*was found/);
  });
});
