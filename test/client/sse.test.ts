import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../client/src/sse.js';

const parse = (chunks: string[]) => {
  const out: SseMessage[] = [];
  const retries: number[] = [];
  const p = new SseParser((m) => out.push(m), (ms) => retries.push(ms));
  for (const c of chunks) p.push(c);
  return { out, retries };
};

describe('SseParser', () => {
  it('reads the service’s frames: retry hint, pings, id/event/data', () => {
    const { out, retries } = parse(['retry: 2000\n\n: ping\n\nid: 3\nevent: status\ndata: {"status":"running"}\n\nid: 4\nevent: result\ndata: {"a":1}\n\n']);
    expect(retries).toEqual([2000]);
    expect(out).toEqual([
      { id: '3', event: 'status', data: '{"status":"running"}' },
      { id: '4', event: 'result', data: '{"a":1}' },
    ]);
  });

  it('joins multi-line data, accepts CR, LF and CRLF, keeps the last id for events without one', () => {
    const { out } = parse(['id: 7\r\ndata: a\r\ndata: b\r\rdata:c\n\nevent\ndata\n\n']);
    expect(out).toEqual([
      { id: '7', event: 'message', data: 'a\nb' },
      { id: '7', event: 'message', data: 'c' },
      { id: '7', event: 'message', data: '' },
    ]);
  });

  it('gives the same events however the bytes are split (a CRLF across chunks included)', () => {
    const frames = fc.array(
      fc.record({ id: fc.nat(1e6), event: fc.constantFrom('status', 'progress', 'result'), data: fc.string({ unit: fc.constantFrom('a', '{', '"', ':', ' ', 'é', '\n') }) }),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(frames, fc.constantFrom('\n', '\r\n', '\r'), fc.array(fc.nat(40), { maxLength: 8 }), (evs, eol, cuts) => {
        const text = evs.map((e) => [`id: ${e.id}`, `event: ${e.event}`, ...e.data.split('\n').map((l) => `data: ${l}`), ': ping', ''].join(eol) + eol).join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points, text.length].slice(1).map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
        expect(parse(chunks).out).toEqual(parse([text]).out);
        expect(parse([text]).out).toEqual(evs.map((e) => ({ id: String(e.id), event: e.event, data: e.data })));
      }),
    );
  });
});
