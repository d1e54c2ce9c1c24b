import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS, defaultChromiumPath } from '../../src/accounts/browser/index.js';
import { startService, type Running } from '../helpers/service.js';
import { requireChromium } from './helpers.js';

let s: Running;
let browser: Browser;

beforeAll(async () => {
  requireChromium();
  s = await startService();
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: defaultChromiumPath(), args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** The reference page in a real browser, under the page's own CSP, with every request outside the service refused. */
it('renders every operation of /v1/openapi.json offline, with no CSP violation or console error', async () => {
  const page = await browser.newPage();
  const foreign: string[] = [];
  const problems: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${s.base}/`) || url.startsWith('data:')) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${s.base}/docs`);
  await page.getByText('Submit a task {source, action, params}').first().waitFor({ timeout: 20_000 });
  const doc = (await s.api('/v1/openapi.json', { token: null })).body as { paths: Record<string, object>; webhooks?: Record<string, object> };
  // Swagger UI draws the OpenAPI 3.1 webhooks (task.finished) as operations too.
  const count = (group: Record<string, object> | undefined) => Object.values(group ?? {}).reduce((n: number, ops) => n + Object.keys(ops).length, 0);
  const expected = count(doc.paths) + count(doc.webhooks);
  expect(await page.locator('.opblock').count()).toBe(expected);
  // Opening an operation renders its schemas, examples and highlighted code: more code paths under the CSP.
  await page.locator('#operations-Tasks-postTasks .opblock-summary-control').click();
  await page.locator('#operations-Tasks-postTasks .try-out__btn').click();
  const body = page.locator('#operations-Tasks-postTasks textarea.body-param__text');
  await body.waitFor({ timeout: 10_000 });
  // The first example of the document, ready to send.
  expect(JSON.parse(await body.inputValue())).toMatchObject({ source: 'weibo', action: 'posts' });
  await page.locator('#operations-Tasks-postTasks .responses-wrapper .highlight-code').first().waitFor({ timeout: 10_000 });
  // Sent from the page to the service (connect-src, servers): no token, so the service's own 401 comes back.
  await page.locator('#operations-Tasks-postTasks .execute').click();
  await page.locator('#operations-Tasks-postTasks .live-responses-table .response-col_status', { hasText: '401' }).first().waitFor({ timeout: 10_000 });
  // A schema from the zod schemas, expanded in the Schemas section.
  await page.locator('.models-control').click();
  const envelope = page.locator('section.models article', { has: page.locator('.json-schema-2020-12__title', { hasText: /^Envelope$/ }) }).first();
  await envelope.locator('.json-schema-2020-12-expand-deep-button').first().click({ timeout: 10_000 });
  await envelope.getByText('next_cursor').first().waitFor({ timeout: 10_000 });
  expect(foreign).toEqual([]);
  // The one expected complaint: the 401 the tokenless "Execute" above asked for.
  expect(problems.filter((p) => !p.includes('status of 401'))).toEqual([]);
  await page.close();
}, 60_000);
