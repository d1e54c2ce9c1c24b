import type { ErrorBody } from '../domain/errors.js';
import type { NewTask, TaskRow } from './types.js';

/** Actions that publish on the platform: never run twice, so a crash leaves them failed, not re-queued. */
export const WRITE_ACTION_LIST = ['post.create', 'comment.create', 'delete'];

export const ORPHAN_WRITE_ERROR: ErrorBody = {
  code: 'upstream_error',
  message: 'outcome unknown: the process stopped while this write was in flight; check the platform before writing again',
  retryable: false,
};

/** The row as stored and the insert's parameters. */
export function taskRecord(t: NewTask): { row: TaskRow; params: Record<string, unknown> } {
  const row: TaskRow = {
    id: t.id,
    status: t.finished ? 'succeeded' : 'queued',
    source: t.source,
    action: t.action,
    params: t.params,
    account: t.account,
    created_at: t.createdAt,
    started_at: t.finished ? t.createdAt : null,
    finished_at: t.finished ? t.createdAt : null,
    attempts: 1,
    progress: null,
    result: t.finished?.text ?? null,
    error: null,
    owner: t.owner,
    // Every emitted event id is stored: a queued task has emitted status (1); one born finished owns 1 and 2.
    event_seq: t.finished ? 2 : 1,
    watch_id: t.watchId ?? null,
  };
  const params = {
    id: row.id,
    status: row.status,
    source: row.source,
    action: row.action,
    params: row.params,
    account: row.account,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    owner: row.owner,
    eventSeq: row.event_seq,
    // A shared cached result is referenced, anything else is stored inline.
    result: t.finished && t.finished.resultId === undefined ? t.finished.text : null,
    resultId: t.finished?.resultId ?? null,
    resultAge: t.finished?.age ?? null,
    watchId: row.watch_id,
  };
  return { row, params };
}
