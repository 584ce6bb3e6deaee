// `npm run test:claude`: the opt-in tests that drive a real Claude Code binary (CLAUDE_BIN). Kept out of
// `npm test` (vitest.config.ts does not include test-claude/), so a checkout without Claude Code runs clean.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['packages/*/test-claude/**/*.test.ts', 'products/*/test-claude/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
})
