import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/setup/sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    pool: 'forks',
    // A worker keeps its module graph from one file to the next: each file still builds its own
    // app over its own database (no state lives in modules but caches keyed by app or database),
    // and importing the app's modules afresh for every file cost more than a minute of the suite.
    isolate: false,
    // Each file builds its own app over its own database: one worker per core.
    maxWorkers: Math.max(1, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { concurrent: false, sequencer: SlowFirstSequencer },
  },
});
