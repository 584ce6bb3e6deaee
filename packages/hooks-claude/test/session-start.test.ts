// B3 SessionStart, B10 session start timing, A8 detached runs drained on dispose.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { text } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import { HooksClaudePlugin } from '../src/index.ts'
import { alive, bridgeAgent, hook, prompt, readJson } from './helpers.ts'

const waitFor = async (path: string) => {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 10))
}

describe('B3 SessionStart', () => {
  it('B3 B10 a 1 s SessionStart hook whose plain stdout reaches the first request', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('SessionStart', 'sleep 1; echo "Project rules: use pnpm"'),
      script: [text('ok')],
    })
    try {
      await t.agent.send(prompt('hi'))
      const first = t.requestTexts()[0]
      expect(first).toContain('SessionStart:startup hook success: Project rules: use pnpm')
      expect(first).toContain('<context source="plugin:hooks-claude">')
      // The context precedes the prompt's request and follows the prompt in the log (held to step 1).
      const types = t.types()
      expect(types.indexOf('context/message')).toBeLessThan(types.indexOf('step/start'))
    } finally {
      await t.dispose()
    }
  })

  it('B3 JSON additionalContext is injected; the payload has source, session id, transcript path, cwd and no mode', async () => {
    const t = await bridgeAgent({
      projectHooks: hook(
        'SessionStart',
        'cat > start.json; echo \'{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx from json"}}\'',
        { matcher: 'startup' },
      ),
      script: [text('ok')],
      agentOptions: { permissionMode: 'workspace-write' },
    })
    try {
      await t.agent.send(prompt('hi'))
      expect(t.requestTexts()[0]).toContain('SessionStart:startup hook additional context: ctx from json')
      expect(await readJson(join(t.cwd, 'start.json'))).toEqual({
        session_id: t.agent.session.id,
        transcript_path: t.transcriptPath(),
        cwd: t.cwd,
        hook_event_name: 'SessionStart',
        // Claude Code's SessionStart has no permission_mode (issue 11.1).
        source: 'startup',
        model: 'scripted/test',
      })
    } finally {
      await t.dispose()
    }
  })

  it('B3 a matcher on another source does not run; exit 2 cannot block and its stderr is warned, not injected', async () => {
    const t = await bridgeAgent({
      projectHooks: {
        SessionStart: [
          { matcher: 'resume|compact', hooks: [{ type: 'command', command: 'touch resumed' }] },
          { matcher: 'startup', hooks: [{ type: 'command', command: 'echo "startup refused" >&2; exit 2' }] },
        ],
      },
      script: [text('ok')],
    })
    try {
      expect((await t.agent.send(prompt('hi'))).reason).toEqual({ kind: 'completed' })
      expect(existsSync(join(t.cwd, 'resumed'))).toBe(false)
      expect(t.of('context/message')).toEqual([])
      expect(t.warnings()).toContain('SessionStart hook: startup refused')
      expect(t.of('hook/result').map((e) => e.data)).toEqual([
        expect.objectContaining({
          point: 'SessionStart',
          decision: 'block',
          reason: 'startup refused',
          exitCode: 2,
        }),
      ])
    } finally {
      await t.dispose()
    }
  })

  it('B10 with awaitSessionStart false the first prompt does not wait; the context lands when the hook is done', async () => {
    const t = await bridgeAgent({
      bridge: { awaitSessionStart: false },
      projectHooks: hook('SessionStart', 'while [ ! -f release ]; do sleep 0.02; done; echo late context'),
      script: [text('first'), text('second')],
    })
    try {
      await t.agent.send(prompt('one'))
      expect(t.requestTexts()[0]).not.toContain('late context')
      await writeFile(join(t.cwd, 'release'), '')
      while (t.of('context/message').length === 0) await new Promise((r) => setTimeout(r, 10))
      await t.agent.send(prompt('two'))
      expect(t.requestTexts()[1]).toContain('SessionStart:startup hook success: late context')
    } finally {
      await t.dispose()
    }
  })
})

describe('A8 detached SessionStart runs', () => {
  it('A8 AL-24 disposing the agent during a sleep 600 SessionStart hook resolves, the pid is gone, nothing is injected', async () => {
    const t = await bridgeAgent({ projectHooks: hook('SessionStart', 'echo $$ > pid; exec sleep 600') })
    await waitFor(join(t.cwd, 'pid'))
    const pid = Number((await readFile(join(t.cwd, 'pid'), 'utf8')).trim())
    await t.dispose()
    expect(await alive(pid)).toBe(false)
    expect(t.of('context/message')).toEqual([])
    expect(t.of('hook/result').map((e) => e.data)).toEqual([
      expect.objectContaining({ failed: true, aborted: true }),
    ])
  })

  it('A8 disposing the plugin drains too: the hook is killed and its late output never injected', async () => {
    const t = await bridgeAgent({
      projectHooks: hook('SessionStart', 'echo $$ > pid; sleep 600; echo too late'),
    })
    try {
      await waitFor(join(t.cwd, 'pid'))
      const pid = Number((await readFile(join(t.cwd, 'pid'), 'utf8')).trim())
      const fibers = [...(t.ctx.registry.get(HooksClaudePlugin)?.fibers ?? [])]
      expect(fibers).toHaveLength(1)
      await fibers[0].dispose()
      expect(await alive(pid)).toBe(false)
      expect(t.of('context/message')).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})
