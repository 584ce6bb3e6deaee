// B7 Stop: forced continuation, stop_hook_active, the generic line, the loop guard, continue:false.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent, ContinuationDecision, ContinuationInfo } from '@tack/agent'
import { text } from '@tack/agent/testing'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { GENERIC_STOP_FEEDBACK } from '../src/index.ts'
import { bridgeAgent, hook, prompt } from './helpers.ts'

const steering = (t: Awaited<ReturnType<typeof bridgeAgent>>) =>
  t.of('steering/message').map((e) => e.data.content[0].text)

describe('B7 Stop', () => {
  it('B7 a Stop hook forces exactly one continuation and respects stop_hook_active; the payload carries the last answer', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'Stop',
        'input=$(cat); echo "$input" >> stop.jsonl; if [ "$(echo "$input" | jq .stop_hook_active)" = true ]; then exit 0; fi; echo \'{"decision":"block","reason":"Run the tests before finishing."}\'',
      ),
      script: [text('all done'), text('tests pass, done')],
    })
    try {
      expect((await t.agent.send(prompt('do it'))).reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(2)
      expect(steering(t)).toEqual(['Stop hook feedback:\nRun the tests before finishing.'])
      const payloads = (await readFile(join(t.cwd, 'stop.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(payloads.map((p) => [p.hook_event_name, p.stop_hook_active, p.last_assistant_message])).toEqual([
        ['Stop', false, 'all done'],
        ['Stop', true, 'tests pass, done'],
      ])
      // The steering is the bridge's (never passed off as the user's, nor as the loop's; issue 11.3).
      expect(t.of('steering/message')[0].data.source).toEqual({ kind: 'plugin', name: 'hooks-claude' })
    } finally {
      await t.dispose()
    }
  })

  it('B7 an empty-stderr exit 2 continues with the generic line', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('Stop', '[ -f once ] && exit 0; touch once; exit 2'),
      script: [text('first'), text('second')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(steering(t)).toEqual([GENERIC_STOP_FEEDBACK])
    } finally {
      await t.dispose()
    }
  })

  it('B7 Stop additionalContext keeps the conversation going like a block', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'Stop',
        '[ -f once ] && exit 0; touch once; echo \'{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"Also update the changelog."}}\'',
      ),
      script: [text('first'), text('second')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(steering(t)).toEqual(['Stop hook feedback:\nAlso update the changelog.'])
    } finally {
      await t.dispose()
    }
  })

  it('B7 an always-blocking hook ends after 8 continues with a warning (default)', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('Stop', 'echo \'{"decision":"block","reason":"again"}\''),
      script: Array.from({ length: 9 }, (_, i) => text(`answer ${i + 1}`)),
    })
    try {
      expect((await t.agent.send(prompt('go'))).reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(9)
      expect(steering(t)).toHaveLength(8)
      expect(t.warnings().filter((w) => w.includes('maxConsecutiveStopBlocks'))).toHaveLength(1)
      // The next turn starts with a fresh count.
      t.model.push(text('n1'), text('n2'), text('n3'))
      await t.agent.send(prompt('again'))
      expect(t.model.remaining).toBe(0)
    } finally {
      await t.dispose()
    }
  })

  it('B7 maxConsecutiveStopBlocks 2: the turn ends after 2 continues', async () => {
    const t = await bridgeAgent({
      bridge: { maxConsecutiveStopBlocks: 2 },
      projectHooks: hook('Stop', 'echo "keep going" >&2; exit 2'),
      script: [text('1'), text('2'), text('3')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(t.model.requests).toHaveLength(3)
      expect(steering(t)).toEqual(['Stop hook feedback:\nkeep going', 'Stop hook feedback:\nkeep going'])
    } finally {
      await t.dispose()
    }
  })

  it('B7 continue:false stops the turn, beating another hook block and a downstream continue', async () => {
    const downstream = (ctx: Context) => {
      ctx.on(
        'agent/turn-continuation',
        (_a: Agent, _i: ContinuationInfo, _n: () => Promise<ContinuationDecision>) => ({
          action: 'continue',
          reason: 'downstream wants more',
        }),
      )
    }
    const t = await bridgeAgent({
      projectHooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'echo \'{"decision":"block","reason":"more"}\'' },
              { type: 'command', command: 'echo \'{"continue":false,"stopReason":"quota reached"}\'' },
            ],
          },
        ],
      },
      plugins: [downstream],
      script: [text('done')],
    })
    try {
      expect((await t.agent.send(prompt('go'))).reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(1)
      expect(t.of('hook/result').map((e) => e.data.decision)).toEqual(['block', 'stop'])
    } finally {
      await t.dispose()
    }
  })

  it('B7 a non-blocking Stop hook passes on to the rest of the chain', async () => {
    let consulted = 0
    const downstream = (ctx: Context) => {
      ctx.on(
        'agent/turn-continuation',
        async (_a: Agent, _i: ContinuationInfo, next: () => Promise<ContinuationDecision>) => {
          consulted++
          return next()
        },
      )
    }
    const t = await bridgeAgent({
      projectHooks: hook('Stop', 'exit 1'),
      plugins: [downstream],
      script: [text('done')],
    })
    try {
      await t.agent.send(prompt('go'))
      expect(consulted).toBe(1)
      expect(t.warnings().some((w) => w.includes('failed (exit 1)'))).toBe(true)
    } finally {
      await t.dispose()
    }
  })
})
