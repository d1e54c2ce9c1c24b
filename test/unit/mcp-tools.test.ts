import fc from 'fast-check';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { describe, expect, it } from 'vitest';
import type { CatalogParam } from '../../src/domain/catalog.js';
import { loadConfig } from '../../src/config.js';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';
import { validateParams } from '../../src/tasks/params.js';
import { inputSchema } from '../../src/mcp/schema.js';
import { summarizeTask, taskError, TEXT_ITEMS_MAX } from '../../src/mcp/summary.js';
import { catalogTools } from '../../src/mcp/tools.js';

const catalog = buildCatalog(new Registry());
const tools = catalogTools(catalog);

describe('MCP tools from the catalog', () => {
  it('one per catalog entry, each with a valid, unique MCP name', () => {
    expect(tools.size).toBe(catalog.entries.length);
    for (const [name, t] of tools) {
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(name).toBe(t.entry.name.replace(/\./g, '_'));
      expect(t.tool.inputSchema.required ?? []).toEqual(t.entry.params.filter((p) => p.required).map((p) => p.name));
    }
  });

  it('write tools say how confirm works in MCP terms, never the HTTP status', () => {
    const writes = [...tools.values()].filter((t) => t.write);
    expect(writes.length).toBeGreaterThan(0);
    for (const t of writes) {
      const confirm = t.tool.inputSchema.properties!.confirm as { description: string };
      expect(confirm.description).toMatch(/nothing is posted/);
      expect(confirm.description).not.toMatch(/409/);
      expect(t.tool.annotations?.destructiveHint).toBe(t.action === 'delete');
    }
  });

  // An MCP client may check arguments against the schema before sending: it must never refuse what the service accepts.
  it('every argument set the service accepts also satisfies the tool input schema (fixed seed)', () => {
    const ajv = new AjvJsonSchemaValidator();
    const value = (p: CatalogParam): fc.Arbitrary<unknown> => {
      const valid =
        p.type === 'boolean'
          ? fc.boolean()
          : p.type === 'string'
            ? p.enum
              ? fc.constantFrom(...p.enum)
              : fc.string({ minLength: 1, maxLength: 12 })
            : p.type === 'integer'
              ? fc.oneof(fc.constantFrom(p.min ?? -1000, p.max ?? 1000), fc.integer({ min: p.min ?? -1000, max: p.max ?? 1000 }))
              : fc.oneof(fc.constantFrom(p.min ?? -1000, p.max ?? 1000), fc.double({ min: p.min ?? -1000, max: p.max ?? 1000, noNaN: true }));
      const invalid = fc.oneof(fc.constant('x'), fc.constant(7), fc.constant(2.5), fc.constant(true), fc.constant(-5), fc.constant(10_000_000), fc.constant([]));
      return fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: invalid, weight: 1 });
    };
    let accepted = 0;
    for (const t of tools.values()) {
      const check = ajv.getValidator(t.tool.inputSchema as never);
      const args = fc.record(Object.fromEntries(t.entry.params.map((p) => [p.name, value(p)])), { requiredKeys: [] });
      fc.assert(
        fc.property(args, (a) => {
          let ok = true;
          try {
            validateParams(t.entry, a);
          } catch {
            ok = false;
          }
          if (ok) {
            accepted++;
            expect(check(a).valid, `${t.tool.name} ${JSON.stringify(a)}`).toBe(true);
          }
        }),
        { seed: 13, numRuns: 25 },
      );
    }
    expect(accepted).toBeGreaterThan(tools.size);
  });

  it('the schema refuses what the service refuses for type, enum, bounds and unknown keys', () => {
    const search = tools.get('bilibili_search')!;
    const check = new AjvJsonSchemaValidator().getValidator(search.tool.inputSchema as never);
    for (const bad of [{}, { query: 'a', limit: 101 }, { query: 'a', limit: 2.5 }, { query: 'a', media: 'gif' }, { query: 'a', colour: 'red' }, { query: 7 }, { query: '' }]) {
      expect(check(bad).valid, JSON.stringify(bad)).toBe(false);
      expect(() => validateParams(search.entry, bad)).toThrow();
    }
  });

  it('input schemas carry the catalog bounds, enums and defaults', () => {
    const schema = inputSchema(
      [
        { name: 'query', type: 'string', required: true, description: 'q' },
        { name: 'n', type: 'integer', required: false, description: 'n', min: 1, max: 9, default: 3 },
        { name: 'kind', type: 'string', required: false, description: 'k', enum: ['a', 'b'] },
      ],
      false,
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'q', minLength: 1 },
        n: { type: 'integer', description: 'n', minimum: 1, maximum: 9, default: 3 },
        kind: { type: 'string', description: 'k', enum: ['a', 'b'] },
      },
      required: ['query'],
      additionalProperties: false,
    });
  });
});

describe('MCP text summaries', () => {
  const task = (over: Record<string, unknown>) => ({ task_id: 't_1', source: 'weibo', action: 'search', status: 'succeeded', ...over });
  const item = (n: number) => ({ id: `weibo:${n}`, type: 'image', text: `post ${n} ${'long '.repeat(60)}`, author_handle: 'h', url: `https://weibo.com/${n}` });

  it('show at most the first items, clipped, and say where the rest are', () => {
    const items = Array.from({ length: 30 }, (_, i) => item(i));
    const text = summarizeTask(task({ result: { ok: true, source: 'live', count: 30, items, next_cursor: 'c2' } }), 1);
    const lines = text.split('\n');
    expect(lines.filter((l) => /^\d+\. /.test(l))).toHaveLength(TEXT_ITEMS_MAX);
    expect(lines.every((l) => l.length < 300)).toBe(true);
    expect(text).toContain('(20 more in structuredContent)');
    expect(text).toContain('pass cursor "c2"');
    expect(text).toContain('source live');
  });

  it('errors carry code and retryable; a running task says how to follow it', () => {
    const blocked = task({ result: { ok: false, source: 'blocked', count: 0, items: [], error: { code: 'blocked', message: 'captcha', retryable: true } } });
    expect(taskError(blocked)).toEqual({ code: 'blocked', message: 'captcha', retryable: true });
    expect(summarizeTask(blocked, 0)).toContain('blocked: captcha (retryable: true)');
    const failed = task({ status: 'failed', error: { code: 'upstream_error', message: 'outcome unknown', retryable: false } });
    expect(summarizeTask(failed, 0)).toBe('weibo.search task t_1 failed: upstream_error: outcome unknown (retryable: false)');
    const empty = task({ result: { ok: true, source: 'empty', count: 0, items: [] } });
    expect(taskError(empty)).toBeUndefined();
    expect(taskError(task({ status: 'cancelled' }))).toBeUndefined();
    const running = summarizeTask(task({ status: 'running', progress: { items: 40, pages: 2 } }), 25);
    expect(running).toContain('still running after 25 s (so far 40 items, 2 pages)');
    expect(running).toContain('get_task with task_id "t_1"');
  });

  it('writes report their state, not a provenance', () => {
    const published = task({ action: 'post.create', result: { ok: true, state: 'published', source: 'mastodon', url: 'https://mastodon.social/@me/1', ms: 5 } });
    expect(summarizeTask(published, 0)).toBe('weibo.post.create task t_1: write published\nhttps://mastodon.social/@me/1');
    const duplicate = task({ action: 'post.create', result: { ok: false, state: 'duplicate', source: 'mastodon', error: { code: 'duplicate', message: 'in flight', retryable: true } } });
    expect(summarizeTask(duplicate, 0)).toContain('write duplicate, duplicate: in flight');
  });
});

describe('CRAWLER_MCP_WAIT_MS', () => {
  it('defaults to 25 s and is bounded', () => {
    expect(loadConfig({}).mcpWaitMs).toBe(25_000);
    expect(loadConfig({ CRAWLER_MCP_WAIT_MS: '500' }).mcpWaitMs).toBe(500);
    expect(() => loadConfig({ CRAWLER_MCP_WAIT_MS: '600000' })).toThrow(/CRAWLER_MCP_WAIT_MS/);
  });
});
