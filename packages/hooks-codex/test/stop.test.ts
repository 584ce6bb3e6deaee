// Stop through the real loop: JSON or nothing, block continues with joined reasons, stop_hook_active,
// continue:false wins, and the consecutive-block guard (default 8, configurable).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  agentWithSleepingHook,
  codexAgent,
  eventsOf,
  homes,
  hookResults,
  hooksJson,
  isGone,
  script,
  user,
  writeUserHooks,
} from './helpers.ts'

const steering = (t: Awaited<ReturnType<typeof codexAgent>>) =>
  eventsOf(t, 'steering/message').map((e) => e.data.content[0].text)

describe('Stop', () => {
  it('AL-23 cancelling the turn kills a running Stop hook at once; the turn ends aborted', async () => {
    const { t, pid: hookPid } = await agentWithSleepingHook('Stop', [text('done?')])
    try {
      const outcome = t.agent.send(user('work'))
      const pid = await hookPid()
      t.agent.cancel()
      const started = performance.now()
      expect((await outcome).reason).toEqual({ kind: 'aborted' })
      expect(performance.now() - started).toBeLessThan(5000)
      expect(isGone(pid)).toBe(true)
      expect(hookResults(t)).toEqual([expect.objectContaining({ point: 'Stop', aborted: true })])
    } finally {
      await t.dispose()
    }
  })

  it('C5 block with a reason continues the turn with the reasons of all blocking hooks joined by a blank line', async () => {
    const h = await homes()
    // Block only the first time (stop_hook_active false), then let the turn end.
    const first = await script(
      h.work,
      'first.sh',
      `in=$(cat); if echo "$in" | grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"run the tests"}'; fi`,
    )
    const second = await script(
      h.work,
      'second.sh',
      `in=$(cat); if echo "$in" | grep -q '"stop_hook_active":false'; then echo "and update the docs" >&2; exit 2; fi`,
    )
    await writeUserHooks(h, hooksJson({ Stop: [{ command: first }, { command: second }] }))
    const t = await codexAgent({ homes: h, script: [text('done?'), text('now done')] })
    try {
      const outcome = await t.agent.send(user('work'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(2)
      expect(steering(t)).toEqual(['run the tests\n\nand update the docs'])
      expect(hookResults(t).map((r) => r.decision)).toEqual(['block', 'block', 'pass', 'pass'])
    } finally {
      await t.dispose()
    }
  })

  it('C4 the second Stop payload has stop_hook_active true and the last assistant message', async () => {
    const h = await homes()
    const hook = await script(
      h.work,
      'capture.sh',
      `in=$(cat); printf '%s\\n' "$in" >> "${h.work}/stops.jsonl"; if echo "$in" | grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"again"}'; fi`,
    )
    await writeUserHooks(h, hooksJson({ Stop: [{ command: hook }] }))
    const t = await codexAgent({ homes: h, script: [text('first answer'), text('second answer')] })
    try {
      await t.agent.send(user('work'))
      const payloads = (await readFile(join(h.work, 'stops.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
      expect(payloads.map((p) => [p.stop_hook_active, p.last_assistant_message, p.turn_id])).toEqual([
        [false, 'first answer', `${t.agent.session.id}:1`],
        [true, 'second answer', `${t.agent.session.id}:1`],
      ])
    } finally {
      await t.dispose()
    }
  })

  it('C5 JSON or nothing: plain stdout fails the Stop hook, so the turn ends', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ Stop: [{ command: 'cat > /dev/null; echo "please continue"' }] }))
    const t = await codexAgent({ homes: h, script: [text('done')] })
    try {
      const outcome = await t.agent.send(user('work'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(1)
      expect(hookResults(t)).toEqual([
        expect.objectContaining({ point: 'Stop', decision: 'pass', failed: true }),
      ])
    } finally {
      await t.dispose()
    }
  })

  it('C5 exit 2 with empty stderr is a failure, not a block', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ Stop: [{ command: 'cat > /dev/null; exit 2' }] }))
    const t = await codexAgent({ homes: h, script: [text('done')] })
    try {
      await t.agent.send(user('work'))
      expect(t.model.requests).toHaveLength(1)
      expect(hookResults(t)[0]).toMatchObject({ exitCode: 2, failed: true })
    } finally {
      await t.dispose()
    }
  })

  it('C5 continue:false from any hook wins over a block', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({
        Stop: [
          { command: `cat > /dev/null; echo '{"decision":"block","reason":"keep going"}'` },
          { command: `cat > /dev/null; echo '{"continue":false,"stopReason":"enough"}'` },
        ],
      }),
    )
    const t = await codexAgent({ homes: h, script: [text('done')] })
    try {
      const outcome = await t.agent.send(user('work'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(1)
      expect(hookResults(t).map((r) => r.decision)).toEqual(['block', 'stop'])
    } finally {
      await t.dispose()
    }
  })

  it('B7 an always-blocking Stop hook ends after 8 forced continuations', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ Stop: [{ command: `cat > /dev/null; echo '{"decision":"block","reason":"more"}'` }] }),
    )
    const t = await codexAgent({ homes: h, script: Array.from({ length: 9 }, (_, i) => text(`answer ${i}`)) })
    try {
      const outcome = await t.agent.send(user('work'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(t.model.requests).toHaveLength(9)
      expect(steering(t)).toEqual(Array.from({ length: 8 }, () => 'more'))
      t.model.assertConsumed()
    } finally {
      await t.dispose()
    }
  })

  it('B7 maxConsecutiveStopBlocks: 2 ends after 2 continuations; the count resets in the next turn', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ Stop: [{ command: `cat > /dev/null; echo '{"decision":"block","reason":"more"}'` }] }),
    )
    const t = await codexAgent({
      homes: h,
      config: { maxConsecutiveStopBlocks: 2 },
      script: Array.from({ length: 6 }, (_, i) => text(`answer ${i}`)),
    })
    try {
      await t.agent.send(user('work'))
      expect(t.model.requests).toHaveLength(3)
      await t.agent.send(user('again'))
      expect(t.model.requests).toHaveLength(6)
      t.model.assertConsumed()
    } finally {
      await t.dispose()
    }
  })
})
