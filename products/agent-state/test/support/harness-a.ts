// Harness A: the shared scenarios driven through the Claude Code mod-API double, loading the built
// mod/hooks/register.js (what ships), or the source with lowered limits when a scenario needs them.
import { createRegister } from '../../src/mod/register.ts'
import type { Capability, Driver, Setup } from './driver.ts'
import { ModApiDouble, settle } from './mod-api-double.ts'

export const HOME = '/home/person'
export const OUTPUT = `${HOME}/.claude/agent-state`

export async function harnessA(
  setup: Setup = {},
  sessionId = 'session-a1',
): Promise<Driver & { double: ModApiDouble }> {
  const double = new ModApiDouble({
    sessionId,
    throwing: setup.throwing,
    startedAt: setup.startedAt,
    options: setup.outputDir === undefined ? {} : { outputDir: setup.outputDir },
  })
  if (setup.logCapChars === undefined) {
    const shipped = new URL('../../mod/hooks/register.js', import.meta.url).href
    const built = (await import(shipped)) as { register: (on: unknown, o: unknown) => void }
    await double.load(built.register)
  } else await double.load(createRegister({ logCapChars: setup.logCapChars, endWaitMs: 1_000 }) as never)
  const capabilities = new Set<Capability>([
    'limits',
    'faults',
    'throwing',
    'classic',
    'prompt-box',
    'host-facts',
  ])
  return {
    double,
    host: 'claude-code',
    capabilities,
    fire: (event, e, core) => double.fire(event, e, core),
    step: (e, chunks, result) => double.step(e, chunks, result),
    beat: async (ms) => {
      await settle() // an open still gathering has not started its timer yet
      double.now += ms
      double.beat()
      await settle()
    },
    setSessionId: (id) => {
      double.sessionId = id
    },
    settle: () => settle(),
    files: () => double.files(OUTPUT),
    allWrites: () => double.writes.map((w) => w.path),
    faults: {
      writeDelayMs: (ms) => {
        double.writeDelayMs = ms
      },
      hang: (on) => {
        double.hangWrites = on
      },
    },
    uiCalls: () => double.uiCalls.length,
  }
}
