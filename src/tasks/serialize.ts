import type { TaskRow } from '../store/types.js';

const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

/**
 * The task object as JSON text, built by concatenation so a stored result is served without being
 * parsed and re-serialized (the GET path is hot).
 */
export function taskJson(row: TaskRow, withResult = true): string {
  const created = iso(row.created_at);
  let out = `{"task_id":${JSON.stringify(row.id)},"status":"${row.status}","source":${JSON.stringify(row.source)},"action":${JSON.stringify(row.action)},"params":${row.params},"created_at":"${created}"`;
  // A task answered from cache starts and finishes the moment it is created: one date to format, not three.
  if (row.started_at !== null) out += `,"started_at":"${row.started_at === row.created_at ? created : iso(row.started_at)}"`;
  if (row.finished_at !== null) out += `,"finished_at":"${row.finished_at === row.created_at ? created : iso(row.finished_at)}"`;
  out += `,"attempts":${row.attempts}`;
  // A pool task says which profile the service picked for it (its account's second half); one answered from cache picked none.
  if (row.params.includes('"profile":"pool"') || row.params.includes('"profile":"pool:')) {
    const picked = row.account.slice(row.source.length + 1);
    if (picked !== 'pool' && !picked.startsWith('pool:')) out += `,"profile":${JSON.stringify(picked)}`;
  }
  if (row.progress) out += `,"progress":${row.progress}`;
  if (withResult && row.result !== null && row.status === 'succeeded') out += `,"result":${row.result}`;
  if (row.error !== null && row.status === 'failed') out += `,"error":${row.error}`;
  return `${out}}`;
}

export const isFinished = (status: string) => status === 'succeeded' || status === 'failed' || status === 'cancelled';
