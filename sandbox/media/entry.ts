// One hand-made CDN answer as a HAR entry: the body (made with ffmpeg) base64, with the headers a CDN sends.
export interface CdnEntryOptions {
  comment: string;
  startedDateTime: string;
  etag: string;
  requestHeaders?: Array<{ name: string; value: string }>;
  lastModified?: string;
}

export function cdnEntry(url: string, type: string, body: Buffer, o: CdnEntryOptions) {
  return {
    comment: o.comment,
    startedDateTime: o.startedDateTime,
    time: 0,
    request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: o.requestHeaders ?? [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      headers: [
        { name: 'Content-Type', value: type },
        { name: 'Accept-Ranges', value: 'bytes' },
        { name: 'ETag', value: `"${o.etag}"` },
        ...(o.lastModified ? [{ name: 'Last-Modified', value: o.lastModified }] : []),
      ],
      cookies: [],
      content: { size: body.length, mimeType: type, encoding: 'base64', text: body.toString('base64') },
      redirectURL: '',
      headersSize: -1,
      bodySize: body.length,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
  };
}
