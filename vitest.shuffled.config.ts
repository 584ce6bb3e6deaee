// The scripted end-to-end files again, with tack's boot loop shuffled (scripts/test/shuffle-setup.ts):
// reordering the plugin catalog changes nothing a test can see (docs/decisions/0206-boot-loop.md).
// `npm test` runs it after the main suite; the files are the ones that exercise the most plugins
// together while keeping the extra time small (measured in docs/decisions/0206-boot-loop.md).
import { defineConfig } from 'vitest/config'
import base from './vitest.config.ts'

// Every plugin of the catalog takes part in at least one of them: the providers on both wires, fs and
// bash (with the sandbox and ctx.secrets), web, the store, permissions, both hook bridges, mods, compaction,
// instructions, the command registry and its built-ins, dice. Left out, for time: the timing-bound files
// (e2e-mod-settling, e2e-stalls, e2e-ctrl-c, e2e-long-work, e2e-readers), e2e-huge-files, e2e-config-paths,
// e2e-agent-state, e2e-sandbox-attacks.
export const SHUFFLED_E2E_FILES = [
  'apps/tack/test/e2e-run.test.ts',
  'apps/tack/test/e2e-hooks.test.ts',
  'apps/tack/test/e2e-codex-hooks.test.ts',
  'apps/tack/test/e2e-hook-events-headless.test.ts',
  'apps/tack/test/e2e-prompt-blocked.test.ts',
  'apps/tack/test/e2e-cancel-admission.test.ts',
  'apps/tack/test/e2e-mods.test.ts',
  'apps/tack/test/e2e-sandbox.test.ts',
  'apps/tack/test/e2e-compact.test.ts',
  'apps/tack/test/e2e-continue.test.ts',
  'apps/tack/test/e2e-slash-commands.test.ts',
  'apps/tack/test/e2e-web.test.ts',
]

export default defineConfig({
  test: {
    ...base.test,
    include: SHUFFLED_E2E_FILES,
    setupFiles: ['scripts/test/shuffle-setup.ts'],
    reporters: ['default'],
    coverage: { enabled: false },
  },
})
