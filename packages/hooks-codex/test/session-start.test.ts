// SessionStart through the real loop: matcher on `source`, context from JSON or plain stdout reaching
// the first request (awaitSessionStart), continue:false only logged, and the detached-run rules (A8):
// disposing the agent or the plugin during a hanging hook kills it and injects nothing.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import {
  bridgeContexts,
  codexAgent,
  eventsOf,
  homes,
  hookInvocations,
  hookResults,
  hooksJson,
  isGone,
  readJson,
  script,
  user,
  waitForLine,
  writeUserHooks,
} from './helpers.ts'

describe('SessionStart', () => {
  it('C5 JSON additionalContext and plain stdout reach the first request, in config order', async () => {
    const h = await homes()
    const json = await script(
      h.work,
      'json.sh',
      `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"from json"}}'`,
    )
    const plain = await script(h.work, 'plain.sh', 'cat > /dev/null; sleep 0.3; echo "from plain stdout"')
    await writeUserHooks(
      h,
      hooksJson({ SessionStart: [{ matcher: 'startup', command: json }, { command: plain }] }),
    )
    const t = await codexAgent({ homes: h, script: [text('hello')] })
    try {
      await t.agent.send(user('hi'))
      expect(bridgeContexts(t)).toEqual(['from json', 'from plain stdout'])
      const first = JSON.stringify(t.model.requests[0].messages)
      expect(first).toContain('from json')
      expect(first).toContain('from plain stdout')
      expect(hookInvocations(t).every((i) => i.turn === undefined && i.point === 'SessionStart')).toBe(true)
    } finally {
      await t.dispose()
    }
  })

  it('issue 11.6 SessionStart context comes before the first prompt and UserPromptSubmit context after it, as in Codex', async () => {
    const h = await homes()
    const start = await script(h.work, 'start.sh', 'cat > /dev/null; sleep 0.5; echo "session-start ctx"')
    const submit = await script(h.work, 'submit.sh', 'cat > /dev/null; echo "prompt-submit ctx"')
    await writeUserHooks(
      h,
      hooksJson({ SessionStart: [{ command: start }], UserPromptSubmit: [{ command: submit }] }),
    )
    const t = await codexAgent({ homes: h, script: [text('hello')] })
    try {
      // Sent at once: the prompt is accepted while the SessionStart hook still runs.
      await t.agent.send(user('the first prompt'))
      const order = t
        .events()
        .filter((e) => e.type === 'context/message' || e.type === 'user/message')
        .map((e) => JSON.stringify(e.data))
      const at = (needle: string) => order.findIndex((line) => line.includes(needle))
      expect(at('session-start ctx')).toBeGreaterThanOrEqual(0)
      expect(at('session-start ctx')).toBeLessThan(at('the first prompt'))
      expect(at('the first prompt')).toBeLessThan(at('prompt-submit ctx'))
      const first = JSON.stringify(t.model.requests[0].messages)
      expect(first.indexOf('session-start ctx')).toBeLessThan(first.indexOf('the first prompt'))
      expect(first.indexOf('the first prompt')).toBeLessThan(first.indexOf('prompt-submit ctx'))
    } finally {
      await t.dispose()
    }
  })

  it('C2 the matcher tests the source: a resume-only hook does not run on startup', async () => {
    const h = await homes()
    await writeUserHooks(h, hooksJson({ SessionStart: [{ matcher: 'resume|clear', command: 'echo nope' }] }))
    const t = await codexAgent({ homes: h, script: [text('hello')] })
    try {
      await t.agent.send(user('hi'))
      expect(hookInvocations(t)).toEqual([])
      expect(bridgeContexts(t)).toEqual([])
    } finally {
      await t.dispose()
    }
  })

  it('C4 the payload carries source, model and permission mode, and no turn_id', async () => {
    const h = await homes()
    const hook = await script(h.work, 'capture.sh', `cat > "${h.work}/in.json"`)
    await writeUserHooks(h, hooksJson({ SessionStart: [{ command: hook }] }))
    const t = await codexAgent({
      homes: h,
      script: [text('hello')],
      agentOptions: { permissionMode: 'workspace-write' },
    })
    try {
      await t.agent.send(user('hi'))
      const payload = (await readJson(join(h.work, 'in.json'))) as Record<string, unknown>
      expect(payload).toEqual({
        session_id: t.agent.session.id,
        transcript_path: join(h.dataDir, 'codex-transcripts', `${t.agent.session.id}.jsonl`),
        cwd: h.workspace,
        hook_event_name: 'SessionStart',
        model: 'scripted/test',
        permission_mode: 'acceptEdits',
        source: 'startup',
      })
    } finally {
      await t.dispose()
    }
  })

  it('C5 continue:false on SessionStart is logged as stop and does not stop the session', async () => {
    const h = await homes()
    await writeUserHooks(
      h,
      hooksJson({ SessionStart: [{ command: `cat >/dev/null; echo '{"continue":false}'` }] }),
    )
    const t = await codexAgent({ homes: h, script: [text('hello')] })
    try {
      const outcome = await t.agent.send(user('hi'))
      expect(outcome.reason).toEqual({ kind: 'completed' })
      expect(hookResults(t)).toEqual([expect.objectContaining({ point: 'SessionStart', decision: 'stop' })])
    } finally {
      await t.dispose()
    }
  })

  it('A8 disposing the agent during a sleep 600 SessionStart hook kills it and injects nothing', async () => {
    const h = await homes()
    const pidFile = join(h.work, 'pid')
    const hook = await script(h.work, 'hang.sh', `echo $$ > "${pidFile}"; sleep 600; echo "too late"`)
    await writeUserHooks(h, hooksJson({ SessionStart: [{ command: hook }] }))
    const t = await codexAgent({ homes: h })
    const pid = Number(await waitForLine(pidFile))
    await t.dispose()
    expect(isGone(pid)).toBe(true)
    expect(bridgeContexts(t)).toEqual([])
    expect(hookResults(t)).toEqual([
      expect.objectContaining({ point: 'SessionStart', failed: true, aborted: true }),
    ])
    expect(eventsOf(t, 'context/message')).toHaveLength(0)
  })

  it('A8 disposing the bridge plugin drains its running SessionStart hook: the pid is gone when dispose resolves', async () => {
    const h = await homes()
    const pidFile = join(h.work, 'pid')
    const hook = await script(h.work, 'hang.sh', `echo $$ > "${pidFile}"; exec sleep 600`)
    await writeUserHooks(h, hooksJson({ SessionStart: [{ command: hook }] }))
    const t = await codexAgent({ homes: h })
    try {
      const pid = Number(await waitForLine(pidFile))
      const fiber = t.ctx.registry.get((await import('../src/plugin.ts')).HooksCodexPlugin)
      expect(fiber).toBeDefined()
      for (const f of fiber?.fibers ?? []) await f.dispose()
      expect(isGone(pid)).toBe(true)
      expect(bridgeContexts(t)).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})

describe('awaitSessionStart', () => {
  it('B10 with awaitSessionStart: false the first prompt is not held; the context lands later', async () => {
    const h = await homes()
    const go = join(h.work, 'go')
    const hook = await script(
      h.work,
      'slow.sh',
      `cat > /dev/null; while [ ! -f "${go}" ]; do sleep 0.02; done; echo "late context"`,
    )
    await writeUserHooks(h, hooksJson({ SessionStart: [{ command: hook }] }))
    const t = await codexAgent({ homes: h, config: { awaitSessionStart: false }, script: [text('first')] })
    try {
      expect((await t.agent.send(user('hi'))).reason).toEqual({ kind: 'completed' })
      expect(JSON.stringify(t.model.requests[0].messages)).not.toContain('late context')
      await writeFile(go, '')
      while (bridgeContexts(t).length === 0) await delay(10)
      expect(bridgeContexts(t)).toEqual(['late context'])
    } finally {
      await t.dispose()
    }
  })
})
