import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    pool: 'forks',
    // Each file builds its own app over its own database: one worker per core.
    maxWorkers: Math.max(1, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { concurrent: false },
  },
});
