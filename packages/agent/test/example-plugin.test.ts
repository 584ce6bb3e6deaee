import { describe, expect, test } from 'vitest'
import { createTestAgent, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import type { SessionEvent } from '@tack/session'
import { HouseRules } from '../examples/house-rules.ts'
import { shape, textOf, user, waitForEvent } from './helpers.ts'

const readFileTool = defineTool({
  name: 'lookup',
  description: 'looks a path up in a tiny directory',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: (args) => `owner of ${args.path}: jane.doe@example.com`,
})

describe('worked example plugin (house-rules) end to end', () => {
  test('AL-11 AL-12 TL-5 TL-7 AL-16 it blocks, denies, rewrites, adds context and forces one continuation', async () => {
    const t = await createTestAgent({
      plugins: [{ plugin: HouseRules, config: {} }],
      script: [
        text('warming up'),
        text('turn 1 double-checked'),
        toolCalls([
          { name: 'lookup', args: { path: '/etc/passwd' } },
          { name: 'lookup', args: { path: 'src/a.ts' } },
        ]),
        text('src/a.ts belongs to [email].'),
        text('Checked: src/a.ts belongs to [email].'),
      ],
      setup: (ctx) => registerTool(ctx, readFileTool),
    })
    // warm-up turn 1 (with its own forced continuation), then a mixed batch for turn 2
    const first = t.agent.send(user('hello'))
    await waitForEvent(t.agent.session, (e) => e.type === 'step/start')
    const batch = [
      t.agent.send(user('please DROP TABLE users')),
      t.agent.send(user('who owns /etc/passwd and src/a.ts?')),
    ]
    await first
    const [o1, o2] = await Promise.all(batch)
    expect(o1).toEqual(o2)
    expect(o1.reason).toEqual({ kind: 'completed' })

    const events = t.events()
    const turn2 = events.slice(events.findLastIndex((e) => e.type === 'turn/start'))
    // the log shows each decision
    const blocked = turn2.find((e) => e.type === 'prompt/blocked') as SessionEvent<'prompt/blocked'>
    expect(blocked.data.reason).toBe('destructive SQL is not allowed here')
    const results = turn2.filter((e): e is SessionEvent<'tool/result'> => e.type === 'tool/result')
    expect(results.map((r) => r.data.error?.code)).toEqual(['DENIED', undefined])
    expect(textOf(results[0])).toContain('system account files are off limits')
    expect(textOf(results[1])).toBe('owner of src/a.ts: [email]')
    const reminders = turn2.filter((e) => e.type === 'context/message').map(textOf)
    expect(reminders).toEqual(['Cite the file and line for every claim about the code.'])
    const steering = turn2.filter((e) => e.type === 'steering/message')
    expect(steering).toHaveLength(1)
    expect(textOf(steering[0])).toContain('double-check your answer')
    expect(shape(turn2)).toEqual([
      'turn/start',
      'prompt/blocked',
      'user/message',
      'step/start',
      'assistant/chunk…',
      'assistant/message',
      'tool/call',
      'tool/result',
      'tool/call',
      'tool/result',
      'context/message',
      'step/end',
      'step/start',
      'assistant/chunk…',
      'assistant/message',
      'step/end',
      'steering/message',
      'step/start',
      'assistant/chunk…',
      'assistant/message',
      'step/end',
      'turn/end',
    ])

    // the derived messages show it: no blocked prompt, redacted result, reminder, steering
    const messages = JSON.stringify(t.agent.session.deriveMessages())
    expect(messages).not.toContain('DROP TABLE')
    expect(messages).not.toContain('jane.doe@example.com')
    expect(messages).toContain('Cite the file and line')
    expect(messages).toContain('double-check your answer')

    // the requests sent show it: the last request of turn 2 carries all of it, in order
    const last = t.model.requests.at(-1)!
    const roles = last.messages.map((m) => m.role)
    expect(roles.slice(-7)).toEqual(['user', 'assistant', 'tool', 'tool', 'user', 'assistant', 'user'])
    expect(JSON.stringify(last.messages)).not.toContain('jane.doe')
    t.model.assertConsumed()
    await t.dispose()
  })
})
