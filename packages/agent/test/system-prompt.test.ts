import { describe, expect, test } from 'vitest'
import { SystemPromptService } from '@tack/agent'
import { createTestAgent, text } from '@tack/agent/testing'
import { user } from './helpers.ts'

describe('system prompt', () => {
  test('AL-25 registration order does not change the golden output; empty sections are skipped', () => {
    const a = new SystemPromptService()
    const b = new SystemPromptService()
    const sections = [
      { name: 'tools', order: 100, text: 'Use tools.' },
      { name: 'identity', order: 0, text: 'You are tack.' },
      { name: 'empty', order: 50, text: () => '' },
      { name: 'beta', order: 100, text: () => 'Beta rules.' },
    ]
    for (const s of sections) a.section(s)
    for (const s of [...sections].reverse()) b.section(s)
    const golden = 'You are tack.\n\nBeta rules.\n\nUse tools.'
    expect(a.assemble()).toBe(golden)
    expect(b.assemble()).toBe(golden)
  })

  test('AL-25 a throwing section fails the turn with its message; disposing a section removes it', async () => {
    const t = await createTestAgent({ script: [text('ok')] })
    const off = t.ctx.systemPrompt.section({
      name: 'broken',
      order: 1,
      text: () => {
        throw new Error('section exploded')
      },
    })
    const o1 = await t.agent.send(user('1'))
    expect(o1.reason).toMatchObject({ kind: 'error', message: 'section exploded' })
    off()
    t.ctx.systemPrompt.section({ name: 'fine', order: 1, text: 'Be brief.' })
    expect((await t.agent.send(user('2'))).reason).toEqual({ kind: 'completed' })
    expect(t.model.requests[0].system).toBe('Be brief.')
    await t.dispose()
  })
})
