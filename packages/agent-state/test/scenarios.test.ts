// R27: the shared scenarios under harness A, the Claude Code mod-API double. Harness B (a scripted tack
// session under @tack/mods) plugs in beside it as another `Driver` factory; the R26 schema check runs on
// every file either harness writes.
import { describe, expect, test } from 'vitest'
import type { Driver, Setup } from './support/driver.ts'
import { harnessA } from './support/harness-a.ts'
import { SCENARIOS } from './support/scenarios.ts'
import { validateFile } from './support/schemas.ts'

const HARNESSES: Array<{ name: string; make: (setup: Setup) => Promise<Driver> }> = [
  { name: 'harness A (Claude Code mod-API double)', make: (setup) => harnessA(setup) },
]

for (const harness of HARNESSES) {
  describe(harness.name, () => {
    for (const scenario of SCENARIOS) {
      test(`R27 scenario ${scenario.id}: ${scenario.title}`, async () => {
        const d = await harness.make(scenario.setup ?? {})
        const missing = (scenario.needs ?? []).filter((c) => !d.capabilities.has(c))
        expect(missing, 'harness A supports every scenario').toEqual([])
        await scenario.run(d)
        await d.settle()
        // R26: every file written validates against the shipped schema
        for (const [name, text] of Object.entries(await d.files()))
          expect(validateFile(name, text), name).toEqual([])
      })
    }
  })
}
