import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: more parallel files only add WASM start-up contention.
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
