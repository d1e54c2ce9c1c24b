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

// The backends themselves: test/store/*event-log.test.ts (one conformance suite).
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
