import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite.js';
import { SqliteEventLog } from '../../src/store/sqlite-events.js';
import { EventBus } from '../../src/tasks/events.js';
import { EventPublisher } from '../../src/tasks/publisher.js';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'event-log-')), 'db.sqlite');
const ev = (id: number, type: 'status' | 'progress' = 'progress') => ({ id, type, data: `{"n":${id}}` });

describe('sqlite event log (embedded EventLog port)', () => {
  it('reads a task\'s events after an id, oldest first, whatever order they were stored in', async () => {
    const log = new SqliteEventLog(openDatabase(dbFile()));
    for (const id of [2, 3, 5, 4]) await log.append('t_a', 1, ev(id, id === 2 ? 'status' : 'progress'));
    await log.append('t_b', 1, ev(3));
    expect((await log.after('t_a', 1, 0)).map((e) => e.id)).toEqual([2, 3, 4, 5]);
    expect(await log.after('t_a', 1, 3)).toEqual([ev(4), ev(5)]);
    expect(await log.after('t_a', 1, 5)).toEqual([]);
    expect((await log.after('t_a', 1, 0))[0]).toEqual(ev(2, 'status'));
    expect((await log.after('t_b', 1, 0)).map((e) => e.id)).toEqual([3]);
  });

  it('resumes after a restart: what one connection stored, a new one reads', async () => {
    const file = dbFile();
    const db = openDatabase(file);
    await new SqliteEventLog(db).append('t_r', 1, ev(7));
    db.close();
    expect(await new SqliteEventLog(openDatabase(file)).after('t_r', 1, 6)).toEqual([ev(7)]);
  });

  it('serves only the asked attempt: a retry does not replay the dead run\'s progress', async () => {
    const log = new SqliteEventLog(openDatabase(dbFile()));
    await log.append('t_x', 1, ev(2));
    await log.append('t_x', 1, ev(3));
    await log.append('t_x', 2, ev(6, 'status'));
    expect((await log.after('t_x', 2, 0)).map((e) => e.id)).toEqual([6]);
    expect((await log.after('t_x', 1, 0)).map((e) => e.id)).toEqual([2, 3]);
  });

  it('keeps one copy of an id stored twice, forgets an ended task, and purges old leftovers', async () => {
    const log = new SqliteEventLog(openDatabase(dbFile()));
    await log.append('t_d', 1, ev(2));
    await log.append('t_d', 1, { ...ev(2), data: '{"again":true}' });
    expect(await log.after('t_d', 1, 0)).toEqual([ev(2)]);
    await log.forget('t_d');
    expect(await log.after('t_d', 1, 0)).toEqual([]);
    await log.append('t_old', 1, ev(2));
    expect(await log.purge(Date.now() - 60_000)).toBe(0);
    expect(await log.purge(Date.now() + 1)).toBe(1);
    expect(await log.after('t_old', 1, 0)).toEqual([]);
  });
});

describe('event publisher', () => {
  it('stores status and progress under the ids it fans out, and drops the history with the result', async () => {
    const log = new SqliteEventLog(openDatabase(dbFile()));
    const bus = new EventBus();
    const pub = new EventPublisher(bus, log, pino({ level: 'silent' }));
    const heard: number[] = [];
    bus.subscribe('t_p', 1, (e) => heard.push(e.id));
    pub.publish('t_p', 1, 1, 'status', '{"status":"running"}');
    pub.publish('t_p', 1, 1, 'progress', '{"items":1}');
    const stored = await log.after('t_p', 1, 0);
    expect(stored.map((e) => [e.id, e.type])).toEqual([
      [2, 'status'],
      [3, 'progress'],
    ]);
    expect(heard).toEqual([2, 3]);
    pub.publish('t_p', 1, 1, 'status', '{"status":"succeeded"}');
    pub.publish('t_p', 1, 1, 'result', '{}');
    expect(heard).toEqual([2, 3, 4, 5]);
    expect(await log.after('t_p', 1, 0)).toEqual([]);
  });
});
