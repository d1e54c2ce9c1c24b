import { afterAll, beforeAll } from 'vitest';
import { startFakePlatform, type FakePlatform } from './fake-platform.js';
import { startService, type Running, type StartOptions } from './service.js';

/**
 * The usual e2e setup of a test file: a fake platform on loopback and the real service crawling it,
 * started before the file's tests and closed after them. `ready` hands both over once they run.
 */
export function useFakeService(ready: (fake: FakePlatform, s: Running) => void, options: Omit<StartOptions, 'adapters'> = {}): void {
  let fake: FakePlatform | undefined;
  let s: Running | undefined;
  beforeAll(async () => {
    fake = await startFakePlatform();
    s = await startService({ ...options, adapters: [fake.adapter] });
    ready(fake, s);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
}
