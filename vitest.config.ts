import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real multi-process fleets: run by vitest.fleet.config.ts after this suite (npm test runs both).
    exclude: ['test/fleet/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // CLI and service spawns run dist/ (built once here) rather than the sources through tsx.
    globalSetup: ['test/helpers/build-dist.ts'],
    pool: 'forks',
    // Vitest's default is one fork per core minus one: a single fork on a 2-core CI machine. Most files wait
    // on servers, browsers and ffmpeg rather than compute, so two forks halve the wall time.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
