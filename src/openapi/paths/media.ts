import { MediaQuerySchema } from '../../api/routes/media.js';
import { PreviewQuerySchema } from '../../api/routes/preview.js';
import { binary, header, json, RETRY_AFTER } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';
import { ref } from '../schemas.js';
import type { ParameterObject, ResponseObject } from '../types.js';

const RANGE_HEADERS: ParameterObject[] = [
  { name: 'Range', in: 'header', required: false, description: 'one byte range, e.g. bytes=0-1048575', schema: { type: 'string' } },
  { name: 'If-None-Match', in: 'header', required: false, description: 'an ETag from an earlier answer', schema: { type: 'string' } },
];
const PARTIAL = { 'Content-Range': header('bytes start-end/size'), 'Accept-Ranges': header('bytes'), ETag: header('validator for If-None-Match') };

/** The same route answered with headers only: HEAD shares GET's parameters and statuses, with no body. */
function withHead(get: RouteDoc): RouteDoc[] {
  const bodiless = Object.fromEntries(Object.entries(get.responses).map(([s, r]) => [s, { description: r.description, ...(r.headers ? { headers: r.headers } : {}) } satisfies ResponseObject]));
  return [get, { ...get, method: 'HEAD', summary: `${get.summary} (headers only)`, responses: bodiless }];
}

export function mediaDocs(): RouteDoc[] {
  return [
    ...withHead({
      method: 'GET',
      path: '/v1/media',
      access: 'public',
      optionalScope: 'read',
      tag: 'Media',
      summary: 'Image and video proxy (the thumb and media[].url of items)',
      description: [
        'Images need no token. The video variant (kind=video) fetches with a profile\'s session: the capability URLs results carry (exp, sig) need no token, otherwise a `read` token is required.',
        'Only known platform CDN hosts are fetched; an expired origin URL is refreshed by the service. Range requests are passed through.',
      ].join(' '),
      query: MediaQuerySchema,
      headers: RANGE_HEADERS,
      responses: {
        200: binary(['image/*', 'video/*', 'application/vnd.apple.mpegurl'], 'the media bytes (HLS playlists come back rewritten to service URLs)', { 'Accept-Ranges': header('bytes'), ETag: header('validator for If-None-Match') }),
        206: binary(['image/*', 'video/*'], 'the requested range', PARTIAL),
        304: { description: 'not modified (If-None-Match matched)' },
        416: { description: 'the range lies outside the media', headers: { 'Content-Range': header('bytes */size') } },
      },
      errors: [
        'invalid_request',
        'auth_required',
        'forbidden_scope',
        { code: 'not_found', status: 404, when: 'the origin URL expired and the item could not be found again' },
        'blocked',
        'session_expired',
        'timeout',
        'upstream_error',
      ],
      errorComponent: 'MediaError',
    }),
    ...withHead({
      method: 'GET',
      path: '/v1/preview',
      access: 'public',
      tag: 'Media',
      summary: 'Scrub preview clip of a video item (Item.preview.url)',
      description: 'A low-resolution, muted, full-length (at most 240 s) mp4. A cold clip answers 202 while it renders: poll the same URL after Retry-After. A terminal failure is 404 preview_unavailable with a reason.',
      query: PreviewQuerySchema,
      headers: RANGE_HEADERS,
      responses: {
        200: binary(['video/mp4'], 'the complete clip', { 'Accept-Ranges': header('bytes'), ETag: header('validator for If-None-Match') }),
        202: json('PreviewRendering', 'rendering: poll again after Retry-After', RETRY_AFTER),
        206: binary(['video/mp4'], 'the requested range', PARTIAL),
        304: { description: 'not modified (If-None-Match matched)' },
        404: json('PreviewUnavailable', 'terminal: reason is expired, blocked, session_expired, no_stream or unsupported'),
        416: { description: 'the range lies outside the clip', headers: { 'Content-Range': header('bytes */size') } },
      },
      errors: ['invalid_request', { code: 'rate_limited', status: 429, when: 'the render queue is full; retry after Retry-After' }],
    }),
    {
      method: 'POST',
      path: '/v1/preview/warm',
      access: 'read',
      tag: 'Media',
      summary: 'Pre-render the previews of a page of items',
      body: { schema: ref('PreviewWarmRequest') },
      responses: { 200: json('PreviewWarmResult', 'one state per item, in request order') },
      errors: ['invalid_request'],
    },
  ];
}
