import type { Command } from 'commander';
import { CrawlerClient } from '../../client/dist/index.js';
import { UsageError } from './exit.js';
import type { Format } from './render.js';

export interface ConnectionOptions {
  url?: string;
  token?: string;
}

export interface FormatOptions {
  json?: boolean;
  ndjson?: boolean;
  csv?: boolean;
}

export const DEFAULT_URL = 'http://localhost:8080';

/** --url and --token, defaulting to CRAWLER_URL and CRAWLER_TOKEN. */
export function connectionOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', `the service's base URL (default: $CRAWLER_URL, else ${DEFAULT_URL})`)
    .option('--token <token>', 'API token (default: $CRAWLER_TOKEN; the variable keeps it out of the process list)');
}

export function formatOptions(cmd: Command): Command {
  return cmd.option('--json', 'print the raw JSON').option('--ndjson', 'one JSON value per line, printed as pages arrive (pipe into jq)').option('--csv', 'CSV with stable columns (formulas neutralised, ids quoted)');
}

export function formatOf(o: FormatOptions): Format {
  const chosen = (['json', 'ndjson', 'csv'] as const).filter((f) => o[f]);
  if (chosen.length > 1) throw new UsageError(`choose one output format, not ${chosen.map((f) => `--${f}`).join(' and ')}`);
  return chosen[0] ?? 'table';
}

export function connect(o: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): CrawlerClient {
  const url = o.url ?? env.CRAWLER_URL ?? DEFAULT_URL;
  const token = o.token ?? env.CRAWLER_TOKEN;
  if (!/^https?:\/\/[^/]/i.test(url)) throw new UsageError(`--url: an http(s) address, got ${JSON.stringify(url)}`);
  return new CrawlerClient({ url, token: token || undefined });
}
