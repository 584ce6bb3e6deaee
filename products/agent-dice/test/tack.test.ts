import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Agent, ContinuationDecision } from '@tack/agent'
import { createTestAgent, text } from '@tack/agent/testing'
import { Context, emitSafely, waterfall } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import * as agentDice from '../src/tack/index.ts'
import { runTackDice } from '../src/tack/index.ts'
import { slot, tempDir } from './helpers.ts'

function base(slots: Record<string, unknown>): string {
  const dir = join(tempDir(), 'dice')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'slots.json'), JSON.stringify(slots, null, 2))
  return dir
}

const steering = (events: readonly { type: string; data: unknown }[]) =>
  events
    .filter((e) => e.type === 'steering/message')
    .map((e) => (e.data as { content: Array<{ text: string }> }).content[0].text)

describe('R22 tack plugin in a scripted tack session', () => {
  it('R22 a d1 exact-1 single slot continues the first turn once; the nudge reaches the model as steering', async () => {
    const dir = base({
      d1: slot({
        name: 'd1',
        type: 'single',
        die: 1,
        target: 1,
        onTrigger: { message: 'Reflect on {slotName}.' },
      }),
    })
    const t = await createTestAgent({
      script: [text('first answer'), text('after the nudge'), text('second turn')],
      plugins: [{ plugin: agentDice, config: { base: dir } }],
    })
    try {
      const outcome = await t.agent.send({ content: 'hello', source: { kind: 'user' } })
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(steering(t.events())).toEqual(['🎲 Nat 1! Reflect on d1.'])
      expect(t.model.requests).toHaveLength(2)
      const nudged = JSON.stringify(t.model.requests[1].messages)
      expect(nudged).toContain('🎲 Nat 1! Reflect on d1.')
      expect(t.events().filter((e) => e.type === 'step/start')).toHaveLength(2)
      // per-session cooldown: the next turn ends without a nudge.
      await t.agent.send({ content: 'next', source: { kind: 'user' } })
      expect(steering(t.events())).toHaveLength(1)
      expect(t.model.requests).toHaveLength(3)
    } finally {
      await t.dispose()
    }
  }, 20_000)
  it("R9 R22 with cooldown none the continuation's own stop never rolls: one nudge per user turn, no loop", async () => {
    const dir = base({ loop: slot({ name: 'loop', type: 'single', die: 1, target: 1, cooldown: 'none' }) })
    const t = await createTestAgent({
      script: [text('a1'), text('a2'), text('b1'), text('b2')],
      plugins: [{ plugin: agentDice, config: { base: dir } }],
    })
    try {
      await t.agent.send({ content: 'one', source: { kind: 'user' } })
      await t.agent.send({ content: 'two', source: { kind: 'user' } })
      expect(steering(t.events())).toEqual(['🎲 Nat 1! m', '🎲 Nat 1! m'])
      expect(t.events().filter((e) => e.type === 'step/start')).toHaveLength(4)
      t.model.assertConsumed()
    } finally {
      await t.dispose()
    }
  }, 20_000)
  it('R22 depth is the number of user messages: a rate-2 accumulator fires on the second prompt with its depth', async () => {
    const dir = base({ acc: slot({ name: 'acc', die: 1, target: 1, accumulationRate: 2 }) })
    const t = await createTestAgent({
      script: [text('one'), text('two'), text('nudged')],
      plugins: [{ plugin: agentDice, config: { base: dir } }],
    })
    try {
      await t.agent.send({ content: 'a', source: { kind: 'user' } })
      expect(steering(t.events())).toEqual([])
      await t.agent.send({ content: 'b', source: { kind: 'user' } })
      expect(steering(t.events())).toEqual(['🎲 Nat 1! m'])
      const state = JSON.parse(readFileSync(join(dir, 'state', `acc-${t.agent.session.id}.json`), 'utf8'))
      expect(state.depth_at_last_trigger).toBe(2)
    } finally {
      await t.dispose()
    }
  }, 20_000)
  it('R22 session start clears on startup (the agent creation) for clearOnSessionStart slots', async () => {
    const dir = base({ a: slot({ name: 'a' }) })
    const t = await createTestAgent({ plugins: [{ plugin: agentDice, config: { base: dir } }] })
    try {
      for (let i = 0; i < 50 && !existsSync(join(dir, 'state', `a-${t.agent.session.id}.json`)); i++)
        await new Promise((r) => setTimeout(r, 10))
      expect(
        JSON.parse(readFileSync(join(dir, 'state', `a-${t.agent.session.id}.json`), 'utf8'))
          .depth_at_last_trigger,
      ).toBe(0)
    } finally {
      await t.dispose()
    }
  })
})

describe('R22 session-start seam', () => {
  it('R22 clear clears; resume and compact keep; a subagent never clears', async () => {
    const dir = base({ a: slot({ name: 'a' }) })
    mkdirSync(join(dir, 'state'))
    const marker = join(dir, 'state', 'triggered-a-sess-9')
    writeFileSync(marker, 't')
    const ctx = new Context()
    await ctx.plugin(agentDice, { base: dir } as agentDice.AgentDiceConfig)
    const agent = { session: { id: 'sess-9', events: () => [] } } as unknown as Agent
    emitSafely(ctx, 'agent/session-start', agent, 'resume')
    emitSafely(ctx, 'agent/session-start', agent, 'compact')
    emitSafely(ctx, 'agent/session-start', { ...agent, parent: agent } as Agent, 'clear')
    await new Promise((r) => setTimeout(r, 50))
    expect(existsSync(marker)).toBe(true)
    emitSafely(ctx, 'agent/session-start', agent, 'clear')
    for (let i = 0; i < 100 && existsSync(marker); i++) await new Promise((r) => setTimeout(r, 5))
    expect(existsSync(marker)).toBe(false)
  })
})

describe('R22 continuation seam rules', () => {
  async function seam(
    config: Partial<agentDice.AgentDiceConfig>,
    agent: Partial<Agent>,
    continuations: number,
    downstream: ContinuationDecision,
  ) {
    const ctx = new Context()
    await ctx.plugin(agentDice, config as agentDice.AgentDiceConfig)
    return waterfall(
      ctx,
      'agent/turn-continuation',
      [agent as Agent, { turn: 1, step: 1, finishReason: 'stop', continuations }],
      () => downstream,
    )
  }
  const session = { id: 'sess-1', events: () => [] }
  const dice = () => base({ d1: slot({ name: 'd1', type: 'single', die: 1, target: 1, cooldown: 'none' }) })

  it('R22 a hit answers continue with the rendered reason; a subagent or a forced continuation never rolls', async () => {
    const dir = dice()
    expect(await seam({ base: dir }, { session } as unknown as Agent, 0, { action: 'stop' })).toEqual({
      action: 'continue',
      reason: '🎲 Nat 1! m',
    })
    const child = { session, parent: { id: 'p' } } as unknown as Agent
    expect(await seam({ base: dir }, child, 0, { action: 'stop' })).toEqual({ action: 'stop' })
    expect(await seam({ base: dir }, { session } as unknown as Agent, 1, { action: 'stop' })).toEqual({
      action: 'stop',
    })
  })
  it('R22 a downstream continue passes through unrolled; failures fail open with the downstream decision', async () => {
    const dir = dice()
    const downstream: ContinuationDecision = { action: 'continue', reason: 'other plugin' }
    expect(await seam({ base: dir }, { session } as unknown as Agent, 0, downstream)).toEqual(downstream)
    const cooled = base({ d1: slot({ name: 'd1', type: 'single', die: 1, target: 1 }) })
    writeFileSync(join(cooled, 'state'), 'not a folder')
    expect(await seam({ base: cooled }, { session } as unknown as Agent, 0, { action: 'stop' })).toEqual({
      action: 'stop',
    })
  })
  it('R22 Config: enabled defaults to true; enabled false registers nothing; a relative base is rejected', async () => {
    expect(agentDice.Config.parse({})).toEqual({ enabled: true })
    expect(agentDice.Config.parse({ base: '/abs', enabled: false })).toEqual({ base: '/abs', enabled: false })
    expect(() => agentDice.Config.parse({ base: 'relative/dice' })).toThrow(/base: must be an absolute path/)
    expect(
      await seam({ base: dice(), enabled: false }, { session } as unknown as Agent, 0, { action: 'stop' }),
    ).toEqual({ action: 'stop' })
    await expect(
      new Context().plugin(agentDice, { base: 'relative' } as agentDice.AgentDiceConfig),
    ).rejects.toThrow()
  })
  it('R22 with the Claude bridge loaded, agent-dice hooks are skipped through skip(predicate, reason)', async () => {
    const ctx = new Context()
    const calls: Array<{ predicate: (h: unknown) => boolean; reason: string }> = []
    ctx.provide('hooksClaude', {
      skip: (predicate: (h: unknown) => boolean, reason: string) => calls.push({ predicate, reason }),
    })
    await ctx.plugin(agentDice, { base: dice() } as agentDice.AgentDiceConfig)
    expect(calls).toHaveLength(1)
    const { predicate, reason } = calls[0]
    expect(reason).toMatch(/agent-dice/)
    expect(
      predicate({
        type: 'command',
        command: "node '/x/node_modules/agent-dice/hooks/agent-dice-claude-stop.js'",
      }),
    ).toBe(true)
    expect(predicate({ type: 'command', command: "bun '/home/u/.claude/hooks/dice-stop.ts'" })).toBe(true)
    expect(predicate({ type: 'command', command: '/usr/bin/my-dice-stop.sh' })).toBe(false)
  })
})

describe('tack dice CLI entry', () => {
  it('R13 runTackDice runs the CLI against $TACK_HOME/dice', async () => {
    const tackHome = tempDir()
    let out = ''
    const code = await runTackDice(['register', 'x', '--type', 'single'], {
      env: { HOME: tempDir(), TACK_HOME: tackHome },
      stdout: (s) => {
        out += s
      },
      stderr: () => {},
    })
    expect(code).toBe(0)
    expect(out).toBe('Registered: x (single, d20, target=20 exact)\n')
    expect(Object.keys(JSON.parse(readFileSync(join(tackHome, 'dice', 'slots.json'), 'utf8')))).toEqual(['x'])
  })
})
