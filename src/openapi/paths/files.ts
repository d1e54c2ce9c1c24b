import { FileQuerySchema } from '../../api/routes/files.js';
import { binary, header, json } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';
import type { ParameterObject, ResponseObject } from '../types.js';

const ID = { id: "the file's id (files[].id of a download result, f_…)" };
const RANGE_HEADERS: ParameterObject[] = [
  { name: 'Range', in: 'header', required: false, description: 'one byte range, e.g. bytes=0-1048575', schema: { type: 'string' } },
  { name: 'If-None-Match', in: 'header', required: false, description: 'an ETag from an earlier answer', schema: { type: 'string' } },
];
const FILE_HEADERS = {
  'Accept-Ranges': header('bytes'),
  ETag: header('the content hash (the bytes under an id never change)'),
  'Content-Disposition': header('attachment with a readable name (author, post id, position) and its RFC 6266 filename*'),
};
const GONE = { code: 'not_found', status: 404, when: 'no such file, or it was evicted by the download quota (the message says which)' } as const;

function withHead(get: RouteDoc): RouteDoc[] {
  const bodiless = Object.fromEntries(Object.entries(get.responses).map(([s, r]) => [s, { description: r.description, ...(r.headers ? { headers: r.headers } : {}) } satisfies ResponseObject]));
  return [get, { ...get, method: 'HEAD', summary: `${get.summary} (headers only)`, responses: bodiless }];
}

/** /v1/files: what the download action stored. */
export function fileDocs(): RouteDoc[] {
  return [
    ...withHead({
      method: 'GET',
      path: '/v1/files/:id',
      access: 'public',
      optionalScope: 'read',
      tag: 'Media',
      summary: 'A file the download action stored (files[].url)',
      description:
        'The signed URL a download result gives (exp, sig) needs no token; without them a `read` token is required. Range and HEAD are supported. A file evicted by the download quota (CRAWLER_DOWNLOAD_MAX_BYTES, least recently used first, pinned files spared) answers 404 not_found saying so.',
      query: FileQuerySchema,
      pathParams: ID,
      headers: RANGE_HEADERS,
      responses: {
        200: binary(['video/*', 'image/*'], 'the whole file', FILE_HEADERS),
        206: binary(['video/*', 'image/*'], 'the requested range', { ...FILE_HEADERS, 'Content-Range': header('bytes start-end/size') }),
        304: { description: 'not modified (If-None-Match matched)' },
        416: { description: 'the range lies outside the file', headers: { 'Content-Range': header('bytes */size') } },
      },
      errors: ['invalid_request', 'auth_required', 'forbidden_scope', GONE],
    }),
    {
      method: 'GET',
      path: '/v1/files/:id/meta',
      access: 'read',
      tag: 'Media',
      summary: "A stored file's record, with a freshly signed URL",
      pathParams: ID,
      responses: { 200: json('DownloadFileMeta', 'the file, its post and whether it is pinned') },
      errors: [GONE],
    },
    {
      method: 'POST',
      path: '/v1/files/:id/pin',
      access: 'write',
      tag: 'Media',
      summary: 'Pin a stored file: the download quota never evicts it',
      pathParams: ID,
      responses: { 200: json('DownloadFileMeta', 'the file, now pinned') },
      errors: [GONE],
    },
    {
      method: 'DELETE',
      path: '/v1/files/:id/pin',
      access: 'write',
      tag: 'Media',
      summary: 'Unpin a stored file: it may be evicted again, least recently used first',
      pathParams: ID,
      responses: { 200: json('DownloadFileMeta', 'the file, no longer pinned') },
      errors: [GONE],
    },
  ];
}
