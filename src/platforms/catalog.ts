import type { CatalogEntry } from '../domain/catalog.js';
import { commonParams } from '../tasks/params.js';
import type { ActionDef, PlatformAdapter } from './types.js';
import type { Registry } from './registry.js';

export interface CatalogIndex {
  entries: CatalogEntry[];
  get(source: string, action: string): { adapter: PlatformAdapter; def: ActionDef; entry: CatalogEntry } | undefined;
}

/** The catalog is derived from the adapter registry only, so it can never list what does not exist. */
export function buildCatalog(registry: Registry): CatalogIndex {
  const entries: CatalogEntry[] = [];
  const index = new Map<string, { adapter: PlatformAdapter; def: ActionDef; entry: CatalogEntry }>();
  for (const adapter of registry.adapters) {
    for (const [action, def] of Object.entries(adapter.actions)) {
      if (!def) continue;
      const own = def.params ?? [];
      const ownNames = new Set(own.map((x) => x.name));
      const params = [...own, ...commonParams(action, def, adapter).filter((x) => !ownNames.has(x.name))];
      const entry: CatalogEntry = { name: `${adapter.id}.${action}`, group: adapter.id, summary: def.summary, params };
      if (def.shape === 'write') {
        entry.write = true;
        entry.confirm = true;
      }
      entries.push(entry);
      index.set(entry.name, { adapter, def, entry });
    }
  }
  return {
    entries,
    get(source, action) {
      const adapter = registry.get(source);
      return adapter ? index.get(`${adapter.id}.${action}`) : undefined;
    },
  };
}
