import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'products/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'bench/test/**/*.test.ts',
      'scripts/test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './scripts/coverage-reporter.ts'],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.ts', 'products/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
      reporter: ['json-summary'],
      reportsDirectory: 'coverage',
    },
  },
})
