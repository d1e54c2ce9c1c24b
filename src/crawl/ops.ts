import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UpstreamError } from './errors.js';

/*
 * GraphQL query ids, doc_ids and feature flags go stale every few weeks. Each platform keeps them as data
 * (its adapter's `ops.defaults`), and the service layers two overrides on top, later ones winning per
 * operation: `<data dir>/ops/<source>.json` (written by `npx crawler platforms refresh <source>`) and the
 * file named by CRAWLER_<SOURCE>_OPS (an operator's patch, without a release).
 */
export type OpsData = Record<string, unknown>;

export const opsEnvName = (source: string): string => `CRAWLER_${source.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_OPS`;
export const opsPath = (dataDir: string, source: string): string => join(dataDir, 'ops', `${source}.json`);

/** The platform answered that an operation id or a feature flag is unknown, missing or stale. */
export class StaleOperation extends UpstreamError {
  constructor(source: string, detail: string) {
    super(`${detail}; the ${source} operation data is stale: run \`npx crawler platforms refresh ${source}\` (or patch the id in the JSON file named by ${opsEnvName(source)})`);
  }
}

function readOpsFile(path: string, what: string): OpsData {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${what}: ${path} is not readable JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${what}: ${path} must hold a JSON object of operations`);
  return parsed as OpsData;
}

/**
 * The operation data of every platform that has any: defaults, then the refreshed file, then the
 * operator's file. A named file that is missing or unreadable stops the start (the error names it).
 */
export function loadOps(
  adapters: ReadonlyArray<{ id: string; ops?: { defaults: OpsData } }>,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Map<string, OpsData> {
  const out = new Map<string, OpsData>();
  for (const a of adapters) {
    if (!a.ops) continue;
    const merged: OpsData = { ...a.ops.defaults };
    const refreshed = opsPath(dataDir, a.id);
    if (existsSync(refreshed)) Object.assign(merged, readOpsFile(refreshed, `refreshed ${a.id} operations`));
    const named = env[opsEnvName(a.id)]?.trim();
    if (named) {
      if (!existsSync(named)) throw new Error(`${opsEnvName(a.id)}: no such file: ${named}`);
      Object.assign(merged, readOpsFile(named, opsEnvName(a.id)));
    }
    out.set(a.id, merged);
  }
  for (const key of Object.keys(env)) {
    const m = /^CRAWLER_(.+)_OPS$/.exec(key);
    if (m && env[key]?.trim() && !adapters.some((a) => a.ops && opsEnvName(a.id) === key)) {
      throw new Error(`${key}: no platform named ${m[1]!.toLowerCase()} keeps operation data (those that do: ${adapters.filter((a) => a.ops).map((a) => a.id).join(', ') || 'none'})`);
    }
  }
  return out;
}

/** Writes refreshed operation data whole or not at all. */
export function writeOps(dataDir: string, source: string, data: OpsData): string {
  const path = opsPath(dataDir, source);
  mkdirSync(join(dataDir, 'ops'), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`);
  renameSync(tmp, path);
  return path;
}
