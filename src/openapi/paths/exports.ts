import { ExportQuerySchema } from '../../api/routes/exports.js';
import type { RouteDoc } from '../route-doc.js';
import { header } from '../responses.js';

export function exportDocs(): RouteDoc[] {
  return [
    {
      method: 'GET',
      path: '/v1/tasks/:id/export',
      access: 'read',
      tag: 'Tasks',
      summary: "Download a succeeded task's rows as JSON lines or CSV (streamed)",
      description: [
        'Rows by result shape: A (search, posts, hot, recommended, detail, download) its items; B (comments) its comments; C (user) the author as one row; D (trending) its trends. A write result is not a table (400).',
        'CSV: RFC 4180, CRLF line ends, a header row, the same column set for every task of a shape (README "Exports" lists them). A cell whose text starts with = + - @, a tab or a carriage return is prefixed with `\'` so a spreadsheet shows it instead of running it as a formula.',
        'Id columns are always quoted and hold the exact digits. Item `id` (`<provider>:<native_id>`) stays text everywhere; a bare numeric id (author_id, cid, user_id, parent_id) opened by double-click in Excel is still read as a number, so import the file as text columns there (Data > From Text/CSV) or use jsonl.',
        'Owner-scoped like GET /v1/tasks/{id}: another token\'s task is 404.',
      ].join('\n\n'),
      pathParams: { id: 'the task_id a submit answered' },
      query: ExportQuerySchema,
      responses: {
        200: {
          description: 'the rows, streamed (chunked); jsonl: one JSON object a line',
          headers: { 'Content-Disposition': header('attachment; filename="<source>-<action>-<task_id>.<jsonl|csv>"') },
          content: {
            'application/x-ndjson': { schema: { type: 'string' }, example: '{"id":"reddit:1abc","type":"text",…}\n' },
            'text/csv': { schema: { type: 'string' }, example: 'id,type,provider,created_at,…\r\n"reddit:1abc",text,reddit,2024-05-01T00:00:00.000Z,…\r\n' },
          },
        },
      },
      errors: [
        'not_found',
        { code: 'invalid_request', status: 400, when: 'an unknown format or query parameter, or a write task (its result is not a table)' },
        { code: 'invalid_request', status: 409, when: 'the task has not succeeded (queued, running, failed or cancelled)' },
      ],
    },
  ];
}
