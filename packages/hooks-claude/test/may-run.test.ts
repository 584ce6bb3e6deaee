// Whether a point can run anything decides whether its payload is built at all: a tool call no hook
// matches must not read files back for `tool_response` or ahead for `originalFile`
// (docs/decisions/0067-long-session-cost.md). What "can run" means: a runnable handler of the point
// whose matcher takes the tool, or any listener on `hooks-claude/point` (the mod host's seam, B3).
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import type { MergedHookOutcome } from '@tack/hook-protocol'
import { describe, expect, it } from 'vitest'
import { ClaudeBridge } from '../src/bridge.ts'
import { HookRegistry } from '../src/settings/registry.ts'
import { bridgeAgent, hook, tempDir, writeSettings } from './helpers.ts'

async function bridgeWith(hooks: unknown) {
  const t = await bridgeAgent({ script: [text('ok')] })
  const home = await tempDir('tack-hc-mayrun-')
  await writeSettings(join(home, '.claude', 'settings.json'), hooks)
  const registry = new HookRegistry({
    discover: true,
    sources: [],
    home,
    tackHome: t.dataDir,
    assumeTrusted: true,
    warn: () => {},
    info: () => {},
  })
  const bridge = new ClaudeBridge(
    t.ctx,
    {
      stderrSummaryMaxChars: 200,
      maxConsecutiveStopBlocks: 3,
      awaitSessionStart: true,
      transcriptDir: join(t.dataDir, 'transcripts'),
      dataDir: t.dataDir,
      home,
    },
    registry,
  )
  return { t, bridge }
}

describe('B3 mayRun: what a point could run, before any payload is built', () => {
  it('B3 a PostToolUse hook matched on Bash may run for Bash only; points without handlers run nothing', async () => {
    const { t, bridge } = await bridgeWith(hook('PostToolUse', 'true', { matcher: 'Bash' }))
    try {
      expect(bridge.mayRun('PostToolUse', t.agent, ['Bash'])).toBe(true)
      expect(bridge.mayRun('PostToolUse', t.agent, ['Read'])).toBe(false)
      expect(bridge.mayRun('PreToolUse', t.agent, ['Bash'])).toBe(false)
      expect(bridge.mayRun('Stop', t.agent)).toBe(false)
    } finally {
      await t.dispose()
    }
  })

  it('B3 with a listener on hooks-claude/point every point may run, even with no handler at all', async () => {
    const { t, bridge } = await bridgeWith({})
    try {
      expect(bridge.mayRun('PreToolUse', t.agent, ['Read'])).toBe(false)
      t.ctx.on(
        'hooks-claude/point',
        (_p: unknown, _payload: unknown, next: () => Promise<MergedHookOutcome>) => next(),
      )
      expect(bridge.mayRun('PreToolUse', t.agent, ['Read'])).toBe(true)
      expect(bridge.mayRun('Stop', t.agent)).toBe(true)
    } finally {
      await t.dispose()
    }
  })
})
