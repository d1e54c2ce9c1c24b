import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOps, opsEnvName, opsPath, StaleOperation, writeOps } from '../../src/crawl/ops.js';
import { loadConfig } from '../../src/config.js';

const adapters = [
  { id: 'twitter', ops: { defaults: { SearchTimeline: { queryId: 'built-in-1' }, UserByScreenName: { queryId: 'built-in-2' } } } },
  { id: 'weibo' },
];

describe('operation data as data', () => {
  it('defaults, then the refreshed file, then the operator file win per operation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-'));
    writeOps(dir, 'twitter', { SearchTimeline: { queryId: 'refreshed-1' } });
    expect(JSON.parse(readFileSync(opsPath(dir, 'twitter'), 'utf8'))).toEqual({ SearchTimeline: { queryId: 'refreshed-1' } });
    expect(loadOps(adapters, dir, {}).get('twitter')).toEqual({ SearchTimeline: { queryId: 'refreshed-1' }, UserByScreenName: { queryId: 'built-in-2' } });
    const patch = join(dir, 'patch.json');
    writeFileSync(patch, JSON.stringify({ UserByScreenName: { queryId: 'patched-2' } }));
    const merged = loadOps(adapters, dir, { [opsEnvName('twitter')]: patch }).get('twitter');
    expect(merged).toEqual({ SearchTimeline: { queryId: 'refreshed-1' }, UserByScreenName: { queryId: 'patched-2' } });
    expect(loadOps(adapters, dir, {}).has('weibo')).toBe(false);
  });
  it('a missing or unreadable override file, or one for a platform without ops, stops the start naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-'));
    expect(() => loadOps(adapters, dir, { CRAWLER_TWITTER_OPS: join(dir, 'nope.json') })).toThrow(/CRAWLER_TWITTER_OPS: no such file/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[1,2]');
    expect(() => loadOps(adapters, dir, { CRAWLER_TWITTER_OPS: bad })).toThrow(/JSON object/);
    writeFileSync(bad, '{oops');
    expect(() => loadOps(adapters, dir, { CRAWLER_TWITTER_OPS: bad })).toThrow(/not readable JSON/);
    expect(() => loadOps(adapters, dir, { CRAWLER_WEIBO_OPS: bad })).toThrow(/no platform named weibo keeps operation data/);
  });
  it('config collects the CRAWLER_<SOURCE>_OPS variables', () => {
    expect(loadConfig({ CRAWLER_TWITTER_OPS: '/x.json', CRAWLER_OTHER: 'y' } as NodeJS.ProcessEnv).opsEnv).toEqual({ CRAWLER_TWITTER_OPS: '/x.json' });
  });
  it('a stale operation says which id to refresh and how', () => {
    const e = new StaleOperation('twitter', 'twitter SearchTimeline (queryId abc) is unknown to the platform');
    expect(e.code).toBe('upstream_error');
    expect(e.message).toContain('SearchTimeline (queryId abc)');
    expect(e.message).toContain('npx crawler platforms refresh twitter');
    expect(e.message).toContain('CRAWLER_TWITTER_OPS');
  });
});
