// The scripted end-to-end files again, with tack's boot loop shuffled (scripts/test/shuffle-setup.ts):
// reordering the plugin catalog changes nothing a test can see (docs/decisions/0206-boot-loop.md).
// `npm test` runs it after the main suite; the files are the ones that exercise the most plugins
// together while keeping the extra time small (measured in docs/decisions/0206-boot-loop.md).
import { defineConfig } from 'vitest/config'
import base from './vitest.config.ts'

export const SHUFFLED_E2E_FILES = ['apps/tack/test/e2e-*.test.ts']

export default defineConfig({
  test: {
    ...base.test,
    include: SHUFFLED_E2E_FILES,
    setupFiles: ['scripts/test/shuffle-setup.ts'],
    reporters: ['default'],
    coverage: { enabled: false },
  },
})
