import type { Recording } from './har.js';

export interface Answer {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Serves a recorded full body the way a CDN would: Range → 206 slice or 416, HEAD → headers only. */
export function rangeAnswer(rec: Recording, range: string | undefined, head: boolean): Answer {
  const total = rec.body.length;
  const base = rec.headers.filter(([k]) => k !== 'content-range' && k !== 'accept-ranges');
  let status = rec.status;
  let statusText = rec.statusText;
  let body = rec.body;
  const extra: Array<[string, string]> = [];
  if (range && rec.status === 200) {
    extra.push(['accept-ranges', 'bytes']);
    const parsed = parseRange(range, total);
    if (parsed === 'unsatisfiable') {
      return { status: 416, statusText: 'Range Not Satisfiable', headers: [...base, ...extra, ['content-range', `bytes */${total}`], ['content-length', '0']], body: Buffer.alloc(0) };
    }
    if (parsed) {
      status = 206;
      statusText = 'Partial Content';
      body = rec.body.subarray(parsed.start, parsed.end + 1);
      extra.push(['content-range', `bytes ${parsed.start}-${parsed.end}/${total}`]);
    }
  } else {
    const recordedRange = rec.headers.find(([k]) => k === 'content-range');
    if (recordedRange) extra.push(recordedRange);
    if (rec.headers.some(([k]) => k === 'accept-ranges')) extra.push(['accept-ranges', 'bytes']);
  }
  extra.push(['content-length', String(body.length)]);
  return { status, statusText, headers: [...base, ...extra], body: head ? Buffer.alloc(0) : body };
}

/** One byte range per RFC 9110; anything we do not understand (or several ranges) serves the whole body. */
export function parseRange(header: string, total: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return undefined;
  const [, a, b] = m;
  if (a === '' && b === '') return undefined;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, total - suffix), end: total - 1 };
  }
  const start = Number(a);
  if (start >= total) return 'unsatisfiable';
  const end = b === '' ? total - 1 : Math.min(Number(b), total - 1);
  if (end < start) return undefined;
  return { start, end };
}
