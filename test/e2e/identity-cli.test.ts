import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

/** `crawler profiles add --proxy/--pool` and `profiles list`, as a spawned process on a fresh data dir. */
const dataDir = mkdtempSync(join(tmpdir(), 'crawler-identity-cli-'));
const env = { CRAWLER_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('crawler profiles add --proxy --pool', () => {
  it('stores a proxied, pooled profile, prints it masked and lists it, never printing the credentials', async () => {
    const add = await cli(['profiles', 'add', 'bluesky', 'eu1', '--cookie', 'a=1', '--proxy', 'socks5://me:CLISECRET@127.0.0.1:1080', '--pool', 'eu'], env);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('egress socks5://***@127.0.0.1:1080, pool eu');
    const list = await cli(['profiles', 'list'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/bluesky\/eu1\t\S+\tused never\tsocks5:\/\/\*\*\*@127\.0\.0\.1:1080\tpool eu/);
    for (const out of [add.stdout, add.stderr, list.stdout, list.stderr]) expect(out).not.toContain('CLISECRET');
  });
});
