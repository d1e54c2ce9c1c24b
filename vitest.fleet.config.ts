import { defineConfig } from 'vitest/config';

// The fleet and chaos tests start real processes and servers (several per file): one file at a time,
// after the main suite, so their timings are not fought over by the rest.
export default defineConfig({
  test: {
    include: ['test/fleet/**/*.test.ts'],
    globalSetup: ['test/fleet/setup.ts'],
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
