import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Enough of semver's range grammar for the engines fields npm packages use. */
function satisfies(version: [number, number, number], range: string): boolean {
  const cmp = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const parse = (v: string): number[] => v.replace(/\.x|\.\*/g, '').split('.').map(Number).concat([0, 0, 0]).slice(0, 3);
  return range.split('||').some((alt) =>
    alt
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+(?=[\^~<>=\d])/)
      .filter(Boolean)
      .every((raw) => {
        const part = raw.replace(/\s+/g, '');
        if (part === '*' || part === '') return true;
        const m = /^(>=|<=|>|<|\^|~)?(.+)$/.exec(part)!;
        const op = m[1];
        const v = parse(m[2]);
        const parts = m[2].split('.').filter((x) => x !== 'x' && x !== '*').length;
        const c = cmp(version, v);
        if (op === '>=') return c >= 0;
        if (op === '>') return c > 0;
        if (op === '<=') return c <= 0;
        if (op === '<') return c < 0;
        if (op === '^') return version[0] === v[0] && c >= 0;
        if (op === '~') return version[0] === v[0] && version[1] === v[1] && c >= 0;
        // A bare version with fewer parts (20.x, 22) is a range over what it leaves out.
        return parts === 1 ? version[0] === v[0] : parts === 2 ? version[0] === v[0] && version[1] === v[1] : c === 0;
      }),
  );
}

describe('npm install on Node 20 prints no engine warning', () => {
  it('every package the lock file installs accepts Node 20.19 and this Node', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean; version?: string }> };
    const here = process.versions.node.split('.').map(Number) as [number, number, number];
    const refused: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
      // npm skips an optional package whose engines do not fit, without a warning.
      if (!range || p.optional) continue;
      for (const v of [[20, 19, 0], here] as Array<[number, number, number]>) if (!satisfies(v, range)) refused.push(`${path}@${p.version} wants node ${range} (not ${v.join('.')})`);
    }
    expect(refused).toEqual([]);
  });

  it('reads the range forms packages use', () => {
    expect(satisfies([20, 19, 0], '>=22')).toBe(false);
    expect(satisfies([20, 19, 0], '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies([20, 18, 0], '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies([20, 19, 0], '20.x || 22.x')).toBe(true);
    expect(satisfies([20, 19, 0], '^22.20 || ^24.12 || >=25')).toBe(false);
    expect(satisfies([20, 19, 0], '10.* || >= 12.*')).toBe(true);
  });
});
