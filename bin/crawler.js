#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so `npx crawler …` works without a build step.
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
