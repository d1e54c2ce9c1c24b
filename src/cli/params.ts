import type { CatalogEntry, CatalogParam, Params } from '../../client/dist/index.js';
import { UsageError } from './exit.js';

function convert(name: string, raw: string, type: CatalogParam['type'] | undefined): unknown {
  switch (type) {
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) throw new UsageError(`--param ${name}: expected ${type === 'integer' ? 'an integer' : 'a number'}, got ${JSON.stringify(raw)}`);
      return n;
    }
    case 'boolean': {
      const v = raw.toLowerCase();
      if (['true', '1', 'yes'].includes(v)) return true;
      if (['false', '0', 'no'].includes(v)) return false;
      throw new UsageError(`--param ${name}: expected true or false, got ${JSON.stringify(raw)}`);
    }
    default:
      return raw;
  }
}

/**
 * `--param k=v` pairs as typed params: each value converted by the type the catalog gives the param
 * (for a platform alias, the type the same action's param has elsewhere); unknown params stay strings
 * and the service names them in its refusal.
 */
export function parseParams(pairs: string[], source: string, action: string, catalog: CatalogEntry[]): Params {
  const own = catalog.find((e) => e.name === `${source.toLowerCase()}.${action}`);
  const typeOf = (name: string) =>
    own ? own.params.find((p) => p.name === name)?.type : catalog.filter((e) => e.name.endsWith(`.${action}`)).flatMap((e) => e.params).find((p) => p.name === name)?.type;
  const out: Params = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--param ${pair}: expected key=value`);
    const name = pair.slice(0, at);
    if (name in out) throw new UsageError(`--param ${name}: given twice`);
    out[name] = convert(name, pair.slice(at + 1), typeOf(name));
  }
  return out;
}

export const collect = (value: string, previous: string[]): string[] => [...previous, value];
