import type { TaskRow } from '../store/types.js';
import { taskJson } from './serialize.js';

/** A result held as bytes around its age: the text is `head` + age + the bytes of `tail`. */
export interface ResultBytes {
  head: string;
  age: number;
  tail: Buffer;
}

const CLOSE_BRACE = 0x7d;

/**
 * The task's JSON as bytes. With the result's bytes at hand (a cache hit), only the task's own fields
 * are encoded and the result is copied: no encoding or length scan of a result of many kilobytes.
 * Byte for byte the same as taskJson(row).
 */
export function taskBytes(row: TaskRow, result?: ResultBytes, alloc: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
  // The result is the last field of a succeeded task (taskJson's order).
  if (!result || row.status !== 'succeeded') return Buffer.from(taskJson(row));
  const head = `${taskJson(row, false).slice(0, -1)},"result":${result.head}${result.age}`;
  const headLength = Buffer.byteLength(head);
  const out = alloc(headLength + result.tail.length + 1);
  out.write(head, 0, 'utf8');
  result.tail.copy(out, headLength);
  out[out.length - 1] = CLOSE_BRACE;
  return out;
}

/**
 * Carves short-lived answers out of shared slabs: one allocation serves a few dozen answers instead of
 * each answer of several kilobytes getting its own (and the collector tracking each). A slab is freed
 * once the last answer cut from it has been written and dropped; never keep a slice for long.
 */
export class AnswerSlabs {
  private slab = Buffer.alloc(0);
  private used = 0;

  constructor(private readonly slabSize = 256 * 1024) {}

  readonly take = (size: number): Buffer => {
    // A large answer would waste most of a slab: it gets its own memory.
    if (size > this.slabSize / 4) return Buffer.allocUnsafe(size);
    if (this.used + size > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(this.slabSize);
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + size);
    this.used += (size + 7) & ~7;
    return out;
  };
}
