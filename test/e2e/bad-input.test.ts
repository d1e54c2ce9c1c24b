import { describe, expect, it } from 'vitest';
import type { FakePlatform } from '../helpers/fake-platform.js';
import { useFakeService } from '../helpers/fake-service.js';
import { type Running } from '../helpers/service.js';
import type { SqliteStore } from '../../src/store/sqlite.js';

let fake: FakePlatform;
let s: Running;
useFakeService((f, r) => ([fake, s] = [f, r]));

const taskCount = () => ((s.svc.store as SqliteStore).db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;

describe('bad input never yields a 500, a hang or a changed state', () => {
  const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, string, RegExp?]> = [
    ['malformed JSON', () => s.api('/v1/tasks', { method: 'POST', body: '{"source": "fake",', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request', /JSON/],
    ['body over 1 MiB', () => s.api('/v1/tasks', { method: 'POST', body: JSON.stringify({ source: 'fake', action: 'search', params: { query: 'x'.repeat(1_100_000) } }), headers: { 'content-type': 'application/json' } }), 413, 'invalid_request'],
    ['wait over 8000', () => s.api('/v1/tasks?wait=8001', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a' } } }), 400, 'invalid_request', /wait/],
    ['negative wait', () => s.api('/v1/tasks?wait=-1', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a' } } }), 400, 'invalid_request', /wait/],
    ['wait not a number', () => s.api('/v1/tasks?wait=soon', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a' } } }), 400, 'invalid_request', /wait/],
    ['limit 0', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a', limit: 0 } } }), 400, 'invalid_request', /params\.limit/],
    ['limit over max', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a', limit: 101 } } }), 400, 'invalid_request', /params\.limit/],
    ['limit not an integer', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a', limit: 2.5 } } }), 400, 'invalid_request', /params\.limit/],
    ['limit as a string', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a', limit: '5' } } }), 400, 'invalid_request', /params\.limit/],
    ['unknown param', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a', colour: 'red' } } }), 400, 'invalid_request', /params\.colour/],
    ['missing query', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: {} } }), 400, 'invalid_request', /params\.query/],
    ['max_items 0', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'posts', params: { query: 'a', max_items: 0 } } }), 400, 'invalid_request', /params\.max_items/],
    ['max_items on search', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a', max_items: 5 } } }), 400, 'invalid_request', /params\.max_items/],
    ['forged cursor', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a', cursor: 'c1.!!!' } } }), 400, 'invalid_request', /cursor/],
    ['params not an object', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: [1, 2] } }), 400, 'invalid_request', /params/],
    ['body is an array', () => s.api('/v1/tasks', { method: 'POST', json: [1] }), 400, 'invalid_request'],
    ['unknown top-level field', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'a' }, priority: 9 } }), 400, 'invalid_request', /priority/],
    ['unknown source', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'myspace', action: 'search', params: {} } }), 404, 'unsupported', /myspace/],
    ['unknown action', () => s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'download', params: {} } }), 404, 'unsupported', /download/],
    ['source not a string', () => s.api('/v1/tasks', { method: 'POST', json: { source: 7, action: 'search' } }), 400, 'invalid_request', /source/],
    ['unknown task id', () => s.api('/v1/tasks/t_nope'), 404, 'not_found'],
    ['cancel unknown task', () => s.api('/v1/tasks/t_nope/cancel', { method: 'POST' }), 404, 'not_found'],
    ['retry unknown task', () => s.api('/v1/tasks/t_nope/retry', { method: 'POST' }), 404, 'not_found'],
    ['stream unknown task', () => s.api('/v1/tasks/t_nope/stream'), 404, 'not_found'],
    ['very long task id', () => s.api(`/v1/tasks/${'x'.repeat(150)}`), 404, 'not_found'],
    ['categories without source', () => s.api('/v1/categories'), 400, 'invalid_request'],
    ['categories of unknown source', () => s.api('/v1/categories?source=nope'), 404, 'unsupported'],
    ['unknown route', () => s.api('/v1/nothing-here'), 404, 'not_found'],
    ['text body', () => s.api('/v1/tasks', { method: 'POST', body: 'source=fake', headers: { 'content-type': 'text/plain' } }), 415, 'invalid_request'],
    ['path not valid UTF-8', () => s.api('/v1/tasks/%FF'), 400, 'invalid_request', /UTF-8/],
    ['task id past the router limit', () => s.api(`/v1/tasks/${'x'.repeat(300)}`), 404, 'not_found'],
    ['login_url not a string', () => s.api('/v1/profiles/fake/main/login', { method: 'POST', json: { login_url: 5 } }), 400, 'invalid_request', /login_url/],
    ['success_cookie not a string', () => s.api('/v1/profiles/fake/main/login', { method: 'POST', json: { login_url: 'https://fake.test/login', success_cookie: ['a'], domains: ['.fake.test'] } }), 400, 'invalid_request', /success_cookie/],
  ];

  for (const [name, call, status, code, message] of cases) {
    it(name, async () => {
      const before = taskCount();
      const r = await call();
      expect(r.status).toBe(status);
      expect(r.body.ok).toBe(false);
      expect(r.body.error.code).toBe(code);
      expect(typeof r.body.error.retryable).toBe('boolean');
      if (message) expect(r.body.error.message).toMatch(message);
      expect(taskCount()).toBe(before);
    });
  }
});
