import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exportChunks, resultRows, streamExport } from '../../src/exports/stream.js';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `x:${i}`, type: 'text', provider: 'x', text: 'y'.repeat(100), media: [], stats: { likes: i } }));

/** A slow reader: a small buffer, and each write is taken only on a later turn. */
function slowSink() {
  const got: string[] = [];
  let peak = 0;
  const sink = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, cb) {
      got.push(chunk.toString());
      peak = Math.max(peak, sink.writableLength);
      setImmediate(cb);
    },
  });
  return { sink, got, peak: () => peak };
}

describe('streamExport', () => {
  it('writes a large export in bounded chunks and waits for drain instead of buffering', async () => {
    const { sink, got, peak } = slowSink();
    let drains = 0;
    sink.on('drain', () => drains++);
    await streamExport(sink, 'jsonl', 'items', rows(5000));
    expect(got.length).toBeGreaterThan(5);
    expect(drains).toBeGreaterThan(0);
    // Never more than one chunk past the high-water mark waits in the stream.
    expect(peak()).toBeLessThan(16 * 1024 + 70 * 1024);
    const lines = got.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(5000);
    expect(JSON.parse(lines[4999]).id).toBe('x:4999');
  });

  it('stops when the reader goes away', async () => {
    const { sink, got } = slowSink();
    const source = (function* () {
      for (const r of rows(100_000)) yield r;
    })();
    setTimeout(() => sink.destroy(), 5);
    await streamExport(sink, 'csv', 'items', source);
    expect(got.join('').split('\r\n').length).toBeLessThan(100_000);
  });

  it('csv starts with the header even without rows; rows of each shape come from the result', async () => {
    const chunks: string[] = [];
    for await (const c of exportChunks('csv', 'trends', [])) chunks.push(c);
    expect(chunks.join('')).toBe('rank,word,hot_value,url,source\r\n');
    expect([...resultRows('creator', { data: { author: { id: '1' } } })]).toEqual([{ id: '1' }]);
    expect([...resultRows('trends', { data: { trends: [{ word: 'a' }, null, 3] } })]).toEqual([{ word: 'a' }]);
    expect([...resultRows('comments', { items: 'nope' })]).toEqual([]);
  });
});
