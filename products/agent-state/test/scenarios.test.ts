// R27: the shared scenarios under harness A (the Claude Code mod-API double) and harness B (a scripted tack
// session with the real mod host loading the shipped mod/ folder). Under B each scenario runs on both
// hosts and the files must match field for field once times, `host` and `version` are normalised; the
// R26 schema check runs on every file either harness writes.
import { afterEach, describe, expect, test } from 'vitest'
import type { Driver } from './support/driver.ts'
import { harnessA } from './support/harness-a.ts'
import { type HarnessB, harnessB } from './support/harness-b.ts'
import { normalise, SCENARIOS, type Scenario } from './support/scenarios.ts'
import { validateFile } from './support/schemas.ts'

async function run(d: Driver, scenario: Scenario): Promise<Record<string, string>> {
  await scenario.run(d)
  await d.settle()
  const files = await d.files()
  // R26: every file written validates against the shipped schema
  for (const [name, text] of Object.entries(files)) expect(validateFile(name, text), name).toEqual([])
  return files
}

describe('harness A (Claude Code mod-API double)', () => {
  for (const scenario of SCENARIOS)
    test(`R27 scenario ${scenario.id}: ${scenario.title}`, async () => {
      const d = await harnessA(scenario.setup ?? {})
      const missing = (scenario.needs ?? []).filter((c) => !d.capabilities.has(c))
      expect(missing, 'harness A supports every scenario').toEqual([])
      await run(d, scenario)
    })
})

describe('harness B (scripted tack session, @tack/mods loading mod/)', () => {
  let open: HarnessB | undefined
  afterEach(async () => {
    await open?.dispose()
    open = undefined
  })
  const probe = new Set(['prompt-box', 'classic'])
  const delivered = SCENARIOS.filter((s) => (s.needs ?? []).every((c) => probe.has(c)))

  test('R27 tack delivers every scenario but those needing a test-controlled host', async () => {
    const b = (open = await harnessB())
    expect([...b.capabilities].sort()).toEqual([...probe].sort())
    // limits, fault injection, a throwing `$` and host facts are the double's; tack's host is real
    expect(SCENARIOS.filter((s) => !delivered.includes(s)).map((s) => s.id)).toEqual([10, 11, 12, 14, 15])
  })

  test('R3 tack opens the session itself at creation, as host tack', async () => {
    const b = (open = await harnessB())
    const boot = Object.entries(await b.bootFiles())
    expect(boot.map(([name]) => name.replace(/^.*\./, '')).sort()).toEqual(['json', 'jsonl'])
    const snapshot = JSON.parse(boot.find(([name]) => name.endsWith('.json'))?.[1] ?? '{}')
    expect(snapshot).toMatchObject({ schema: 1, host: 'tack', state: 'idle' })
  })

  for (const scenario of delivered)
    test(`R27 scenario ${scenario.id}: ${scenario.title} — same files as under harness A`, async () => {
      const expected = normalise(await run(await harnessA(scenario.setup ?? {}), scenario))
      const b = (open = await harnessB(scenario.setup ?? {}))
      const actual = normalise(await run(b, scenario))
      expect(actual).toEqual(expected)
    })
})
