import { describe, expect, it } from 'vitest';
import type { BatchStore } from '../../src/store/batches.js';
import type { TaskRow } from '../../src/store/types.js';
import { BatchService } from '../../src/tasks/batches.js';
import type { TaskService, TaskSink } from '../../src/tasks/service.js';

/** A submit that inserts through the batch's sink, except for entries whose source says the store is down. */
const tasks = {
  async submit(input: { source: unknown }, sink: TaskSink): Promise<TaskRow> {
    await new Promise((r) => setTimeout(r, input.source === 'late' ? 20 : 1));
    if (input.source === 'down') throw new Error('the store is unreachable');
    return sink.insertTask({ id: `t_${String(input.source)}` } as never);
  },
} as unknown as TaskService;

function store() {
  const created: string[][] = [];
  const s = {
    async batchCreate(_b: unknown, _links: unknown, rows: Array<{ id: string }> = []) {
      created.push(rows.map((r) => r.id));
      return rows.map((r) => ({ id: r.id, status: 'queued' })) as unknown as TaskRow[];
    },
  } as unknown as BatchStore;
  return { s, created };
}

describe('a batch whose entry fails (not refused)', () => {
  it('writes none of its tasks and rejects, so a retried request cannot double them', async () => {
    const { s, created } = store();
    const batches = new BatchService(tasks, s);
    const caller = { owner: 'tok', scopes: ['read'] } as never;
    await expect(batches.submit([{ source: 'a' }, { source: 'down' }, { source: 'late' }], caller)).rejects.toThrow(/unreachable/);
    expect(created).toEqual([]);
    // The same batch without the failing entry is written whole, in one go.
    await expect(batches.submit([{ source: 'a' }, { source: 'late' }], caller)).resolves.toMatchObject({ accepted: 2 });
    expect(created).toEqual([['t_a', 't_late']]);
  });
});
